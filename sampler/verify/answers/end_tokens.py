"""End-of-sequence tokens a harness leaves in a completion, removed before its answer is read.

Benchmarks and chat templates write their own markers where a part of the answer ends:
GAOKAO-Bench's ``<eoe>`` (end of explanation) and ``<eoa>`` (end of answer), ``</s>``, and
chat-template tokens such as ``<|im_end|>`` or ``<|eot_id|>``. They are no part of the
answer: ``【答案】D<eoa>`` states ``D``. ``without_end_tokens`` replaces each with a line
break, so that what a token closed ends a line as the model meant; linear time.
"""

from __future__ import annotations

import re

#: ``<eoa>``/``<eoe>``/``<eos>``, ``</s>``, and ``<|name|>`` chat-template tokens
_END_TOKEN_RE = re.compile(r"<eo[aes]>|</s>|<\|[a-z_]{2,24}\|>", re.IGNORECASE)


def without_end_tokens(text: str) -> str:
    """``text`` with every end-of-sequence token replaced by a line break."""
    if "<" not in text:
        return text
    return _END_TOKEN_RE.sub("\n", text)
