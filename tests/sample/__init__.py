"""Tests of sampler.sample: configuration, seeds, engines, resuming and Ray."""
