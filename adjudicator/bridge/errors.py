"""The bridge's one error type: what went wrong, in words, with the HTTP status it deserves.

The bridge is a library (the API, the pages and tests call it); it does not raise Flask
problems itself, but every failure carries the status and problem kind the HTTP layer uses,
so a damaged upload always becomes a 4xx answer with a sentence a player can act on. A 503
(the server had no time to read the file) carries its ``Retry-After`` in `headers`.
"""

from __future__ import annotations


class BridgeError(Exception):
    def __init__(self, status: int, title: str, detail: str, kind: str, headers: dict[str, str] | None = None):
        super().__init__(detail)
        self.status = status
        self.title = title
        self.detail = detail
        self.kind = kind
        self.headers = headers or {}
