"""Verification: final-answer extraction, golds, one verdict, the worker pool with hard
deadlines, and verifying a whole folder.
"""
