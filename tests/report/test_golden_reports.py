"""Every other report, in every format it has, compared byte for byte with golden files.

Beside the pair report of test_golden_formats.py: the one-model report of a folder
with one model, a training series (targets NAME@STEP) with budget curves, reference
perplexities and a choice benchmark's guessing part, the witnesses of fragile support
claims and the loss audit (``leash witnesses --losses``). Each is run from the command
line on a folder built here. Regenerate as tests/report/golden_check.py says.
"""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from leash_tui.report.formats import FORMATS
from sampler.store.side_tables.perplexity_table import merge_perplexity, trace_id
from tests.report.golden_check import check_golden
from tests.support.folder_builders import build_folder

OPTIONS = "Which?\n(A) 1\n(B) 2\n(C) 3\n(D) 4"
ONE_MODEL = {
    ("alg", "1"): {"base": "C C I7 I7"},
    ("alg", "2"): {"base": "I7 I7 I8 N"},
    ("alg", "3"): {"base": "C C C C"},
    ("code_x", "1"): {"base": "C I2 I2 I3"},
}
SERIES_MODELS = ("base", "rl@100", "rl@200", "rl@300")
SERIES = {
    question: dict(zip(SERIES_MODELS, specs.split("/"), strict=True))
    for question, specs in {
        ("alg", "1"): "C I I I/C C I I/I I I I/C I I I",
        ("alg", "2"): "I I I I/I I I I/C I I I/C C I I",
        ("geo", "1"): "C C C C/C C C C/C C C C/I I I I",
        ("mc", "1"): "C I I I/C C C C/I I I I/C C I I",
    }.items()
}
CLAIMS = {
    ("phys", "q1"): {"base": "C C C C", "rlvr": "I1 I2 I3 C5\\text{cm}"},
    ("phys", "q2"): {"base": "C I7 C I7", "rlvr": "I7 I7 I7 I7"},
    ("phys", "q3"): {"base": "C C C C", "rlvr": "C C C C"},
    ("phys", "q4"): {"base": "I1 I1 I1 I1", "rlvr": "I1 I1 I1 C"},
    ("alg", "1"): {"base": "C I7 I7 I7", "rlvr": "I10in I10in I10in N"},
}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("golden-reports")
    one = build_folder(
        root / "one",
        ONE_MODEL,
        targets=(),
        domains={"alg": "math", "code_x": "code"},
        token_entropy={("alg", "1", "base"): [0.5, 0.25, 1.0, 2.0]},
    )
    series = build_folder(
        root / "series",
        SERIES,
        targets=("rl@300", "rl@100", "rl@200"),
        domains={"alg": "math", "geo": "math", "mc": "choice"},
        verifiers={"mc": "choice"},
        problems={("mc", "1"): OPTIONS},
    )
    merge_perplexity(
        series,
        [
            _trace("alg", "1", "R1", "a careful solution", model, nll)
            for model, nll in (("base", math.log(2.5)), ("rl@100", math.log(7.25)))
        ]
        + [_trace("geo", "1", "book", "the book's proof", "base", math.log(3.0))],
    )
    golds = {("phys", "q1"): "5\\text{m}", ("phys", "q4"): "=1+1"}
    claims = build_folder(root / "claims", CLAIMS, golds=golds)
    return {"one": one, "series": series, "claims": claims}


#: the columns of a perplexity row the traces below give (then its trace id and tokens)
TRACE_COLUMNS = ("benchmark", "question_id", "source", "text", "model", "mean_nll")


def _trace(*values) -> dict:
    row = dict(zip(TRACE_COLUMNS, values, strict=True))
    return row | {"trace": trace_id(row["text"]), "n_tokens": 120}


def stdout(*args: str) -> str:
    result = CliRunner().invoke(cli, [*map(str, args)])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("fmt", FORMATS)
def test_one_model_report_matches_its_golden_file(folders, fmt):
    text = stdout("report", folders["one"], "--curves", "--no-cache", "--format", fmt)
    check_golden(text, "model", fmt)


@pytest.mark.parametrize("fmt", FORMATS)
def test_training_series_report_matches_its_golden_file(folders, fmt):
    args = ("--curves", "--bootstrap", "100", "--no-cache", "--format", fmt)
    check_golden(stdout("report", folders["series"], *args), "series", fmt)


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_witnesses_match_their_golden_file(folders, fmt):
    text = stdout("witnesses", folders["claims"], "--all", "--format", fmt)
    check_golden(text, "witnesses", fmt)


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_losses_match_their_golden_file(folders, fmt):
    text = stdout("witnesses", folders["claims"], "--losses", "--format", fmt)
    check_golden(text, "losses", fmt)
