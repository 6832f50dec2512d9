"""No page or download reachable from a ruling shows a viewer what the fog of war hides from him (issue 39).

Systematic: every check of every game that hides something (HoldFast's blocks, KWB's Support
Fire draws, Fire and Ice's Objective draws; `adjudicator/rules/*/fog.py`) is recorded in a game of
its own with its example situation, and a saved game's supply report too. (KWB's Scratch Units are
identity-less placeholders whose counters the server settles from a sealed order:
tests/test_sealed_draws.py.) Then every viewer — each side, the acting one included, and the observer —
opens every page and download a ruling leads to: the game's ledger page, the ruling's page (its
tables, steps, chat lines, situation), the ledger download, the dice record, the after-action
report and its Markdown, the API's ledger and dice, and a replay of the acting side's log holding the ruling's lines. For each hidden part of
the record the viewer may not see yet: no unit it hides is named, by id or by the name its counter
reads; a value it hides (an Objective draw, its dice) is shown only as its commitment.

The units a check reveals to both (a combat's) stand in the record in the clear: those are not hidden.
"""

from __future__ import annotations

import io
import json
import re

import pytest

from adjudicator.checks import checks_for, get_check
from adjudicator.examples import situation
from adjudicator.fog import Part, fog_of
from adjudicator.testing import bearer, make_app, new_game, replay_settled
from adjudicator.words.names import UnitNames
from replay_logs import LogWriter
from scenarios import load_game

FOG_GAMES = ("holdfast", "kwb", "fireandice")
CASES = [(system, spec.name) for system in FOG_GAMES for spec in checks_for(system)]
#: A saved game's supply report, of the side whose hidden units the setup places: (scenario, side).
SAVEDGAME_SUPPLY = {"holdfast": ("campaign", "un")}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("fog-pages"))


def record_example(app, system: str, check: str) -> tuple[dict, str, dict] | None:
    """A game with the check's example recorded by the side that acts: (game, that side, answer)."""
    spec = get_check(system, check)
    client = app.test_client()
    body = situation(spec)
    game = new_game(client, system, body.get("scenario"))
    for side in (s for s in game["tokens"] if s != "observer"):
        response = client.post(f"/api/v1/games/{game['game_id']}/{check}?transcript=1", json=body,
                               headers=bearer(game["tokens"][side]))
        if response.status_code == 201:
            return game, side, response.get_json()
    return None


def record_savedgame_supply(app, modules, system: str) -> tuple[dict, str, dict]:
    """A supply report of a whole side, recorded from the module's setup by its side's page."""
    scenario, side = SAVEDGAME_SUPPLY[system]
    game = new_game(app.test_client(), system, scenario)
    page = app.test_client()
    page.post(f"/games/{game['game_id']}", data={"token": game["tokens"][side]})
    kept = page.post(f"/games/{game['game_id']}/savedgame", data={
        "file": (io.BytesIO(modules[(system, 1)][2][f"setups/{scenario}.vsav"]), "setup.vsav")},
        content_type="multipart/form-data")
    sha = re.search(r"/savedgame/([0-9a-f]{64})", kept.headers["Location"]).group(1)
    recorded = page.post(f"/games/{game['game_id']}/savedgame/{sha}/supply", data={"side": side})
    assert recorded.status_code == 303, recorded.get_data(as_text=True)[-1500:]
    seq = int(re.search(r"/records/(\d+)", recorded.headers["Location"]).group(1))
    answer = app.test_client().get(f"/api/v1/games/{game['game_id']}/ledger",
                                   headers=bearer(game["tokens"]["observer"])).get_json()["records"][seq]
    return game, side, {"seq": seq, "transcript": [], **answer}


# -- what a viewer may not see ---------------------------------------------------------------------------

def in_the_clear(system: str, public: dict) -> set[str]:
    """Units the record names openly: those the rules revealed to both (a combat's)."""
    fog = fog_of(system)
    found = set()

    def walk(node):
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, str) and fog.unit_owner(node) is not None:
            found.add(node)
    walk(public)
    return found


def hidden_from(system: str, parts: list[Part], viewer: str | None, public: dict) -> tuple[set[str], list[str]]:
    """(units, commitments of values) the viewer may not see yet in a record with `parts`: every
    unit a part names that the rules hide from him (another side's block; a draw no one may see yet, from
    everyone), unless the record names it in the clear; every value no unit of which is named."""
    fog = fog_of(system)
    units, values = set(), []
    for part in parts:
        named = {u for u in re.findall(r"[A-Za-z0-9][\w-]*", json.dumps(part.value)) if fog.unit_owner(u) is not None}
        units |= {u for u in named if not (fog.owner_sees and fog.unit_owner(u) == viewer)}
        texts = isinstance(part.value, dict) and set(part.value) in ({"steps"}, {"warnings"})
        if not named and not texts and not (part.owner != "" and part.owner == viewer):
            values.append(part.commitment)
    return units - in_the_clear(system, public), values


def names_of(system: str, units: set[str]) -> dict[str, set[str]]:
    names = UnitNames.of(system).names
    return {u: {u} | ({names[u]} if u in names else set()) for u in units}


def named(text: str, names: dict[str, set[str]]) -> list[str]:
    return sorted(u for u, words in names.items()
                  if any(re.search(rf"(?<![\w/-]){re.escape(w)}(?![\w-])", text) for w in words))


# -- what a viewer opens --------------------------------------------------------------------------------

def opened_by(app, game: dict, role: str, seq: int, replay: bytes | None) -> dict[str, str]:
    """Every page and download a ruling leads this viewer to, by address."""
    gid = game["game_id"]
    browser = app.test_client()
    browser.log_in(gid, game["tokens"][role])
    api = app.test_client()
    out = {}
    for address in (f"/games/{gid}", f"/games/{gid}/records/{seq}", f"/games/{gid}/ledger.json",
                    f"/games/{gid}/dice", f"/games/{gid}/report", f"/games/{gid}/report.md"):
        response = browser.get(address)
        assert response.status_code == 200, (address, response.status_code)
        out[address] = response.get_data(as_text=True)
    for address in (f"/api/v1/games/{gid}/ledger", f"/api/v1/games/{gid}/dice"):
        out[address] = api.get(address, headers=bearer(game["tokens"][role])).get_data(as_text=True)
    if replay is not None:
        kept = browser.post(f"/games/{gid}/replay", data={"file": (io.BytesIO(replay), "turn.vlog")},
                            content_type="multipart/form-data")
        assert kept.status_code == 303, kept.get_data(as_text=True)[-1000:]
        assert replay_settled(browser, kept.headers["Location"]).status_code == 200  # built beside the request
        for address in (kept.headers["Location"], kept.headers["Location"] + "/report.md",
                        kept.headers["Location"] + "/report.html") + replay_data_addresses(browser, kept.headers["Location"]):
            out[address] = browser.get(address).get_data(as_text=True)
    return out


def replay_data_addresses(browser, address: str) -> tuple[str, ...]:
    """The pieces of the replay's steps its page fetches as the player steps."""
    page = browser.get(address).get_data(as_text=True)
    config = json.loads(re.search(r'id="replay-config">(.*?)</script>', page, re.S).group(1))
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', page, re.S).group(1))
    assert data["pieces"] >= 1
    return tuple(config["pieces"] + str(number) for number in range(data["pieces"]))


def acting_sides_log(modules, system: str, lines: list[str]) -> bytes | None:
    """The acting side's log of its turn: the module's setup continued by the ruling's chat lines."""
    scenario = SAVEDGAME_SUPPLY.get(system, (None,))[0]
    if scenario is None or not lines:
        return None
    writer = LogWriter(system, modules[(system, 1)][2][f"setups/{scenario}.vsav"])
    writer.ruling(lines)
    return writer.log()


def assert_nothing_hidden_is_shown(app, system, game, acting, seq, replay):
    store = app.extensions["adjudicator"].store
    parts = [Part.from_json(p) for at, p in store.hidden_parts(game["game_id"]) if at == seq]
    assert parts, "the ruling hides nothing: the case tests nothing"
    public = store.record(game["game_id"], seq).body
    for role in game["tokens"]:
        viewer = None if role == "observer" else role
        units, values = hidden_from(system, parts, viewer, public)
        names = names_of(system, units)
        for address, text in opened_by(app, game, role, seq, replay if role != acting else None).items():
            assert named(text, names) == [], (role, address)
            for commitment in values:  # the chat lines show its commitment; the pages in words say it is hidden
                assert commitment in text or ">hidden<" in text \
                    or address.endswith(("/dice", "/report", "report.md", "report.html")) \
                    or "/replay/" in address, (role, address, "a hidden value is shown as hidden")


@pytest.mark.slow
@pytest.mark.parametrize("system, check", CASES, ids=[f"{s}-{c}" for s, c in CASES])
def test_no_page_of_a_ruling_shows_a_viewer_what_the_fog_hides_from_him(app, modules, system, check):
    recorded = record_example(app, system, check)
    if recorded is None:
        pytest.skip(f"{system} {check}: its example cannot be recorded in a game of its scenario")
    game, acting, answer = recorded
    parts = [p for at, p in app.extensions["adjudicator"].store.hidden_parts(game["game_id"]) if at == answer["seq"]]
    if not parts:  # its ruling names nothing the fog hides, or the check reveals all it names (a combat)
        assert check in fog_of(system).revealed_by or not _names_a_hidden_unit(system, answer), \
            "a ruling naming hidden units sealed nothing"
        return
    assert_nothing_hidden_is_shown(app, system, game, acting, answer["seq"],
                                   acting_sides_log(modules, system, answer.get("transcript", [])))


@pytest.mark.parametrize("system", sorted(SAVEDGAME_SUPPLY))
def test_a_saved_games_supply_report_shows_no_viewer_what_the_fog_hides(app, modules, system):
    game, acting, answer = record_savedgame_supply(app, modules, system)
    assert_nothing_hidden_is_shown(app, system, game, acting, answer["seq"], None)


def _names_a_hidden_unit(system: str, answer: dict) -> bool:
    fog = fog_of(system)
    return any(fog.unit_owner(u) for u in re.findall(r"[A-Za-z0-9][\w-]*", json.dumps(answer.get("request", {}))))


def test_the_cases_cover_every_kind_of_hidden_thing(app):
    """The systematic test above is not vacuous: blocks, a side's own draws and secret draws are sealed."""
    covered = set()
    for system, check in (("holdfast", "supply"), ("kwb", "support_fire_draw"), ("fireandice", "objective_draw")):
        recorded = record_example(app, system, check)
        assert recorded is not None, (system, check)
        assert app.extensions["adjudicator"].store.hidden_parts(recorded[0]["game_id"]), (system, check)
        covered.add(system)
    assert covered == set(FOG_GAMES)
