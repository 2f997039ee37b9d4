"""The server's log: plain lines for a terminal, or one JSON object per line for a log
pipeline (``triform serve --log-format json``).

A JSON line holds ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``, the
``request_id`` of the request being served when it was written, and, for an access line
(``api/access_log.py``), ``op``, ``element``, ``method``, ``path``, ``status`` and
``duration_ms``; an exception adds ``exception`` (its traceback). What a line may hold is
what the text log holds: never a token, a body or a query string, so never a memory's
text (the access log writes paths, which name elements and memory ids only).
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

from .access_log import current_request_id
from .options import LOG_FORMATS

__all__ = ["LOG_FORMATS", "JsonFormatter", "configure_logging"]

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: Attributes of an access record written as fields of their own.
_ACCESS_FIELDS = ("op", "element", "method", "path", "status", "duration_ms")


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (newlines inside values are escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname, "logger": record.name,
            "message": record.getMessage()}
        request_id = getattr(record, "request_id", None) or current_request_id()
        if request_id:
            line["request_id"] = request_id
        if record.name == "triform.access":
            for name in _ACCESS_FIELDS:
                line[name] = getattr(record, name, None)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_logging(log_format: str = "text") -> None:
    """Log INFO and above to stderr, as plain lines or JSON lines (unless the process
    has set its logging up already, as a test runner has).

    :raise ValueError: ``log_format`` is not one of :data:`LOG_FORMATS`.
    """
    if log_format not in LOG_FORMATS:
        raise ValueError(f"log format must be one of {', '.join(LOG_FORMATS)}")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json"
                         else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
