"""End-of-sequence tokens a harness leaves in a completion, removed before its answer is read.

Benchmarks and chat templates write their own markers where a part of the answer ends:
GAOKAO-Bench's ``<eoe>`` (end of explanation) and ``<eoa>`` (end of answer), ``</s>``, and
chat-template tokens such as ``<|im_end|>`` or ``<|eot_id|>``; MathCoder's transcripts
mark their blocks so (``<|code|>`` … ``<|endofblock|>``, ``<|execution|>`` … ``<|endofblock|>``).
They are no part of the answer: ``【答案】D<eoa>`` states ``D``. ``without_end_tokens``
replaces each with a line break, so that what a token closed ends a line as the model
meant; linear time.
"""

from __future__ import annotations

import re

#: ``<eoa>``/``<eoe>``/``<eos>``, ``</s>``, and ``<|name|>`` chat-template tokens
_END_TOKEN_RE = re.compile(r"<eo[aes]>|</s>|<\|[a-z_]{2,24}\|>", re.IGNORECASE)


_EXECUTION = "<|execution|>"
_END_OF_BLOCK = "<|endofblock|>"


def with_output_fences(text: str) -> str:
    """``text`` with each MathCoder-style output block (``<|execution|>`` … ``<|endofblock|>``)
    written as the ```` ```output ```` block it is, so that the rules for tool-integrated
    reasoning read it as they read ToRA's; linear time (one scan for each marker)."""
    if _EXECUTION not in text:
        return text
    pieces: list[str] = []
    at, end = 0, -1
    while (start := text.find(_EXECUTION, at)) >= 0:
        if 0 <= end < start or end == -1:  # (a missing closer is searched for once: -2)
            end = text.find(_END_OF_BLOCK, start)
            end = -2 if end < 0 else end
        following = text.find(_EXECUTION, start + len(_EXECUTION))
        if end < 0 or 0 <= following < end:
            stop = following if following >= 0 else len(text)
            closer = stop
        else:
            stop, closer = end, end + len(_END_OF_BLOCK)
        output = text[start + len(_EXECUTION) : stop].strip("\n")
        pieces += [text[at:start], "\n```output\n", output, "\n```\n"]
        at = closer
    return "".join(pieces) + text[at:]


def without_end_tokens(text: str) -> str:
    """``text`` with every end-of-sequence token replaced by a line break (MathCoder's
    output blocks first written as ```` ```output ```` blocks, ``with_output_fences``)."""
    if "<" not in text:
        return text
    return _END_TOKEN_RE.sub("\n", with_output_fences(text))
