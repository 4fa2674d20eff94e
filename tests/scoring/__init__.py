"""Tests of sampler.scoring: exact entropy and perplexity by teacher forcing."""
