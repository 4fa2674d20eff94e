"""leash's producing side: benchmarks, sampling, importers, the results store, verification."""

__version__ = "0.1.0"

# The distribution's name on PyPI: `leash` there is an unrelated project. The command stays
# `leash` and the import packages stay `sampler` and `leash_tui`.
DISTRIBUTION = "leash-rlvr"


def install_hint(extra: str) -> str:
    """How to install one of the optional extras, from a clone and from the published name."""
    return f"pip install -e '.[{extra}]' in a clone, or pip install '{DISTRIBUTION}[{extra}]'"
