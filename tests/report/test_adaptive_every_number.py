"""Issue 34's check: a full run and an adaptive run of the same draws (160 questions,
k = 256, N = 8) give every number of every report option as the full run's first N samples
(or, above N, as the full run itself where the first success makes it exact), or refuse.

Three folders hold the same draws: the full run (256 samples each), the adaptive run (the
first 8, then doubling rounds until a success, as ``leash sample --adaptive`` draws), and
the full run's first 8 samples alone (a plain folder: the reference for what the first N
give)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from leash_tui.analysis.bootstrap import data_seed, paired_bootstrap
from leash_tui.cli import cli
from sampler.store.manifest import update_manifest
from tests.support.folder_builders import build_folder

K, N, QUESTIONS = 256, 8, 160


def _draws(seed: int = 34) -> dict[tuple[str, str], dict[str, list[str]]]:
    """Every sample of the full run: C correct, I<j> a wrong answer of class j."""
    rng = np.random.default_rng(seed)
    out = {}
    for q in range(QUESTIONS):
        bench = "alg" if q < 100 else "geo"
        row = {}
        for model, shift in (("base", 0.0), ("rlvr", 0.1)):
            p = 0.0 if rng.random() < 0.2 else float(np.clip(rng.beta(0.4, 1.5) + shift, 0, 1))
            wrong = rng.integers(1, 4, K)
            row[model] = ["C" if rng.random() < p else f"I{w}" for w in wrong]
        out[(bench, str(q))] = row
    return out


def _adaptive_drawn(samples: list[str]) -> int:
    """How many of ``samples`` an adaptive run with N = 8 and doubling rounds draws."""
    first = next((i for i, s in enumerate(samples) if s == "C"), None)
    drawn = N
    while drawn < K and (first is None or first >= drawn):
        drawn *= 2
    return drawn


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("every_number")
    draws = _draws()

    def spec(cut):
        return {
            key: {m: " ".join(s[: cut(s)]) for m, s in row.items()} for key, row in draws.items()
        }

    def entropy(cut):
        return {
            (b, q, m): [0.5 + 0.1 * (i % 7) for i in range(cut(s))]
            for (b, q), row in draws.items()
            for m, s in row.items()
        }

    full = build_folder(root / "full", spec(lambda s: K), token_entropy=entropy(lambda s: K))
    first = build_folder(root / "first", spec(lambda s: N), token_entropy=entropy(lambda s: N))
    adaptive = build_folder(
        root / "adaptive", spec(_adaptive_drawn), token_entropy=entropy(_adaptive_drawn)
    )

    def mark(manifest):
        for entry in manifest.models:
            entry.sampling = {"samples": K, "adaptive": {"min_samples": N, "rounds": "doubling"}}

    update_manifest(adaptive, mark)
    return {"full": full, "first": first, "adaptive": adaptive}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))


def report(folder, *args):
    result = CliRunner().invoke(cli, ["report", str(folder), "--format", "json", *map(str, args)])
    return result


def doc(folder, *args):
    result = report(folder, *args)
    assert result.exit_code == 0, result.output
    return {**json.loads(result.stdout), "stderr": result.stderr}


def by_scope(rows):
    return {(r["scope"], r["name"]): r for r in rows}


def test_the_adaptive_run_drew_fewer_samples(folders):
    drawn = sum(_adaptive_drawn(s) for row in _draws().values() for s in row.values())
    assert drawn < 0.5 * QUESTIONS * 2 * K


def test_support_at_the_folders_k_is_the_full_runs_and_pass_at_1_the_first_ns(folders):
    adaptive = by_scope(doc(folders["adaptive"], "--bootstrap", "0")["rows"])
    full = by_scope(doc(folders["full"], "--bootstrap", "0")["rows"])
    first = by_scope(doc(folders["first"], "--bootstrap", "0")["rows"])
    for key, row in adaptive.items():
        assert row["k"] == K
        assert {c: row[c] for c in "PESO"} == {c: full[key][c] for c in "PESO"}
        for rate in ("SRR", "NDR", "SDS", "NSCR"):
            assert row[rate] == full[key][rate]
        # pass@k at the folder's own k is exact; pass@1 is the first N samples'
        assert row["pass@k"] == pytest.approx(full[key]["pass@k"])
        assert row["pass@1"] == pytest.approx(first[key]["pass@1"])
        # token entropy would average every drawn sample: not shown
        assert row["token_entropy"] == {"base": None, "target": None}
        assert full[key]["token_entropy"]["base"] is not None
        # answer entropy over the first 32 samples: 32 were not drawn for every question
        assert row["answer_entropy"] == {"base": None, "target": None}


def test_answer_entropy_over_the_first_n_is_the_first_ns(folders):
    adaptive = by_scope(
        doc(folders["adaptive"], "--entropy-samples", N, "--bootstrap", "0")["rows"]
    )
    first = by_scope(doc(folders["first"], "--entropy-samples", N, "--bootstrap", "0")["rows"])
    for key, row in adaptive.items():
        assert row["answer_entropy"] == pytest.approx(first[key]["answer_entropy"])
        assert row["answer_entropy"]["base"] is not None


def test_budgets_up_to_n_are_the_first_ns_and_above_n_exact_or_a_dash(folders):
    at4 = by_scope(doc(folders["adaptive"], "--k", 4, "--bootstrap", "0")["rows"])
    ref = by_scope(doc(folders["first"], "--k", 4, "--bootstrap", "0")["rows"])
    for key, row in at4.items():
        for name in ("P", "E", "S", "O", "pass@k", "pass@1", "SRR", "NSCR"):
            assert row[name] == pytest.approx(ref[key][name]), name
    at16 = doc(folders["adaptive"], "--k", 16, "--allow-partial")
    for row in at16["rows"]:
        assert row["pass@k"] == {"base": None, "target": None}
        # never an interval beside a dash
        assert row["ci"]["pass@k_diff"] is None and row["ci"]["pass@k_base"] is None
        assert row["ci"]["NSCR"] is not None


def test_intervals_use_exact_support_and_the_first_ns_pass_at_1(folders):
    adaptive = doc(folders["adaptive"], "--bootstrap", 500)
    overall = next(r for r in adaptive["rows"] if r["scope"] == "overall")
    ci = overall["ci"]
    delta = overall["pass@1"]["target"] - overall["pass@1"]["base"]
    assert ci["pass@1_diff"][0] <= delta <= ci["pass@1_diff"][1]
    assert ci["pass@k_diff"] is not None  # pass@k at the folder's k is shown, so is its interval
    # the same interval from the full run's support at k and the first N samples' pass@1
    draws = _draws()
    keys = sorted(draws)  # the report's order: (benchmark, question_id)
    b = np.array([float("C" in draws[key]["base"]) for key in keys])
    t = np.array([float("C" in draws[key]["rlvr"]) for key in keys])
    p1b = np.array([draws[key]["base"][:N].count("C") / N for key in keys])
    p1t = np.array([draws[key]["rlvr"][:N].count("C") / N for key in keys])
    bench = np.array([key[0] for key in keys])
    ref = paired_bootstrap(b, t, p1b, p1t, bench, 500, 0.95, data_seed(extra=(K, 0.0, 500)))
    for name in ("SRR", "NDR", "NSCR", "pass@1_diff", "pass@k_diff"):
        assert ci[name] == pytest.approx(ref[name]), name


def test_estimators_and_forecast_are_the_first_ns(folders):
    adaptive = doc(
        folders["adaptive"], "--estimate-k", "1,4,8", "--forecast", 4096, "--bootstrap", "0"
    )
    first = doc(folders["first"], "--estimate-k", "1,4,8", "--forecast", 4096, "--bootstrap", "0")
    for ours, ref in zip(adaptive["estimates"], first["estimates"], strict=True):
        for name in ("pass@k", "pass^k", "G-Pass@k"):
            assert ours[name] == pytest.approx(ref[name]), (name, ours["k"])
        # distinct answers and maj@n count every drawn sample: not shown
        assert ours["distinct_answers"] == {"base": None, "target": None}
        assert ours["maj@n"] == {"base": None, "target": None}
    for ours, ref in zip(adaptive["forecast"], first["forecast"], strict=True):
        assert ours["forecast"] == pytest.approx(ref["forecast"])
        assert ours["forecast_model"] == ref["forecast_model"]
        assert ours["pass@k"] == pytest.approx(ref["pass@k"]) and ours["k"] == N
    measured = doc(folders["adaptive"], "--forecast", 8, "--bootstrap", "0")["forecast"][-1]
    assert set(measured["forecast_model"].values()) == {"measured"}


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--estimate-k", "16"], "the first 8 samples"),
        (["--threshold-curve"], "support threshold needs"),
        (["--support-threshold", "0.5"], "support threshold needs"),
    ],
)
def test_what_needs_samples_not_drawn_is_refused_in_one_line(folders, args, says):
    result = report(folders["adaptive"], *args)
    assert result.exit_code != 0 and says in result.output
    assert "Traceback" not in result.output


def test_the_notes_say_what_is_not_shown(folders):
    stderr = doc(folders["adaptive"], "--bootstrap", "0")["stderr"]
    assert "token entropy, distinct answers and maj@n" in stderr
    assert "--entropy-samples 8" in stderr
