"""The explorer's state and data, without widgets: the view model, pair columns, one question's
detail.
"""
