"""Tests of leash_tui.explorer: the model, keys, layout and snapshots."""
