"""The explorer's widgets, each with its own CSS: summary pane, question list, completion view,
footer.
"""
