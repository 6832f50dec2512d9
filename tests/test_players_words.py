"""What a player reads names units in players' words (issue 51): never a unit or marker id, a check's
id, a hash or commitment, a sealed value's raw form ("hidden:...") or an empty list item in human text.

Systematic over every documented example of every check of the four games (`CheckSpec.example`, as
docs/examples shows them): each is recorded in a game of its own by the side that acts, then

* the ruling's page and the game's ledger page, as each side and the observer (the text a player
  reads: the receipt, code, citations and the chat lines shown verbatim left out),
* the check's answer in compute mode: its chat lines (no snake_case name either) and its details
  (a sealed die reads "hidden"),
* its chances before the roll: their headline, summary, outcome labels and shared steps,
* the command line's lines for the answer (`adjudicator-client check`),
* the refusal to the side that may not act (its problem's detail), and the recorded ruling's chat
  lines (without their tag, receipt and verify lines: ids and hashes for the log check),
* the log check's verdicts as each side and the observer, of a log that shows the ruling's lines on
  a board of the units it names but not what it ordered them, and of one that does not show it;

a refusal per game the rules or the request's validation make, in compute mode and recorded;
HoldFast's supply of a saved game (the issue's first case), as each side and the observer; and a
form's options; and the replay of a log with a ruling, per game, as each side and the observer (its
page, its pieces' looks, its steps' words, its rulings). Each failure names the surface, the example
(the test's id) and the offending word. The pages are held to no snake_case name either (a value the
rules name, "ground_support", reads "ground support"), their warnings aside: the stand-in notes cite
the data's tables for its maintainers.

VASSAL's dialogs (the ruling window, the notices, the apply dialog's list of changes, the form's
summary and refusals) are held to it over the same examples by tests/test_players_words_vassal.py.
"""

from __future__ import annotations

import copy
import io
import re
import warnings
from functools import lru_cache

import pytest
from lxml import html

from adjudicator.checks import all_checks, get_check
from adjudicator.client.output import check_lines
from adjudicator.examples import situation
from adjudicator.request_units import unit_objects
from adjudicator.testing import bearer, make_app, new_game
from adjudicator.words.names import marker_ids
from scenarios import load_game
from vassalfmt import continue_log
from vassalfmt.commands import chat_command

GAMES = ("kwb", "spi", "holdfast", "fireandice")
EXAMPLES = [(spec.system, spec.name) for spec in all_checks() if spec.system in GAMES and spec.example is not None]
HASH = re.compile(r"\b[0-9a-f]{16,}\b")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
SEALED = re.compile(r"\bhidden:")
#: A ruling's receipt as the after-action report quotes it, for anyone to verify: its hash and key by design.
RECEIPT = re.compile(r"record \d+ hash [0-9a-f]+ signed [0-9a-f]+")
CHECK_KEY = re.compile(r"\b(?:" + "|".join(GAMES) + r")\.[a-z][a-z0-9_]*\b")  # "kwb.combat": a check's id
EMPTY_ITEM = re.compile(r"(?:, ,|; ;|\(, |, \)|, ;|\(\)|\binto ,|: ,)")
#: Page parts that are not sentences: the receipt (record hash, key), the chat lines as VASSAL shows
#: them (a sealed die's commitment is in them, for the log check); code and citations stand as "code".
NOT_WORDS = ("//script", "//style", "//pre", "//*[@id='receipt']")
#: The warnings: the stand-in notes cite the data's tables (and files) for its maintainers.
WARNINGS = "//*[contains(concat(' ', normalize-space(@class), ' '), ' warnings ')]"
AS_CODE = ("//code", "//cite")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("players-words"))


@lru_cache(maxsize=None)
def unit_id(system: str) -> re.Pattern:
    """A unit's id, or a marker's that is no word of a sentence ("sf-com-2", not "weather": `marker_ids`)."""
    game = load_game(system)
    ids = sorted(list(game.units) + list(marker_ids(game)), key=len, reverse=True)
    return re.compile(r"(?<![\w/-])(" + "|".join(map(re.escape, ids)) + r")(?![\w/-])")


def faults(system: str, text: str, ids_only: bool = False, snake: bool = False) -> list[str]:
    """What in `text` is not in players' words (`snake`: a snake_case name too)."""
    found = [f"id {m}" for m in unit_id(system).findall(text)]
    if snake:
        found += [f"snake_case name {m}" for m in SNAKE.findall(text)] + [f"check id {m}" for m in CHECK_KEY.findall(text)]
    if not ids_only:
        found += [f"hash {m}" for m in HASH.findall(text)] + [f"sealed value {m}" for m in SEALED.findall(text)]
        found += [f"empty list item {m!r}" for m in EMPTY_ITEM.findall(text)]
    return found


def said(system: str, surface: str, lines: list[str], ids_only: bool = False, snake: bool = False) -> None:
    """Fails naming the surface, the example (the test's id) and each offending word of `lines`."""
    found = [f"{fault} in {line!r}" for line in lines for fault in faults(system, line, ids_only, snake)]
    assert found == [], f"{surface}: " + "; ".join(found)


def recorded_by_its_actor(client, game: dict, check: str, body: dict,
                          query: str = "transcript=1") -> tuple[dict, dict[str, dict]]:
    """The check recorded in `game` by the first side that may ask for it (its answer, with its chat
    lines; `query`: what else it carries, as VASSAL asks "transcript=1&changes=1"), and the problem
    each side before it was answered with."""
    refused = {}
    for side in (s for s in game["tokens"] if s != "observer"):
        response = client.post(f"/api/v1/games/{game['game_id']}/{check}?{query}", json=body,
                               headers=bearer(game["tokens"][side]))
        if response.status_code == 201:
            return response.get_json(), refused
        refused[side] = response.get_json()
    raise AssertionError(f"no side may record the example: {refused}")


def chat_words(lines: list[str]) -> list[str]:
    """A ruling's chat lines as sentences: without their tag (the game's id, random letters) and the
    receipt and verify lines (a record's hash and key, the address: for the log check)."""
    untagged = [re.sub(r"^\[ADJ [^\]]*\] ", "", line) for line in lines]
    return [line for line in untagged if not line.startswith(("receipt: ", "verify: "))]


def board_of(system: str, scenario: str | None, request: dict) -> bytes:
    """A saved game with a piece for each unit the request places on a hex of the scenario's map, at
    full strength: a log of it that shows a ruling's lines and nothing more has not applied what the
    ruling ordered them (the verdict says what)."""
    from test_bridge_helpers import savedgame_bytes

    game = load_game(system)
    game_map = game.scenarios[scenario].maps[0] if scenario in game.scenarios else next(iter(game.maps))
    units = {item["unit"]: item["hex"] for item in unit_objects(request)
             if isinstance(item.get("hex"), str) and item.get("unit") in game.units}
    placed = []
    for unit, where in units.items():
        try:
            game.maps[game_map].grid.parse(where)
        except (ValueError, KeyError):
            continue
        placed.append((unit, game_map, where, 0))
    with warnings.catch_warnings():  # pieces without the module's prototypes: enough for where they stand
        warnings.simplefilter("ignore", UserWarning)
        return savedgame_bytes(game, placed)


def verdict_texts(client, game_id: str, token: str, system: str, board: bytes, transcript: list[str]) -> list[str]:
    """The log check's sentences for `token`'s viewer (why each ruling stands as it does, where the
    others belong, what is owed, the notices), of a log of `board` showing the ruling's lines and
    nothing it ordered, and of one showing none (the ruling hidden)."""
    texts = []
    for lines in (transcript, []):
        log = continue_log(board, [chat_command(line) for line in lines])
        response = client.post(f"/api/v1/games/{game_id}/savedgame/log-check", data={"file": [(io.BytesIO(log), "f.vlog")]},
                               content_type="multipart/form-data", headers=bearer(token))
        assert response.status_code == 200, response.get_json()
        report = response.get_json()
        texts += [r["why"] for r in report["rulings"]] + [n for r in report["rulings"] for n in r["notices"]]
        texts += [item["why"] for key in ("hidden", "rerolls", "elsewhere", "missing_files", "owed")
                  for item in report[key] if item.get("why")]
        texts += report["breaks"] + [n if isinstance(n, str) else n.get("text", "") for n in report.get("notices", [])]
    return [text for text in texts if text]


def words_of(page: str, warnings: bool = True) -> str:
    """The text of a page a player reads as sentences and tables (without its `warnings`)."""
    tree = html.fromstring(page)
    for path in NOT_WORDS + (() if warnings else (WARNINGS,)):
        for element in tree.xpath(path):
            element.drop_tree()
    for path in AS_CODE:
        for element in tree.xpath(path):
            for child in list(element):
                element.remove(child)
            element.text = "code"
    return " \n".join(line.strip() for line in tree.text_content().splitlines() if line.strip())


def scenario_for(spec, body: dict) -> str | None:
    """The example's scenario, else the first of the game's scenarios the check belongs to."""
    if body.get("scenario"):
        return body["scenario"]
    return next((s for s in load_game(spec.system).scenarios if spec.belongs_to(s)), None)


@pytest.mark.slow  # a game per example of the four games, each page as each viewer
@pytest.mark.parametrize("system, check", EXAMPLES, ids=[f"{s}-{c}" for s, c in EXAMPLES])
def test_every_surface_of_a_documented_example_names_units_in_players_words(app, system, check):
    spec = get_check(system, check)
    client = app.test_client()
    computed = client.post(f"/api/v1/systems/{system}/{check}?transcript=1", json=spec.example)
    assert computed.status_code == 200, computed.get_json()
    answer = computed.get_json()
    said(system, "the chat lines (compute)", chat_words(answer["transcript"]), snake=True)
    said(system, "the ruling window (compute)", answer.get("details", []))
    said(system, "the command line", check_lines(answer)[1:], ids_only=True)

    if spec.random:
        undiced = client.post(f"/api/v1/systems/{system}/{check}", json=situation(spec))
        if undiced.status_code != 200:  # a check that may roll nothing (a naval assault on an empty port)
            assert undiced.status_code == 422, undiced.get_json()
            said(system, "the refusal of a roll without its dice", [undiced.get_json()["detail"]], snake=True)
        chances = client.post(f"/api/v1/systems/{system}/{check}/odds", json=situation(spec)).get_json()
        lines = [chances["headline"], chances["summary"], chances["chat_line"], chances["method"]]
        lines += [o["label"] for o in chances["outcomes"]] + [s["text"] for s in chances["steps"]]
        said(system, "the chances", lines)

    body = situation(spec)
    game = new_game(client, system, scenario_for(spec, body))
    recorded, refused = recorded_by_its_actor(client, game, check, body)
    for side, problem in refused.items():
        said(system, f"the refusal to the {side} player", [problem["detail"]], snake=True)
    said(system, "the chat lines (recorded)", chat_words(recorded["transcript"]), snake=True)
    board = board_of(system, recorded["request"].get("scenario") or scenario_for(spec, body), recorded["request"])
    for role, token in game["tokens"].items():
        said(system, f"the log check as the {role}", verdict_texts(client, game["game_id"], token, system, board,
                                                                  recorded["transcript"]), snake=True)
    for role, token in game["tokens"].items():
        browser = app.test_client()
        browser.log_in(game['game_id'], token)
        for address in (f"/games/{game['game_id']}/records/{recorded['seq']}", f"/games/{game['game_id']}"):
            page = browser.get(address)
            assert page.status_code == 200, address
            text = page.get_data(as_text=True).replace(game["game_id"], "")  # an id of random letters (may hold "_")
            assert faults(system, words_of(text)) == [], (role, address)
            assert faults(system, words_of(text, warnings=False), snake=True) == [], (role, address)


def refusals() -> list[tuple[str, str, dict]]:
    """A situation per game that the rules or the request's validation refuse, naming a unit (or a
    marker: "allowed values sf-com-1" was one of issue 51's refusals)."""
    def example(system: str, check: str) -> dict:
        return copy.deepcopy(get_check(system, check).example)

    kwb, spi, holdfast, fai = (example("kwb", "combat"), example("spi", "combat"), example("holdfast", "combat"),
                               example("fireandice", "rebuild"))
    kwb["attackers"][0]["hex"] = "2020"  # not adjacent to the defender: the request's validation says so
    spi["attackers"][0]["hex"] = "2020"
    holdfast["defender"]["sp"] = 7  # a block has no such edge
    fai["replacements_box"] = ["nk-2", "nk-3"]  # the unit rebuilt is not in the box
    marker = {**example("kwb", "combat"), "attacker_support": ["sf-un-1"]}  # the UN's marker, on a Communist attack
    return [("kwb", "combat", kwb), ("spi", "combat", spi), ("holdfast", "combat", holdfast), ("fireandice", "rebuild", fai),
            ("kwb", "combat", marker)]


@pytest.mark.parametrize("system, check, body", refusals(), ids=[f"{s}-{c}-{n}" for n, (s, c, _) in enumerate(refusals())])
def test_a_refusal_names_units_as_their_counters_read(app, system, check, body):
    client = app.test_client()
    refused = client.post(f"/api/v1/systems/{system}/{check}", json=body)
    assert refused.status_code == 422
    problem = refused.get_json()
    assert faults(system, problem["detail"]) == [], problem
    assert all(faults(system, e["detail"]) == [] for e in problem.get("errors", [])), problem

    game = new_game(client, system, body.get("scenario") or scenario_for(get_check(system, check), body))
    without_dice = {k: v for k, v in body.items() if k != "dice"}
    for side in (s for s in game["tokens"] if s != "observer"):
        refused = client.post(f"/api/v1/games/{game['game_id']}/{check}", json=without_dice,
                              headers=bearer(game["tokens"][side]))
        assert refused.status_code in (403, 422), refused.get_json()
        assert faults(system, refused.get_json()["detail"]) == [], (side, refused.get_json())


@pytest.mark.slow  # builds the game's module for its setup
def test_a_saved_games_supply_reads_in_players_words_to_each_side_and_the_observer(app, modules):
    """Issue 51's first case: HoldFast's UN supply from the module's setup, recorded by the UN's page,
    read by the Communist and the observer (every sealed block was 'hidden:' and a hash, the
    Communist's own blocks ids, the headline no result) and by the UN."""
    from test_fog_pages import record_savedgame_supply

    game, _, answer = record_savedgame_supply(app, modules, "holdfast")
    for role, token in game["tokens"].items():
        browser = app.test_client()
        browser.log_in(game['game_id'], token)
        for address in (f"/games/{game['game_id']}/records/{answer['seq']}", f"/games/{game['game_id']}"):
            text = browser.get(address).get_data(as_text=True).replace(game["game_id"], "")  # random id, may hold "_"
            assert faults("holdfast", words_of(text)) == [], (role, address)
            assert faults("holdfast", words_of(text, warnings=False), snake=True) == [], (role, address)
        headline = html.fromstring(browser.get(f"/games/{game['game_id']}/records/{answer['seq']}").get_data(
            as_text=True)).get_element_by_id("headline").text_content()
        assert re.search(r"in supply \d+, out of supply \d+", headline), (role, headline)


def test_a_forms_options_read_as_the_rulebook_says_them(app):
    """Issue 51: Fire and Ice's combat form offered check boxes 'ammo_shortage', 'ooc'; they read
    'Ammo shortage', 'OOC' now, their values what the request takes."""
    page = app.test_client().get("/systems/fireandice/combat_support")
    assert page.status_code == 200
    tree = html.fromstring(page.get_data(as_text=True))
    boxes = {box.get("value"): box.getparent().text_content().strip() for box in tree.xpath("//input[@type='checkbox'][@value]")}
    assert boxes.get("ooc") == "OOC" and boxes.get("ammo_shortage") == "Ammo shortage", boxes


@pytest.mark.slow  # builds each game's module for its setup, and a replay per viewer
@pytest.mark.parametrize("system", GAMES)
def test_the_replay_reads_in_players_words_to_each_side_and_the_observer(app, modules, system):
    """The replay of a log of the game's setup with a recorded ruling (its combat's documented
    example), as each side and the observer: the page, each look of a piece as the page writes it
    (a unit as its counter reads, never its id: the replay wrote "usmc-1-r"), each step's words and
    notes, each ruling's headline, verdict and notices."""
    from test_replay import SCENARIOS, replay_page, setup_of

    client = app.test_client()
    spec = get_check(system, "combat")
    game = new_game(client, system, SCENARIOS[system])
    body = {key: value for key, value in situation(spec).items() if key != "scenario"}
    answer, _ = recorded_by_its_actor(client, game, "combat", body)
    log = continue_log(setup_of(modules, system), [chat_command(line) for line in answer["transcript"]])
    for role in game["tokens"]:
        data, address = replay_page(app.test_client(), game, role, log)
        page = app.test_client()
        page.log_in(game["game_id"], game["tokens"][role])
        text = words_of(page.get(address).get_data(as_text=True).replace(game["game_id"], ""))
        said(system, f"the replay page as the {role}", [RECEIPT.sub("the receipt", text)])
        looks = [text for view in data["views"] if view for text in (view.get("n", view["l"]), view["t"])]
        said(system, f"the replay's pieces as the {role}", looks, snake=True)
        steps = [text for step in data["steps"] for text in step.get("x", []) + step.get("n", [])]
        said(system, f"the replay's steps as the {role}", steps, snake=True)
        rulings = [text for r in data["rulings"] for text in [r["headline"], r["why"]] + r.get("notices", [])]
        said(system, f"the replay's rulings as the {role}", [text for text in rulings if text], snake=True)
        assert data["rulings"], role
