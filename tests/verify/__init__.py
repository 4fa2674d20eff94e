"""Tests of sampler.verify: extraction, verdicts, verifiers, the pool and `leash verify`."""
