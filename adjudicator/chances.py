"""The chances before a roll on every way in: the JSON API (`adjudicator.api.odds`), the saved-game
pages and the VASSAL extension (which speaks the API) ask through these, as rulings go through
`adjudicator.rulings`: a check without dice has no chances (404), a body with dice is refused (422),
and a situation the rules refuse is refused as its ruling would be (422).
"""

from __future__ import annotations

from typing import Any

from adjudicator import rulings
from adjudicator.checks import CheckSpec
from adjudicator.odds import odds
from adjudicator.problems import Problem


def refuse_without_dice(spec: CheckSpec) -> None:
    if not spec.random:
        raise Problem(404, "No chances to compute",
                      f"{spec.key} rolls no dice: its ruling follows from the situation alone (POST "
                      f"/api/v1/systems/{spec.system}/{spec.name}).", kind="no-dice")


def without_dice(body: dict[str, Any]) -> dict[str, Any]:
    """422 for a body that brings dice: the odds try every value the dice can take."""
    if "dice" in body:
        detail = "An odds request has no dice: the odds try every value the check's dice can take. Leave dice out."
        raise Problem(422, "The request body is invalid", f"/dice: {detail}", kind="validation",
                      errors=[{"pointer": "/dice", "detail": detail, "code": "dice-in-odds"}])
    return body


def chances(spec: CheckSpec, request: Any) -> dict[str, Any]:
    """The odds of a validated request, or 422 for a situation the rules refuse."""
    try:
        return odds(spec, request)
    except ValueError as error:
        raise rulings.situation_problem(error, spec.system) from None
