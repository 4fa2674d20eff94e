"""Question keys: one string per (benchmark, question_id), different for different pairs
whatever the ids hold, so lookups on them are the joins they replace."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given
from hypothesis import strategies as st

from leash_tui.analysis.support import scope_entropies, with_entropies
from sampler.store.row_keys import question_keys

text = st.text(alphabet=st.sampled_from("a1:\x1f/é"), max_size=4)


@given(st.lists(st.tuples(text, text), min_size=1, max_size=12))
def test_keys_are_equal_exactly_when_the_pairs_are(pairs):
    table = pa.table({"benchmark": [b for b, _ in pairs], "question_id": [q for _, q in pairs]})
    keys = question_keys(table).to_pylist()
    for i, a in enumerate(pairs):
        for j, b in enumerate(pairs):
            assert (keys[i] == keys[j]) == (a == b)


def test_keys_of_dictionary_columns_equal_those_of_plain_strings():
    plain = pa.table({"benchmark": ["m", "m", "g"], "question_id": ["1", "2", "1"]})
    encoded = pa.table(
        {name: pc.dictionary_encode(plain.column(name)) for name in plain.column_names}
    )
    assert question_keys(encoded).to_pylist() == question_keys(plain).to_pylist()


def _stats(rows):
    return pa.table(
        {
            "benchmark": [r[0] for r in rows],
            "question_id": [r[1] for r in rows],
            "token_entropy_sum": [r[2] for r in rows],
            "token_entropy_n": [r[3] for r in rows],
            "answer_entropy": [r[4] for r in rows],
        }
    )


def test_entropies_looked_up_once_give_what_a_join_per_scope_gives():
    questions = pa.table(
        {
            "benchmark": pc.dictionary_encode(pa.array(["m", "m", "m", "g", "g"])),
            "question_id": ["1", "2", "3", "1", "2:"],
            "n_base": [4] * 5,
        }
    )
    base = _stats([("m", "1", 2.0, 4, 0.5), ("m", "3", 6.0, 4, None), ("g", "2:", 1.0, 2, 1.0)])
    target = _stats([("g", "1", 3.0, 3, 0.0), ("m", "2", 1.0, 1, 0.2), ("x", "9", 9.0, 9, 9.0)])
    entropies = {"b": base, "t": target}
    looked_up = with_entropies(questions, entropies, {"base": "b", "target": "t"})
    assert looked_up.num_rows == questions.num_rows
    for bench in ("m", "g"):
        part = looked_up.filter(pc.equal(looked_up.column("benchmark").cast(pa.string()), bench))
        plain = part.select(questions.column_names)
        for role, stats in (("base", base), ("target", target)):
            assert scope_entropies(part, stats, role) == scope_entropies(plain, stats)
    assert scope_entropies(looked_up, base, "base") == (9.0 / 10, 0.75)
    nothing = questions.filter(pc.equal(questions.column("question_id"), "2"))
    assert scope_entropies(with_entropies(nothing, entropies, {"base": "b"}), base, "base") == (
        None,
        None,
    )
