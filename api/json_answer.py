"""The JSON of every answer (``jsonify``), encoded by orjson rather than the stdlib.

A search's answer (ten memories with their metadata and lane scores, about 9 kB) took the
stdlib encoder, as Flask calls it (sorted keys, ASCII escapes), 0.1 ms of CPU on a quiet
machine and 0.35 ms at load 10: the largest single step of a request above the store's
search and the model (issue 29; ``bench/README.md``, search_http_bench.py). orjson writes
the same answer in about 8 microseconds.

The bytes differ only in form, never in value: keys are still sorted, characters beyond
ASCII are sent as UTF-8 rather than ``\\u`` escapes, and a float's shortest round-trip
digits may be written in another notation (``1e-05`` as ``0.00001``, the same number).
What orjson would write differently or refuses goes to Flask's own encoder, whose bytes
are then the answer's as before: a date (Flask writes an HTTP date), a dataclass, a
subclass of str, int, dict or list, a named tuple, an integer beyond 64 bits, a non-string
key, a lone surrogate. NaN and the infinities, which the stdlib writes as invalid JSON
(``NaN``, ``Infinity``), are ``null``. Debug mode's indented answers stay the stdlib's.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response

__all__ = ["FastJSONProvider"]

#: Everything orjson would write otherwise than Flask goes to ``default``, which refuses
#: it, so the stdlib writes the answer.
_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
            | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_SUBCLASS
            | orjson.OPT_APPEND_NEWLINE)


def _refuse(value: Any) -> Any:
    raise TypeError(type(value).__name__)


class FastJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with :meth:`response` (``jsonify``) through orjson."""

    def response(self, *args: Any, **kwargs: Any) -> Response:
        body = self.encoded(self._prepare_response_obj(args, kwargs))
        if body is None:
            return super().response(*args, **kwargs)
        make: Any = self._app.response_class       # flask.Response, typed as its base
        answer: Response = make(body, mimetype=self.mimetype)
        return answer

    def encoded(self, obj: Any) -> bytes | None:
        """The body :meth:`response` answers ``obj`` with when orjson writes it; None when
        Flask's own encoder writes it (debug mode's indented answers, what orjson would
        write otherwise: the module docstring)."""
        if self.compact is False or (self.compact is None and self._app.debug):
            return None
        try:
            return orjson.dumps(obj, default=_refuse, option=_OPTIONS)
        except TypeError:           # orjson.JSONEncodeError is a TypeError
            return None
