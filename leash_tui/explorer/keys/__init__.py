"""The explorer's keys: the one command table, the palette built from it, and the triage actions."""
