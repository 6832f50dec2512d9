"""Reading a JSON request body into a pydantic model, with problem+json on every failure.

Bounded work: a body is at most the configured size (413), nested at most `MAX_JSON_DEPTH`
levels (422: a check's situation nests four or five; thousands made Python's JSON reader
recurse until it failed with a 500), and holds finite numbers only (422: NaN and Infinity were
read by the fallback reader and then written back as null, so a request with NaN was recorded
as one with null).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Callable

import orjson
from flask import request
from pydantic import BaseModel, ValidationError
from werkzeug.exceptions import RequestEntityTooLarge

from adjudicator.problems import Problem, validation_problem


#: The deepest nesting of arrays and objects a request body may have.
MAX_JSON_DEPTH = 32

#: A JSON string (skipped whole, so brackets inside it do not count) or a bracket.
_STRING_OR_BRACKET = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_OPENING = frozenset(b"[{")


def nesting_depth(raw: bytes, stop_above: int = MAX_JSON_DEPTH) -> int:
    """How deeply arrays and objects nest in `raw` (counting stops once past `stop_above`).

    A scan, not a parse: it never recurses, whatever the input, and costs microseconds for a
    roll's body."""
    depth = deepest = 0
    for match in _STRING_OR_BRACKET.finditer(raw):
        first = match.group()[0]
        if first in _OPENING:
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop_above:
                    break
        elif first != 0x22:  # a closing bracket (0x22 is the quote that starts a string)
            depth -= 1
    return deepest


def refuse_deep_nesting(raw: bytes) -> None:
    # nesting needs as many opening brackets: a body with no more than the bound (a roll's has a
    # handful) is not scanned, a count in C instead of a pattern's matches (7 us a roll, issue 53)
    if raw.count(b"[") + raw.count(b"{") <= MAX_JSON_DEPTH:
        return
    if nesting_depth(raw) > MAX_JSON_DEPTH:
        raise Problem(422, "The request body is nested too deeply",
                      f"Arrays and objects may nest at most {MAX_JSON_DEPTH} levels deep.",
                      kind="too-deep")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        _refuse_non_finite(text)
    return value


def _refuse_non_finite(text: str) -> Any:
    raise Problem(422, "The request body holds a number that is not finite",
                  f"{text} is not a number JSON allows; send finite numbers only.", kind="not-finite")


def _is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def read_body() -> bytes:
    """The raw request body, or 413 if it is larger than the configured limit.

    With a Content-Length over the limit werkzeug raises 413 before reading. Without one
    (Transfer-Encoding: chunked) werkzeug reads up to the limit and then stops *silently*,
    so a body whose first bytes happen to parse would be accepted truncated. When such a read
    fills the limit, one more byte is read from the server's (terminated) input stream: if
    there is one, the body was too large.
    """
    limit = request.max_content_length
    length = request.content_length
    if length is not None and (limit is None or length <= limit):
        # The usual case, read straight from the server's stream: werkzeug's wrapping of it
        # was a visible part of a roll's CPU (issue 17).
        return request.environ["wsgi.input"].read(length) if length else b""
    raw = request.get_data(cache=False)
    if limit is not None and request.content_length is None and len(raw) >= limit:
        if request.environ["wsgi.input"].read(1):
            raise RequestEntityTooLarge()  # the same 413 problem as for a Content-Length over the limit
    return raw


def refuse_oversized_body() -> None:
    """For endpoints that take no body: still refuse (413) one over the limit, never ignore it."""
    read_body()


def _parsed(raw: bytes) -> Any:
    """The JSON document in `raw`, or None if it is malformed (the validation says how).

    orjson first (fast); what it refuses but Python's reader takes (integers beyond 64 bits) is
    read by Python's, so `prepare` sees every body it saw before. NaN, Infinity and numbers too
    large for a float are refused (422), never read as values that would be written back as null.
    """
    try:
        return orjson.loads(raw)
    except ValueError:
        try:
            return json.loads(raw, parse_constant=_refuse_non_finite, parse_float=_finite)
        except ValueError:
            return None


def _encoded(document: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(document)
    except TypeError:  # orjson.JSONEncodeError: e.g. an integer beyond 64 bits
        return json.dumps(document).encode("utf-8")


def parse_json_body(model: type[BaseModel], *, optional: bool = False,
                    prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                    words: Callable[[str], str] | None = None) -> BaseModel:
    """Validate the request body against `model`.

    415 unless the body is JSON; 413 if over the size limit (see `read_body`); 422 if nested
    deeper than `MAX_JSON_DEPTH` or holding NaN/Infinity; 400 for malformed JSON; 422 with field
    pointers for anything pydantic rejects.
    With `optional`, an empty body counts as `{}`. `prepare` sees a body that is a JSON object
    before validation and returns the object to validate (it may raise a Problem). `words`: a
    refusal's details as players read them (`validation_problem`).
    """
    raw = read_body()
    if optional and not raw.strip():
        raw = b"{}"
    elif not _is_json(request.mimetype):
        raise Problem(
            415,
            "Unsupported Media Type",
            "Send the request body as JSON with 'Content-Type: application/json'.",
            kind="unsupported-media-type",
        )
    refuse_deep_nesting(raw)
    if prepare is not None:
        document = _parsed(raw)
        if isinstance(document, dict):
            raw = _encoded(prepare(document))
    try:
        return model.model_validate_json(raw)
    except ValidationError as error:
        raise validation_problem(error, words=words) from None
