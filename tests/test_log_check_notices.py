"""Every notice the rulings carry, shown where a log is checked (issue 50).

A log whose rulings' lines all match the ledger can still carry what the ledger saw wrong in what
was asked: a unit it had eliminated named again, a step it contradicts, a unit brought back by a
ruling the request names, the same situation asked again, and (HoldFast) a notice about a block
hidden from the reader, sealed. The log-check page shows each under its ruling, one line per
notice, and its summary never says "every ruling matches" while one stands; the API lists them
(`notices`), the CLI says so, the replay's summary too. Every game's dice are chosen.
"""

from __future__ import annotations

import io

import pytest
from lxml import html

from adjudicator.checks import get_check
from adjudicator.testing import bearer, choose_seeds, make_app, replay_settled, seed_where
from tests.replay_logs import LogWriter

KILL = {"scenario": "pusan", "attacking_side": "communist", "intensive": "declared",
        "attackers": [{"unit": "nk-83-mot", "hex": "0105", "doubled": True}],
        "defenders": [{"unit": "us-27-25", "hex": "0205", "step": "depleted"}]}
PLAIN = {**KILL, "intensive": "none", "attackers": [{"unit": "nk-83-mot", "hex": "0105"}]}
SUPPLY = {"scenario": "pusan", "side": "communist", "game_turn": 1,
          "positions": [{"unit": "nk-1-hq", "hex": "2501"}, {"unit": "nk-83-mot", "hex": "0105"},
                        {"unit": "us-27-25", "hex": "0205", "step": "depleted"}]}
BATTERY = {"un_marker": "sf-un-3", "communist_marker": "sf-com-1"}
HOLDFAST_ATTACK = {"scenario": "campaign", "turn": 1, "weather": "clear",
                   "attackers": [{"unit": "nkpa-6", "sp": 3, "hex": "0517"}],
                   "defender": {"unit": "rok-cap", "sp": 1, "hex": "0518"}, "defender_terrain": "clear"}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("log-check-notices"))


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


def ask(client, game: dict, check: str, body: dict, side: str) -> dict:
    response = client.post(f"/api/v1/games/{game['game_id']}/{check}?transcript=1", json=body,
                           headers=bearer(game["tokens"][side]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def log_check_page(client, game: dict, log: bytes, side: str = "observer") -> html.HtmlElement:
    pages = client.application.test_client()
    pages.post(f"/games/{game['game_id']}", data={"token": game["tokens"][side]})
    response = pages.post(f"/games/{game['game_id']}/log-check", data={"file": (io.BytesIO(log), "turn.vlog")},
                          content_type="multipart/form-data")
    assert response.status_code == 200
    return html.fromstring(response.get_data(as_text=True))


def notice_lines(page: html.HtmlElement, seq: int) -> list[str]:
    """The notice lines the page shows under ruling `seq` (the rows right after its own)."""
    return [row.xpath('./td[@class="notice"]')[0].text_content()
            for row in page.xpath(f'//tr[@class="notice-row"][@data-notice-of="{seq}"]')]


@pytest.mark.slow
def test_eliminated_restored_and_repeat_notices_each_under_its_ruling(app, client, modules):
    choose_seeds(app, {"kwb/pusan": seed_where(get_check("kwb", "combat"), KILL, lambda o: any(
        a["unit"] == "nk-83-mot" and a["step"] == "deadpile" for a in o.get("attackers", [])))})
    game = client.post("/api/v1/games", json={"system": "kwb", "scenario": "pusan"}).get_json()
    writer = LogWriter("kwb", modules[("kwb", 1)][2]["setups/pusan.vsav"])
    kill = ask(client, game, "combat", KILL, "communist")
    writer.ruling(kill["transcript"])
    writer.remove("nk-83-mot")  # the elimination applied: the piece deleted
    supply = ask(client, game, "supply", SUPPLY, "communist")  # names NK 83 as present
    writer.ruling(supply["transcript"])
    first = ask(client, game, "counter_battery", {**BATTERY, "request_id": "cb-1"}, "un")
    again = ask(client, game, "counter_battery", {**BATTERY, "request_id": "cb-2"}, "un")
    writer.ruling(first["transcript"])
    writer.ruling(again["transcript"])
    back = ask(client, game, "supply", {**SUPPLY, "restored_by": [supply["seq"]]}, "communist")
    writer.ruling(back["transcript"])
    log = writer.log()

    page = log_check_page(client, game, log)
    assert notice_lines(page, kill["seq"]) == []
    assert notice_lines(page, supply["seq"]) == ["NK 83 was eliminated by record #1; this ruling treats it as present"]
    assert notice_lines(page, again["seq"]) == [f"asked again: the same situation as record #{first['seq']}"]
    assert notice_lines(page, back["seq"]) == [f"NK 83, eliminated by record #1, is back by record #{supply['seq']} "
                                               "(as this request says)"]
    verdict = page.get_element_by_id("log-verdict")
    assert verdict.get("data-ok") == "yes" and verdict.get("data-notices") == "3"
    assert "Every ruling matches" not in verdict.text_content() and "3 notices stand" in verdict.text_content()

    api = client.post(f"/api/v1/games/{game['game_id']}/savedgame/log-check", data={"file": (io.BytesIO(log), "t.vlog")},
                      content_type="multipart/form-data", headers=bearer(game["tokens"]["un"])).get_json()
    assert api["ok"] and [(n["seq"], n["file"]) for n in api["notices"]] == [
        (supply["seq"], 1), (again["seq"], 1), (back["seq"], 1)]
    replay = client.application.test_client()
    replay.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["observer"]})
    address = replay.post(f"/games/{game['game_id']}/replay", data={"file": (io.BytesIO(log), "turn.vlog")},
                          content_type="multipart/form-data").headers["Location"]
    replayed = html.fromstring(replay_settled(replay, address).get_data(as_text=True))  # built beside the request
    summary = replayed.get_element_by_id("replay-verdict")
    assert summary.get("data-ok") == "yes" and summary.get("data-notices") == "3"
    assert "3 notices stand" in summary.text_content() and "Every ruling is the one" not in summary.text_content()
    assert len(replayed.xpath('//span[@class="notice"]')) == 3  # each under its ruling
    from adjudicator.client.output import log_check_lines
    out = log_check_lines(api)
    assert out[0].startswith("OK, BUT 3 NOTICES:") and f"    notice: asked again: the same situation as record " \
        f"#{first['seq']}" in out


@pytest.mark.slow
def test_a_step_notice_under_its_ruling_and_a_log_without_notices_says_every_ruling_matches(app, client, modules):
    choose_seeds(app, {"kwb/pusan": seed_where(get_check("kwb", "combat"), PLAIN, lambda o: o["result"] == "AD")})
    game = client.post("/api/v1/games", json={"system": "kwb", "scenario": "pusan"}).get_json()
    writer = LogWriter("kwb", modules[("kwb", 1)][2]["setups/pusan.vsav"])
    combat = ask(client, game, "combat", PLAIN, "communist")  # depletes NK 83
    writer.ruling(combat["transcript"])
    writer.step("nk-83-mot", "depleted")
    clean = log_check_page(client, game, writer.log())
    assert clean.get_element_by_id("log-verdict").text_content().startswith("✔ Every ruling matches the ledger")
    supply = ask(client, game, "supply", SUPPLY, "communist")  # names NK 83 at full strength
    writer.ruling(supply["transcript"])
    page = log_check_page(client, game, writer.log())
    assert notice_lines(page, supply["seq"]) == ["NK 83 was left depleted by record #1; this ruling treats it as full"]
    assert page.get_element_by_id("log-verdict").get("data-notices") == "1"
    assert "1 notice stands" in page.get_element_by_id("log-verdict").text_content()


def test_a_sealed_notice_reads_as_the_reader_may_see_it(app, client, modules):
    """HoldFast: the notice about a block hidden from the Communist player reads "about a UN block
    in 0518" on the log-check page, and names no block."""
    choose_seeds(app, {"holdfast": seed_where(get_check("holdfast", "combat"), HOLDFAST_ATTACK,
                                              lambda o: o["defender"]["eliminated"])})
    game = client.post("/api/v1/games", json={"system": "holdfast", "scenario": "campaign"}).get_json()
    writer = LogWriter("holdfast", modules[("holdfast", 1)][2]["setups/campaign.vsav"])
    attack = ask(client, game, "combat", HOLDFAST_ATTACK, "communist")
    writer.ruling(attack["transcript"])
    supply = ask(client, game, "supply", {"side": "communist", "positions": [
        {"unit": "nkpa-6", "hex": "0517", "step": "3"}, {"unit": "rok-cap", "hex": "0518", "step": "1"}]}, "communist")
    writer.ruling(supply["transcript"])
    page = log_check_page(client, game, writer.log(), side="communist")
    assert notice_lines(page, supply["seq"]) == [
        "about a UN block in 0518: sealed until the game closes (its owner reads it)"]
    rows = " ".join(html.tostring(row).decode() for row in page.xpath('//tr[@class="notice-row"]'))
    assert "rok-cap" not in rows and "ROK Cap" not in rows
    assert page.get_element_by_id("log-verdict").get("data-notices") == "1"
