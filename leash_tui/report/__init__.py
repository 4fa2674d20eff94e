"""Reports: a folder's counts (footer summaries, scan, cache), the rows and curves built from
them, their rendering, and the description behind leash info.
"""
