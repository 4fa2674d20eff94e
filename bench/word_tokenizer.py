"""The word-level tokenizer of the benches' tiny Llama checkpoints.

Words ``w0 .. w{vocab-5}`` after the four specials ``<pad> <s> </s> <unk>`` (ids 0-3),
split on whitespace, so that a bench can write token ids as text.
"""

from __future__ import annotations

from typing import Any


def vocabulary(vocab: int) -> list[str]:
    """The tokenizer's words in id order."""
    return ["<pad>", "<s>", "</s>", "<unk>"] + [f"w{i}" for i in range(vocab - 4)]


def word_level_tokenizer(vocab: int, decoder: Any = None) -> Any:
    """A ``PreTrainedTokenizerFast`` over ``vocab`` ids; ``decoder``: a ``tokenizers`` decoder."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    words = vocabulary(vocab)
    tok = Tokenizer(models.WordLevel(vocab={w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    if decoder is not None:
        tok.decoder = decoder
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<s>",
        eos_token="</s>",
        unk_token="<unk>",
        pad_token="<pad>",
    )
