"""Tests of sampler.importers: every format, commit and export."""
