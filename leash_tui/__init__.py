"""leash: empirical support dynamics of RLVR models (reading side: CLI, analysis, explorer)."""

__version__ = "0.1.0"
