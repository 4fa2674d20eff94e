"""The worker pool: hard deadlines, dead workers, deduplication."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time

from sampler.verify.answers import two_stage_parsing
from sampler.verify.answers.extraction import AnswerSpan
from sampler.verify.answers.golds import Gold
from sampler.verify.workers.answer_verifier import AnswerVerifier
from sampler.verify.workers.pool import VerifyPool, _Lanes
from sampler.verify.workers.worker import WARM_UP, _request_waiting, warm_up
from tests.support.paths import REPO_ROOT
from tests.support.verify_fixtures import PATHOLOGICAL

HALF = Gold(r"\frac{1}{2}")


def test_pathological_answer_times_out_within_the_deadline_while_others_finish():
    deadline = 2.0
    with VerifyPool(workers=2, deadline_s=deadline) as pool:
        verifier = AnswerVerifier(pool)
        # warm the pool up first, so that the timing below is the deadline's alone
        assert verifier.verify([HALF], [AnswerSpan("0.5")])[0].status == "correct"
        golds = [HALF, HALF, HALF, HALF, Gold("(3,4]")]
        spans = [
            AnswerSpan(r"\frac{2}{4}"),
            AnswerSpan(PATHOLOGICAL),
            AnswerSpan("0.4"),
            AnswerSpan(r"\dfrac{1}{2}"),
            AnswerSpan("(3,4]"),
        ]
        started = time.monotonic()
        verdicts = verifier.verify(golds, spans)
        elapsed = time.monotonic() - started
        assert [v.status for v in verdicts] == [
            "correct",
            "timeout",
            "incorrect",
            "correct",
            "correct",
        ]
        assert verdicts[1].answer == PATHOLOGICAL  # kept as written, for answer statistics
        assert pool.timeouts == 1
        # stopped by the CPU-time deadline, not the wall-clock backstop: on a loaded machine
        # its 2 CPU seconds take longer on the clock, never less and never past the backstop
        assert "CPU s" in (verdicts[1].detail or "")
        assert deadline <= elapsed < pool.wall_limit_s + 4.0
        # the pool goes on working with the replacement worker
        assert verifier.verify([HALF], [AnswerSpan("0.25")])[0].status == "incorrect"


def _stopped_for(pids: list[int], seconds: float) -> threading.Timer:
    """Stop the processes (SIGSTOP) now and let them go on after ``seconds`` (cancel the
    timer once they are killed): a worker that gets no CPU at all for that long, as on a
    machine loaded far beyond its cores."""
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)

    def resume() -> None:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)

    timer = threading.Timer(seconds, resume)
    timer.start()
    return timer


def test_a_cpu_starved_worker_is_not_timed_out_the_deadline_counts_its_cpu_seconds():
    deadline = 1.0
    with VerifyPool(workers=1, deadline_s=deadline) as pool:
        verifier = AnswerVerifier(pool)
        assert verifier.verify([HALF], [AnswerSpan("0.5")])[0].status == "correct"
        # three times the deadline on the clock with no CPU given: the answers still get
        # their verdicts, since the worker spent next to no CPU second on them
        resumed = _stopped_for(pool.worker_pids(), 3 * deadline)
        started = time.monotonic()
        verdicts = verifier.verify([HALF, HALF], [AnswerSpan(r"\frac{2}{4}"), AnswerSpan("0.3")])
        elapsed = time.monotonic() - started
        resumed.join()
        assert [v.status for v in verdicts] == ["correct", "incorrect"]
        assert elapsed >= 3 * deadline and pool.timeouts == 0
        # a CPU-bound answer is still stopped, and the verdict says the deadline is CPU time
        verdict = verifier.verify([HALF], [AnswerSpan(PATHOLOGICAL)])[0]
        assert verdict.status == "timeout" and "CPU s" in (verdict.detail or "")


def test_a_worker_that_makes_no_progress_is_stopped_by_the_wall_clock_backstop():
    with VerifyPool(workers=1, deadline_s=1.0, wall_limit_s=2.0) as pool:
        verifier = AnswerVerifier(pool)
        assert verifier.verify([HALF], [AnswerSpan("0.5")])[0].status == "correct"
        stuck = pool.worker_pids()
        resumed = _stopped_for(stuck, 30.0)
        started = time.monotonic()
        verdict = verifier.verify([HALF], [AnswerSpan("0.25")])[0]
        elapsed = time.monotonic() - started
        assert verdict.status == "timeout" and "on the clock" in (verdict.detail or "")
        assert 2.0 <= elapsed < 10.0
        assert pool.worker_pids() != stuck  # killed (SIGKILL reaches a stopped process)
        resumed.cancel()
        assert verifier.verify([HALF], [AnswerSpan(r"\dfrac{1}{2}")])[0].status == "correct"


def test_the_wall_clock_is_a_choice_and_a_backstop_below_the_deadline_is_refused():
    with VerifyPool(workers=1, deadline_s=1.0, clock="wall") as pool:
        verifier = AnswerVerifier(pool)
        assert verifier.verify([HALF], [AnswerSpan("0.5")])[0].status == "correct"
        resumed = _stopped_for(pool.worker_pids(), 3.0)
        verdict = verifier.verify([HALF], [AnswerSpan("0.25")])[0]
        resumed.cancel()
        assert verdict.status == "timeout" and "CPU" not in (verdict.detail or "")
    for bad in ({"clock": "gpu"}, {"wall_limit_s": 0.5}):
        try:
            VerifyPool(workers=1, deadline_s=1.0, **bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad} was accepted")


def test_a_worker_that_dies_marks_its_answer_error_and_the_run_goes_on():
    with VerifyPool(workers=1, deadline_s=60) as pool:
        verifier = AnswerVerifier(pool)
        assert verifier.verify([HALF], [AnswerSpan("0.5")])[0].status == "correct"
        victims = pool.worker_pids()

        def kill_workers() -> None:
            for pid in victims:
                os.kill(pid, signal.SIGKILL)

        timer = threading.Timer(1.0, kill_workers)
        timer.start()
        try:
            verdicts = verifier.verify(
                [HALF, HALF], [AnswerSpan(PATHOLOGICAL), AnswerSpan(r"\frac{3}{6}")]
            )
        finally:
            timer.cancel()
        assert [v.status for v in verdicts] == ["error", "correct"]
        assert "died" in (verdicts[0].detail or "")
        assert pool.crashes == 1
        assert pool.worker_pids() != victims


def test_each_distinct_pair_is_verified_once():
    with VerifyPool(workers=2, deadline_s=30) as pool:
        verifier = AnswerVerifier(pool)
        spans = [AnswerSpan(a) for a in [r"\frac{1}{2}", "0.5", r"\frac{1}{2}", "0.5", "0.3"]]
        spans += [None, AnswerSpan("0.3"), AnswerSpan(r"\frac{1}{2}")]
        golds = [HALF] * len(spans)
        verdicts = verifier.verify(golds, spans)
        assert [v.status for v in verdicts] == [
            "correct",
            "correct",
            "correct",
            "correct",
            "incorrect",
            "no_answer",
            "incorrect",
            "correct",
        ]
        assert verifier.counts.verifier_calls == 3
        assert verifier.counts.calls_saved == 4
        # another gold with the same answer is another pair; a repeated pair is free
        verifier.verify([Gold("0.3"), HALF], [AnswerSpan("0.3"), AnswerSpan("0.5")])
        assert verifier.counts.verifier_calls == 4


def test_integer_pairs_need_no_worker():
    pool = VerifyPool(workers=1)
    verifier = AnswerVerifier(pool)
    verdicts = verifier.verify([Gold("27"), Gold("27")], [AnswerSpan("027"), AnswerSpan("28")])
    assert [(v.status, v.answer) for v in verdicts] == [("correct", "27"), ("incorrect", "28")]
    assert pool.worker_pids() == []
    assert verifier.counts.verifier_calls == 0


def test_missing_gold_is_status_no_gold_with_the_answer_kept():
    with VerifyPool(workers=1) as pool:
        verifier = AnswerVerifier(pool)
        verdict, silent = verifier.verify([None, None], [AnswerSpan("3"), None])
    assert (verdict.status, verdict.answer) == ("no_gold", "3")
    assert "gold" in (verdict.detail or "")
    assert silent.status == "no_gold" and verifier.counts.no_gold == 2


def test_lanes_keep_neighbouring_tasks_together_and_idle_workers_take_from_the_longest():
    lanes = _Lanes([(i, None) for i in range(10)], 2)

    def take(slot: int, size: int) -> list[int]:
        return [i for i, _ in lanes.take(slot, size)]

    assert take(0, 3) == [0, 1, 2]
    assert take(1, 3) == [5, 6, 7]
    assert take(0, 3) == [3, 4]
    assert take(0, 1) == [9]  # its own run is done: the far end of the other one
    lanes.put_back(1, [(6, None), (7, None)])  # a worker replaced mid-batch
    assert len(lanes) == 3
    assert take(1, 8) == [6, 7, 8]
    assert take(0, 4) == [] and len(lanes) == 0
    assert [i for i, _ in _Lanes([(0, None)], 3).take(2, 4)] == [0]


def test_the_zygote_warms_up_only_until_a_worker_is_asked_for():
    was = two_stage_parsing.installed()
    ours, theirs = socket.socketpair()
    try:
        assert not _request_waiting(ours)
        theirs.sendall(b"fork")
        assert _request_waiting(ours)
        assert warm_up(stop=lambda: True) == 0
        answers = iter([False, False, True])
        assert warm_up(stop=lambda: next(answers)) == 2
        assert warm_up() == len(WARM_UP)
    finally:
        ours.close()
        theirs.close()
        if not was:
            two_stage_parsing.uninstall()


def test_workers_load_math_verify_and_two_stage_parsing_but_not_pyarrow():
    """What the zygote imports is on every run's critical path: nothing it does not need."""
    probe = (
        "import sys, sampler.verify.workers.worker as w; w.load();"
        " from sampler.verify.answers import two_stage_parsing as t;"
        " print(t.installed(), 'math_verify' in sys.modules, 'pyarrow' in sys.modules)"
    )
    root = REPO_ROOT
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["True", "True", "False"]


def test_a_stream_verifies_parts_as_they_come_with_verdicts_in_task_order():
    from sampler.verify.answers.verdict import VerifyTask

    pairs = [(HALF, "0.5"), (HALF, "0.3"), (Gold("(3,4]"), "(3,4]"), (HALF, r"\dfrac{2}{4}")]
    seen: list[tuple[int, str]] = []
    with VerifyPool(workers=2, deadline_s=30) as pool:
        stream = pool.stream(lambda i, v: seen.append((i, v.status)))
        stream.add([VerifyTask(g, AnswerSpan(a)) for g, a in pairs[:1]])
        assert pool.worker_pids()  # the first part is already with a worker
        stream.add([VerifyTask(g, AnswerSpan(a)) for g, a in pairs[1:]])
        statuses = [v.status for v in stream.finish()]
        assert statuses == ["correct", "incorrect", "correct", "correct"]
        assert sorted(seen) == list(enumerate(statuses))  # numbered across the parts
        # a stream its caller abandoned (it raised between parts) leaves no stale verdict
        abandoned = pool.stream()
        abandoned.add([VerifyTask(HALF, AnswerSpan("0.3"))])
        assert [v.status for v in pool.run([VerifyTask(HALF, AnswerSpan("0.5"))])] == ["correct"]


def test_a_sample_batch_added_in_parts_dedupes_across_them():
    with VerifyPool(workers=2, deadline_s=30) as pool:
        verifier = AnswerVerifier(pool)
        done: list[int] = []
        batch = verifier.begin(done.append)
        batch.add([HALF, HALF], [AnswerSpan("0.5"), AnswerSpan("0.3")])
        batch.add([HALF, None, HALF], [AnswerSpan("0.5"), AnswerSpan("1"), None])
        statuses = [v.status for v in batch.finish()]
    assert statuses == ["correct", "incorrect", "correct", "no_gold", "no_answer"]
    assert verifier.counts.verifier_calls == 2  # the repeated pair of the second part is free
    assert sum(done) == 5


def test_golds_sent_ahead_are_parsed_by_the_zygote_before_it_forks():
    # The zygote acknowledges the golds it parsed; a worker forked then finds them parsed
    # and verdicts are those of a pool that was sent none.
    golds = [r"\frac{1}{2}", r"(3,4]", r"\begin{pmatrix} 1 \\ 2 \end{pmatrix}", "x^2+1"]
    with VerifyPool(workers=1, deadline_s=30) as pool:
        pool.preparse(golds)
        zygote = pool._zygote
        assert zygote is not None
        deadline = time.monotonic() + 60
        while not zygote.prepared():
            assert time.monotonic() < deadline, "the zygote never said its golds were parsed"
            time.sleep(0.05)
        verdicts = AnswerVerifier(pool).verify(
            [Gold(g) for g in golds], [AnswerSpan(a) for a in ["0.5", "(3,4)", "(1,2)", "1+x^2"]]
        )
    assert [v.status for v in verdicts] == ["correct", "incorrect", "incorrect", "correct"]


def test_a_fork_asked_for_while_the_zygote_parses_golds_is_not_lost():
    # golds sent and a worker asked for at once: the zygote stops parsing, acknowledges, forks
    with VerifyPool(workers=2, deadline_s=30) as pool:
        pool.preparse([rf"\frac{{{n}}}{{{n + 1}}}" for n in range(2000)])
        verdicts = AnswerVerifier(pool).verify([HALF, HALF], [AnswerSpan("0.5"), AnswerSpan("1")])
    assert [v.status for v in verdicts] == ["correct", "incorrect"]


def test_the_zygote_parses_golds_until_asked_to_stop_or_one_is_too_slow(monkeypatch):
    from sampler.verify.answers import math_verifier
    from sampler.verify.workers import worker

    was = two_stage_parsing.installed()
    worker.load()
    try:
        math_verifier.clear_caches()
        assert worker.preparse_golds([r"\frac{1}{2}", "3", r"\sqrt{2}"]) == 3
        assert math_verifier._parse_gold.cache_info().currsize == 3
        answers = iter([False, True])
        assert worker.preparse_golds(["7", "8"], stop=lambda: next(answers)) == 1
        # a gold answer sizing refuses is left to the workers (which refuse it under a deadline)
        assert worker.preparse_golds(["9" * 5000]) == 0

        def slow(latex: str) -> None:
            time.sleep(5)

        def steady(latex: str) -> None:
            time.sleep(0.05)

        # a large folder's golds: the zygote stops at its budget, its first golds parsed
        monkeypatch.setattr(worker, "PREPARSE_BUDGET_S", 0.3)
        monkeypatch.setattr(math_verifier, "parse_gold_ahead", steady)
        started = time.monotonic()
        assert 2 <= worker.preparse_golds([str(n) for n in range(100)]) <= 10
        assert time.monotonic() - started < 1.0

        monkeypatch.setattr(worker, "PREPARSE_LIMIT_S", 0.2)
        monkeypatch.setattr(math_verifier, "parse_gold_ahead", slow)
        started = time.monotonic()
        assert worker.preparse_golds(["1", "2", "3"]) == 0  # the first is too slow: stop
        assert time.monotonic() - started < 2
    finally:
        math_verifier.clear_caches()
        if not was:
            two_stage_parsing.uninstall()


def test_a_verdict_is_cached_per_question_not_per_gold_text():
    # two multiple-choice questions with the gold B: the value 6 is option B of the first and
    # option A of the second; one cached verdict for both would grade one of them wrong
    from sampler.verify.answers.golds import gold_from_question

    first = gold_from_question("B", problem="Which?\n(A) 5\n(B) 6\n(C) 7")
    second = gold_from_question("B", problem="Which?\n(A) 6\n(B) 7\n(C) 8")
    with VerifyPool(workers=1, deadline_s=30) as pool:
        verdicts = AnswerVerifier(pool).verify([first, second], [AnswerSpan("6"), AnswerSpan("6")])
    assert [v.status for v in verdicts] == ["correct", "incorrect"]


def test_the_gold_key_holds_every_field_a_verdict_may_read():
    import dataclasses

    assert len(HALF.key()) == len(dataclasses.fields(Gold))
