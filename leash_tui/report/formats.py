"""The report formats, one list: the ``--format`` choices and the renderers' keys.

Kept apart from the renderers so that ``leash --help`` lists them without importing
pyarrow or rich (``report.render.RENDERERS`` has one renderer per name here, checked
by tests/report/test_report_columns.py).
"""

from __future__ import annotations

FORMATS = ("table", "json", "csv", "markdown", "latex")
