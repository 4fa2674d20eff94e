"""Final answers stated without a box: answer lines, ``####``, "the answer is", bold conclusions.

The ``answer_line`` strategy (``sampler.verify.answers.extraction``) reads them. Only
the last ``TAIL_CHARS`` characters of a completion are examined, so the cost does not
grow with its length, and only a statement whose answer is math (a number, a LaTeX
span, a formula) counts: prose after "the answer is" states nothing. Rules, last
statement first (docs/verification.md, "Finals without a box"):

- ``#### 5`` (GSM8K): the last line that starts with ``####``;
- ``Answer: 42``, ``Final answer: **73**``, ``**Final Answer** 12``: a line that
  starts with "answer"/"final answer" and a colon (or a bold label);
- "the (final) answer is X" or "the answer is: X": X is the math span that follows
  (``$…$``, ``\\(…\\)``, ``\\[…\\]``, ``$$…$$``, also on the next line), a bold ``**X**``,
  or the rest of the sentence when it is a number or a formula (``5``, ``-3/4``), with
  at most a few trailing words for a unit (``the answer is 14 bags.``);
- a completion that is nothing but a value, on one line of at most 80 characters
  (``42``, ``-15``, ``x = 3``);
- a concluding sentence (one that starts with Thus, Therefore, Hence, So, In total, In
  conclusion) of the last paragraph with exactly one bold span whose content is math
  ("Thus, Jean can fill **14** bags.").
- an answer marker in other words and languages (``故选：D``, ``【答案】C``, ``réponse est``);
- a last sentence that names its answer first (``Wednesday is the correct answer.``), not
  after "if" and not for "this"/"that";
- an option letter alone after the last sentence (``… is 6 kmph. (B)``).

The ``tool_output`` strategy reads ``closing_output``: the one-line result of a
```` ```output ```` block that ends the completion (tool-integrated reasoning).
Each returns an ``AnswerSpan`` whose ``rule`` says which rule found it.
"""

from __future__ import annotations

import re
from collections import deque

from sampler.latex_boxed import last_boxed
from sampler.verify.answers.amounts import amount_value
from sampler.verify.answers.answer_span import AnswerSpan
from sampler.verify.answers.answer_span import latex_span as _plain_span
from sampler.verify.answers.double_brackets import DOUBLE_BRACKETS_RE
from sampler.verify.answers.gold_types import WORD_LIST_RE
from sampler.verify.answers.loops import looping
from sampler.verify.answers.number_words import number_from_words
from sampler.verify.answers.unicode_math import unicode_to_latex
from sampler.verify.answers.units import CJK_LETTERS, split_unit
from sampler.verify.answers.value_reprs import printed_value

#: How much of the end of a completion the rules read.
TAIL_CHARS = 3000

RULE_HASHES = "hashes"
RULE_ANSWER_LINE = "answer line"
RULE_STATEMENT = "statement"
RULE_BOLD = "bold conclusion"
RULE_TOOL_OUTPUT = "tool output"
RULE_WHOLE = "whole completion"
RULE_FEW_SHOT = "few-shot answer line"
RULE_MARKER = "answer marker"
RULE_BOLD_FINAL = "bold final"
RULE_NAMED_ANSWER = "named as the answer"
RULE_CLOSING_OPTION = "closing option"
RULE_OPTION_LINE = "option line"
RULE_FINISH = "finish action"
RULE_ANSWER_BLOCK = "answer block"
RULE_DOUBLE_BRACKETS = "double brackets"
RULE_BRACKETED = "answer in brackets"
#: appended to a rule whose answer is words (``AnswerSpan.prose``), read by the gold's type
WORDS_SUFFIX = " (words)"
#: the longest stated answer in words that is read as one
_WORDS_CHARS = 80
#: the longest list of words (BBH's word sorting) read as one answer
_WORD_LIST_CHARS = 600
#: the longest completion read whole as its answer
_WHOLE_CHARS = 80

_HASH_LINE_RE = re.compile(r"^[ \t]*#{4}[ \t]*(?P<rest>[^\n]+)$", re.MULTILINE)
#: ``#### X`` closing the last line after its text (``… market. #### 18``, Abel's format;
#: ``… = $<<180/4=45.00>>45.00 #### 45``, a calculation's line): the mark after a space, the
#: value the rest of the completion. A line that opens with ``####`` is a heading or
#: ``_HASH_LINE_RE``'s.
_INLINE_HASH_RE = re.compile(r"(?<=[^\s#])[ \t]+#{4}(?!#)[ \t]*(?P<rest>[^\n#]{1,40}?)[ \t]*$")
_LABEL_LINE_RE = re.compile(
    # (in a numbered list too: "3. **Answer:** **42**")
    r"^[ \t>*#_-]*(?:\d{1,2}[.)][ \t]+[*_]*)?"
    r"(?:(?:the|my|our)[ \t]+)?(?:(?:final|correct|right|best)(?:[ \t]+|[_-]))?"
    r"(?:answer(?:[ \t]+(?:choice|option))?(?:[ \t]*\d{1,3}(?:\.\d{1,3})*(?=[ \t]*[:：]))?"
    # what it answers: "Final answer for Subproblem 1:", "Answer to part (a):", "Answer to the
    # question:"
    r"(?:[ \t]+(?:for|to)[ \t]+(?:the[ \t]+)?(?:(?:sub-?)?(?:problem|part|question|task|exercise)"
    r"(?:[ \t]*\(?[A-Za-z0-9]{1,4}\)?)?|\([a-z0-9]{1,3}\))(?=[ \t*_]*[:：]))?"
    r"|(?:(?<=correct )|(?<=right )|(?<=best )|(?<=final )|(?<=my )|(?<=our ))"
    r"(?:option|choice|selection)|ans(?=[ \t]*=))[ \t]*"  # "ans = 7" (PAL's few shots)
    r"(?:[*_]{1,2}[ \t]*[:：]|[:：][ \t]*[*_]{0,2}|(?<=ans)[ \t]*=[ \t]*"
    r"|[*_]{0,2}(?:[ \t]*[—–][ \t]*|[ \t]+--?[ \t]+)"
    r"|[*_]{2}|(?=\$|\\[(\[]))[ \t]*(?P<rest>[^\n]*)$",
    re.IGNORECASE | re.MULTILINE,
)
#: which question an answer answers: "the original question", "the rephrased question"
_WHICH_QUESTION = r"(?:original|rephrased|first|given|above|initial|main|actual|posed|asked)"
_ANSWER_IS_RE = re.compile(
    r"(?:(?:final[ \t]+answer|the[ \t]+(?:answer|response)|answer|my[ \t]+response)[ \t]+"
    r"(?:\([^()\n]{1,40}\)[ \t]*)?"
    # what it answers: "to the question", "to both the original and rephrased question",
    # "to the original question, "Was … born in an even year?","
    r"(?:to[ \t]+(?:the|this|your|both|each|that)[ \t]+"
    rf"(?:(?:the[ \t]+)?{_WHICH_QUESTION}(?:[ \t]+(?:and|or)[ \t]+(?:the[ \t]+)?"
    rf"{_WHICH_QUESTION})?[ \t]+)?(?:question|problem)s?"
    r"(?:[ \t]*,?[ \t]*[\"“][^\"”\n]{1,200}[\"”][ \t]*,?)?[ \t]+)?"
    r"(?:is|(?:would|should|must|will)[ \t]+(?:(?:therefore|thus|then|clearly)[ \t]+)?be)"
    r"(?:[ \t]+(?:therefore|thus|then|clearly|indeed|also)\b)?"
    r"|(?:correct|right|final)[ \t]+answers[ \t]+(?:are|would[ \t]+be))[ \t]*"
    r"(?:[:：,][ \t]*)?",  # "My answer is, Yes."
    re.IGNORECASE,
)
#: "This answer is correct.": a verdict on an answer (a model's loop), no statement of one
_VERDICT_ON_RE = re.compile(r"\b(?:this|that|my|your|our|each)[ \t]+$", re.IGNORECASE)
#: how many of the last "the answer is" statements are tried (a cut-off last one states nothing)
_STATEMENTS_TRIED = 4
_MATH_OPEN = (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$"))
_BOLD_RE = re.compile(r"\*\*(?P<x>[^*\n]{1,80})\*\*")
#: A plain stated value: a number (signs, decimals, thousands, fractions, percents).
_VALUE_RE = re.compile(
    r"[-+−]?\s?(?:\\?\$|[€£¥₹])?\s*[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s*/\s*\d+)?"
    r"(?:\s*\\?%)?"
    r"|[-+]?\\[dt]?frac\{[^{}]{1,20}\}\{[^{}]{1,20}\}"
)
#: a value between GSM8K's hash marks, in math or not: "#11#", "#### 25", "\\(#### 109\\)"
_HASHED_RE = re.compile(
    r"(?:\\\(|\$)?[ \t]*#{1,4}[ \t]*([^#\s][^#]{0,40}?)[ \t]*#{0,4}[ \t]*(?:\\\)|\$)?\.?"
)
_THOUSANDS_RE = re.compile(r"\d{1,3}(?:,\d{3})+(?![\d,])")
#: a scale word after a number: "1 million"
_SCALE_AFTER_RE = re.compile(r"\s+(thousand|million|billion|trillion)\b", re.IGNORECASE)
#: a mixed number in plain text: "3 1/2" (a proper fraction after a whole number)
_MIXED_NUMBER_RE = re.compile(r"(\d{1,6})[ \t]+(\d{1,4})/(\d{1,4})(?=\b)(?<!\b0/\d)")
#: A bare word (no backslash) of three letters or more that is no function name: prose.
_PROSE_WORD_RE = re.compile(
    r"(?<![\\A-Za-z])(?!(?:sin|cos|tan|cot|sec|csc|log|ln|exp|sqrt|mod|gcd|lcm|max|min)"
    r"(?![A-Za-z]))[A-Za-z]{3,}"
)
#: two-letter words that only prose has (never a symbol, a unit or a connective of a list)
_SHORT_PROSE_RE = re.compile(r"(?<![\\A-Za-z])(?:is|so|it|be|of|to|we|my|us)(?![A-Za-z])", re.I)
#: Words before "the answer is" in its sentence that make it no statement of the answer.
_HYPOTHETICAL_RE = re.compile(
    r"\b(?:if|suppose|assume|assuming|whether|check|unless|not|verify)\b[^.!?\n]*$", re.IGNORECASE
)
_UNIT_WORDS_RE = re.compile(
    r"(?:\s*/\s*(?:(?=[A-Za-z]*[aeiouy])[A-Za-z]{3,}|hr|kg|km|mi|lb|oz|ft|ml|cm|mm|[mshlL]\b))?"
    r"(?:\s+[A-Za-z][A-Za-z-]*(?:/[A-Za-z]{1,12}(?:\^?[23])?)?){0,3}"
    # "$2/hour", "5 apples", "60 km/h", "15 liters/can", "9.8 m/s^2"
)
#: A formula: digits, letters as symbols, operators; no two words in a row.
#: ASCII word characters only: "计划的比例为13/28" is a sentence, not a formula.
_FORMULA_RE = re.compile(r"[-+]?[\w\\{}^()\[\]/*.+\- ,=<>|!':π√≤≥·×÷°]{1,120}", re.ASCII)
#: two words in a row: prose, not a formula
WORDS_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}\s+[A-Za-z]{2,}(?![A-Za-z])")
_CONCLUSION_RE = re.compile(
    r"(?:^|(?<=[.!?\n]))[ \t*]*(?:thus|therefore|hence|so|in total|in conclusion|altogether"
    r"|overall)\b[^\n]*",
    re.IGNORECASE,
)
#: (a markdown heading written right after a stop ends the sentence too: "… is: 105.## Step 7:")
_SENTENCE_END_RE = re.compile(r"[.!?](?:\s|$|(?=#{2,6}[ \t]))|[。．！？।৷։።။۔؟]|\n|$")
#: "A: 42", the answer line of a few-shot QA format, as the completion's last line
_FEW_SHOT_RE = re.compile(r"[ \t]*A[ \t]*[:：][ \t]*(?P<rest>\S[^\n]*)")
#: answer markers in other words and languages, the answer after them
_MARKER_RE = re.compile(
    r"[【\[]?(?:正确(?:的)?(?:答案|选项)|最终(?:的)?答案|答案)[】\]]?(?:应该|应)?(?:是|为|选(?:择)?)?"
    r"[ \t]*[:：]?"
    r"|(?:故|所以|因此|应)选(?:择)?[ \t]*[:：]?|对应(?:于)?选项"
    r"|选项[ \t]*(?:是|为)?[ \t]*(?=[$*\s\[(（]*[A-J](?![A-Za-z]))"
    # "the correct option is", "the best choice is D) 20", "the correct one is B) 28%"
    r"|the[ \t]+(?:(?:correct|best|right|most[ \t]+(?:appropriate|likely|suitable|accurate))"
    r"[ \t]+(?:option|choice|one)|(?:option|choice))(?:[ \t]+letter)?[ \t]+is[ \t]*:?"
    r"|(?<![^\W\d_])(?:réponses?|respuestas?|antwort(?:en)?)(?![^\W\d_])"
    r"[ \t]*(?:est|es|ist)?[ \t]*:?",
    re.IGNORECASE,
)
#: a connective between an answer marker and its answer ("La réponse est donc (B)")
_CONNECTIVE = (
    r"(?:donc|alors|ainsi|also|daher|somit|folglich|demnach|entonces|pues|por[ \t]+lo[ \t]+tanto"
    r"|por[ \t]+tanto|por[ \t]+consiguiente|quindi|dunque|pertanto|portanto|então|logo|assim"
    r"|therefore|thus|hence|then|clearly|итак|значит|следовательно|więc|zatem|dus|daarom"
    r"|därför|derfor|jadi|maka)"
)
#: the word "not" in the markers' languages: "la opción correcta no es", no bridge
_NEGATIONS = r"(?:no|not|nicht|non|não|nao|pas|ne|не|nie|niet|inte|tidak|bukan)"
#: an article and the word for an option or its letter before the letter: "la B", "a letra B"
_OPTION_ARTICLE = (
    r"[ \t]*(?:(?:la|el|le|lo|il|a|o|die|der|das|the|het|de)[ \t]+|l['’])?"
    r"(?:(?:letra|lettre|letter|buchstabe|opci[oó]n|op[çc][ãa]o|option|opzione|alternativa"
    r"|alternative|choix|choice|вариант)[ \t]+)?"
)
#: the word for "answer" in more languages, and a colon ("Ответ: 3", "答え：3", "Đáp án: 3"),
#: or Indonesian's "… adalah" ("Alternatif yang paling masuk akal adalah:"); searched apart,
#: and only in a tail that holds one of ``_MARKER_WORD_STEMS`` (an alternation of words tried
#: at every position of every completion would double the marker rule's cost)
_ANSWER_WORDS = (
    r"(?:ответ|відповідь|odpowiedź|odpověď|risposta|antwoord|svar(?:et)?|vastaus"
    r"|válasz|răspuns(?:ul)?|resposta|jawaban(?:nya)?|cevap|απάντηση|答え|回答|正解|정답"
    r"|최종[ \t]*답|답"
    r"|उत्तर|الإجابة|คำตอบ|đáp[ \t]+án|câu[ \t]+trả[ \t]+lời|উত্তর(?:টি|টা)?|জবাব|jibu|jawabu|సమాధానం"
    r"|பதில்|پاسخ|جواب|گزینه|תשובה|መልስ|જવાબ|ਜਵਾਬ|ਉੱਤਰ|ଉତ୍ତର|ಉತ್ತರ|ഉത്തരം|պատասխան(?:ը)?|პასუხი"
    # the word for the option ("la opción correcta es la B", "a alternativa correta é a C")
    r"|opci[oó]n|op[çc][ãa]o|alternativa|opzione|вариант)"
)
#: what joins the word for "answer" to the answer where no colon does: a copula or a topic
#: particle ("La risposta è 5", "Jibu ni 57", "উত্তর হল 20", "คำตอบคือ 350", "答えは5です",
#: "정답은 B입니다", "उत्तर है 5", "Ответ — 5", "Đáp án là B", "Het antwoord is 5")
_ANSWER_COPULA = (
    r"(?:[ \t]+(?:is|è|é|ist|est|es|ni|là|to|jest|je|är|er|on|olan|hal|হলো|হল|হচ্ছে|है|равен|равна"
    r"|это|هي|هو|—|–)|[ \t]*(?:คือ|は|은|는))"
)
_MARKER_WORDS_RE = re.compile(
    rf"(?<![^\W\d_]){_ANSWER_WORDS}(?:[ \t]*\([^()\n]{{1,30}}\))?[*_]{{0,2}}[ \t]*[:：]"
    # (up to two words between: "La risposta corretta è 5", "الإجابة الصحيحة هي [C]")
    rf"|(?<![^\W\d_]){_ANSWER_WORDS}(?:[ \t]+(?!{_NEGATIONS}(?![^\W\d_]))[^\W\d_]{{2,15}}){{0,2}}?"
    rf"{_ANSWER_COPULA}"
    rf"[*_]{{0,2}}[ \t]*[:：]?"
    rf"(?=[ \t]*[-−+$*\\(\[\d]|[ \t]*[A-J](?![A-Za-z])|[ \t]*[^\x00-\x7f]"
    rf"|{_OPTION_ARTICLE}[*_]{{0,2}}\(?(?-i:[A-J])(?![A-Za-z]))"
    rf"|(?<![^\W\d_]){_ANSWER_WORDS}(?:[ \t]+[^\s\d:：.,;!?$\\]{{1,15}}){{1,3}}[ \t]*[:：]"
    r"|(?<![^\W\d_])(?:উত্তর|సమాధానం|jibu|คำตอบ)[ \t]+(?=[-−$]?\d)"
    r"|(?<![^\W\d_])(?:jawaban(?:nya)?|pilihan|alternatif|opsi)(?:[ \t]+yang[ \t]+[^\W\d_]+"
    r"(?:[ \t]+[^\W\d_]+){0,3})?[ \t]+(?:adalah|ialah|yaitu)[ \t]*[:：]?",
    re.IGNORECASE,
)
_MARKER_WORD_STEMS = (
    "opci", "opção", "opcao", "alternativa", "opzione", "вариант",
    "ответ", "відповідь", "odpowied", "odpověď", "risposta", "antwoord", "svar", "vastaus",
    "válasz", "răspuns", "resposta", "jawab", "cevap", "απάντηση", "答え", "回答", "正解", "답",
    "उत्तर",
    "الإجابة", "คำตอบ", "đáp", "câu", "উত্তর", "জবাব", "jibu", "సమాధానం", "பதில்", "adalah",
    "ialah", "yaitu", "پاسخ", "جواب", "گزینه", "תשובה", "መልስ", "જવાબ", "ਜਵਾਬ", "ਉੱਤਰ", "ଉତ୍ତର",
    "ಉತ್ತರ", "ഉത്തരം", "պատասխան", "პასუხი",
)  # fmt: skip
#: what joins a marker to its answer where no colon does, in the markers' languages:
#: adjectives and a copula ("respuesta correcta es", "réponse correcte est"), a connective
#: ("est donc (B)", "ist also B", "es, por lo tanto, la B"), an article and the word for the
#: option or its letter ("la B", "a letra B", "l'option C"), before a letter or a value
_MARKER_BRIDGE_RE = re.compile(
    rf"(?:(?:(?!{_NEGATIONS}\b)[^\W\d_]{{2,15}}[ \t]+){{0,2}}?"
    r"(?:es|est|ist|è|é|is|lautet|sería|serait|wäre|será|sarà|seria|sarebbe|—|–)"
    r"(?![^\W\d_])[ \t]*,?[ \t]*)?"
    rf"(?:{_CONNECTIVE}(?![^\W\d_])[ \t]*[,:]?[ \t]*)?"
    rf"{_OPTION_ARTICLE}"
    r"(?=[*_]{0,2}\(?(?-i:[A-J])(?![^\W\d_])|[-−+$\\(\[\d])",
    re.IGNORECASE,
)
#: a copula that closes the answer after the marker: "B입니다", "5です", "20 ডলার।"
_CLOSING_COPULA_RE = re.compile(r"[ \t]*(?:입니다|이다|이에요|예요|です|である|だ)[ \t]*$")


def _markers(tail: str) -> list[re.Match[str]]:
    """Every answer marker of ``tail``, in order."""
    found = list(_MARKER_RE.finditer(tail))
    lowered = tail.lower()
    if any(stem in lowered for stem in _MARKER_WORD_STEMS):
        found = sorted([*found, *_MARKER_WORDS_RE.finditer(tail)], key=lambda m: m.start())
    return found


_HEDGED_MATH_RE = re.compile(
    r"\s*(\$[^$\n]{1,60}\$|\\\([^\n]{1,60}?\\\))\s*(?:,\s*)?(?:or|或者?)\s*"
    r"(\$[^$\n]{1,60}\$|\\\([^\n]{1,60}?\\\))"
)
_MATH_ITEM = r"(?:\$[^$\n]{1,60}\$|\\\([^\n]{1,60}?\\\))"
_MATH_ITEM_RE = re.compile(_MATH_ITEM)
#: values listed in math spans, the last after "and" (``$2$ and $3$``, ``$1$, $2$, and $5$``),
#: then the sentence ends (or "respectively" closes it): several values, not the first one
_LISTED_MATH_RE = re.compile(
    rf"\s*({_MATH_ITEM}(?:[ \t]*,[ \t]*{_MATH_ITEM}){{0,8}}[ \t]*,?[ \t]*(?:and|&|和|与|及)"
    rf"[ \t]*{_MATH_ITEM})[ \t]*(?:,?[ \t]*respectively)?[ \t]*(?:[.!。]|$|\n)"
)
#: what makes a short text math: a digit, a command or an operator, or a function applied
#: (``f(x)``, ``sin(x)``, ``n!``)
_MATHY_RE = re.compile(
    r"[\d\\^=+/]|^[A-Za-z]{1,6}\([A-Za-z, ]{1,20}\)$|^[A-Za-z]!$"
    r"|^[a-z](?:[ \t]*,[ \t]*[a-z]){1,9}$"  # "b, a, c": symbols in an order
)


def latex_span(value: str, rule: str) -> AnswerSpan | None:
    """The span of a stated value; a box inside it (``Answer: \\boxed{12}``) is unwrapped."""
    if "\\boxed" in value:
        boxed = last_boxed(value)
        if boxed is None:
            return None
        value = boxed
    return _plain_span(value, rule)


def _tail(text: str) -> str:
    return text[-TAIL_CHARS:]


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    return next(iter(deque(pattern.finditer(text), maxlen=1)), None)


def _math_span(rest: str) -> str | None:
    """The content of the math span ``rest`` starts with (after white space), or None."""
    stripped = rest.lstrip()
    for left, right in _MATH_OPEN:
        if stripped.startswith(left):
            close = stripped.find(right, len(left))
            while right == "$" and close > 0 and stripped[close - 1] == "\\":
                close = stripped.find(right, close + 1)  # ``$\$12$``: an escaped dollar
            if close > len(left):
                inner = stripped[len(left) : close]
                partner_opens = re.match(r"\$[ \t]?\d", stripped[close : close + 3])
                if left == "$" and (
                    _CURRENCY_RE.match(inner) or (inner[:1].isdigit() and partner_opens)
                ):
                    return None  # "$27,000. Wait, let me check … So Jean paid $": a price
                return inner
            return None
    return None


#: what follows a "$" that is a currency sign, not math: a number, then a sentence end (or a
#: line break) before the next "$", or a partner "$" that opens a number itself
_CURRENCY_RE = re.compile(r"\d[^$\n]{0,300}?(?:[.!?][ \t]+[^\W\d_]|[।৷。։።။۔\n])")


#: option letters listed (``C,D``, ``(A), (C)``, ``A, C and D``): several options chosen
_LETTER_LIST_RE = re.compile(
    r"[*_]*\(?[A-J]\)?"
    r"(?:[ \t]*(?:,|、|&|，)[ \t]*(?:and[ \t]+)?\(?[A-J]\)?|[ \t]+and[ \t]+\(?[A-J]\)?)+"
    r"[*_]*\.?"
)
#: a value in quotes or backticks, nothing else
_QUOTED_RE = re.compile(r"[*_]*[\"“'`]([^\"“”'`\n]{1,60})[\"”'`][*_]*\.?")
#: a value, then a remark in parentheses with a word in it: ``25 (to the nearest whole number)``
_REMARK_RE = re.compile(
    r"([^()\n]{1,80}?\S)[ \t]+\(([^()\n\\^_{}=$]*\b[A-Za-z]{3,}\b[^()\n\\^_{}=$]{0,60})\)[ \t]*\.?"
)
_HEDGE_WORD_RE = re.compile(r"\b(?:or|either|possibly|maybe|perhaps)\b", re.IGNORECASE)


#: an answer label a statement repeats before its value ("… is: ANSWER: B")
_INNER_LABEL_RE = re.compile(
    r"[*_]*(?:final[ \t]+)?(?:answer|respuesta|réponse|antwort|resposta|答案)[*_]*[ \t]*"
    r"[:：][*_ \t]*",
    re.IGNORECASE,
)
#: an option's letter in parentheses, then a comma or colon and its content (not another
#: letter: "(A), (C) and (D)" lists options)
_LETTER_THEN_CONTENT_RE = re.compile(
    r"[*_]*\(([A-J])\)[*_]*[ \t]*[,:：][ \t]*(?!\(?[A-J]\)?(?:[ \t,.;)]|$)|(?:and|or)\b)[*_\"“']*\w"
)
_BRACKETED_NUMBER_RE = re.compile(r"\[[ \t]*([-−]?\$?\d[\d,.]*)[ \t]*\]\.?")


def _value(statement: str) -> str | None:
    """``statement`` as a stated value: a bold span, a math span, a number with at most a
    few trailing words, or a formula; None when it is prose."""
    statement = statement.strip()
    inner = _INNER_LABEL_RE.match(statement)
    if inner is not None and inner.end() < len(statement):
        # "the final answer is: ANSWER: B": the format's own label, inside the statement
        return _value(statement[inner.end() :])
    accounted = amount_value(statement) if "(" in statement else None
    if accounted is not None:  # "$(1,234)", "(1.9) million": an accountant's negative
        return accounted.written
    letters = _LETTER_LIST_RE.fullmatch(statement)
    if letters is not None:  # "#### C,D", "Answer: A, C and D": the options chosen
        return ", ".join(re.findall(r"[A-J]", statement))
    bracketed = re.fullmatch(r"\[([A-J])\]\.?|\(?([a-j])\)\.?|\(?([A-J])\)\.?", statement)
    if bracketed is not None:  # "Answer: [B]", "Answer: b)", "the answer is E).": an option's label
        return next(g for g in bracketed.groups() if g).upper()
    labelled = _LETTER_THEN_CONTENT_RE.match(statement)
    if labelled is not None:  # 'the answer is (B), "start running." This implies …': B
        return labelled.group(1)
    quoted = _QUOTED_RE.fullmatch(statement)
    if quoted is not None:  # 'Answer: "25"', 'Answer: `25`'
        return _value(quoted.group(1))
    hashed = _HASHED_RE.fullmatch(statement)
    if hashed is not None:  # "Answer: #11#", "\\(#### 25\\)": GSM8K's marks around the value
        return _value(hashed.group(1))
    bracketed_number = _BRACKETED_NUMBER_RE.fullmatch(statement)
    if bracketed_number is not None:  # "回答：[27000]": the prompt's "[num]" filled in
        return _value(bracketed_number.group(1))
    remark = _REMARK_RE.fullmatch(statement)
    if remark is not None and not _HEDGE_WORD_RE.search(remark.group(2)):
        # "25 (rounded to the nearest whole number)": the value, then a remark on it
        return _value(remark.group(1))
    hedge = _HEDGED_MATH_RE.match(statement)
    if hedge is not None:  # "$3$ or $-3$": the alternatives, judged as a hedge
        return " or ".join(_math_span(hedge.group(i)) or "" for i in (1, 2))
    listed = _LISTED_MATH_RE.match(statement)
    if listed is not None:  # "$2$ and $3$": every value stated, judged as a list
        return ", ".join(_math_span(m) or "" for m in _MATH_ITEM_RE.findall(listed.group(1)))
    math = _math_span(statement)
    if math is not None:
        return math
    bold = _BOLD_RE.match(statement)
    if bold is not None:
        inner = bold.group("x").strip()
        return _math_span(inner) or (inner if _is_math(inner) else None)
    statement = statement.strip("*_ ").rstrip(".").strip()
    mixed = _MIXED_NUMBER_RE.fullmatch(statement)
    if mixed is not None and int(mixed.group(2)) < int(mixed.group(3)):
        # "3 1/2": three and a half, not 3 times 1/2
        whole, numerator, denominator = (int(g) for g in mixed.group(1, 2, 3))
        return f"{whole * denominator + numerator}/{denominator}"
    number = _VALUE_RE.match(statement)
    if number is not None and _UNIT_WORDS_RE.fullmatch(statement[number.end() :]):
        scale = _SCALE_AFTER_RE.match(statement, number.end())
        amount = amount_value(statement[: scale.end() if scale else number.end()])
        if amount is not None:
            # "1 million", "-$17,572 million", "-€462": the signed number and its scale
            return amount.written
        value = number.group(0).replace("−", "-").strip()
        value = _THOUSANDS_RE.sub(lambda m: m.group(0).replace(",", ""), value)
        words = statement[number.end() :].strip().rstrip(".")
        unit = split_unit(f"{value} {words}")[1] if words else None
        if unit is not None and not unit.startswith("count:"):
            return f"{value} {words}"  # "120 mm": the unit stays, to be compared with the gold's
        return value
    if _is_math(statement):
        return statement
    latex = unicode_to_latex(statement) if not statement.isascii() else statement
    return latex if latex != statement and _is_math(latex) else None  # "½", "x² + 1"


def _is_math(text: str) -> bool:
    text = text.strip()
    if not text or "$" in text or WORDS_RE.search(text) or _PROSE_WORD_RE.search(text):
        return False
    if _SHORT_PROSE_RE.search(text):
        return False  # "So x is 5": a sentence of short words, not the product S*o*x*i*s*5
    if re.fullmatch(r"\(?[A-J]\)?", text):
        return True  # a choice letter
    return bool(_MATHY_RE.search(text)) and bool(_FORMULA_RE.fullmatch(text))


def _sentence(rest: str) -> str:
    end = _SENTENCE_END_RE.search(rest)
    return rest[: end.start()] if end else rest


Found = tuple[int, AnswerSpan]


#: an answer label that closes the last line after a sentence: "… still be heads up. Answer:
#: Yes.", "… is 12 apples. Final answer: 12", FLAN's chain of thought "Golf is a sport. The
#: answer: A."
_INLINE_LABEL_RE = re.compile(
    r"[.!?)][ \t]+(?:the[ \t]+)?(?:final[ \t]+)?answer[ \t]*[:：][ \t]*"
    r"(?P<rest>[^\n:：]{1,40}?)[ \t.]*$",
    re.IGNORECASE,
)


def inline_label(text: str) -> Found | None:
    """The value or short words of an answer label that closes the completion's last line
    after a sentence ("Hence, the coin should still be heads up. Answer: Yes.")."""
    tail = _tail(text).rstrip()
    match = _INLINE_LABEL_RE.search(tail, tail.rfind("\n") + 1)
    if match is None:
        return None
    rest = match.group("rest").strip("*").strip(QUOTES)
    value = _value(rest)
    if value is not None:
        span = latex_span(value, RULE_ANSWER_LINE)
    else:
        span = _words(rest, RULE_ANSWER_LINE) if _SHORT_WORDS_RE.fullmatch(rest) else None
    return (match.end(), span) if span else None


def hash_line(text: str) -> Found | None:
    """The value of the last ``#### X`` line (GSM8K's answer format), or of a ``#### X``
    that closes the completion's last line after a sentence, with where it ends."""
    tail = _tail(text).rstrip()
    last_line = tail.rfind("\n") + 1
    match = _INLINE_HASH_RE.search(tail, last_line) or _last(_HASH_LINE_RE, tail)
    if match is None:
        return None
    value = _value(match.group("rest"))
    span = latex_span(value, RULE_HASHES) if value else None
    return (match.end(), span) if span else None


#: ReAct's closing action, on a line of its own: "Action: Finish[42]", "Action 3: finish[Paris]"
_FINISH_RE = re.compile(
    r"^[ \t]*(?:Action(?:[ \t]*\d{1,3})?[ \t]*:[ \t]*)?Finish\[(?P<rest>[^\]\n]{1,200})\][ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


def _found_at(end: int, stated: str, rule: str) -> Found | None:
    """``stated`` as math (``_value``) or as a short answer in words, found where it ends."""
    value = _value(stated)
    span = latex_span(value, rule) if value else _words(stated, rule)
    return (end, span) if span else None


#: an agent's closing call on a line of its own: ``Action: Answer("D")``, ``final_answer(42)``
#: (smolagents' tool), ``submit(12)``
_ANSWER_CALL_RE = re.compile(
    r"^[ \t>*]*(?:Action(?:[ \t]*\d{1,3})?[ \t]*:[ \t]*)?(?:final_answer|answer|finish|submit)"
    r"\([ \t]*(?P<q>[\"']?)(?P<rest>[^\n\"']{1,200}?)(?P=q)[ \t]*\)[ \t*.]*$",
    re.IGNORECASE | re.MULTILINE,
)


def finish_action(text: str) -> Found | None:
    """The answer of the last ``Finish[X]`` action (ReAct's protocol, kept by agents built on
    it: Reflexion, LATS, AgentBench), or of a closing call ``Action: Answer("D")``,
    ``final_answer(42)``, as math or as a short answer in words."""
    tail = _tail(text)
    bracket = _last(_FINISH_RE, tail) if "[" in tail else None  # (a cheap test first)
    call = _last(_ANSWER_CALL_RE, tail) if "(" in tail else None
    match = max((m for m in (bracket, call) if m is not None), key=lambda m: m.end(), default=None)
    if match is None:
        return None
    return _found_at(match.end(), match.group("rest").strip(), RULE_FINISH)


#: what stands before a number in double brackets that answers: a line's start, a label's
#: colon, "is" or "=" ("Rating: [[5]]", "The answer is [[24]]")
_BEFORE_NUMBER_ANSWER_RE = re.compile(r"(?:^|[:：=]|\bis)[ \t*]*$", re.IGNORECASE)


def _citation(tail: str, match: re.Match[str]) -> bool:
    """Whether ``[[2]]`` cites a source ("… 56,081 according to Wikipedia [[2]]."): a number
    after a sentence's words, not after a line's start, a label or "is"."""
    if not match.group("rest").strip().isdigit():
        return False
    line_start = tail.rfind("\n", 0, match.start()) + 1
    return _BEFORE_NUMBER_ANSWER_RE.search(tail[line_start : match.start()]) is None


def double_brackets(text: str) -> Found | None:
    """The answer of the last ``[[X]]`` outside code (a prompt's answer wrapper), as math or
    as a short answer in words."""
    tail = _tail(text)
    if "[[" not in tail:
        return None
    found = [m for m in DOUBLE_BRACKETS_RE.finditer(tail) if not _citation(tail, m)]
    match = found[-1] if found else None
    if match is None or tail.count("```", 0, match.start()) % 2:
        return None  # inside a fenced code block: a nested list, not an answer
    rest = match.group("rest").strip().strip("\"'").strip()
    return _found_at(match.end(), rest, RULE_DOUBLE_BRACKETS) if rest else None


#: an answer field in square brackets on a line of its own: "[Answer: 42]", "[Ответ: 2]", a
#: judge's "[Score: 2 points]", "[Оценка: 2 балла]" (a grading rubric's format)
_BRACKETED_LABEL_RE = re.compile(
    rf"^[ \t>*#]*\[[ \t*]*(?:final[ \t]+)?(?:answer|result|score|rating|grade|verdict"
    rf"|оценка|итог(?:овая[ \t]+оценка)?|{_ANSWER_WORDS})[ \t*]*[:：][ \t]*"
    r"(?P<rest>[^\[\]\n]{1,200})\][ \t*.]*$",
    re.IGNORECASE | re.MULTILINE,
)


def bracketed_label(text: str) -> Found | None:
    """The value of the last answer field written in square brackets on its own line
    (``[Answer: 42]``, ``[Оценка: 2 балла]``), as math or as a short answer in words."""
    tail = _tail(text)
    if "[" not in tail:
        return None
    match = _last(_BRACKETED_LABEL_RE, tail)
    if match is None:
        return None
    return _found_at(match.end(), match.group("rest").strip(), RULE_BRACKETED)


#: an answer that opens with its count and says what it counts, after the computation that
#: gives it: "11 short sleeve shirts did Sam not wash", "27 / 9 = 3 pieces per load"
_COUNT_FIRST_RE = re.compile(
    r"(?:[\d.,+\-−*/×÷() \t]+=[ \t]*)?(?P<n>[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-−]?\d+(?:\.\d+)?)"
    r"[ \t]+[^\W\d_][^\d\n]{0,120}"
)


def answer_label(text: str) -> Found | None:
    """The value of the last ``Answer: X`` / ``Final answer: **X**`` line."""
    tail = _tail(text)
    labels = deque(_LABEL_LINE_RE.finditer(tail), maxlen=2)
    if not labels:
        return None
    match = labels[-1]
    if len(labels) == 2 and _cut_off(match.group("rest")) and not tail[match.end() :].strip():
        match = labels[0]  # "Answer: $\frac{3" cut by the limit: the label line before it
    rest = match.group("rest").strip()
    if rest[:2] in ("$", "$$", "\\(", "\\[") or rest[:1] == "$":
        whole = tail[match.start("rest") :]
        if _math_span(whole) is not None:
            rest = whole
    prefix = _ANSWER_IS_RE.search(rest)
    if prefix is not None and prefix.start() < 20:
        rest = rest[prefix.end() :]
    rest = _LABEL_AGAIN_RE.sub("", rest)  # "Final answer: Answer: A"
    if not rest.strip("* "):  # the value on the next line (``Final Answer:\n$$42$$``)
        rest = tail[match.end() :].lstrip()
        item = _LAST_ITEM_RE.fullmatch(rest.rstrip())
        if item is not None:  # "Answer:\n- 53.1 GPa": the one item of a list
            rest = item.group("x")
        elif _SHORT_WORDS_RE.fullmatch(rest.rstrip().strip("*").strip()):
            rest = rest.rstrip()  # "**Final Answer:**\n**Yes**": a few words alone, last
        elif _math_span(rest) is None:
            return None
    if rest.endswith("**") and "**" not in rest[:-2]:
        rest = rest[:-2].rstrip()  # "**Answer: Yes**": the bold around the whole line
    bracketed = _BRACKETED_RE.fullmatch(rest)
    if bracketed is not None:  # "Answer: [44.9%]", "Answer: [(B) 2.880 Å]": the prompt's template
        rest = bracketed.group("x")
    stated = _sentence_or_math(rest)
    value = _value(stated)
    if value is None and _SUBJECT_IS_RE.search(stated):
        # "Final Answer: The volume of $ABCD$ is 120.": the value after its last "is"
        value = _value(_SUBJECT_IS_RE.split(stated)[-1])
    if value is None:
        count = _COUNT_FIRST_RE.fullmatch(stated.strip().rstrip(".。!"))
        if count is not None:  # "Answer 5.2: 11 shirts did Sam not wash.": the count it opens
            value = count.group("n").replace("−", "-").replace(",", "")
    span = latex_span(value, RULE_ANSWER_LINE) if value else None
    if span is None and _LETTER_FIRST_RE.match(stated):
        span = _words(stated, RULE_ANSWER_LINE)  # "The answer: D, it can't be A or B"
    words = rest.strip("*").strip(QUOTES)  # "Answer: "ly"": the word in its quotes
    if span is None and _SHORT_WORDS_RE.fullmatch(words):
        # "Answer: oydz" ends the completion; "**Answer: Yes**" may head its reasons
        if tail[match.end() :].strip() == "" or _BOOLEAN_WORD_RE.fullmatch(words):
            span = _words(words, RULE_ANSWER_LINE)
    if span is None and tail[match.end() :].strip() == "" and _COMPOUND_RE.fullmatch(rest):
        span = _words(rest.rstrip(" ."), RULE_ANSWER_LINE)  # "Answer: 2 hours and 45 minutes"
    if span is None:
        return None
    # the label's answer ends with the sentence it was read from: a statement later on its
    # line ("Answer 5.3: 2 boxes have 8 pieces. … The answer is 28.") concludes after it
    read = tail.find(stated, match.start("rest"), match.end())
    return (read + len(stated) if read >= 0 else match.end()), span


#: a quantity in two units or more: "2 hours and 45 minutes", "5 feet, 6 inches"
_COMPOUND_RE = re.compile(
    r"\d+(?:\.\d+)?[ \t]+[^\W\d_]+(?:(?:[ \t]*,)?[ \t]+(?:and[ \t]+)?\d+(?:\.\d+)?[ \t]+[^\W\d_]+)"
    r"{1,3}[ \t.]*"
)
#: an answer label again after the label: "Final answer: Answer: A"
_LABEL_AGAIN_RE = re.compile(r"^[ \t*]*(?:final[ \t]+)?answer[ \t*]*[:：][ \t*]*", re.IGNORECASE)
#: a list's one item alone on the last line: "- 53.1 GPa", "* 12"
_LAST_ITEM_RE = re.compile(r"[-*•][ \t]+(?P<x>[^\n]{1,80})")
#: a value in square brackets and nothing else ("[44.9%]"), not a list or an interval
_BRACKETED_RE = re.compile(r"[ \t]*\[(?P<x>[^\[\],;\n]{1,80})\][ \t]*\.?[ \t]*")


def _cut_off(line: str) -> bool:
    """Whether a line ends inside braces or a math span it opened (``$\\frac{3``, ``\\(x =``):
    cut by the token limit. (An odd dollar alone is no cut: ``$36.00`` is money.)"""
    unclosed = line.rfind("\\(") > line.rfind("\\)") or line.rfind("\\[") > line.rfind("\\]")
    return line.count("{") > line.count("}") or unclosed


def label_heading(text: str) -> str | None:
    """What follows the last ``Answer:`` label to the end of the completion, when the label
    heads the completion's closing text (on its line or the next), else None."""
    tail = _tail(text).rstrip()
    match = _last(_LABEL_LINE_RE, tail)
    return tail[match.start("rest") :].strip() if match is not None else None


_SUBJECT_IS_RE = re.compile(r"\s(?:is|are|equals|=)\s")


#: the clause that defines an answer's symbols: "n + 1, where n is the count" states n + 1
#: a clause after the stated answer that is no part of it: ", where x is …", ", which is
#: neutral", ", although …", ", and 5% confident that it could be C) …"
_WHERE_CLAUSE_RE = re.compile(
    r"[ \t]*,[ \t]*(?:where|which|who|although|though|whereas|while|since|because)\b"
    r"|[ \t]*,[ \t]*and[ \t]+(?=\d+(?:\.\d+)?[ \t]*%|(?:I|it|this|that|there|we)\b)"
)


#: an expression, then the value the model says it comes to: "35 / (35 + 55) * 100, which
#: equals 40.54%", "3 * 4, which gives 12"
_RESULT_CLAUSE_RE = re.compile(
    r"(?P<head>[^\n]+?)[ \t]*,?[ \t]*(?:which|that|and[ \t]+this)[ \t]+"
    r"(?:equals|is[ \t]+equal[ \t]+to|is|gives|comes[ \t]+to|evaluates[ \t]+to|results[ \t]+in"
    r"|yields|amounts[ \t]+to)"
    r"[ \t]+(?:approximately[ \t]+|about[ \t]+)?(?P<value>[^\n]+)",
    re.IGNORECASE,
)
#: arithmetic on numbers: digits, operators, brackets, a few commands; no prose
_ARITHMETIC_CHARS = r"[-\d\s.,+−*/×÷()^{}\\a-z$%]*"
_ARITHMETIC_RE = re.compile(rf"{_ARITHMETIC_CHARS}\d[\d\s.,]*[-+−*/×÷^]{_ARITHMETIC_CHARS}")


def _stated_result(stated: str) -> str | None:
    """The value a stated computation comes to, as the model wrote it ("35 / (35 + 55) * 100,
    which equals 40.54%": 40.54%, not what the expression evaluates to), or None."""
    match = _RESULT_CLAUSE_RE.fullmatch(stated.strip().rstrip("."))
    if match is None or _PROSE_WORD_RE.search(match.group("head").replace("\\", " \\")):
        return None
    if not _ARITHMETIC_RE.fullmatch(match.group("head").strip()):
        return None
    value = match.group("value").strip()
    return value if _value(value) is not None else None


def _without_trailing_clause(stated: str) -> str:
    """``stated`` without a clause after it that is no part of the answer (``_WHERE_CLAUSE_RE``);
    kept whole when what comes before the clause is a description, not an answer ("the
    solution to the equation, which is $x=11$"); a computation followed by what it comes to
    is that value (``_stated_result``)."""
    result = _stated_result(stated) if "which" in stated or "that" in stated else None
    if result is not None:
        return result
    head = _WHERE_CLAUSE_RE.split(stated, maxsplit=1)[0]
    if head == stated or re.match(r"[ \t]*,[ \t]*where\b", stated[len(head) :]):
        return head
    return head if _value(head) is not None or len(head.split()) <= 4 else stated


def _sentence_or_math(rest: str) -> str:
    math = _math_span(rest)
    if math is not None:
        return rest.lstrip()
    return _hope_removed(_sentence(rest))


def _hope_removed(text: str) -> str:
    return re.sub(r"\.?\s*I\s+hope\s+it\s+is\s+correct\.?\s*$", "", text, flags=re.IGNORECASE)


#: what a verdict on an answer says of it ("This answer is correct.")
_VERDICT_WORD_RE = re.compile(
    r"[ \t*]*(?:not[ \t]+)?(?:correct|right|wrong|incorrect|valid|invalid|consistent|reasonable"
    r"|confirmed|verified|plausible|accurate|close|off|the[ \t]+same)\b",
    re.IGNORECASE,
)


def _verdict_on(tail: str, match: re.Match[str]) -> bool:
    """Whether "… answer is" is a verdict on an answer ("This answer is correct."), not a
    statement of one ("My answer is B."; "I think that the answer is B.")."""
    if tail[match.start() : match.start() + 4].lower() == "the ":
        return False
    if not _VERDICT_ON_RE.search(tail, 0, match.start()):
        return False
    before = tail[max(0, match.start() - 12) : match.start()].lower()
    return not re.search(r"\b(?:my|our)[ \t]+$", before) or bool(
        _VERDICT_WORD_RE.match(tail, match.end())
    )


#: what "the answer is" names when it describes the quantity still to find, not its value:
#: "the amount the farmer will earn", "the number of apples left", "the total cost"
_DESCRIBED_QUANTITY_RE = re.compile(
    r"[ \t*]*(?:the|a|an)[ \t]+(?:total[ \t]+)?(?:amount|number|total|sum|value|price|cost"
    r"|difference|product|quotient|result|count|area|length|distance|time)\b"
    r"(?![ \t]+(?:is|was|are|equals?|of[ \t]+\$?\d))",
    re.IGNORECASE,
)


def answer_is(text: str) -> Found | None:
    """The value of the last "the answer is X" statement, when X is math."""
    tail = _tail(text)
    matches = deque(
        (m for m in _ANSWER_IS_RE.finditer(tail) if not _verdict_on(tail, m)),
        maxlen=_STATEMENTS_TRIED,
    )
    loops = bool(matches) and looping(tail)
    for match in reversed(matches):
        if _HYPOTHETICAL_RE.search(tail, max(0, match.start() - 80), match.start()):
            return None
        rest = tail[match.end() :]
        if match is matches[-1] and "\n" not in rest.rstrip() and loops:
            continue  # a loop's last statement, cut by the limit ("-\frac{1"): the one before
        brackets = _BRACKETS_RE.match(rest)
        if brackets is not None:  # "So the answer is ) ] >." (BBH's Dyck languages)
            closing = " ".join(re.findall(r"[)\]}>]", brackets.group(1)))
            return (
                match.end(),
                AnswerSpan(closing, rule=RULE_STATEMENT + WORDS_SUFFIX, prose=True),
            )
        if not any(c.isalnum() for c in rest):
            continue  # cut off after "the answer is (": the statement before it counts
        line, _, following = rest.partition("\n")
        if not line.strip() and tail[match.start() : match.end()].rstrip()[-1:] in (":", "："):
            rest = following.lstrip()  # "The answer is:\nA) Yes": the answer on the next line
        stated = _without_trailing_clause(_sentence_or_math(rest))
        value = _value(stated)
        if value is None and _DESCRIBED_QUANTITY_RE.match(stated):
            continue  # "Step 3: The answer is the amount the farmer will earn.": a plan's step
        span = latex_span(value, RULE_STATEMENT) if value else _words(stated, RULE_STATEMENT)
        yes_no = _YES_NO_FIRST_RE.match(stated) if span is None else None
        if yes_no is not None:  # "the answer is no, there are not fewer …": the no
            span = _words(yes_no.group(1), RULE_STATEMENT)
        if span is not None and loops and _loop_disagrees(tail, span.text):
            return None  # "The answer is (A). … The answer is (C)." again and again: undecided
        return (match.end(), span) if span else None
    return None


def _loop_disagrees(tail: str, stated: str) -> bool:
    """Whether a looping end's "the answer is" statements state another answer than
    ``stated`` (the last one)."""
    for match in _ANSWER_IS_RE.finditer(tail):
        if "\n" not in tail[match.end() :].rstrip():
            break  # the last statement, which the limit may have cut: not an answer of its own
        other = _value(_sentence_or_math(tail[match.end() :]))
        if other is not None and other.strip("() ") != stated.strip("() "):
            return True
    return False


#: a statement that is closing brackets alone, to the end of its line: what closes a
#: sequence (BBH's Dyck languages); an opening one is a statement cut off ("The answer is (")
_BRACKETS_RE = re.compile(r"[ \t]*((?:[)\]}>][ \t]*){1,60})\.?[ \t]*(?:\n|$)")
#: a yes or no that opens what "the answer is" states, its restatement after a comma
_YES_NO_FIRST_RE = re.compile(r"[ \t*]*(yes|no)\b[ \t*]*[,;]", re.IGNORECASE)


def _words(statement: str, rule: str) -> AnswerSpan | None:
    """A short stated answer in words (``No``, ``A. $\\frac16$``, ``"fnel"``) as prose."""
    statement = _hope_removed(statement).strip().strip("*_ ").strip()
    if not statement or (_HYPOTHESIS_WORDS_RE.match(statement) and not statement.isupper()):
        return None  # (a label in capitals is one: FEVER's "NOT ENOUGH INFO")
    if len(statement) > _WORDS_CHARS and not (
        len(statement) <= _WORD_LIST_CHARS and WORD_LIST_RE.fullmatch(statement.rstrip("."))
    ):
        if not (len(statement) <= _OPTION_CHARS and _OPTION_LABEL_RE.match(statement)):
            return None  # a sentence, not an answer in words; a long list of words is one
    return AnswerSpan(" ".join(statement.split()), rule=rule + WORDS_SUFFIX, prose=True)


#: an option's label with its content, which may be a long sentence (MMLU-Pro, GPQA): "(E)
#: Properties of a relation being symmetric and being un-symmetric are negative of …"
_OPTION_LABEL_RE = re.compile(r"[\"“']?(?:\([A-J]\)|[A-J][.)])[ \t]+\S")
_OPTION_CHARS = 250
_HYPOTHESIS_WORDS_RE = re.compile(r"(?:correct|wrong|right|incorrect|not|at least|at most)\b", re.I)


def few_shot_line(text: str) -> Found | None:
    """The value of a last line ``A: 42`` (few-shot QA formats)."""
    tail = _tail(text).rstrip()
    start = tail.rfind("\n") + 1
    match = _FEW_SHOT_RE.fullmatch(tail, start)
    if match is None:
        return None
    value = _value(_sentence_or_math(match.group("rest")))
    span = latex_span(value, RULE_FEW_SHOT) if value else None
    return (len(tail), span) if span else None


def answer_marker(text: str) -> Found | None:
    """The answer after the last marker in other words or languages (``故选：D``,
    ``正确答案是A. $\\frac16$``, ``the correct option is $B$``, ``réponse est 105``) that
    states one; a marker whose sentence then calls it wrong (``选项B是错误的``) states nothing."""
    tail = _tail(text)
    for match in reversed(_markers(tail)[-_MARKERS_TRIED:]):
        if _HYPOTHETICAL_RE.search(tail, max(0, match.start() - 80), match.start()):
            continue
        rest = tail[match.end() :].lstrip(" \t*\n")
        lead = _MARKER_LEAD_RE.match(rest)
        if lead is not None:  # "réponse finale est donc :\n80", "Antwort lautet: 6": the colon
            rest = rest[lead.end() :].lstrip(" \t*\n")
        bridge = _MARKER_BRIDGE_RE.match(rest)
        if bridge is not None and bridge.end() > 0:  # "est donc (B)", "é a letra B": the B
            rest = rest[bridge.end() :]
        if rest.startswith("}"):  # "\[ \text{Antwort: } 15 \]": the math after the marker's text
            rest = _math_after_text(rest[1:])
        stated = _sentence_or_math(rest) if rest.strip() else ""
        stated = _CLOSING_COPULA_RE.sub("", stated.rstrip(" \t.。"))  # "정답은 B입니다."
        clause = re.split(r"[。\n]", rest, maxsplit=1)[0][:120]
        if not stated.strip() or _DENIED_RE.search(clause):
            continue
        listed = _OPTION_LINE_RE.findall(rest[:600])
        if len(listed) > 1 and rest.lstrip().startswith(listed[0]):
            # several options, one a line ("C. …\nD. …"): all of them are the answer
            return (match.end(), AnswerSpan("、".join(listed), rule=RULE_MARKER, prose=True))
        value = _value(stated)
        counted = _COUNTER_FIRST_RE.match(stated) if value is None else None
        if counted is not None:  # "回答：21個のアーモンドは…", "উত্তর: 25টি আপেল": its count
            value = counted.group(1).replace(",", "")
        span = latex_span(value, RULE_MARKER) if value else _words(stated, RULE_MARKER)
        if span is not None:
            return (match.end(), span)
    return None


_MARKERS_TRIED = 4
#: a stated answer in words that opens with its number and a counter: "21個のアーモンド…",
#: "25টি আপেল", "3 本"
_COUNTER_FIRST_RE = re.compile(
    rf"[ \t*]*([-−]?\d{{1,3}}(?:,\d{{3}})+|[-−]?\d+(?:\.\d+)?)[ \t]?(?:[{CJK_LETTERS}]|টি|টা|জন)"
)
_MATH_CLOSE_RE = re.compile(r"\\\]|\$\$|\\\)|\$")


def _math_after_text(rest: str) -> str:
    """The math that follows a marker written as ``\\text{…}`` inside math, up to where the
    math closes."""
    close = _MATH_CLOSE_RE.search(rest)
    return (rest[: close.start()] if close is not None else rest).strip()


#: the words between the word for "answer" and the colon before the answer, in any language
#: ("finale est donc :", "final es:", "also:", "lautet:", a Bengali vowel sign left by the
#: copula): up to four short words on the marker's line, then the colon
_LEAD_WORD = r"[^\s\d$\\{}()\[\]=+*/^:：.,;!?<>|\"'`]{1,15}"
_MARKER_LEAD_RE = re.compile(rf"(?:{_LEAD_WORD}[ \t]+){{0,3}}{_LEAD_WORD}[ \t]*[:：]")
_OPTION_LINE_RE = re.compile(r"^[ \t]*\(?([A-J])\)?[.．、:：][ \t]*\S", re.MULTILINE)
_DENIED_RE = re.compile(r"是?错误|不正确|不对|并不是|不是正确|\bis (?:not|wrong|incorrect)\b")


#: the unit a bold number may carry: one or two words (``**16 yards**``, ``**45 minutes**``,
#: ``**72 Mb/h**``), no comparison or clause (``**3 more than Betty**``)
_UNIT_WORD = (
    r"(?!(?:more|less|fewer|than|is|are|was|were|and|or|times)\b)[A-Za-z][A-Za-z/.²³]{0,11}"
)
_BOLD_UNIT_RE = re.compile(rf"[ \t]*{_UNIT_WORD}(?:[ \t]+{_UNIT_WORD})?[ \t.]*", re.IGNORECASE)


def bold_final(text: str) -> Found | None:
    """The one bold number of the completion's last line (``一共有**858颗**糖果。``), with its
    unit (``**16 yards** of material``) read as the number."""
    tail = _tail(text).rstrip()
    start = tail.rfind("\n") + 1
    bolds = [b.group("x").strip() for b in _BOLD_RE.finditer(tail, start)]
    if len(bolds) != 1:
        return None
    number = _VALUE_RE.match(bolds[0])
    if number is None:
        return None
    rest = bolds[0][number.end() :]
    if re.search(r"[A-Za-z]{2}", rest) and not _BOLD_UNIT_RE.fullmatch(rest):
        return None  # "**3 more than Betty**": more than a value and its unit
    value = _THOUSANDS_RE.sub(lambda m: m.group(0).replace(",", ""), number.group(0).strip())
    span = latex_span(value, RULE_BOLD_FINAL)
    return (start, span) if span else None


def bold_conclusion(text: str) -> Found | None:
    """The one bold value of the last paragraph's concluding sentence."""
    tail = _tail(text).rstrip()
    start = tail.rfind("\n\n") + 2 if "\n\n" in tail else 0
    match = _last(_CONCLUSION_RE, tail[start:])
    if match is None:
        return None
    bolds = [b.group("x").strip() for b in _BOLD_RE.finditer(match.group(0))]
    if len(bolds) != 1:
        return None
    value = _math_span(bolds[0]) or (bolds[0] if _is_math(bolds[0]) else None)
    span = latex_span(value, RULE_BOLD) if value else None
    return (start + match.start(), span) if span else None


def whole_completion(text: str) -> Found | None:
    """A completion that is nothing but a short value (``42``, ``x = 3``, ``$2\\pi$``,
    ``\\text{10 inches}``), or a number or yes/no in words (``two``, ``Yes``)."""
    stripped = text.strip()
    if not stripped or len(stripped) > _WHOLE_CHARS or "\n" in stripped:
        return None
    wrapped = _TEXT_WRAPPER_RE.fullmatch(stripped)
    if wrapped is not None:  # "\text{10 inches}": the value inside, with its unit words
        stripped = wrapped.group(1).strip()
    if stripped.startswith("=") and not stripped.startswith("=="):
        stripped = stripped[1:].strip()  # "= 5": the right-hand side of a step left out
    value = _value(stripped)
    span = latex_span(value, RULE_WHOLE) if value else None
    if span is None and (
        _LETTER_FIRST_RE.match(stripped)
        or _BOOLEAN_WORD_RE.fullmatch(stripped)
        or number_from_words(stripped.rstrip(".")) is not None
    ):
        # "D. it can't be A or B", "B。 不是 A": a choice letter, then why; "two", "Yes."
        span = _words(stripped, RULE_WHOLE)
    return (0, span) if span else None


_TEXT_WRAPPER_RE = re.compile(r"\\(?:text|textbf|mathrm|textrm|mbox)\s*\{([^{}]{1,60})\}")
_BOOLEAN_WORD_RE = re.compile(r"(?:yes|no|true|false)\.?", re.IGNORECASE)


#: an option word joined to its letter: "Choice_B" (``Choice\\_B`` in escaped Markdown),
#: "option-C", "Choice (D)", "option B"
OPTION_WORD = r"(?:[Oo]ption|OPTION|[Cc]hoice|CHOICE)(?:[ \t]+|[ \t]*(?:\\?_|-)[ \t]*)"
_LETTER_FIRST_RE = re.compile(
    rf"(?:{OPTION_WORD})?"
    r"(?:\(?[A-J]\)?(?:[.。:：]\s*|\s*[。，,]\s*)\S|\(?[A-J]\)[ \t]+\S|\[[A-J]\][ \t]+\S"
    r"|[A-J][ \t]+[-–—][ \t]+\S"
    r"|[A-J][ \t]+\([^()\n]+\))"
)
#: a last ``Answer:`` line that is a few words and nothing else (``Answer: oydz``)
#: quotation marks around an answer in words ("Answer: "ly"")
QUOTES = "\"“”‘’'"
_SHORT_WORDS_RE = re.compile(
    r"(?!(?:let|we|i|to|first|next|now|then|step|see|check|verify|below|above|none|unknown)\b)"
    r"[^\W\d_][\w'’-]*(?:[ \t]+[^\W\d_][\w'’-]*){0,2}[.!。！]?",
    re.IGNORECASE,
)


#: "Wednesday is the correct answer.", "25 is the answer.": the last sentence names its answer
#: first
_NAMED_ANSWER_RE = re.compile(
    r"(?:^|(?<=[.!?。\n]))[ \t*]*(?P<x>[^.!?。\n]{1,80}?)[ \t*]+"
    r"(?:is|was|would[ \t]+be|must[ \t]+be|should[ \t]+be)[ \t]+(?:the|my|our)[ \t]+"
    r"(?:(?P<adj>correct|right|final|best)[ \t]+)?(?:answer|option|choice)[ \t*]*[.!。]?[ \t*]*$",
    re.IGNORECASE,
)
#: what a sentence says before the clause that names its answer: "I believe that", "It is
#: clear that", "I am 100% confident that"
_THAT_CLAUSE_RE = re.compile(
    r"^[^\n]{0,60}\b(?:that|I[ \t]+(?:think|believe))[ \t]+", re.IGNORECASE
)
#: "Option B", "choice (C)": the option a sentence names
_NAMED_OPTION_RE = re.compile(r"(?:option|choice)[ \t]+[*_]*\(?([A-J])\)?[*_]*", re.IGNORECASE)
#: a conclusion word that opens the named answer ("So 25 is the answer.")
_CONCLUSION_WORD_RE = re.compile(r"^(?:so|thus|hence|therefore|then)\b[ \t,]*", re.IGNORECASE)
#: a completion that ends with an option letter alone after its last sentence ("… 6 kmph. (B)")
_CLOSING_OPTION_RE = re.compile(
    r"(?:^|(?<=[.!。\n]))[ \t*]*\(([A-J])\)[ \t*]*[.。]?[ \t]*$"
    # a last line that is a letter alone ("\n\n**B**", "\nB", "\n[C]"), or after a
    # conclusion word ("Hence, (B).", "So the answer: D")
    # (a circled number is the option mark of Korean and Japanese exams: "\n\n②")
    r"|(?:^|(?<=\n))[ \t>*_]*(?:(?:so|thus|hence|therefore)[,，]?[ \t]+)?[*_]*[\[(]?"
    r"([A-J]|[①-⑩])[\])]?"
    r"[*_]*[ \t]*[.。]?[ \t]*$"
    r"|(?<=[.!。])[ \t]+(?:so|thus|hence|therefore)[,，]?[ \t]+[*_]*\(?([A-J])\)?[*_]*"
    r"[ \t]*[.。]?$",
    re.IGNORECASE,
)
#: "Option A is correct.", "A is the right choice.", "(B) is the largest.", "I choose C.": an
#: option chosen, closing
_CHOSEN_OPTION_RE = re.compile(
    r"(?:^|(?<=[.!。\n,，])|\b(?:so|thus|hence|therefore)\b)[ \t*]*"
    r"(?:(?:option|choice|answer)[ \t]+)?"
    r"[*_]*\(?(?P<a>[A-J])\)?[*_]*[ \t]+is[ \t]+(?:the[ \t]+)?"
    r"(?:correct|right|best|(?:most|least)[ \t]+[a-z-]{3,20}|[a-z-]{2,20}est)"
    # "Option A is the correct sequence of steelmaking operations.": what it is the right one of
    r"(?:[ \t]+(?:answer|option|choice|one)|(?:[ \t]+[a-z-]{2,20}){1,6})?[ \t*]*[.!。]?[ \t*]*$"
    r"|\bI(?:[ \t]+(?:will|would)|'ll|'d)?[ \t]+(?:choose|pick|select|go[ \t]+with)[ \t]+"
    r"(?:(?:option|choice)[ \t]+)?"
    r"[*_]*\(?(?P<b>[A-J])\)?[*_]*[ \t]*[.!。]?[ \t*]*$"
    # "Hence option C, 4-nitrobenzoic acid.": a conclusion word, the option and its content
    r"|\b(?:so|thus|hence|therefore)[,，]?[ \t]+(?:option|choice)[ \t]+[*_]*\(?(?P<c>[A-J])\)?[*_]*"
    r"(?:[ \t]*[,:—–][ \t]*[^\n.!?]{1,80})?[ \t*]*[.!。]?[ \t*]*$",
    re.IGNORECASE,
)
#: "…, so it's B.", "That is (C).", "Hence it must be D.", "This matches option C.": a
#: pronoun's option letter, closing
_PRONOUN_OPTION_RE = re.compile(
    r"\b(?:it|that|this)(?:'s|’s|\s+is|\s+must\s+be|\s+has\s+to\s+be|\s+matches"
    r"|\s+corresponds\s+to|\s+aligns\s+with|\s+points\s+to|\s+fits)\s+"
    r"(?:(?:option|choice|answer)\s+)?[*_]*\(?([A-J])\)?[*_]*[ \t]*[.!。]?[ \t]*$",
    re.IGNORECASE,
)


def named_answer(text: str) -> Found | None:
    """The answer the last sentence names before saying it is the answer (``Wednesday is
    the correct answer.``, ``$x=2$ is the final answer.``); a hypothesis ("If 5 is the
    correct answer") or a verdict on a pronoun ("This is the correct answer") names none."""
    tail = _tail(text).rstrip()
    match = _NAMED_ANSWER_RE.search(tail, max(0, len(tail) - 200))
    if match is None:
        return None
    named = _CONCLUSION_WORD_RE.sub("", match.group("x").strip())
    named = _THAT_CLAUSE_RE.sub("", named)  # "I am 95% confident that option C is the …"
    if _HYPOTHETICAL_RE.search(named) or re.fullmatch(
        r"(?:this|that|it|which|what|each|here|below|such|the answer|the above|the following)",
        named,
        re.IGNORECASE,
    ):
        return None
    closing_math = re.search(r"\$([^$\n]{1,80})\$$", named)  # "So $x = 12$ is the …"
    option = _NAMED_OPTION_RE.fullmatch(named)
    value = option.group(1) if option else closing_math.group(1) if closing_math else _value(named)
    if value is None and match.group("adj") is None:
        return None  # "The number of apples is the answer.": words only as "the correct answer"
    span = latex_span(value, RULE_NAMED_ANSWER) if value else _words(named, RULE_NAMED_ANSWER)
    return (len(tail), span) if span else None


#: an option letter written several times, as MMLU-Pro's prompt asks ("Once you have your
#: answer, please duplicate that letter five times": ``**BBBBB**``, ``The answer string is:
#: JJJJJ.``), ending the completion
_REPEATED_LETTER_RE = re.compile(r"(?<![A-Za-z])(?P<x>[A-J])(?P=x){3,5}(?![A-Za-z])[ \t*_\"'`.]*\Z")


def closing_option(text: str) -> Found | None:
    """An option letter alone that ends the completion after its last sentence
    (``The man's rate along the current is 6 kmph. (B)``), a pronoun's that ends it
    ("…, so it's B.", "Hence it must be D."), one chosen ("Option A is correct.", "I
    choose C."), or one written several times as the prompt asked (``BBBBB``): that letter."""
    tail = _tail(text).rstrip()
    repeated = _REPEATED_LETTER_RE.search(tail, max(0, len(tail) - 20))
    if repeated is not None:
        return (len(tail), latex_span(repeated.group("x"), RULE_CLOSING_OPTION))
    match = _CLOSING_OPTION_RE.search(tail, max(0, len(tail) - 30))
    if match is not None and (match.start() == 0 or _after_colon(tail, match)):
        # a completion that is a letter alone is the whole completion's rule; a letter
        # line after a colon is an answer only after an answer's lead-in (below)
        match = None
    if match is None:
        match = _PRONOUN_OPTION_RE.search(tail, max(0, len(tail) - 60))
    letter = next((g for g in match.groups() if g), None) if match is not None else None
    if match is None:
        chosen = _CHOSEN_OPTION_RE.search(tail, max(0, len(tail) - 100))
        letter = (
            (chosen.group("a") or chosen.group("b") or chosen.group("c"))
            if chosen is not None
            else None
        )
    if letter is None:
        return _option_after_lead_in(tail) or _labelled_option(tail)
    if not letter.isupper() and not "①" <= letter <= "⑩":
        return None
    span = latex_span(letter, RULE_CLOSING_OPTION)
    return (len(tail), span) if span else None


def _after_colon(tail: str, match: re.Match[str]) -> bool:
    """Whether a closing letter line follows a line that ends with a colon ("The points
    are:\n\nA")."""
    return bool(match.group(2)) and tail[: match.start()].rstrip().endswith((":", "："))


#: a last line that is an option letter, with or without its content in parentheses, after
#: a line that leads in to the answer (``Therefore, the correct answer is:\n\nB``)
_LEAD_IN_OPTION_RE = re.compile(
    r"(?:\b(?:answer|option|choice)(?:[^\n]{0,30}\b(?:is|would be))?|\bi[ \t]+(?:would[ \t]+)?"
    r"(?:choose|select|pick))[ \t*]*[:：][ \t*]*\n"
    r"(?:[ \t]*\n){0,3}"
    r"[ \t*]*(?P<letter>\(?[A-J]\)?)(?P<content>[ \t]*\([^()\n]{1,40}\))?[ \t*.。]*$",
    re.IGNORECASE,
)


#: a last line that is option letters in square brackets, as a prompt's template asks, with
#: or without their content, after a lead-in that ends with a colon (``Therefore, Teflon
#: belongs to the category:\n\n[B]``, ``… the incorrect statement is:\n\n[C]``,
#: ``… are:\n\n[B, D]``), or one in parentheses, as a list item too (``… statement is:\n\n- (D)
#: Burger's vector …``)
_BRACKETED_AFTER_LEAD_RE = re.compile(
    r"[^\W\d_][ \t*]*[:：][ \t*]*\n(?:[ \t]*\n){0,3}"
    r"[ \t*]*(?:[-•][ \t]+)?"
    r"(?:\[(?P<letters>[A-J](?:[ \t]*,[ \t]*[A-J]){0,5})\]|\((?P<one>[A-J])\))"
    r"(?:[ \t]+[^\n\[\]]{1,120})?[ \t*.。]*$"
)


def _option_after_lead_in(tail: str) -> Found | None:
    """The option that ends the completion on its own line after an answer lead-in."""
    bracketed = _BRACKETED_AFTER_LEAD_RE.search(tail, max(0, len(tail) - 200))
    if bracketed is not None:
        span = latex_span(bracketed.group("letters") or bracketed.group("one"), RULE_CLOSING_OPTION)
        return (len(tail), span) if span else None
    match = _LEAD_IN_OPTION_RE.search(tail, max(0, len(tail) - 160))
    if match is None or not match.group("letter").strip("()").isupper():
        return None
    if match.group("content"):  # "B (No)": the letter with its content, read as words
        span = _words(match.group("letter") + match.group("content"), RULE_CLOSING_OPTION)
    else:
        span = latex_span(match.group("letter").strip("()"), RULE_CLOSING_OPTION)
    return (len(tail), span) if span else None


#: a last line that labels an option letter in words of its own (``Solution: Choice_B``, Mr-Ben's
#: format; ``Selected option: (C)``, ``Final choice: D (8)``): the label, the letter, and
#: optionally its content after it
_LABELLED_OPTION_RE = re.compile(
    r"(?:^|(?<=\n))[ \t>*_#]*(?:[^\W\d_]+[ \t]*\d{1,3}[ \t]*[:.][ \t]*)?"  # "Step 10: "
    r"(?:(?P<label>[^\W\d_]{2,}(?:[ \t]+[^\W\d_]{2,}){0,2})[ \t*_]*[:：]"
    # "Therefore, the solution is Choice_A.", "the correct solution is Choice_B: True, False."
    r"|[^\n]*?\bthe[ \t]+(?:(?:correct|final|right|best)[ \t]+)?solution[ \t]+is)[ \t*_]*"
    rf"(?:{OPTION_WORD})?[*_]*(?:\((?P<a>[A-J])\)|(?P<b>[A-J])(?![\w(]))[*_]*"
    # its content: "(4)", ": x^2/9", " - a closed curve", " -8/(3π) cm/min"
    r"(?P<content>[ \t]*\([^()\n]{1,40}\)|[ \t]*[:：.)][ \t]*[^\n]{0,60}"
    r"|[ \t]+[-−–—][ \t]*[^\s\n][^\n]{0,60})?[ \t*.。]*$"
)


def _labelled_option(tail: str) -> Found | None:
    """The option letter that a last line labels (``Solution: Choice_B``; an answer line
    only where its own rule reads nothing: ``Answer: option (B)``)."""
    match = _LABELLED_OPTION_RE.search(tail, max(0, len(tail) - 160))
    if match is None:
        return None
    if "answer" in (match.group("label") or "").lower() and answer_label(tail) is not None:
        return None  # "Answer: C - Annoyance": the answer line's own rule reads it
    span = latex_span(match.group("a") or match.group("b"), RULE_CLOSING_OPTION)
    return (len(tail), span) if span else None


#: a last line that is an option's label and its content: ``A)1 step/minute``, ``(B) 12 km``,
#: ``A. (i), (ii), and (iii) only`` (content that opens with a numbered statement's mark)
_OPTION_LABEL_LINE_RE = re.compile(
    r"(?:^|(?<=\n))[ \t>*_]*(?:\((?P<a>[A-J])\)|(?P<b>[A-J])[).．:：])[ \t]*"
    r"(?P<content>(?:[^\s(]|\((?:[ivx]{1,4}|\d{1,2})\))[^\n]{0,60})$"
)


def weighed_option(line: str, next_line: str, letter: str) -> bool:
    """Whether an option line is one of a listing or a weighing of the options, not a choice:
    it rejects its option ("C. 200m: This option is incorrect …"), or the next line labels
    the next letter ("D) 4\nE) 5")."""
    following = _OPTION_HEAD_RE.match(next_line.strip())
    nxt = (following.group("a") or following.group("b")) if following else None
    return bool(_REJECTS_OPTION_RE.search(line)) or nxt == chr(ord(letter) + 1)


#: the label an option line opens with, whatever its length (the line before a last option)
_OPTION_HEAD_RE = re.compile(r"[ \t>*_]*(?:\((?P<a>[A-J])\)|(?P<b>[A-J])[).．:：])")
#: an option line that rejects its option: "This option is incorrect", "is wrong"
_REJECTS_OPTION_RE = re.compile(
    r"\b(?:this|it|which)\b[^\n]{0,20}?\b(?:is|are)\s+(?:incorrect|wrong|not\s+(?:correct|right))",
    re.IGNORECASE,
)
_BOLD_OPTION_LINE_RE = re.compile(
    r"(?:^|(?<=\n))[ \t>]*\*\*(?:\((?P<a>[A-J])\)|(?P<b>[A-J])[).．:：])[ \t]+"
    r"(?P<content>[^*\n]{1,200})\*\*[ \t]*$"
    # "**Option C**: 4-nitrobenzoic acid"
    r"|(?:^|(?<=\n))[ \t>]*\*\*(?:option|choice)[ \t]+\(?(?P<c>[A-J])\)?\*\*[ \t]*[:：.)][ \t]*"
    r"(?P<tail>[^\n]{1,200})$",
    re.IGNORECASE,
)


#: each option's next label, further on its line: "(A) Sandy threw away her bed. (B) Sandy …"
_NEXT_LABEL_RE = {
    letter: re.compile(rf"[ \t]\(?{chr(ord(letter) + 1)}\)[ \t]+\S") for letter in "ABCDEFGHIJ"
}


def option_line(text: str) -> Found | None:
    """The option a completion's last line names with its content (``A)1 step/minute``,
    AQuA's rationales; in bold, ``**C. (3-isopropylcyclohexyl)methanol**``, with content of
    any length), read as words; not the last of a listing of the options (the line before
    it labels the option before)."""
    tail = _tail(text).rstrip()
    match = _OPTION_LABEL_LINE_RE.search(tail, max(0, len(tail) - 80))
    if match is None:
        match = _BOLD_OPTION_LINE_RE.search(tail, max(0, len(tail) - 260))
    if match is None:
        return None
    letter = match.group("a") or match.group("b") or match.groupdict().get("c") or ""
    if not letter.isupper():
        return None
    before = tail[: match.start()].rstrip().rpartition("\n")[2]
    listed = _OPTION_HEAD_RE.match(before.strip())
    if letter == "A" and not before.strip():
        return None  # the completion is nothing but the line: the whole completion's rule
    if listed is not None and (listed.group("a") or listed.group("b")) == chr(ord(letter) - 1):
        return None  # "D) 4\nE) 5", "C. 200m: This option is …\nD. 225m: …": a listing
    if _NEXT_LABEL_RE[letter].search(tail, match.start() + 3):
        return None  # "(A) Sandy threw away her bed. (B) Sandy sold …": the options, listed
    if _REJECTS_OPTION_RE.search(tail[match.start() :]):
        return None  # "D. 225m: This option is incorrect because …": weighed, not chosen
    if _ANSWER_IS_RE.search(tail, match.start()):
        return None  # "A: Baker made 217 cakes. The answer is 217.": a few-shot answer turn
    span = _words(tail[match.start() :].strip(), RULE_OPTION_LINE)
    return (len(tail), span) if span else None


#: how much of a completion's opening is read for an answer stated first
_OPENING_CHARS = 600


def opening_final(text: str) -> AnswerSpan | None:
    """The answer a completion states first, in its first two paragraphs, when it then gives
    its reasons ("The answer is (B). Explanation: …", "Alternatif yang paling masuk akal
    adalah:\n\nA. …\n\nAlasan: …"): the first "the answer is", answer line or marker there.
    Read only when nothing states an answer at the end (``extraction.extract_answer``)."""
    paragraphs = re.split(r"\n[ \t]*\n", text.lstrip()[:_OPENING_CHARS])
    opening = "\n\n".join(paragraphs[:2])
    found = [f for f in (answer_is(opening), answer_label(opening), answer_marker(opening)) if f]
    if found:
        return min(found, key=lambda f: f[0])[1]
    first = _SENTENCE_END_RE.split(opening, maxsplit=1)[0]
    named = {m.group(1) for m in _OPENING_OPTION_RE.finditer(first)}
    # "The most likely cause … is 'E': Bleeding …", "… is (C) Chronic myelogenous leukemia."
    named |= {next(g for g in m.groups() if g) for m in _OPENING_LABEL_RE.finditer(first)}
    if len(named) == 1 and _PLAUSIBLE_RE.search(first) and not _NOT_ONE_RE.search(first):
        # "Of the two, option B ("…") is the more plausible.": the one option it names
        return latex_span(named.pop(), RULE_CLOSING_OPTION)
    bare = _OPENING_VALUE_RE.match(text)
    value = _value(bare.group(1)) if bare is not None else None
    if value is not None:  # "10 minutes. Boiling two eggs together doesn't change …"
        return latex_span(value, RULE_STATEMENT)
    return None


#: a completion that opens with its value alone as a sentence (a number with a unit or a
#: currency sign: not a list's "1. "), then its reasons
_OPENING_VALUE_RE = re.compile(
    r"[ \t\n]*[*_]*((?:[$€£][ \t]?[-−]?\d[\d,]*(?:\.\d+)?|[-−]?\d[\d,]*(?:\.\d+)?"
    r"(?:[ \t]?%|[ \t]+[A-Za-z]{1,12}(?:/[A-Za-z]{1,6})?(?:[ \t]+[A-Za-z]{1,12})?)))[*_]*\.[ \t]+"
    r"(?=[A-Z])"
)


#: an option line set off under a lead-in that names the answer ("The correct answer is:\n\n
#: A. Interest; Action.", "したがって、正解は\n\nD. 多系進化。", "適切な答えは：\n\nB. 起源地")
_INTRODUCED_OPTION_RE = re.compile(
    r"(?:(?:correct|best|right|most[ \t]+appropriate|final)[ \t]+(?:completion|choice|option|one)"
    r"|answer(?![ \t]*(?:choices|options))|正解|答え|答案|回答|(?:最適な|正しい|最も適切な)選択肢"
    r"|正确选项|jibu|antwort|réponse|respuesta|resposta|risposta|ответ|cevap|jawaban)"
    # a copula after it ("… is:", "正解は"), or the label alone opening its line ("Answer:");
    # not a plan ("Let's analyze each statement to find the correct answer:")
    r"(?:[^\n]{0,40}?(?:\b(?:is|are|would[ \t]+be|ist|est|es|é|è|ni|adalah)|は|为|是)"
    r"[ \t*]*[:：]?|(?<=\n(?-i:[A-Z])nswer)[ \t*]*[:：])[ \t*]*\n"
    r"(?:[ \t]*\n)*[ \t*]*\(?(?P<x>(?-i:[A-J]))[.)．、:][ \t]*[^\n]{0,100}\n"
    # one option, not the first line of a listing of them
    r"(?![ \t]*\n?[ \t*]*\(?[A-Ja-j][.)．、:])",
    re.IGNORECASE,
)


def introduced_option(text: str) -> AnswerSpan | None:
    """The letter of the last option line set off under a lead-in that names the answer, the
    reasons after it ("The correct completion for AIDA is:\n\nA. Interest; Action.\n\nSo,
    AIDA stands for …"). Read only when nothing states an answer at the end
    (``extraction.extract_answer``)."""
    tail = text[-_TAIL_INTRODUCED:] + "\n"
    if _OPTION_LINE_START_RE.search(tail) is None:
        return None  # no option line at all: nothing to look for
    found = list(_INTRODUCED_OPTION_RE.finditer(tail))
    return latex_span(found[-1].group("x"), RULE_CLOSING_OPTION) if found else None


_TAIL_INTRODUCED = 4000
_OPTION_LINE_START_RE = re.compile(r"\n[ \t*]*\(?[A-J][.)．、:]")
#: an option named in words ("option B", "pilihan A", "alternatif B")
_OPENING_OPTION_RE = re.compile(
    r"\b(?:option|choice|alternative|pilihan|alternatif|opsi)[ \t]+\(?([A-J])\)?(?![\w])",
    re.IGNORECASE,
)
#: an option's label after the copula: quoted, in parentheses, or before a colon
_OPENING_LABEL_RE = re.compile(
    r"\b(?:is|are)[ \t]+(?:option[ \t]+)?"
    r"(?:['\"‘“]([A-J])['\"’”]|\(([A-J])\)[ \t]|([A-J])[ \t]*:[ \t])"
)
#: a sentence that chooses no single option: a negation, both, a hedge, two letters joined
_NOT_ONE_RE = re.compile(
    r"\b(?:not|no|neither|none|both|either|or|maybe|perhaps|tidak|bukan|kedua(?:nya)?|atau"
    r"|mungkin[ \t]+juga)\b|n't|\b[A-J]\)?[ \t]*(?:,|dan|and|or|atau|&)[ \t]*\(?[A-J]\b",
    re.IGNORECASE,
)
#: the words that choose it: "is the most plausible", "lebih masuk akal", "is correct"
_PLAUSIBLE_RE = re.compile(
    r"\b(?:most|more)[ \t]+(?:plausible|reasonable|likely|sensible|logical|appropriate)\b"
    r"|\bis[ \t]+(?:the[ \t]+)?(?:correct|right|best)\b|\bmasuk[ \t]+akal\b"
    r"|\b(?:correct|right|best)[ \t]+(?:answer|option|choice)[ \t]+is\b"
    r"|\b(?:paling|lebih)[ \t]+(?:tepat|benar|mungkin|sesuai)\b",
    re.IGNORECASE,
)


#: a heading that the answer follows alone, on the last line: PRM800K's ``# Answer\n\n…``,
#: ``## Final Answer``, ``**Final Answer**`` (no colon: with one, ``answer_label`` reads it)
_ANSWER_BLOCK_RE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]*(?:the[ \t]+)?(?:final[ \t]+)?answer[ \t]*(?:\*\*)?"
    r"|\*\*[ \t]*(?:the[ \t]+)?final[ \t]+answer[ \t]*\*\*)[ \t]*\n",
    re.IGNORECASE | re.MULTILINE,
)
_BLOCK_CHARS = 200


def answer_block(text: str) -> Found | None:
    """The answer alone on the last line under an answer heading (``# Answer\n\n\\cot x``):
    as math (bare LaTeX, ``$…$`` or plain), or a short answer in words."""
    tail = _tail(text)
    if "answer" not in tail[-(_BLOCK_CHARS + 40) :].lower():
        return None
    match = _last(_ANSWER_BLOCK_RE, tail)
    if match is None:
        return None
    rest = tail[match.end() :].strip()
    if not rest or "\n" in rest or len(rest) > _BLOCK_CHARS:
        return None  # nothing, or more than the answer (a list, a paragraph): other rules
    value = _value(rest)
    if value is None and not _PROSE_WORD_RE.search(re.sub(r"\\[A-Za-z]+", " ", rest)):
        value = rest.replace("$", "").strip().rstrip(".")  # "2516_8", "-$\pi/6$", "12*pi"
    span = latex_span(value, RULE_ANSWER_BLOCK) if value else _words(rest, RULE_ANSWER_BLOCK)
    return (len(tail.rstrip()), span) if span else None


_RULES = (
    finish_action,
    double_brackets,
    bracketed_label,
    answer_block,
    named_answer,
    closing_option,
    hash_line,
    inline_label,
    answer_label,
    answer_is,
    bold_conclusion,
    whole_completion,
    few_shot_line,
    answer_marker,
    bold_final,
    option_line,
)


def found_finals(text: str) -> list[Found]:
    """Every rule's final (with where it ends) that finds one."""
    return [f for f in (r(text) for r in _RULES) if f is not None]


def stated_final(text: str) -> AnswerSpan | None:
    """The final answer stated without a box: the statement that ends last."""
    found = found_finals(text)
    return max(found, key=lambda f: f[0])[1] if found else None


def stated_value(statement: str) -> str | None:
    """``statement`` as a stated value (math), or None when it is prose."""
    return _value(statement)


def words_span(statement: str, rule: str) -> AnswerSpan | None:
    """A short stated answer in words, as prose (None when it is a hypothesis or long)."""
    return _words(statement, rule)


def answer_is_rest(text: str) -> str | None:
    """What follows a leading "the answer is" in ``text`` (within its first 20 characters)."""
    match = _ANSWER_IS_RE.search(text)
    return text[match.end() :] if match is not None and match.start() < 20 else None


_OUTPUT_FENCE_RE = re.compile(r"```output[ \t]*\n(?P<x>.*?)\n?```\s*$", re.DOTALL)


def closing_output(text: str) -> AnswerSpan | None:
    """The one-line result of a closing ```` ```output ```` block (tool-integrated
    reasoning), when the completion ends with it and the result is math."""
    tail = _tail(text)
    if not tail.rstrip().endswith("```"):
        return None
    start = tail.rfind("```output")
    if start < 0:
        return None
    match = _OUTPUT_FENCE_RE.match(tail, start)
    if match is None:
        return None
    lines = [line.strip() for line in match.group("x").strip().splitlines() if line.strip()]
    if len(lines) != 1:
        return None
    lines[0] = printed_value(lines[0]).strip()  # "Fraction(1, 3)" is 1/3, "np.int64(10)" 10
    words = printed_words(lines[0])
    if words is not None:
        return words
    value = _value(lines[0])
    return latex_span(value, RULE_TOOL_OUTPUT) if value else None


#: a printed answer in words: ``Yes``, ``odd``, ``August``, ``(A) Yes``, ``B) No``
_PRINTED_WORDS_RE = re.compile(
    r"(?:\(?[A-J]\)[ \t]*|[A-J][.:][ \t]+)?[^\W\d_][\w'’-]*(?:[ \t]+[^\W\d_][\w'’-]*){0,3}"
)
#: names sympy and Python print for values, which are math, not words
_PRINTED_MATH_NAMES = frozenset({"oo", "-oo", "zoo", "pi", "nan", "inf", "e", "i", "E", "I"})


def printed_words(line: str) -> AnswerSpan | None:
    """A tool's one-line output that is an answer in words (``Yes``, ``odd``, ``(A) Yes``), as
    words (the gold's type reads them), else None; a single letter or a name sympy prints
    for a value (``oo``, ``pi``) is math, an error is no answer."""
    line = line.strip()
    if len(line) < 2 or len(line) > 40 or line in _PRINTED_MATH_NAMES:
        return None
    if not _PRINTED_WORDS_RE.fullmatch(line) or ERROR_LINE_RE.search(line):
        return None
    return AnswerSpan(line, rule=RULE_TOOL_OUTPUT + WORDS_SUFFIX, prose=True)


#: a line a tool prints when the code failed: it states no result
ERROR_LINE_RE = re.compile(r"(?:Traceback|\w*(?:Error|Exception|Warning)\b|error\b)", re.IGNORECASE)
