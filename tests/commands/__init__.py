"""Tests of the `leash` command line as a whole: entry, demo, files and hostile input."""
