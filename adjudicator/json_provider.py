"""Flask's JSON responses, encoded by orjson.

A roll's response is a few kilobytes of steps and dice; encoding it with the pure-Python
encoder was a visible share of a roll's CPU (issue 17, docs/performance.md). orjson writes
the same JSON values (compact, keys in insertion order, non-ASCII as UTF-8 rather than
``\\uXXXX`` escapes, which any JSON reader reads the same). Dates, dataclasses and the other
types Flask knows still go through Flask's own conversion, so no response changes meaning;
a value orjson refuses (an integer beyond 64 bits) falls back to Flask's encoder.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_NON_STR_KEYS


class OrjsonProvider(DefaultJSONProvider):
    sort_keys = False
    compact = True

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs:  # asked for something particular (indent, sort_keys): Flask's encoder
            return super().dumps(obj, **kwargs)
        try:
            return orjson.dumps(obj, default=self.default, option=_OPTIONS).decode("utf-8")
        except TypeError:  # orjson.JSONEncodeError
            return super().dumps(obj)

    def response(self, *args: Any, **kwargs: Any):
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=self.default, option=_OPTIONS | orjson.OPT_APPEND_NEWLINE)
        except TypeError:
            body = f"{super().dumps(obj)}\n".encode("utf-8")
        return self._app.response_class(body, mimetype=self.mimetype)
