"""Verification processes: the deadline-bound worker pool, its Ray twin, and the deduplicating
verifier.
"""
