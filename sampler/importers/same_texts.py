"""A greedy dump found: every sample of most questions the same text.

verl validates with ``do_sample = False`` unless ``val_kwargs.do_sample=True`` is given, so a
validation dump with ``val_kwargs.n = k`` then holds k copies of one greedy completion per
question: pass@k is pass@1, and the support leash measures is one answer wide. ``SameTexts``
keeps, for each (benchmark, question, model), a hash of its first sample's text, the number
of samples and whether another text came; ``warnings`` names each model for which every
sample of most of its questions (three in four or more of those with two samples or more, and
two at least) is the same text: a sampled dump with few samples a question can hold one text
for an easy question, a greedy one does for nearly every question. Samples of status ``error``
(a failed episode) do not count.
"""

from __future__ import annotations

import hashlib

GroupKey = tuple[str, str, str]


class SameTexts:
    """Whether the samples of each question and model are all one text (module docstring)."""

    def __init__(self) -> None:
        self._first: dict[GroupKey, bytes] = {}
        self._count: dict[GroupKey, int] = {}
        self._differs: set[GroupKey] = set()

    def add(self, group: GroupKey, text: str) -> None:
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        first = self._first.setdefault(group, digest)
        self._count[group] = self._count.get(group, 0) + 1
        if first != digest:
            self._differs.add(group)

    def warnings(self) -> list[str]:
        """One line per model whose questions mostly hold one text each."""
        per_model: dict[str, list[int]] = {}  # model -> [questions with k >= 2, all one text]
        for group, count in self._count.items():
            if count < 2:
                continue
            counts = per_model.setdefault(group[2], [0, 0])
            counts[0] += 1
            counts[1] += group not in self._differs
        return [
            f"model {model}: every sample of {same} of its {n} questions with several samples"
            " is the same text: a greedy dump? (then pass@k is pass@1 and the support is one"
            " answer wide); sample with a temperature above 0 (verl validates greedily unless"
            " val_kwargs.do_sample=True is set)"
            for model, (n, same) in sorted(per_model.items())
            if n >= 2 and same * 4 >= n * 3
        ]
