"""Tests of sampler.benchmarks: presets and benchmark files."""
