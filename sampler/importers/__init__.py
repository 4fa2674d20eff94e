"""Importers of samples made elsewhere: interchange JSONL, evaluation outputs, trainer dumps.

The entry point is ``sampler.importers.run_import.import_samples``; the importer
shapes are written down in ``sampler.importers.protocol``, and each format is one
module of ``sampler.importers.formats``.
"""
