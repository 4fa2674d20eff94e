"""The folder's journals and their safety: the commit journal, the triage journal, locks and atomic
writes.
"""
