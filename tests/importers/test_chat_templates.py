"""Every template ``chat_template.problem_of_prompt`` claims, rendered by transformers.

Each case builds a small byte-level BPE tokenizer (trained here on a few lines, so that any
text round-trips) with the special tokens of a model family registered as the model's
tokenizer registers them, and a chat template holding the parts of that family's published
template a prompt is made of (system turn, user turn, generation prompt). The prompt is
rendered by transformers' ``apply_chat_template`` and decoded as the trainers log it: verl
and TRL with ``skip_special_tokens=True``, SkyRL with the special tokens kept. The problem
taken out of it must be the user's message, whatever the template.
"""

from __future__ import annotations

import pytest

from sampler.importers.chat_template import problem_of_prompt

transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")

TURNS = (
    "{% for m in messages %}"
    "{{ '<|im_start|>' + m['role'] + '\\n' + m['content'] + '<|im_end|>\\n' }}{% endfor %}"
)
CHATML = TURNS + "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
#: Qwen2.5: a default system turn when the messages have none
QWEN25 = (
    "{% if messages[0]['role'] != 'system' %}{{ '<|im_start|>system\\nYou are Qwen, created by"
    " Alibaba Cloud. You are a helpful assistant.<|im_end|>\\n' }}{% endif %}" + CHATML
)
#: Qwen3: ``enable_thinking=False`` closes an empty thought in the generation prompt
QWEN3 = (
    TURNS + "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}"
    "{% if enable_thinking is defined and enable_thinking is false %}"
    "{{ '<think>\\n\\n</think>\\n\\n' }}{% endif %}{% endif %}"
)
LLAMA3 = (
    "{{ '<|begin_of_text|>' }}{% if messages[0]['role'] != 'system' %}"
    "{{ '<|start_header_id|>system<|end_header_id|>\\n\\nCutting Knowledge Date: December 2023\\n"
    "Today Date: 26 Jul 2024\\n\\n<|eot_id|>' }}{% endif %}{% for m in messages %}"
    "{{ '<|start_header_id|>' + m['role'] + '<|end_header_id|>\\n\\n' + m['content'] }}"
    "{{ '<|eot_id|>' }}"
    "{% endfor %}{% if add_generation_prompt %}"
    "{{ '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}{% endif %}"
)
DEEPSEEK_R1 = (
    "{{ '<｜begin▁of▁sentence｜>' }}{% for m in messages %}{% if m['role'] == 'system' %}"
    "{{ m['content'] }}{% elif m['role'] == 'user' %}{{ '<｜User｜>' + m['content'] }}{% endif %}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<｜Assistant｜><think>\\n' }}{% endif %}"
)

#: family -> (template, special tokens, added tokens that are not special, template options)
FAMILIES = {
    "chatml": (CHATML, ["<|im_start|>", "<|im_end|>"], [], {}),
    "qwen2.5": (QWEN25, ["<|im_start|>", "<|im_end|>", "<|endoftext|>"], [], {}),
    "qwen3-thinking-off": (
        QWEN3,
        ["<|im_start|>", "<|im_end|>", "<|endoftext|>"],
        ["<think>", "</think>"],
        {"enable_thinking": False},
    ),
    "qwen3-thinking-on": (
        QWEN3,
        ["<|im_start|>", "<|im_end|>", "<|endoftext|>"],
        ["<think>", "</think>"],
        {"enable_thinking": True},
    ),
    "llama3": (
        LLAMA3,
        ["<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"],
        [],
        {},
    ),
    "deepseek-r1": (
        DEEPSEEK_R1,
        ["<｜begin▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>"],
        ["<think>", "</think>"],
        {},
    ),
}
PROBLEMS = [
    "What is 1+1?",
    "Let $x$ be real.\nFind $x$ if $2x = 6$.\n\nPut the answer in \\boxed{}.",
    "The user asks: what does the assistant say?",
]
SYSTEM = "Please reason step by step."


def tokenizer(specials: list[str], added: list[str], template: str):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    backend.train_from_iterator([*PROBLEMS, SYSTEM, "system user assistant"], trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=backend)
    fast.add_special_tokens({"additional_special_tokens": specials})
    fast.add_tokens(added)  # registered, not special: a decode keeps them
    fast.chat_template = template
    return fast


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("with_system", [False, True])
def test_the_problem_is_the_user_message_under_every_claimed_template(family, with_system):
    template, specials, added, options = FAMILIES[family]
    tok = tokenizer(specials, added, template)
    for problem in PROBLEMS:
        messages = [{"role": "user", "content": problem}]
        if with_system:
            messages.insert(0, {"role": "system", "content": SYSTEM})
        ids = tok.apply_chat_template(
            messages, tokenize=True, add_generation_prompt=True, return_dict=False, **options
        )
        logged_bare = tok.decode(ids, skip_special_tokens=True)  # verl, TRL
        logged_full = tok.decode(ids, skip_special_tokens=False)  # SkyRL
        assert problem_of_prompt(logged_full) == problem.strip(), logged_full
        if family == "deepseek-r1" and with_system:
            # nothing is left between the system text and the problem once the special
            # tokens are dropped: the problem keeps the system text in front (DeepSeek
            # advises no system prompt for R1; --gold-from still joins by containment)
            assert problem_of_prompt(logged_bare) == SYSTEM + problem.strip()
            continue
        assert problem_of_prompt(logged_bare) == problem.strip(), logged_bare


def test_the_thinking_off_prompt_ends_in_an_empty_thought_the_decode_keeps():
    template, specials, added, options = FAMILIES["qwen3-thinking-off"]
    tok = tokenizer(specials, added, template)
    ids = tok.apply_chat_template(
        [{"role": "user", "content": "Q?"}],
        add_generation_prompt=True,
        return_dict=False,
        **options,
    )
    assert (
        tok.decode(ids, skip_special_tokens=True) == "user\nQ?\nassistant\n<think>\n\n</think>\n\n"
    )
