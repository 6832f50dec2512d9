"""docs/examples: a situation file per check, equal to the registered examples, each of which a
recorded game accepts from the side that acts (issue #18)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.checks import all_checks
from adjudicator.examples import example_files, situation
from adjudicator.testing import bearer, make_app, new_game

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"


def test_the_folder_is_what_the_registry_writes():
    expected = example_files(all_checks())
    found = {str(p.relative_to(EXAMPLES)): p.read_text(encoding="utf-8") for p in EXAMPLES.rglob("*") if p.is_file()}
    assert sorted(found) == sorted(expected), "regenerate: adjudicator examples --out docs/examples"
    for name, text in expected.items():
        assert found[name] == text, f"{name} is out of date: adjudicator examples --out docs/examples"


def test_the_readme_points_to_the_examples():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/examples" in readme
    for name in ("kwb/combat.json", "spi/supply.json", "holdfast/combat.json", "fireandice/combat.json"):
        assert (EXAMPLES / name).is_file()


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("docs-examples")).test_client()


def _scenario_for(spec, client) -> str:
    given = situation(spec).get(spec.top_level_field("scenario") or "")
    if given:
        return given
    systems = client.get("/api/v1/systems").get_json()["systems"]
    listed = next(c for s in systems if s["id"] == spec.system for c in s["checks"] if c["name"] == spec.name)
    if listed["scenarios"]:  # the scenarios the check belongs to (by id, or by the scenario's data)
        return listed["scenarios"][0]
    return next(s for s in systems if s["id"] == spec.system)["scenarios"][0]["id"]


@pytest.mark.parametrize("spec", all_checks(), ids=lambda s: s.key)
def test_each_file_plays_in_a_recorded_game_by_the_side_that_acts(client, spec):
    body = json.loads((EXAMPLES / spec.system / f"{spec.name}.json").read_text(encoding="utf-8"))
    game = new_game(client, spec.system, _scenario_for(spec, client))
    request = spec.request.model_validate_json(json.dumps(body))
    sides = spec.actor.sides(request)
    side = sorted(sides)[0] if sides else "un"
    response = client.post(f"/api/v1/games/{game['game_id']}/{spec.name}", json=body,
                           headers=bearer(game["tokens"][side]))
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["side"] == side


def test_the_api_documents_every_checks_board_fields_and_actor():
    from adjudicator.examples import board_roles_table

    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    documented = text.split("<!-- board-roles:start -->\n", 1)[1].split("<!-- board-roles:end -->", 1)[0]
    expected = board_roles_table(all_checks())
    assert documented == expected, "docs/api.md 'Fields the board fills' is out of date; its table is:\n" + expected
