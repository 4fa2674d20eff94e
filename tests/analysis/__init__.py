"""Tests of leash_tui.analysis: support categories, rates, tests and estimators."""
