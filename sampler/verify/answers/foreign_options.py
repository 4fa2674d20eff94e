"""Option labels written in other scripts, read as the Latin letters A–E they stand for.

Exams outside the Latin script label their options with their own letters: Persian
``الف) … ب) … پ) … ت)``, Arabic ``أ ب ج د``, Russian ``а) б) в) г)``, Greek ``α β γ δ``,
Hebrew ``א ב ג ד``, Hindi ``क ख ग घ`` (and Bengali ``ক খ গ ঘ``, Gujarati, Gurmukhi, Odia,
Telugu, Kannada, Malayalam in the same order), Armenian ``ա բ գ դ``, Georgian ``ა ბ გ დ``,
Thai ``ก ข ค ง``, Korean ``가 나 다 라`` and ``ㄱ ㄴ ㄷ ㄹ``, Japanese ``ア イ ウ エ``.
A gold such as ``ب) سارا در جلسه نبوده است`` is the second option with its content, and
an answer ``**ب**`` chooses it. ``latin_label`` gives the letter of such a label by its
place in its script's sequence, so that the gold and the answer reach the choice comparison
(``golds.labelled_choice``, ``verdict.prepare_span``) as ``B``, as an option written ``(B)``
does. A label is read only where it stands as a label:
alone, or before ``)``; a word that starts with the same letter is no label.

Korean, Japanese and Chinese exams number their options with circled numerals (``① ② ③``,
also ``⑴``, ``❷``, ``➂``): ``circled_option`` reads an answer or a gold that is one such
numeral, with Korean's ``번`` ("number") or a closing particle after it (``③번이다``), as its
number, so that ``답: ②`` answers the gold ``2``.
"""

from __future__ import annotations

import re

#: each script's option labels in order; a label shared by two sequences has one place in
#: both (``ب`` is the second of the Persian and of the Arabic sequence)
_SEQUENCES = (
    ("الف", "ب", "پ", "ت", "ث"),  # Persian, alphabetical
    ("أ", "ب", "ج", "د", "ه"),  # Arabic, abjad order
    ("ا", "ب", "ج", "د", "هـ"),
    ("а", "б", "в", "г", "д"),  # Cyrillic
    ("А", "Б", "В", "Г", "Д"),
    ("α", "β", "γ", "δ", "ε"),  # Greek
    ("Α", "Β", "Γ", "Δ", "Ε"),
    ("א", "ב", "ג", "ד", "ה"),  # Hebrew
    ("क", "ख", "ग", "घ", "ङ"),  # Devanagari, and the Brahmic scripts in the same order
    ("ক", "খ", "গ", "ঘ", "ঙ"),  # Bengali
    ("ਕ", "ਖ", "ਗ", "ਘ", "ਙ"),  # Gurmukhi
    ("ક", "ખ", "ગ", "ઘ", "ઙ"),  # Gujarati
    ("କ", "ଖ", "ଗ", "ଘ", "ଙ"),  # Odia
    ("క", "ఖ", "గ", "ఘ", "ఙ"),  # Telugu
    ("ಕ", "ಖ", "ಗ", "ಘ", "ಙ"),  # Kannada
    ("ക", "ഖ", "ഗ", "ഘ", "ങ"),  # Malayalam
    ("ա", "բ", "գ", "դ", "ե"),  # Armenian
    ("ა", "ბ", "გ", "დ", "ე"),  # Georgian
    ("ก", "ข", "ค", "ง", "จ"),  # Thai
    ("가", "나", "다", "라", "마"),  # Hangul syllables
    ("ㄱ", "ㄴ", "ㄷ", "ㄹ", "ㅁ"),  # Hangul letters
    ("ア", "イ", "ウ", "エ", "オ"),  # Katakana
)
_LETTER_OF = {label: "ABCDE"[i] for sequence in _SEQUENCES for i, label in enumerate(sequence)}
#: the labels, longest first (``الف`` before ``ا``, ``هـ`` before ``ه``)
LABEL = "|".join(re.escape(label) for label in sorted(_LETTER_OF, key=len, reverse=True))
#: a label as an answer writes it: alone, bold, in parentheses, or before ")" and its content
_LABELLED_RE = re.compile(
    rf"[ \t*_]*(?:\(\s*(?P<a>{LABEL})\s*\)|(?P<b>{LABEL})(?=[ \t*_]*(?:[).:]|\Z)))"
    r"[ \t*_]*(?:[).:][ \t]*(?P<content>.*?))?[ \t*_.]*",
    re.DOTALL,
)
_CHARS = frozenset("".join(_LETTER_OF))


def latin_label(label: str) -> str | None:
    """The Latin letter of an option label written in another script (``پ`` is ``C``)."""
    return _LETTER_OF.get(label.strip())


def as_latin_option(text: str) -> tuple[str, str] | None:
    """A text that is an option's label in another script, alone or with its content
    (``**ب**``, ``(б)``, ``ب) سارا …``), as its Latin letter and its content ("" when
    alone); None for any other text."""
    if not text or text.lstrip(" \t*_(")[:1] not in _CHARS:
        return None  # (a first test that costs nothing: most texts start otherwise)
    match = _LABELLED_RE.fullmatch(text)
    if match is None:
        return None
    letter = _LETTER_OF[match.group("a") or match.group("b")]
    return letter, (match.group("content") or "").strip()


#: labels that are also math's symbols (``α``, ``Δ``): a gold that is one alone is no option
_SYMBOL_LABELS = frozenset("αβγδεΑΒΓΔΕ")


def bare_option_gold(gold: str) -> str | None:
    """The Latin letter of a gold that is an option's label in another script and nothing
    else (``ঘ``, ``(ب)``): the option a multiple-choice exam's key names; None for any other
    gold, and for a Greek letter alone (a symbol: ``\\alpha``'s answer)."""
    bare = gold.strip().strip("()（）*").strip()
    if bare in _SYMBOL_LABELS:
        return None
    return _LETTER_OF.get(bare)


#: the circled and parenthesised numerals of Unicode, each run from 1: ① ⑴ ⒈ ❶ ➀ ➊ ⓵
_CIRCLED_RUNS = (0x2460, 0x2474, 0x2488, 0x2776, 0x2780, 0x278A, 0x24F5)
_CIRCLED = {chr(start + i): str(i + 1) for start in _CIRCLED_RUNS for i in range(10)}
_CIRCLED.update({chr(0x2460 + i): str(i + 1) for i in range(10, 20)})  # ⑪ … ⑳
_CIRCLED_ANSWER_RE = re.compile(
    r"[*_\s(（\[]*([" + "".join(_CIRCLED) + r"])[*_\s)）\]]*"
    r"(?:번|号|番)?(?:입니다|이다|です|だ)?[*_\s]*[.。!！]?\s*"
)


def circled_option(text: str) -> str | None:
    """The number of a text that is one circled numeral (``②``, ``③번이다``, ``**⑤**``),
    or None."""
    if text.isascii():
        return None
    match = _CIRCLED_ANSWER_RE.fullmatch(text)
    return _CIRCLED[match.group(1)] if match is not None else None
