"""The prompt a model was sampled on, rebuilt from the folder's manifest.

``leash sample`` records per model the template text and whether the tokenizer's chat
template was applied (``sampling.template_text``, ``sampling.chat_template``); teacher
forcing (exact entropy, perplexity) must condition on the very same prompt. Models
that were imported carry no such record: the caller's fallback template is used, with
the chat template applied when the tokenizer has one ("auto"), and the caller says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sampler.benchmarks.prompts import (
    PromptTemplate,
    prompt_token_ids,
    resolve_template,
    uses_chat,
)
from sampler.errors import LeashError
from sampler.store import ModelEntry


@dataclass(frozen=True)
class SampledPrompt:
    """How one model's prompts are built; ``recorded`` is False for a fallback."""

    template: PromptTemplate
    chat: bool
    recorded: bool

    def token_ids(self, problem: str, tokenizer: Any) -> list[int]:
        return prompt_token_ids(self.template, problem, tokenizer, self.chat)


def sampled_prompt(entry: ModelEntry | None, tokenizer: Any, fallback: str) -> SampledPrompt:
    """The prompt recipe of ``entry`` (from its sampling record), else ``fallback``."""
    sampling = entry.sampling if entry is not None else {}
    text = sampling.get("template_text")
    if isinstance(text, str) and "{problem}" in text:
        name = str(sampling.get("template") or "recorded")
        template = PromptTemplate(name, text, chat=False, description="as recorded")
        return SampledPrompt(template, bool(sampling.get("chat_template")), True)
    template = resolve_template(fallback)
    name = entry.name if entry is not None else "model"
    try:
        chat = uses_chat(template, "auto", tokenizer, name)
    except LeashError:
        chat = False
    return SampledPrompt(template, chat, False)
