"""Shards of a results folder: their schema-checked reads and writes, footer summaries and per-key
statistics.
"""
