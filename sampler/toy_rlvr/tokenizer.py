"""A character-level tokenizer for the toy task, built with ``tokenizers`` and saved as a
standard ``PreTrainedTokenizerFast`` (``tokenizer.json``), so transformers and vLLM load it.

Every character of the prompt template and the solutions is one token; ``<unk>`` covers any
other character. The tokenizer adds no special tokens to a text (no BOS), so the prompt ids
``leash sample`` computes are the ids the model was trained on; a completion ends with
``</s>``.
"""

from __future__ import annotations

from typing import Any

from sampler.benchmarks.prompts import PLAIN

PAD, BOS, EOS, UNK = "<pad>", "<s>", "</s>", "<unk>"
SPECIAL = (PAD, BOS, EOS, UNK)
#: The characters of problems and solutions; the prompt template's are added to them.
TASK_CHARS = "0123456789+-=,. \\boxed{}\n"


def alphabet() -> list[str]:
    """The vocabulary: special tokens, then every character, in a fixed order."""
    chars = sorted(set(TASK_CHARS) | set(PLAIN.text.replace("{problem}", "")))
    return [*SPECIAL, *chars]


def build_tokenizer() -> Any:
    """The character tokenizer as a ``PreTrainedTokenizerFast``."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {token: i for i, token in enumerate(alphabet())}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token=UNK))
    tok.pre_tokenizer = pre_tokenizers.Split(Regex("[\\s\\S]"), behavior="isolated")
    tok.decoder = decoders.Fuse()
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token=BOS,
        eos_token=EOS,
        unk_token=UNK,
        pad_token=PAD,
        clean_up_tokenization_spaces=False,
    )
