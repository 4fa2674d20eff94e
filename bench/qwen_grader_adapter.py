"""Run the Qwen2.5-Math grader on (gold, completion) pairs: JSON lines in, JSON lines out.

Runs in a separate Python that has the grader installed: ``evalscope==0.17.1`` (whose
``evalscope/metrics/math_parser.py`` is Qwen2.5-Math's ``extract_answer``,
``strip_answer_string`` and ``math_equal``, as its header says) with ``regex``,
``latex2sympy2_extended``, ``sympy`` and ``word2number``. The module file is loaded on
its own, without evalscope's package imports. ``bench/verdict_agreement.py`` calls this;
nothing of leash imports it. Each pair: ``{"answer": extracted, "correct": bool}``, as
Qwen2.5-Math's evaluate.py compares them (``math_equal(extract_answer(completion),
strip_answer_string(gold))``), with a 10 s alarm per pair (a timeout counts as wrong).
"""

from __future__ import annotations

import glob
import importlib.util
import json
import signal
import sys
import sysconfig


def _grader():
    site = sysconfig.get_paths()["purelib"]
    path = glob.glob(f"{site}/evalscope/metrics/math_parser.py")[0]
    spec = importlib.util.spec_from_file_location("qwen_math_parser", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _alarm(signum, frame):
    raise TimeoutError


def main() -> None:
    grader = _grader()
    signal.signal(signal.SIGALRM, _alarm)
    for line in sys.stdin:
        gold, completion = json.loads(line)
        answer, correct = "", False
        signal.alarm(10)
        try:
            answer = grader.extract_answer(completion)
            correct = bool(grader.math_equal(answer, grader.strip_answer_string(gold)))
        except Exception:
            correct = False
        finally:
            signal.alarm(0)
        print(json.dumps({"answer": answer, "correct": correct}), flush=True)


if __name__ == "__main__":
    main()
