"""``leash import --from nemo-skills``: NeMo-Skills evaluation outputs, one file per sample index.

Checked against NVIDIA/NeMo-Skills at commit 0b012df8a09cd4730d31b16e90a0d8f13d145fb8:
``nemo_skills/pipeline/utils/generation.py`` (``get_chunked_rs_filename``: the file of random
seed S is ``output-rs{S}.jsonl``), ``nemo_skills/inference/generate.py``
(``postprocess_single_output``: every field of the input data point is copied beside the
generation) and ``nemo_skills/evaluation/evaluator/math.py`` (``symbolic_correct``). ``ns eval``
writes

    OUTPUT_DIR/eval-results/<benchmark>/output-rs<seed>.jsonl

one file per seed (``--num_random_seeds`` / ``benchmark:N``), one line per problem:

    problem           str    the problem (``question`` in some datasets)  -> problem
    expected_answer   any    the gold                                     -> gold
    generation        str    the completion (``generation_key``)          -> one sample
    num_generated_tokens int (with ``add_generation_stats``)             -> n_tokens
    symbolic_correct  bool   the math evaluator's verdict                  -> source_correct
    judgement         str    an LLM judge's "Judgement: Yes/No", used when there is no
                             ``symbolic_correct``; ``--source-metric`` names another field
    predicted_answer, ...    ignored (leash verify extracts answers itself)

The benchmark is the folder's name (``<benchmark>``), or ``--bench``. NeMo-Skills writes no
question id: a question is its problem text (``text_question_id``; the folder's question
of the same text when there is one). The seed files of a benchmark add samples one after
the other; a problem that appears twice in one file is named in a warning.
PATH is the ``eval-results`` folder, one benchmark's folder or one file (the greedy
``output.jsonl`` is read only when given as the file itself).
"""

from __future__ import annotations

from pathlib import Path

from sampler.benchmarks.files import iter_json_lines
from sampler.errors import LeashError
from sampler.importers.core import ImportSession
from sampler.importers.source_fields import Fields, benchmark_name
from sampler.importers.trainer_samples import QuestionGroups, score_verdict

FORMAT = "nemo-skills"
FILE_PATTERN = "output-rs*.jsonl"
FILES_ARE = "NeMo-Skills output-rs<seed>.jsonl files"
PROBLEM_FIELDS = ("problem", "question")


def task_of(path: Path) -> str:
    """``eval-results/<benchmark>/output-rs<seed>.jsonl``: the folder names the benchmark."""
    return path.parent.name


def read_file(
    session: ImportSession,
    model: str,
    path: Path,
    bench: str | None,
    task: str | None,
    source_metric: str | None,
) -> None:
    benchmark = bench or benchmark_name(task or path.parent.name, str(path))
    index = session.file(path, "line", model)
    groups = QuestionGroups(session, index)
    for number, record in iter_json_lines(path):
        fields = Fields(session.where(index, number), record, FORMAT)
        name = next((n for n in PROBLEM_FIELDS if n in record), PROBLEM_FIELDS[0])
        problem = fields.text(name, "the problem text")
        text = fields.text("generation", "the generated solution")
        assert problem is not None and text is not None
        tokens = record.get("num_generated_tokens")
        groups.add(
            number,
            benchmark,
            model,
            problem,
            fields.gold("expected_answer", required=False),
            text,
            _verdict(fields, source_metric),
            n_tokens=tokens if isinstance(tokens, int) and not isinstance(tokens, bool) else None,
        )
    if not groups.sizes:
        raise LeashError(f"{path}: no problems (empty file)")
    groups.check_sizes()


def _verdict(fields: Fields, source_metric: str | None) -> bool | None:
    record = fields.record
    if source_metric is not None:
        if source_metric not in record:
            raise fields.fail(
                f"no field {source_metric!r} (--source-metric); fields here:"
                f" {', '.join(sorted(record))}"
            )
        return score_verdict(record[source_metric])
    if "symbolic_correct" in record:
        return score_verdict(record["symbolic_correct"])
    judgement = record.get("judgement")
    if isinstance(judgement, str) and "Judgement:" in judgement:
        verdict = judgement.split("Judgement:")[-1].strip().lower()
        return True if verdict.startswith("yes") else False if verdict.startswith("no") else None
    return None
