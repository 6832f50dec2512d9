"""RFC 9457 problem details: every error the service returns is `application/problem+json`.

Views raise `Problem`; Flask/werkzeug HTTP errors (404, 405, 413, 429 ...) and unexpected
exceptions are turned into problems by `register_error_handlers`, so a client never sees an
HTML error page or a traceback. The one exception is a page address (anything outside
`/api/` and `/.well-known/`) that a browser asks for and that does not exist (404, or 405 for a
form's address): a person typed it, so it gets an HTML page saying so, with the way back.
"""

from __future__ import annotations

import ast

import json
import math
import time
from typing import Any, Callable

from flask import Flask, Response, render_template, request
from pydantic import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from adjudicator.checks import Refusal
from adjudicator.ledger.storage import StorageUnavailable

PROBLEM_JSON = "application/problem+json"
#: Paths of the JSON service: their errors are always problem+json, never a page.
API_PREFIXES = ("/api/", "/.well-known/", "/ping")
PROBLEM_TYPE_BASE = "urn:adjudicator:problem:"
#: Seconds a client is asked to wait before retrying when the database cannot be used.
STORAGE_RETRY_AFTER = 10


class Problem(Exception):
    """An error to report to the client as a problem+json body."""

    def __init__(
        self,
        status: int,
        title: str,
        detail: str | None = None,
        kind: str | None = None,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ):
        super().__init__(detail or title)
        self.status = status
        self.title = title
        self.detail = detail
        self.kind = kind
        self.headers = headers or {}
        self.extra = extra

    def to_response(self) -> Response:
        return problem_response(
            self.status, self.title, self.detail, self.kind, self.headers, **self.extra
        )


def problem_response(
    status: int,
    title: str,
    detail: str | None = None,
    kind: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE_BASE + kind if kind else "about:blank",
        "title": title,
        "status": status,
    }
    if detail:
        body["detail"] = detail
    body["instance"] = request.path if request else None
    body.update(extra)
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _pointer(location: tuple) -> str:
    """JSON Pointer (RFC 6901) to the offending member of the request body."""
    parts = [str(part).replace("~", "~0").replace("/", "~1") for part in location]
    return "/" + "/".join(parts) if parts else ""


def _words(item: dict) -> str:
    """pydantic's message as a player reads it: a rules check's own sentence without "Value error, "."""
    message = item["msg"]
    if item["type"] == "value_error" and message.startswith("Value error, "):
        message = message[len("Value error, "):]
    return message


def _entry(item: dict) -> dict[str, Any]:
    """One field error: where (a rules check's Refusal placed below the validator's place), what, and
    what the field allows."""
    refusal = (item.get("ctx") or {}).get("error")
    pointer = _pointer(item["loc"])
    entry: dict[str, Any] = {"pointer": pointer, "detail": _words(item), "code": item["type"]}
    if isinstance(refusal, Refusal):
        entry["pointer"] = pointer + refusal.pointer
        if refusal.allowed:
            entry["allowed"] = list(refusal.allowed)
        if refusal.allowed_names:
            entry["allowed_names"] = list(refusal.allowed_names)
    elif item["type"] == "literal_error":  # a choice from the data (a chit, a month): the value, the choices
        entry["allowed"] = _choices(item["ctx"]["expected"])
        entry["detail"] = f"{_shown(item.get('input'))} is not one of the choices"
    return entry


def _choices(expected: str) -> list[Any]:
    """The choices of a Literal field, as pydantic lists them ("'a', 'b' or 'c'": each a repr)."""
    head, _, last = expected.rpartition(" or ")
    return ast.literal_eval(f"[{head}, {last}]" if head else f"[{last}]")


def _shown(value: Any) -> str:
    """A refused value as the player sent it, cut short: an answer never echoes a long input back."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def validation_problem(error: ValidationError, title: str = "The request body is invalid",
                       words: Callable[[str], str] | None = None) -> Problem:
    """422 with one entry per field error (pointer, detail, code, and `allowed`: the values a rules
    check's `Refusal` names); 400 if the JSON itself is bad. `words`: each detail as players read it
    (a check's units by their counters' names, `adjudicator.words.names`)."""
    details = error.errors(include_url=False, include_context=True, include_input=True)
    if any(item["type"] == "json_invalid" for item in details):
        return Problem(400, "Malformed JSON", details[0]["msg"], kind="malformed-json")
    errors = [_entry(item) for item in details]
    if words is not None:
        errors = [{**e, "detail": words(e["detail"])} for e in errors]
    detail = "; ".join(f"{e['pointer']}: {e['detail']}" if e["pointer"] else e["detail"] for e in errors[:5])
    return Problem(422, title, detail, kind="validation", errors=errors)


def is_page_request() -> bool:
    """A request of a page (a browser's form or link), answered with a page, not problem+json."""
    return bool(request) and not request.path.startswith(API_PREFIXES)


def problem_page(status: int, title: str, detail: str | None, headers: dict[str, str] | None = None,
                 kind: str | None = None):
    """A problem as a page a person reads, with the way back."""
    page = render_template("error.html", status=status, title=title, detail=detail or "", kind=kind or "")
    return page, status, {k: v for k, v in (headers or {}).items() if k != "WWW-Authenticate"}


def retry_after(error: HTTPException) -> int:
    """Seconds until a rate limit that refused this request lets the client in again: until its window
    resets (flask-limiter's current limit), else the window's length; 1 when no limit says."""
    from adjudicator.services import services  # here: services imports the app's layers

    current = getattr(getattr(services(), "limiter", None), "current_limit", None)
    reset_at = getattr(current, "reset_at", None)
    if reset_at:
        return max(1, math.ceil(reset_at - time.time()))
    item = getattr(getattr(error, "limit", None), "limit", None)
    return max(1, int(item.get_expiry())) if item is not None else 1


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(Problem)
    def _problem(error: Problem):
        if is_page_request():
            return problem_page(error.status, error.title, error.detail, error.headers, error.kind)
        return error.to_response()

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException):
        headers = {}
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            headers["Allow"] = ", ".join(sorted(error.valid_methods))
        if error.code in (404, 405) and request.method == "GET" and not request.path.startswith(API_PREFIXES):
            return render_template("not_found.html", path=request.path), error.code, headers
        if error.code == 429:
            headers["Retry-After"] = str(retry_after(error))
        if is_page_request():
            detail = error.description
            if error.code == 413:
                detail = "The file is larger than this service accepts (see the limit on the form)."
            return problem_page(error.code or 500, error.name, detail, headers)
        if error.code == 401:
            headers["WWW-Authenticate"] = "Bearer"
        detail = error.description
        if error.code == 429:
            detail = (f"Rate limit exceeded ({error.description}). Slow down and retry after "
                      f"{headers['Retry-After']} s.")
        return problem_response(error.code or 500, error.name, detail, None, headers)

    @app.errorhandler(StorageUnavailable)
    def _storage(error: StorageUnavailable):
        # An outage, not a bug: one line for the operator (no traceback on every request), and
        # an answer saying to come back. The transaction was rolled back (or, with GROUP sync,
        # committed but not known durable: a retry with its request_id replays that record).
        app.logger.error("storage unavailable on %s %s: %s", request.method, request.path, error)
        return problem_response(
            503, "Storage unavailable",
            f"The server cannot use its database right now. Retry in {STORAGE_RETRY_AFTER} seconds; "
            "a roll retried with the same request_id is recorded at most once.",
            "storage-unavailable", {"Retry-After": str(STORAGE_RETRY_AFTER)})

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        # Log the traceback for the operator; tell the client nothing about internals.
        app.logger.exception("unhandled error on %s %s", request.method, request.path)
        if is_page_request():
            return problem_page(500, "Internal Server Error", "The server failed; it has been logged.")
        return problem_response(500, "Internal Server Error", "The server failed; it has been logged.")
