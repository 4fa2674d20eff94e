"""The explorer: a Textual app over a results folder (``leash explore``)."""
