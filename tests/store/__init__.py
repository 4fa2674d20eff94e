"""Tests of sampler.store: the results folder, shards, journals and their integrity."""
