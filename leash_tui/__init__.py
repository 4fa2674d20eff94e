"""leash's reading side: analysis, reports, the explorer and the ``leash`` command."""

from sampler import __version__

__all__ = ["__version__"]
