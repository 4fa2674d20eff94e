"""Courtesy sentences a chat model closes with, removed before its answer is read.

"So the product is 42.\\n\\nLet me know if you have other questions!" states 42: the last
sentence is a sign-off ("Let me know if …", "I hope this helps", "Feel free to ask …",
"If you have any other questions …", "Happy to help", "Good luck", "Is there anything else I can
help you with?", "Do you have other questions for me?", "Would you like me to explain …?",
"I apologize for the confusion.", "I will be more careful …", "I hope this meets the
requirements …", "Please provide me with a math problem to solve.", "Let's solve the given
math problems …"), or a verdict on the answer just stated that states none ("I think that's
the answer.", "I think that's the correct answer.", "I think I'm confident with this
answer.": Sky-T1's traces end so; "I believe this should be the correct solution."; "And
that's your answer.", "There you have it!"), no part
of the answer.
``without_sign_off`` removes up to three of them from the end of the text, each a sentence
that starts a line or follows a sentence end; linear time (only the last ``_TAIL`` characters
are searched).

Closing marks go too: an emoji or check mark after the answer ("**Final answer:** 25 ✅",
"She has 25 apples. 🍎"), an end-of-proof mark (``∎``, ``□``, ``$\\blacksquare$``, "QED").
They decorate the answer and are no part of it.
"""

from __future__ import annotations

import re

_TAIL = 600
_SIGN_OFF_RE = re.compile(
    r"(?:^|(?<=[.!?。！？:)\]$*])[ \t]+|(?<=\n))[ \t*]*"
    r"(?:(?:i\s+)?hope\s+(?:this|that|it)\s+(?:helps|clarifies|answers|is\s+helpful)"
    r"|let\s+me\s+know\s+if"
    r"|feel\s+free\s+to|if\s+you\s+have\s+any|if\s+you\s+need\s+(?:any|more|further)"
    r"|happy\s+to\s+help|good\s+luck|(?:do\s+)?let\s+me\s+know\s+(?:if|whether)"
    r"|is\s+there\s+anything\s+else\s+(?:i\s+can|you\s+(?:want|would|need))"
    r"|do\s+you\s+(?:have|want\s+to\s+(?:try|ask))\s+(?:any\s+)?(?:other|more)\s+questions"
    r"|(?:would|do)\s+you\s+(?:like|want)\s+(?:me\s+)?to\s+[^\n?]{1,120}\?"
    r"|(?:i\s+apologi[sz]e|i\s+will\s+be\s+more\s+careful)[^.!?\n]{0,160}[.!?]?[ \t]*\Z"
    r"|(?:i\s+)?hope\s+(?:this|that|it)\s+(?:meets|satisfies|fulfills)\s+(?:the|your)\b"
    r"|please\s+(?:provide|give|send)\s+me\s+(?:with\s+)?(?:a|another|the\s+next)\b"
    r"|(?:let's|let\s+us)\s+solve\s+the\s+(?:given|next|following)\s+(?:math\s+)?problems\b"
    # a verdict on the answer just stated, which states none: "I think that's the answer.",
    # "I think that's the correct answer.", "I think I'm confident with this answer.", "I think
    # that's it." (then nothing but the sentence's end)
    r"|i\s+think\s+(?:that's|that\s+is|this\s+is|it's|i'm|i\s+am|we're|we\s+are)\s+"
    r"(?:(?:the|my|our)\s+(?:(?:correct|final|right)\s+)?answer|it|(?:pretty\s+|quite\s+)?"
    r"(?:confident|sure|done)(?:\s+(?:with|in|about)\s+(?:this|that|my|the)\s+answer)?)"
    r"[ \t]*[.!]?[ \t]*(?=\n|\Z)"
    # "I believe this should be the correct solution.", "I'm confident that this is the right
    # answer.", "I believe my answer is correct."
    r"|(?:i\s+(?:think|believe)|i'm\s+(?:confident|sure)|i\s+am\s+(?:confident|sure))"
    r"\s+(?:that\s+)?(?:this|that|it|my\s+(?:answer|solution))\s+(?:should|would|must)?\s*"
    r"(?:be|is)\s+(?:(?:the|a)\s+)?(?:correct|right|accurate)(?:\s+(?:answer|solution|result))?"
    r"[ \t]*[.!]?[ \t]*(?=\n|\Z)"
    # a pointer back at the answer just stated: "And that's your answer.", "There you have it!"
    r"|(?:and\s+|so\s+)?(?:that's|that\s+is|this\s+is)\s+(?:your|the|my|our)\s+"
    r"(?:(?:correct|final|right)\s+)?answer[ \t]*[.!]?[ \t]*(?=\n|\Z)"
    r"|there\s+you\s+(?:have\s+it|go)[ \t]*[.!]?[ \t]*(?=\n|\Z))"
    r"[^\n]{0,200}\Z",
    re.IGNORECASE | re.MULTILINE,
)

#: a word every sign-off above holds (a cheap test before the pattern, which is tried at
#: every position of the window)
_SIGN_OFF_WORDS = (
    "hope",
    "know",
    "free",
    "you",
    "help",
    "luck",
    "anything",
    "apologi",
    "careful",
    "please",
    "problems",
    "think",
    "believe",
    "confident",
    "sure",
    "there you",
)
#: "that's your answer", "this is our final answer" (not "answer" alone: every final has it)
_POINTER_WORDS_RE = re.compile(
    r"(?:that's|that is|this is) (?:your|the|my|our) (?:(?:final|correct|right) )?answer"
)

_SIGN_OFF_WORDS_RE = re.compile("|".join(re.escape(word) for word in _SIGN_OFF_WORDS))

#: emoji, check marks, stars and end-of-proof marks (with a variation selector or a skin tone),
#: "QED", and ``$\\blacksquare$``/``$\\square$`` as math of their own, closing the text
_CLOSING_MARKS_RE = re.compile(
    r"(?:[ \t]*(?:[\u2600-\u27bf\u2b00-\u2bff\u220e\u25a0\u25a1\u25fb-\u25fe"
    r"\U0001f300-\U0001faff][\ufe0f\U0001f3fb-\U0001f3ff]?|\bQ\.?E\.?D\b\.?"
    r"|\$\\(?:blacksquare|square|qed|Box)\$|\\\(\s*\\(?:blacksquare|square)\s*\\\)"
    r"|(?<=\s)\\(?:blacksquare|qed)))+[ \t]*\Z"
)
_MARK_CHARS = 40


def without_closing_marks(text: str) -> str:
    """``text`` without the emoji, check and end-of-proof marks that close it."""
    stripped = text.rstrip()
    start = max(0, len(stripped) - _MARK_CHARS)
    match = _CLOSING_MARKS_RE.search(stripped, start)
    return stripped[: match.start()] if match is not None and match.start() > 0 else text


def without_sign_off(text: str) -> str:
    """``text`` without the courtesy sentences and marks that close it (module docstring)."""
    text = without_closing_marks(text)
    for _ in range(3):
        stripped = text.rstrip()
        start = max(0, len(stripped) - _TAIL)
        window = stripped[start:].lower()
        if _SIGN_OFF_WORDS_RE.search(window) is None and _POINTER_WORDS_RE.search(window) is None:
            return text  # no sign-off's words at all: the pattern need not be tried
        match = _SIGN_OFF_RE.search(stripped, start)
        if match is None or match.start() == 0:
            return text
        text = without_closing_marks(stripped[: match.start()])
    return text
