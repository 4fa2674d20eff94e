"""The results-folder format, whole: schema, manifest, writer, reader, shard footer summaries,
locks, atomic writes and the triage journal. Every other package reads and writes folders
only through it.
"""
