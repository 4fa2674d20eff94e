"""The problem inside a templated prompt: the chat template a trainer logged stripped off.

Trainers log the prompt as the model saw it: the chat template applied and then, in verl
(``tokenizer.decode(input_ids, skip_special_tokens=True)``) and TRL (``batch_decode(...,
skip_special_tokens=True)``), decoded with the special tokens dropped. leash identifies a
question by its problem text, so ``problem_of_prompt`` takes the last user turn out of

* ChatML (Qwen and others), with its special tokens
  (``<|im_start|>user\\nPROBLEM<|im_end|>\\n<|im_start|>assistant\\n``) or without them
  (``system\\n...\\nuser\\nPROBLEM\\nassistant\\n``);
* Llama 3 (``<|start_header_id|>user<|end_header_id|>\\n\\nPROBLEM<|eot_id|>...``; without the
  special tokens ``...user\\n\\nPROBLEMassistant\\n\\n``);
* DeepSeek-R1 (``<｜User｜>PROBLEM<｜Assistant｜><think>\\n``; without the special tokens
  ``PROBLEM<think>\\n``, so that a system prompt, which this template writes bare before the
  user turn, stays in front of the problem: DeepSeek advises none for R1);
* Qwen3 with thinking off (``enable_thinking=False``), whose generation prompt ends in an
  empty thought, ``assistant\\n<think>\\n\\n</think>\\n\\n``: ``<think>`` and ``</think>``
  are not special tokens, so the decode keeps them.

tests/importers/test_chat_templates.py renders each with transformers' ``apply_chat_template``
on tokenizers the test builds and decodes it as verl and TRL do.

Any other text is the problem as it stands (white space at its ends dropped): a prompt
without a template, or a template this module does not know, is still one question per
distinct text, only with its template kept in the problem.
"""

from __future__ import annotations

import re

_CHATML = re.compile(r"<\|im_start\|>user\n(.*?)<\|im_end\|>", re.S)
_LLAMA3 = re.compile(r"<\|start_header_id\|>user<\|end_header_id\|>\n\n(.*?)<\|eot_id\|>", re.S)
_DEEPSEEK = re.compile(r"<｜User｜>(.*?)<｜Assistant｜>", re.S)
#: The thinking cue a generation prompt may end in: ``<think>``, or an empty thought.
_CUE = r"(?:\s*<think>(?:\s*</think>)?)?"
#: ChatML decoded without special tokens: an optional system turn, the user turn, the cue.
_CHATML_BARE = re.compile(r"\A(?:system\n.*?\n)?user\n(.*)\nassistant" + _CUE + r"\Z", re.S)
_LLAMA3_BARE = re.compile(r"\A(?:system\n\n.*?)?user\n\n(.*?)assistant" + _CUE + r"\Z", re.S)
_THINK_CUE = re.compile(r"<think>\s*(?:</think>\s*)?\Z")


def problem_of_prompt(prompt: str) -> str:
    """The problem text of a templated prompt (see the module docstring)."""
    for pattern in (_CHATML, _LLAMA3, _DEEPSEEK):
        turns = pattern.findall(prompt)
        if turns:
            return turns[-1].strip()
    text = prompt.strip()
    for pattern in (_CHATML_BARE, _LLAMA3_BARE):
        match = pattern.match(text)
        if match:
            return match.group(1).strip()
    return _THINK_CUE.sub("", text).strip()


def problem_of_messages(messages: object) -> str | None:
    """The content of the last user message of a list of chat messages, None if it has none."""
    if not isinstance(messages, list | tuple):
        return None
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content.strip()
    return None
