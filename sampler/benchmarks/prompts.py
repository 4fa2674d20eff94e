"""Prompt templates: turn a question into the token ids a model is sampled on.

A template is text with one ``{problem}`` placeholder (replaced literally, so the
braces of LaTeX in problems and templates need no escaping). Named templates cover
the common setups; any other text file holding ``{problem}`` is a custom template.
The tokenizer's chat template is applied on top when asked (``chat_template = true``),
or by default (``"auto"``) for templates meant for chat models when the tokenizer has
one. By default base and target models get the same template, hence the same
problem text.

The tokenizer is duck-typed (a transformers tokenizer): this module imports nothing
heavy.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sampler.errors import LeashError

PLACEHOLDER = "{problem}"
ChatSetting = Literal["auto", "on", "off"]
CHAT_SETTINGS: tuple[str, ...] = ("auto", "on", "off")


@dataclass(frozen=True)
class PromptTemplate:
    """A prompt template: its name, text with ``{problem}``, and whether it is for chat models."""

    name: str
    text: str
    chat: bool
    description: str
    source: str | None = None

    def render(self, problem: str) -> str:
        return self.text.replace(PLACEHOLDER, problem)


BOXED = PromptTemplate(
    "boxed",
    "{problem}\nPlease reason step by step, and put your final answer within \\boxed{}.",
    chat=True,
    description="the common step-by-step prompt asking for a \\boxed{} answer"
    " (with the tokenizer's chat template when it has one)",
)
R1 = PromptTemplate(
    "r1",
    "A conversation between User and Assistant. The User asks a question, and the Assistant"
    " solves it. The Assistant first thinks about the reasoning process in the mind and then"
    " provides the User with the answer. The reasoning process is enclosed within"
    " <think> </think> and the answer within <answer> </answer> tags, with the final answer"
    " within \\boxed{}.\nUser: {problem}\nAssistant: <think>",
    chat=False,
    description="DeepSeek-R1-Zero style conversation, completed as raw text",
)
PLAIN = PromptTemplate(
    "plain",
    "Problem:\n{problem}\n\nSolution:",
    chat=False,
    description="plain 'Problem:/Solution:' completion prompt for base models",
)

TEMPLATES: dict[str, PromptTemplate] = {t.name: t for t in (BOXED, R1, PLAIN)}
DEFAULT_TEMPLATE = BOXED.name


def resolve_template(spec: str) -> PromptTemplate:
    """A named template, or a custom one read from the file ``spec`` (must hold ``{problem}``)."""
    if spec in TEMPLATES:
        return TEMPLATES[spec]
    path = Path(spec).expanduser()
    if not path.is_file():
        names = ", ".join(TEMPLATES)
        raise LeashError(
            f"prompt template {spec!r}: not a template name ({names}) nor an existing file"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LeashError(f"{path}: cannot read the prompt template ({exc})") from exc
    if text.count(PLACEHOLDER) != 1:
        raise LeashError(
            f"{path}: a prompt template must contain {PLACEHOLDER} exactly once"
            f" (found {text.count(PLACEHOLDER)})"
        )
    if text.endswith("\n") and not text.endswith("\n\n"):
        text = text[:-1]  # the newline an editor adds at the end of the file
    return PromptTemplate(
        path.stem, text, chat=False, description=f"custom template {path}", source=str(path)
    )


def parse_chat_setting(value: Any, where: str) -> ChatSetting:
    """Read a chat-template setting: true/false/"auto" (or on/off)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    text = str(value).strip().lower()
    aliases = {"true": "on", "yes": "on", "1": "on", "false": "off", "no": "off", "0": "off"}
    text = aliases.get(text, text)
    if text not in CHAT_SETTINGS:
        raise LeashError(f"{where}: chat template setting {value!r}: use true, false or auto")
    return text  # type: ignore[return-value]


def has_chat_template(tokenizer: Any) -> bool:
    return bool(getattr(tokenizer, "chat_template", None))


def uses_chat(template: PromptTemplate, setting: ChatSetting, tokenizer: Any, model: str) -> bool:
    """Whether model ``model``'s prompts go through its tokenizer's chat template."""
    if setting == "off":
        return False
    if setting == "on":
        if not has_chat_template(tokenizer):
            raise LeashError(
                f"model {model!r}: chat template asked for, but its tokenizer has none;"
                " set chat_template = false (or --no-chat-template)"
            )
        return True
    return template.chat and has_chat_template(tokenizer)


def prompt_text(template: PromptTemplate, problem: str, tokenizer: Any, chat: bool) -> str:
    """The full prompt string the model sees (chat template applied when ``chat``)."""
    text = template.render(problem)
    if not chat:
        return text
    rendered = tokenizer.apply_chat_template(
        [{"role": "user", "content": text}], tokenize=False, add_generation_prompt=True
    )
    return str(rendered)


def prompt_token_ids(
    template: PromptTemplate, problem: str, tokenizer: Any, chat: bool
) -> list[int]:
    """Token ids of the prompt: the chat template brings its own special tokens, raw text
    gets the tokenizer's usual ones (a BOS token for most models)."""
    text = prompt_text(template, problem, tokenizer, chat)
    encoded = tokenizer(text, add_special_tokens=not chat)
    return list(encoded["input_ids"])
