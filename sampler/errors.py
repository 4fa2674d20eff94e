"""The one exception type leash raises for bad input; the CLI prints it without a traceback."""


class LeashError(Exception):
    """A problem the user can fix: the message names the file, line or field at fault."""
