"""Sampling: the run configuration, its plan and checks, seeds, model worker processes, engines
and token entropy.
"""
