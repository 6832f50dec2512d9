"""Looking things up in a game's data, the same way for every rules package.

Rules functions take the loaded ``Game`` as an argument; these helpers turn
an unknown scenario or turn into a ``ValueError`` with a message the service
shows as a 422, instead of a ``KeyError`` it would show as a 500.
"""

from __future__ import annotations

from scenarios import load_game
from scenarios.model import Game, Scenario, Turn


def game_in(info, game_id: str) -> Game:
    """The game a request is validated against: the loaded game, or a test's own game passed
    as pydantic validation context (`Model.model_validate(body, context={"game": g})`)."""
    context = getattr(info, "context", None) or {}
    return context.get("game") or load_game(game_id)


def scenario(g: Game, scenario_id: str) -> Scenario:
    try:
        return g.scenarios[scenario_id]
    except KeyError:
        raise ValueError(f"unknown scenario {scenario_id!r}; known: {', '.join(sorted(g.scenarios))}") from None


def special(g: Game, scenario_id: str, rule: str) -> dict:
    """One `[special_rules.<rule>]` table of a scenario TOML ({} when the scenario has none)."""
    return scenario(g, scenario_id).special_rules.get(rule, {})


def turn_record(g: Game, scenario_id: str, number: int) -> Turn:
    sc = scenario(g, scenario_id)
    for t in sc.turns:
        if t.number == number:
            return t
    raise ValueError(f"turn {number} is not a turn of {sc.name} (1-{sc.length})")
