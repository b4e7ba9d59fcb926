"""gunicorn's access lines as JSON (``TABLESIDE_LOG_FORMAT=json``, ``config/gunicorn.conf.py``).

Each line is built with ``json.dumps`` from gunicorn's own atoms, never by pasting them into a format string: a path
or a User-Agent holding quotes, backslashes or line breaks is escaped, so a client cannot forge a field or split a
line. ``request_id`` is the response's ``X-Request-ID`` (``casino.request_ids``), which joins the access line to the
app's lines of the same request."""

from __future__ import annotations

import json
import traceback
from typing import Any

from gunicorn.glogging import Logger


class JsonAccessLogger(Logger):  # type: ignore[misc]
    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        if not self.access_log_enabled:
            return
        try:
            atoms = self.atoms(resp, req, environ, request_time)
            line = {
                "time": atoms["t"],
                "level": "INFO",
                "logger": "gunicorn.access",
                "request_id": atoms.get("{x-request-id}o", "") or "",
                "remote": atoms["h"],
                "method": atoms["m"],
                "path": atoms["U"],
                "query": atoms["q"],
                "status": int(atoms["s"]) if str(atoms["s"]).isdigit() else atoms["s"],
                "bytes": atoms["B"],
                "seconds": float(atoms["L"]),
                "user_agent": atoms["a"],
            }
            self.access_log.info(json.dumps(line, ensure_ascii=False))
        except Exception:
            self.error(traceback.format_exc())
