"""A game ends (issue 54): victory ruled from the board and the ledger, and the after-action report.

Each game is played short, through the API, with chosen dice (`seed_where`): a ruling eliminates a
unit, the last turn's victory check is asked with the position a saved game shows, and the ledger
fills in what its rulings established. Each test's docstring works the result out by hand from the
rulebook; the test checks the ruling against it, then the report's sections and its Markdown.
"""

from __future__ import annotations

import pytest

from adjudicator.checks import get_check
from adjudicator.testing import PageClient, bearer, choose_seeds, make_app, new_game, seed_where

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    made = make_app(tmp_path_factory.mktemp("endgame"))
    made.test_client_class = PageClient
    return made


@pytest.fixture()
def client(app):
    return app.test_client()


def roll(client, game, side, check, body):
    return client.post(f"/api/v1/games/{game['game_id']}/{check}", json=body, headers=bearer(game["tokens"][side]))


def recorded(response) -> dict:
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def login(client, game, side):
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"][side]})


def report_of(client, game) -> tuple[str, str]:
    page = client.get(f"/games/{game['game_id']}/report")
    assert page.status_code == 200
    text = client.get(f"/games/{game['game_id']}/report.md")
    assert text.status_code == 200 and text.mimetype == "text/plain"
    return page.get_data(as_text=True), text.get_data(as_text=True)


#: The address the test client asks for (werkzeug's default Host), as the Markdown's links say it.
BASE = "http://localhost"


def facts_shown(form: str) -> str:
    """What a roll form says the game established (its "From this game" list)."""
    return form.split('id="game-facts"', 1)[1].split("</div>", 1)[0]


def assert_report_sections(page: str, markdown: str) -> None:
    for section in ("report-headline", "report-result", "report-turns", "report-losses", "report-dice",
                    "report-verify", "report-export", "report-publish"):
        assert f'id="{section}"' in page, section
    for heading in ("## After-action report", "## Turn by turn", "## Losses", "## Dice", "## Verify it"):
        assert heading in markdown, heading
    assert "adjudicator verify ledger.json --key keys.json" in markdown


# -- Korean War Battles ---------------------------------------------------------------------------


def kwb_clear_pair(app):
    from scenarios import load_game

    gm = load_game("kwb").maps["seoul"]
    for h in gm.hexes():
        if gm.terrain_at(h) == "clear":
            for n in gm.grid.neighbours(h):
                if gm.terrain_at(n) == "clear" and not gm.hexside_kinds(h, n):
                    return gm.grid.label(h), gm.grid.label(n)
    raise AssertionError("no clear pair on the Seoul map")


def test_kwb_seoul_victory_from_the_ledger_and_its_report(app, client):
    """Battle for Seoul (12.22, 11.0). The UN attacks the depleted NK 31st Infantry Regiment and the
    chosen dice eliminate it (record 1). At the end of game-turn 10 a UN regiment stands in Seoul's
    capital city hex and no Communist regiment: Seoul is cleared, "14 minus the game-turn number,
    multiplied by 3" = (14 - 10) x 3 = 12 UN VP, once (record 2). On game-turn 14, the last, the
    victory check is asked with nothing but the turn: the ledger puts the NK 31st in the deadpile (1 UN
    VP: "each Communist infantry regiment ... in the deadpile") and the award's turn. UN 13, Communist
    0: 0 - 13 = -13, "< 0 Decisive UN Victory" (11.0). A player who names the award on another turn is
    refused with the record that made it."""
    attack, defend = kwb_clear_pair(app)
    combat = {"attacking_side": "un", "intensive": "none", "attackers": [{"unit": "us-5-1m", "hex": attack}],
              "defenders": [{"unit": "nk-31", "hex": defend, "step": "depleted"}]}
    eliminated = seed_where(get_check("kwb", "combat"), {"scenario": "seoul", **combat},
                            lambda o: any(d.get("step") in ("eliminated", "deadpile") for d in o["defenders"]))
    choose_seeds(app, {"kwb/seoul": eliminated})
    game = new_game(client, "kwb", "seoul")
    recorded(roll(client, game, "un", "combat", combat))

    from adjudicator.rules.kwb.victory import capital_hexes
    from scenarios import load_game

    gm = load_game("kwb").maps["seoul"]
    capital = gm.grid.label(capital_hexes(gm)[0])
    cleared = recorded(roll(client, game, "un", "seoul_cleared",
                            {"game_turn": 10, "positions": [{"unit": "us-5-1m", "hex": capital}]}))
    assert cleared["outcome"]["un_vp"] == 12

    wrong = roll(client, game, "un", "victory", {"game_turn": 14, "seoul_cleared_on_turn": 12})
    assert wrong.status_code == 422 and "record #2" in wrong.get_json()["detail"]
    ruled = recorded(roll(client, game, "communist", "victory", {"game_turn": 14}))
    assert ruled["request"]["deadpile"] == ["nk-31"] and ruled["request"]["seoul_cleared_on_turn"] == 10
    assert (ruled["outcome"]["un_vp"], ruled["outcome"]["communist_vp"]) == (13, 0)
    assert ruled["outcome"]["difference"] == -13 and ruled["outcome"]["level"] == "Decisive UN Victory"

    info = client.get(f"/api/v1/games/{game['game_id']}", headers=bearer(game["tokens"]["un"])).get_json()
    assert info["result"] == {"winner": "un", "result": "Decisive UN Victory: Communist 0 VP, UN 13 VP",
                              "record": ruled["seq"]}
    login(client, game, "un")
    ledger_page = client.get(f"/games/{game['game_id']}").get_data(as_text=True)
    assert 'id="victory-link-victory"' in ledger_page and 'id="game-winner">UN<' in ledger_page
    page, markdown = report_of(client, game)
    assert_report_sections(page, markdown)
    assert 'id="report-winner">UN<' in page and "Turn 10" in page and "Turn 14" in page
    assert "**Turns played**: 14 of 14  \n" in markdown  # its own line (two spaces: a Markdown line break)
    assert "**Result**: UN won: Decisive UN Victory" in markdown
    assert "- NK 31 eliminated (#1)" in markdown
    closed = client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"]["un"]))
    assert closed.get_json()["result"]["winner"] == "un"
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=bearer(game["tokens"]["un"])).get_json()
    verified = client.post("/api/v1/verify", json={"ledger": ledger}).get_json()
    assert verified["ok"] and verified["seed_revealed"], verified  # the report's "verify it" holds


# -- SPI Korea ------------------------------------------------------------------------------------


def test_spi_intervention_victory_leaves_out_what_the_rulings_eliminated(app, client):
    """SPI Intervention Game (Victory Conditions). The UN's US 2nd Division attacks the NK 1st Division
    at Pusan (3439) on game turn 9, the last; the chosen dice roll 1 at 1-1 on the meeting table: E2.
    Both divisions break down into their regiments; all three NK regiments are eliminated and two of
    the US ones (9th, 23rd), the 38th remaining (record 1). The final position still shows the NK 1st at
    Pusan (a stale saved game), the US 38th Regiment in Soul (2122), the CPV 38th Army in Pyongyang (1312).
    UN: marginal "hold Soul" met; tactical "no Enemy units south of the 38th" met only because the
    ledger says the NK 1st is gone; strategic "hold Pyongyang" not met: level tactical (2).
    Communist: marginal "occupy Pyongyang" met; tactical "occupy Soul" not; strategic "no Enemy units
    north of the 37th" not (the US 38th in Soul): level marginal (1). Disparity 1: a UN marginal
    victory. Without the ledger the NK 1st would stand south of the 38th, the UN level would be
    marginal, and the game a tie."""
    combat = {"scenario": "intervention", "game_turn": 9, "defender_hex": "3439", "table": "meeting",
              "attackers": [{"unit": "us-d2", "hex": "3440"}], "defenders": [{"unit": "nk-d1"}]}
    wiped = seed_where(get_check("spi", "combat"), combat, lambda o: o["result"] == "E2")
    choose_seeds(app, {"spi/intervention": wiped})
    game = new_game(client, "spi", "intervention")
    recorded(roll(client, game, "un", "combat", combat))
    position = [{"unit": "nk-d1", "hex": "3439"}, {"unit": "us-r38", "hex": "2122"}, {"unit": "cpv-a38", "hex": "1312"}]
    ruled = recorded(roll(client, game, "communist", "victory", {"game_turn": 9, "positions": position}))
    assert set(ruled["request"]["eliminated"]) == {"nk-d1", "nk-r-1", "nk-r-2", "nk-r-3", "us-d2", "us-r9", "us-r23"}
    assert ruled["outcome"]["levels"] == {"un": "tactical", "communist": "marginal"}
    assert (ruled["outcome"]["winner"], ruled["outcome"]["victory"]) == ("un", "marginal")

    login(client, game, "communist")
    page, markdown = report_of(client, game)
    assert_report_sections(page, markdown)
    assert "**Result**: UN won: UN marginal victory" in markdown and "**Turns played**: 9 of 9" in markdown
    assert 'id="losses-communist"' in page and "**Communist**: 3 eliminated, 3 in all" in markdown
    assert "**UN**: 2 eliminated, 2 in all" in markdown
    assert "- US 9 eliminated (of US 2, broken down) (turn 9, #1)" in markdown


# -- HoldFast Korea -------------------------------------------------------------------------------


def test_holdfast_last_turn_counts_only_blocks_the_rulings_left(app, client):
    """HoldFast Korea (12): "victory is determined after the last turn of the game and the winner is
    the player with the most in supply units on his opponent's side of the 38th Parallel". In the
    campaign's setup the only block beyond the 38th is the UN's ROK 2nd (0819, 1 SP): UN 1, Communist 0.
    On turn 25, the last, the NK 1st (3 SP) attacks it and the chosen dice give it one hit: eliminated
    (record 1). The UN player's turn ends turn 25, so the count decides; the saved game still shows the
    ROK 2nd, but the ledger eliminated it: UN 0, Communist 0 — a draw (the stand-in reading of a tie,
    labelled as such). No star city changed hands, so no automatic victory."""
    from adjudicator.rules.holdfast import data

    combat = {"turn": 25, "weather": "clear", "attackers": [{"unit": "nkpa-1", "sp": 3, "across_river": False}],
              "defender": {"unit": "rok-2", "sp": 1}, "defender_terrain": "clear"}
    hit = seed_where(get_check("holdfast", "combat"), combat, lambda o: o["defender"]["eliminated"])
    choose_seeds(app, {"holdfast/campaign": hit})
    game = new_game(client, "holdfast", "campaign")
    recorded(roll(client, game, "communist", "combat", combat))
    setup = [{"unit": p.unit, "hex": p.location, "step": p.step}
             for p in data.game().scenarios["campaign"].setup if p.is_on_map and not p.is_marker]
    ruled = recorded(roll(client, game, "un", "victory", {"game_turn": 25, "positions": setup}))
    assert ruled["as_you_see_it"]["request"]["eliminated"] == ["rok-2"]  # sealed in the public record (fog)
    assert ruled["outcome"]["units_beyond_38th"] == {"communist": 0, "un": 0}
    assert (ruled["outcome"]["winner"], ruled["outcome"]["how"]) == (None, "draw")
    assert any("stand-in" in step["text"] for step in ruled["steps"])

    login(client, game, "communist")  # the attacker never learnt which block he eliminated (fog of war)
    told = facts_shown(client.get(f"/games/{game['game_id']}/checks/victory").get_data(as_text=True))
    assert "1 block hidden from you" in told and "rok-2" not in told and "ROK 2" not in told
    login(client, game, "un")  # its owner is told
    assert "ROK 2 (record #1)" in facts_shown(
        client.get(f"/games/{game['game_id']}/checks/victory").get_data(as_text=True))

    recorded_close = client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"]["un"]))
    assert recorded_close.get_json()["result"]["winner"] is None
    login(client, game, "un")
    page, markdown = report_of(client, game)
    assert_report_sections(page, markdown)
    assert "**Result**: Nobody won: a draw" in markdown
    assert "ROK 2" in markdown and "eliminated (turn 25, #1)" in markdown


# -- Korea: Fire and Ice --------------------------------------------------------------------------


def test_fireandice_track_and_macarthur_from_the_ledger(app, client):
    """Korea: Fire and Ice (12.1.1, 14.4, 19.0). The VP track is one marker: UN gains move it up,
    Communist gains first bring it back to 0. Record 1: MacArthur commands, the UN earns 5, doubled
    to 10 (track UN 10). Record 2: the Communists earn 12: 10 -> 0 -> Communist 2; the marker flipped
    from blue to red while MacArthur commands: he is relieved. Record 3 is asked with no track and no
    commander: the ledger says the track is Communist 2 (-2) and MacArthur no longer commands, so the
    UN's 3 count once: -2 + 3 = UN 1. It is the scenario's end: "the side with more victory points
    wins" — the UN, with 1 (record 3 is asked on turn 38, the campaign's last: its last End Phase).
    A request stating the track at 0 is refused with record 2."""
    game = new_game(client, "fireandice", "campaign")
    recorded(roll(client, game, "un", "victory_points",
                  {"track": 0, "macarthur_commands": True, "gains": [{"side": "un", "vp": 5}]}))
    second = recorded(roll(client, game, "communist", "victory_points", {"gains": [{"side": "communist", "vp": 12}]}))
    assert second["outcome"]["track"] == -2 and second["outcome"]["macarthur_relieved"]
    stale = roll(client, game, "un", "victory_points", {"track": 0, "gains": [{"side": "un", "vp": 3}]})
    assert stale.status_code == 422 and "record #2" in stale.get_json()["detail"]
    last = recorded(roll(client, game, "un", "victory_points", {"gains": [{"side": "un", "vp": 3}], "game_turn": 38}))
    assert last["request"]["track"] == -2 and last["request"]["macarthur_commands"] is False
    assert last["outcome"]["track"] == 1 and last["outcome"]["winner"] == "un"

    login(client, game, "communist")
    page, markdown = report_of(client, game)
    assert_report_sections(page, markdown)
    assert "**Result**: UN won: UN victory: the scenario's end with the VP marker at 1 (UN)" in markdown
    assert "**Turns played**: 38 of 38" in markdown and "**Turn 38**" in markdown


# -- the report's access and publication ----------------------------------------------------------


def test_the_report_is_for_the_games_logins_until_a_side_publishes_the_closed_game(app, client):
    game = new_game(client, "fireandice", "campaign")
    recorded(roll(client, game, "un", "victory_points", {"track": 0, "gains": [{"side": "un", "vp": 2}]}))
    path = f"/games/{game['game_id']}/report"
    stranger = app.test_client()
    assert stranger.get(path).status_code == 303  # to the token form
    login(client, game, "un")
    page = client.get(path).get_data(as_text=True)
    assert 'id="publish-form"' not in page and 'id="report-private"' in page
    assert client.post(f"{path}/publish", data={"consent": "publish"}).status_code == 409  # still open
    recorded(roll(client, game, "un", "victory_points", {"gains": [], "scenario_end": True}))
    client.post(f"/api/v1/games/{game['game_id']}/close", headers=bearer(game["tokens"]["un"]))
    assert 'id="publish-form"' in client.get(path).get_data(as_text=True)
    forged = app.test_client().post(f"{path}/publish", data={"consent": "publish"},
                                    headers={"Origin": "http://evil.example"})
    assert forged.status_code == 403 and stranger.get(path).status_code == 303
    assert client.post(f"{path}/publish", data={}).status_code == 422  # the box not ticked
    assert client.post(f"{path}/publish", data={"consent": "publish"}).status_code == 303
    public = stranger.get(path)
    assert public.status_code == 200 and 'id="report-public"' in public.get_data(as_text=True)
    assert "UN won" in stranger.get(f"{path}.md").get_data(as_text=True)
    bbcode = stranger.get(f"{path}.md?bbcode=1").get_data(as_text=True)
    assert bbcode.startswith("[size=14][b]After-action report") and "[list]" in bbcode and "[/url]" in bbcode


def test_the_report_draws_the_last_saved_game_a_ruling_checked(app, client):
    """A player records the supply of his saved game through the pages (the file is kept for his
    login): the report shows that board, named by the ruling that checked it; a login of the other
    side, whose fog the file would lift while the game is open, is shown none."""
    import io

    from test_bridge_helpers import SCENARIO, SYSTEM, kwb, savedgame_bytes, setup_units

    game = new_game(client, SYSTEM, SCENARIO)
    login(client, game, "communist")
    vsav = savedgame_bytes(kwb(), setup_units(kwb(), SCENARIO, 12))
    kept = client.post(f"/games/{game['game_id']}/savedgame", data={"file": (io.BytesIO(vsav), "turn-3.vsav")},
                       content_type="multipart/form-data")
    assert kept.status_code == 303
    sha = kept.headers["Location"].split("/savedgame/", 1)[1].split("?")[0]
    supply = client.post(f"/games/{game['game_id']}/savedgame/{sha}/supply",
                         data={"side": "communist", "game_turn": "3", "request_id": "t3-supply"})
    assert supply.status_code == 303
    page, markdown = report_of(client, game)
    assert 'id="report-board"' in page and "turn-3.vsav" in page and 'id="board-pusan"' in page
    assert "## The board at the end" in markdown and "[map pusan](" in markdown
    assert 'id="report-turn-boards"' not in page  # one turn: its board is the one drawn
    later = client.post(f"/games/{game['game_id']}/savedgame/{sha}/supply",
                        data={"side": "communist", "game_turn": "4", "request_id": "t4-supply"})
    assert later.status_code == 303
    page, markdown = report_of(client, game)
    turns = page.split('id="report-turn-boards"', 1)[1].split("</p>", 1)[0]
    assert f"records/1?upload={sha}" in turns and f"records/2?upload={sha}" in turns
    assert f"[turn 3]({BASE}/games/{game['game_id']}/records/1?upload={sha}#record-board)" in markdown
    login(client, game, "un")
    assert 'id="report-board"' not in report_of(client, game)[0]


def test_the_catalog_names_each_games_victory_check_and_its_scenarios_lengths(client):
    """What the VASSAL extension offers as "Rule the game's victory...": the one check per game whose
    rulings name the result, and how many turns each scenario lasts (its last is when to ask)."""
    systems = {s["id"]: s for s in client.get("/api/v1/systems").get_json()["systems"]}
    ending = {sid: [c["name"] for c in s["checks"] if c["ends_game"]] for sid, s in systems.items()}
    assert ending == {"kwb": ["victory"], "spi": ["victory"], "holdfast": ["victory"], "fireandice": ["victory_points"]}
    turns = {sc["id"]: sc["turns"] for sc in systems["kwb"]["scenarios"]}
    assert turns["seoul"] == 14 and turns["pusan"] == 21
