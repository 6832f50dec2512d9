"""Turning ``config.CHECK`` into ready-to-send request bodies.

A compute-mode request must carry exactly the dice the check rolls.  Rather
than hard-coding them, the check is run once in-process with seeded ledger
dice and the values it used are supplied back: the body is valid for
whatever the rules engine currently rolls.
"""

from __future__ import annotations

import json

from adjudicator.checks import get_check, run_check
from adjudicator.ledger.dice import LedgerDice
from adjudicator.rules import register_all_games
from bench.config import CheckChoice


def check_spec(choice: CheckChoice):
    register_all_games()
    spec = get_check(choice.system, choice.name)
    if spec is None:
        raise LookupError(f"check {choice.system}.{choice.name} is not registered; edit bench/config.py CHECK")
    return spec


def compute_body(choice: CheckChoice) -> dict:
    """The compute-mode body: the check's fields plus the dice it rolls."""
    spec = check_spec(choice)
    body = dict(choice.body)
    if spec.random:
        request = spec.request.model_validate(choice.body)
        dice = LedgerDice(b"bench-seed-0123456789abcdef01234", 1)
        result = run_check(spec, request, dice)
        body["dice"] = [die.value for die in result.dice_used]
    return body


def compute_path(choice: CheckChoice) -> str:
    return f"/api/v1/systems/{choice.system}/{choice.name}"


def game_path(choice: CheckChoice, game_id: str) -> str:
    return f"/api/v1/games/{game_id}/{choice.name}"


def body_json(body: dict) -> str:
    return json.dumps(body, separators=(",", ":"))
