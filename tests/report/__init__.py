"""Tests of leash_tui.report and `leash report`."""
