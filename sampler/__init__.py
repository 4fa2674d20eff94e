"""leash's producing side: benchmarks, sampling, importers, the results store, verification."""

__version__ = "0.1.0"
