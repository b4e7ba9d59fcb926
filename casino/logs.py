"""Logging filters.

``RefusalsWithoutTraceback``: Django logs every refused request on ``django.request`` with the exception that
refused it, so a signed-in dealer opening the pit's page (a ``PermissionDenied``, 403) wrote a whole traceback. A
refusal is an answer, not a fault: its line stays (the status, the path) and loses the traceback; a 5xx keeps it.
"""

from __future__ import annotations

import logging


class RefusalsWithoutTraceback(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
