"""A reasoning model's thinking that never ended: ``<think>`` opened, no ``</think>`` after it.

R1-style models think inside ``<think>…</think>`` and answer after it. A completion whose
last ``<think>`` is never closed was cut by the token limit while the model was still
thinking ("So, perhaps the answer is 25.\\n\\nBut let me verify step by step. … which is x
*"): a value its thinking tried on the way is no final answer. ``cut_off_thinking`` tells
such a completion when it also ends mid-sentence (no sentence end, box or closing math last):
extraction then finds no answer. Unclosed thinking that ends with a complete sentence or a
box (a model that forgot the closing tag and answered) is read as any completion is.
"""

from __future__ import annotations

_OPEN = "<think>"
_CLOSE = "</think>"
#: how a completion that states its answer ends: a sentence end, a box or math closing
_COMPLETE_ENDS = (".", "!", "?", "。", "}", "$", "\\]", "\\)", "**")


def cut_off_thinking(text: str) -> bool:
    """Whether ``text`` ends inside thinking it never closed, cut mid-sentence."""
    opened = text.rfind(_OPEN)
    if opened < 0 or _CLOSE in text[opened:]:
        return False
    return not text.rstrip().endswith(_COMPLETE_ENDS)
