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

from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile, json_records
from sampler.importers.source_fields import Fields, HarnessFiles, benchmark_name
from sampler.importers.trainer_samples import score_verdict

FORMAT = "nemo-skills"
PROBLEM_FIELDS = ("problem", "question")


def task_of(path: Path) -> str:
    """``eval-results/<benchmark>/output-rs<seed>.jsonl``: the folder names the benchmark."""
    return path.parent.name


def read_file(source: SourceRead, path: Path, task: str | None) -> None:
    benchmark = source.bench or benchmark_name(task or path.parent.name, str(path))
    file = RecordFile(source, path, FORMAT)

    def read_record(fields: Fields) -> None:
        record = fields.record
        name = next((n for n in PROBLEM_FIELDS if n in record), PROBLEM_FIELDS[0])
        problem = fields.text(name, "the problem text")
        text = fields.text("generation", "the generated solution")
        assert problem is not None and text is not None
        tokens = record.get("num_generated_tokens")
        file.groups.add(
            fields.number,
            benchmark,
            source.model,
            problem,
            fields.gold("expected_answer", required=False),
            text,
            _verdict(fields, source.source_metric),
            n_tokens=tokens if isinstance(tokens, int) and not isinstance(tokens, bool) else None,
            question_id=fields.question_id("id") if "id" in record else None,
        )

    file.read(json_records(path), read_record, "problems")


read_source = HarnessFiles(
    "output-rs*.jsonl", "NeMo-Skills output-rs<seed>.jsonl files", task_of, read_file
).read_source


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
