"""JSON nested 200,000 deep in a trainer's side files is one line, not a RecursionError
traceback (issue #33 item 8): NeMo-RL's ``evaluation_data.json`` and ``config.json``, and
a verifiers run's ``metadata.json``.
"""

from __future__ import annotations

import pytest

from sampler.errors import LeashError
from sampler.importers.run_import import Source, import_samples
from tests.support.trainer_dumps import write_nemo_rl, write_verifiers_run

DEEP = "[" * 200_000 + "]" * 200_000


def test_a_deep_nemo_rl_evaluation_file_is_one_line(tmp_path):
    path = write_nemo_rl(tmp_path / "eval_out", [["2"]])
    path.write_text('{"evaluation_data": ' + DEEP + "}")
    with pytest.raises(LeashError, match=rf"{path.name}: JSON nested too deeply"):
        import_samples("nemo-rl", [Source("rl", tmp_path / "eval_out")], tmp_path / "r", "rl")


def test_a_deep_nemo_rl_config_is_one_line(tmp_path):
    path = write_nemo_rl(tmp_path / "eval_out", [["2"]])
    (path.parent / "config.json").write_text(DEEP)
    with pytest.raises(LeashError, match=r"config\.json: JSON nested too deeply"):
        import_samples("nemo-rl", [Source("rl", tmp_path / "eval_out")], tmp_path / "r", "rl")


def test_a_deep_verifiers_metadata_is_one_line(tmp_path):
    write_verifiers_run(tmp_path / "outputs", "math-python", "org/rl", [["2"]])
    (metadata,) = (tmp_path / "outputs").rglob("metadata.json")
    metadata.write_text(DEEP)
    with pytest.raises(LeashError, match=r"metadata\.json: JSON nested too deeply"):
        import_samples("verifiers", [Source("rl", tmp_path / "outputs")], tmp_path / "r", "rl")
