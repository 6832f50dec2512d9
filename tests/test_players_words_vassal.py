"""What a VASSAL player reads in the Adjudicator extension's dialogs names units in players' words
(issue 51), over every documented example of every check of the four games, as
tests/test_players_words.py holds the server's surfaces to it.

Each example is asked in compute mode and recorded in a game of its own by the side that acts
(test_players_words' helpers), both as the extension asks ("transcript=1&changes=1"); the Java entry
point tests/extension/.../DialogWords.java, run once over all of them with the real engine on the
class path and no board loaded, prints every text its dialogs would show: the ruling window, the
notices dialog (each example asked again in its game: the ledger's notices), the ruling as the side sees it, the stand-ins line, the apply dialog's list of
changes and the owners' chat line as each side (and no side; with no board every unit is "not on
the board", and what the list says of such a unit is what the player reads), the form's summary
(of the members that name no unit: a unit is named by its piece) and every refusal as the form
shows it (the sides refused before the actor, a roll asked without its dice, and the refusals of
test_players_words). The same scan applies; each failure names the dialog, the example and the
offending word.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from adjudicator.checks import get_check, side_label
from adjudicator.examples import situation
from adjudicator.testing import bearer, make_app, new_game
from scenarios import load_game
from modgen import extension
from tests.engine.harness import class_path, skip_reason
from test_players_words import EXAMPLES, faults, recorded_by_its_actor, refusals, scenario_for

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")

DIALOG_WORDS = Path(__file__).resolve().parent / "extension" / "korea" / "adjudicator" / "DialogWords.java"
AS_VASSAL = "transcript=1&changes=1"


def cases_of(client, system: str, check: str) -> list[dict]:
    """The example's compute answer (read by no side) and its recorded answer (read by each side and
    none), with every refusal the sides met on the way."""
    spec = get_check(system, check)
    example = f"{system}-{check}"
    computed = client.post(f"/api/v1/systems/{system}/{check}?{AS_VASSAL}", json=spec.example)
    assert computed.status_code == 200, computed.get_json()
    refused = []
    if spec.random:
        undiced = client.post(f"/api/v1/systems/{system}/{check}", json=situation(spec))
        if undiced.status_code != 200:
            refused.append(undiced.get_json())
    body = situation(spec)
    game = new_game(client, system, scenario_for(spec, body))
    recorded, problems = recorded_by_its_actor(client, game, check, body, query=AS_VASSAL)
    again, refused_again = asked_again(client, game, check, body)
    sides = [side for side in game["tokens"] if side != "observer"]
    names = {side: side_label(side) for side in sides}
    common = {"system": system, "check": check, "side_names": names}
    return [{**common, "example": f"{example} (compute)", "answer": computed.get_json(), "viewers": [None],
             "request": spec.example, "refusals": refused},
            {**common, "example": f"{example} (recorded)", "answer": recorded, "viewers": sides + [None],
             "request": recorded["request"], "refusals": list(problems.values())},
            {**common, "example": f"{example} (asked again)", "answer": again, "viewers": sides + [None],
             "request": again.get("request", body), "refusals": refused_again}]


def asked_again(client, game: dict, check: str, body: dict) -> tuple[dict, list[dict]]:
    """The example asked again in its game: its answer with the ledger's notices (the units it left
    changed, "asked again: the same situation as record #1"), shown in the notices dialog; or, where
    no side may ask it again, {} and the refusals."""
    refused = []
    for side in (s for s in game["tokens"] if s != "observer"):
        response = client.post(f"/api/v1/games/{game['game_id']}/{check}?{AS_VASSAL}", json=body,
                               headers=bearer(game["tokens"][side]))
        if response.status_code == 201:
            return response.get_json(), refused
        refused.append(response.get_json())
    return {}, refused


def refusal_cases(client) -> list[dict]:
    """test_players_words' refusals, as the form shows them."""
    out = []
    for n, (system, check, body) in enumerate(refusals()):
        refused = client.post(f"/api/v1/systems/{system}/{check}", json=body)
        assert refused.status_code == 422, refused.get_json()
        out.append({"system": system, "check": check, "example": f"{system}-{check}-{n} (refused)", "answer": {},
                    "viewers": [], "side_names": {}, "request": body, "refusals": [refused.get_json()]})
        out[-1]["side_names"] = {side: side_label(side) for side in load_game(system).sides}
    return out


@pytest.fixture(scope="module")
def shown(tmp_path_factory) -> list[tuple[str, dict]]:
    """Every text the dialogs show for every case, with its game: (system, {example, dialog, text})."""
    folder = tmp_path_factory.mktemp("dialog-words")
    client = make_app(folder / "server").test_client()
    cases = [case for system, check in EXAMPLES for case in cases_of(client, system, check)] + refusal_cases(client)
    (folder / "systems.json").write_text(json.dumps(client.get("/api/v1/systems").get_json()), encoding="utf-8")
    (folder / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    classes = folder / "classes"
    classes.mkdir()
    jars = class_path()
    extension.compile_classes(classes, class_path=jars, extra_sources=[DIALOG_WORDS])
    done = subprocess.run(["java", "-Djava.awt.headless=true", "-cp", ":".join(map(str, [classes, *jars])),
                           "korea.adjudicator.DialogWords", *(str(folder / name) for name in ("systems.json", "cases.json", "shown.json"))],
                          capture_output=True, timeout=300, cwd=folder)  # the engine's logging writes beside it
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    system_of = {case["example"]: case["system"] for case in cases}
    return [(system_of[row["example"]], row) for row in json.loads((folder / "shown.json").read_text(encoding="utf-8"))]


#: Dialogs held to no id, hash or empty item but not to no snake_case name: the ruling window cites
#: the stand-in tables a step used ("stand-in tables/crt_meeting.csv"), and the stand-ins line the
#: data's tables and files, for its maintainers (as test_players_words holds the ruling's details
#: and the pages' warnings).
CITING = ("the ruling window", "the stand-ins line")


@pytest.mark.slow  # a game per example of the four games, javac and a JVM
def test_every_dialog_of_every_documented_example_names_units_in_players_words(shown):
    found = [f"{row['dialog']} ({row['example']}): {fault} in {row['text']!r}"
             for system, row in shown for fault in faults(system, row["text"], snake=row["dialog"] not in CITING)]
    assert found == [], f"{len(found)} leaks:\n" + "\n".join(found)


@pytest.mark.slow
def test_every_example_shows_its_ruling_window_and_the_apply_dialog_lists_its_changes(shown):
    """The scan reads what it should: each example's ruling window, each of its changes listed."""
    windows = {row["example"] for _, row in shown if row["dialog"] == "the ruling window"}
    assert {f"{s}-{c} ({mode})" for s, c in EXAMPLES for mode in ("compute", "recorded")} <= windows
    notices = {row["example"] for _, row in shown if row["dialog"] == "the notices dialog"}
    assert {"kwb-combat (asked again)", "holdfast-combat (asked again)", "fireandice-rebuild (asked again)"} <= notices
    assert any(row["dialog"].startswith("the apply dialog") for _, row in shown)
    assert any(row["dialog"] == "the form's refusal" for _, row in shown)
