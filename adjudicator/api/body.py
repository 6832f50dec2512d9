"""Reading a JSON request body into a pydantic model, with problem+json on every failure."""

from __future__ import annotations

from flask import request
from pydantic import BaseModel, ValidationError

from adjudicator.problems import Problem, validation_problem


def _is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def parse_json_body(model: type[BaseModel], *, optional: bool = False) -> BaseModel:
    """Validate the request body against `model`.

    415 unless the body is JSON; 413 if over the size limit (raised by werkzeug while
    reading); 400 for malformed JSON; 422 with field pointers for anything pydantic rejects.
    With `optional`, an empty body counts as `{}`.
    """
    raw = request.get_data(cache=False)
    if optional and not raw.strip():
        raw = b"{}"
    elif not _is_json(request.mimetype):
        raise Problem(
            415,
            "Unsupported Media Type",
            "Send the request body as JSON with 'Content-Type: application/json'.",
            kind="unsupported-media-type",
        )
    try:
        return model.model_validate_json(raw)
    except ValidationError as error:
        raise validation_problem(error) from None
