"""What each game's rules tests share: a request validated against a test game, dice given; and for
the compute-mode API tests an in-process app, posting a check, a good answer (every step cites its
rule), and two adjacent clear hexes of a real map to fight across."""

from __future__ import annotations

from adjudicator.ledger.dice import SuppliedDice
from adjudicator.testing import make_app


def validate(model, g, **body):
    """A request validated against a test game (pydantic context), as the service would."""
    return model.model_validate(body, context={"game": g})


def rolled(values):
    """Dice that give these values, in order."""
    return SuppliedDice(list(values))


def compute_client(tmp_path_factory, system: str):
    """A test client of an app with its own database and key (for a module-scoped fixture)."""
    return make_app(tmp_path_factory.mktemp(f"{system}-api")).test_client()


def poster(system: str):
    """post(client, check, body): the check of `system` in compute mode."""
    def post(client, check: str, body: dict):
        return client.post(f"/api/v1/systems/{system}/{check}", json=body)
    return post


def ok(response) -> dict:
    """The answer's JSON, after asserting it is a 200 whose every step cites its rule."""
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["steps"] and all(step["rule"] for step in body["steps"])
    return body


def adjacent_clear_pair(gm, without_features: bool = False) -> tuple[str, str]:
    """Two adjacent clear hexes of a map with nothing on their hexside (the first without features)."""
    for h in gm.hexes():
        if gm.terrain_at(h) != "clear" or (without_features and gm.features_at(h)):
            continue
        for n in gm.grid.neighbours(h):
            if gm.terrain_at(n) == "clear" and not gm.hexside_kinds(h, n):
                return gm.grid.label(h), gm.grid.label(n)
    raise AssertionError("no clear pair")
