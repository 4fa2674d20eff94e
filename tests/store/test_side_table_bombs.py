"""Side tables that decode to far more than they weigh (issue #33 items 7 and 9): a small
``perplexity.parquet`` holding one long text dictionary-encoded and repeated is read by
``leash report`` without its ``text`` column, a read that would decode past the cap is
refused in one line, and a perplexity table of the wrong types is one line naming it.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.errors import LeashError
from sampler.store.side_tables import perplexity_table, side_file
from tests.support.folder_builders import build_folder

SPEC = {("b", "q1"): {"base": "C C I I", "rlvr": "C C C I"}}


def _bomb(root, rows: int = 200) -> None:
    table = pa.table(
        {
            "benchmark": ["b"] * rows,
            "question_id": ["q1"] * rows,
            "source": ["s"] * rows,
            "trace": [f"{i:016x}" for i in range(rows)],
            "model": ["rlvr"] * rows,
            "n_tokens": pa.array([10] * rows, pa.int32()),
            "mean_nll": [0.5] * rows,
            "text": pa.array(["x" * 900_000] * rows, pa.large_string()),
        }
    )
    pq.write_table(table, root / "perplexity.parquet", compression="zstd", use_dictionary=True)


def test_a_dictionary_bomb_is_never_decoded_by_the_report(tmp_path, monkeypatch):
    root = build_folder(tmp_path / "run", SPEC)
    _bomb(root)
    assert (root / "perplexity.parquet").stat().st_size < 100_000  # 180 MB of text inside
    monkeypatch.setattr(side_file, "MAX_DECODED_BYTES", 10 * 1024**2)
    asked = []
    real = perplexity_table.read_perplexity

    def recorded(root, question=None, columns=None):
        asked.append(columns)
        return real(root, question, columns)

    monkeypatch.setattr(perplexity_table, "read_perplexity", recorded)
    result = CliRunner().invoke(cli, ["report", str(root), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert asked and all(c is not None and "text" not in c for c in asked)
    with pytest.raises(LeashError, match=r"perplexity\.parquet: its strings would decode to more"):
        real(root)  # the whole table, text included: refused before it is expanded


def test_a_footer_claiming_too_many_rows_is_refused(tmp_path, monkeypatch):
    root = build_folder(tmp_path / "run", SPEC)
    _bomb(root, rows=20)
    monkeypatch.setattr(side_file, "MAX_SIDE_TABLE_ROWS", 10)
    with pytest.raises(LeashError, match=r"perplexity\.parquet: its footer claims 20 rows"):
        perplexity_table.read_perplexity(root, columns=perplexity_table.PERPLEXITY_SCORE_COLUMNS)


def test_a_perplexity_table_of_wrong_types_is_one_line(tmp_path):
    root = build_folder(tmp_path / "run", SPEC)
    wrong = pa.table(
        {
            "benchmark": [1, 2],
            "question_id": ["q1", "q1"],
            "source": ["s", "s"],
            "trace": ["a", "b"],
            "model": [{"a": 1}, {"a": 2}],
            "n_tokens": [1, 2],
            "mean_nll": ["x", "y"],
        }
    )
    pq.write_table(wrong, root / "perplexity.parquet")
    result = CliRunner().invoke(cli, ["report", str(root)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "perplexity.parquet" in lines[0]
