"""Names from the folder are escaped once for each format, in every section of a report.

A benchmark named with a Markdown and LaTeX special must read as itself in the summary,
the curves and the perplexity of reference traces (whose LaTeX label was escaped twice
before the sections walk).
"""

from __future__ import annotations

import math

from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.side_tables.perplexity_table import merge_perplexity, trace_id
from tests.support.folder_builders import build_folder

NAME = "alg_x+y"  # names may hold "_", special to Markdown and LaTeX


def test_a_name_with_specials_is_escaped_once_in_every_section(tmp_path):
    root = build_folder(
        tmp_path / "r", {(NAME, "1"): {"base": "C I7", "rlvr": "C C"}}, domains={NAME: "math"}
    )
    text = "a careful solution"
    merge_perplexity(
        root,
        [
            {"benchmark": NAME, "question_id": "1", "source": "R1", "trace": trace_id(text),
             "model": model, "n_tokens": 10, "mean_nll": math.log(2.0), "text": text}
            for model in ("base", "rlvr")
        ],
    )  # fmt: skip

    def report(fmt: str) -> str:
        args = ["report", str(root), "--curves", "--bootstrap", "0", "--format", fmt]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        return result.stdout

    latex = report("latex")
    lines = [line for line in latex.splitlines() if line.startswith("alg")]
    # summary, one curve point per budget (k = 1, 2) and the perplexity row
    assert len(lines) == 4 and all(line.startswith(r"alg\_x+y & ") for line in lines)
    assert r"\textbackslash" not in latex
    markdown = report("markdown")
    assert markdown.count(r"| alg\_x+y |") == 4
    assert report("table").count(NAME) == 3  # a curve's label on its first point only
