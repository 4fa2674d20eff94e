"""The question screen shows a question's reference traces with both models' perplexities."""

from __future__ import annotations

import math

from sampler.store.side_tables.perplexity_table import merge_perplexity, trace_id
from tests.support.explorer_helpers import open_app, open_question, screen_text, sync, wait_ready
from tests.support.folder_builders import build_folder


def trace_row(qid: str, source: str, text: str, model: str, nll: float) -> dict:
    return {
        "benchmark": "alg",
        "question_id": qid,
        "source": source,
        "trace": trace_id(text),
        "model": model,
        "n_tokens": 120,
        "mean_nll": nll,
        "text": text,
    }


@sync
async def test_a_question_shows_its_traces_and_both_perplexities(tmp_path):
    folder = build_folder(
        tmp_path / "r",
        {("alg", "1"): {"base": "C C", "rlvr": "I I"}, ("alg", "2"): {"base": "C", "rlvr": "C"}},
    )
    merge_perplexity(
        folder,
        [
            trace_row("1", "R1", "a careful solution", "base", math.log(2.5)),
            trace_row("1", "R1", "a careful solution", "rlvr", math.log(7.25)),
            trace_row("2", "R1", "another", "base", math.log(3.0)),
        ],
    )
    app = open_app(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        row = app.model.row(app.model.position_of("alg", "1"))
        detail = app.model.load_question(row)
        assert len(detail.traces) == 1
        trace = detail.traces[0]
        assert (trace.source, trace.n_tokens) == ("R1", 120)
        assert trace.perplexity_base == 2.5 and abs(trace.perplexity_target - 7.25) < 1e-9
        await open_question(pilot, app, "alg", "1")
        assert "trace R1 (120 tokens): perplexity base 2.5 → target 7.25" in screen_text(app)
