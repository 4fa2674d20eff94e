"""Benchmark files in, normalised questions and prompts out."""
