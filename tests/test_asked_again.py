"""A repeat warned before the roll (issue 50).

The ledger's board knows when a request is the same situation as a ruling already recorded (the
same check, side and request, none of its units changed since). Before the roll, the page's roll
form and its chances, and the API's chances of a recorded game (`asked_before`, for the VASSAL
extension's form), say "this situation was asked as record #N (its result); asking again rolls
again and both players will see it", with the way to open #N. A second submission of the form
warned (it carries the record it was warned of) rolls again; a retry of a recorded form shows its
record, with no warning. KWB's counter-battery roll (UN); the dice are the game's own (the warning
does not depend on them).
"""

from __future__ import annotations

import re

import pytest
from lxml import html

from adjudicator.testing import bearer, make_app, new_game

CHECK = "counter_battery"
FORM = {"un_marker": "sf-un-3", "communist_marker": "sf-com-1"}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("asked-again"))


def pages(app, game: dict, side: str = "un"):
    client = app.test_client()
    client.post(f"/games/{game['game_id']}", data={"token": game["tokens"][side]})
    return client


def test_the_roll_form_warns_before_rolling_the_same_situation_again(app):
    game = new_game(app.test_client(), "kwb", "pusan")
    client = pages(app, game)
    url = f"/games/{game['game_id']}/checks/{CHECK}"
    first = client.post(url, data={**FORM, "request_id": "page-1"})
    assert first.status_code == 303 and first.headers["Location"].endswith("/records/1")
    assert client.post(url, data={**FORM, "request_id": "page-1"}).headers["Location"].endswith("/records/1")  # a retry

    warned = client.post(url, data={**FORM, "request_id": "page-2"})
    assert warned.status_code == 409  # nothing rolled
    page = html.fromstring(warned.get_data(as_text=True))
    box = page.get_element_by_id("asked-before")
    assert box.get("data-record") == "1"
    text = " ".join(box.text_content().split())
    assert re.match(r"This situation was asked as record #1 \(Counter battery for UN: .+\); asking again rolls again, "
                    r"and both players will see it\.", text), text
    assert page.get_element_by_id("asked-before-link").get("href") == f"/games/{game['game_id']}/records/1"
    assert page.get_element_by_id("again").get("value") == "1"
    assert page.get_element_by_id("roll-submit").text_content() == "Roll again"
    ledger = app.test_client().get(f"/api/v1/games/{game['game_id']}/ledger",
                                   headers=bearer(game["tokens"]["observer"])).get_json()
    assert len(ledger["records"]) == 2  # the game's record and record 1: the warning rolled nothing

    rolled = client.post(url, data={**FORM, "request_id": "page-2", "again": "1"})  # "Roll again"
    assert rolled.status_code == 303 and rolled.headers["Location"].endswith("/records/2")
    record = app.test_client().get(f"/api/v1/games/{game['game_id']}/ledger",
                                   headers=bearer(game["tokens"]["observer"])).get_json()["records"][2]
    assert [n["kind"] for n in record["body"]["result"]["notices"]] == ["repeat"]


def test_the_chances_page_and_the_apis_chances_say_it_too(app):
    game = new_game(app.test_client(), "kwb", "pusan")
    api = f"/api/v1/games/{game['game_id']}/{CHECK}"
    un = bearer(game["tokens"]["un"])
    fresh = app.test_client().post(f"{api}/odds", json=FORM, headers=un).get_json()
    assert "asked_before" not in fresh  # a new situation: nothing to say
    first = app.test_client().post(api, json=FORM, headers=un).get_json()
    odds = app.test_client().post(f"{api}/odds", json=FORM, headers=un).get_json()
    assert odds["asked_before"]["record"] == first["seq"] and odds["asked_before"]["rolled"] is True
    assert odds["asked_before"]["text"].startswith(f"This situation was asked as record #{first['seq']} (Counter "
                                                   "battery for UN: ")
    other = app.test_client().post(f"{api}/odds", json={**FORM, "un_marker": "sf-un-1"}, headers=un).get_json()
    assert "asked_before" not in other

    client = pages(app, game)
    chances = client.get(f"/games/{game['game_id']}/checks/{CHECK}/odds?un_marker=sf-un-3&communist_marker=sf-com-1"
                         "&request_id=page-9")
    page = html.fromstring(chances.get_data(as_text=True))
    assert page.get_element_by_id("asked-before").get("data-record") == str(first["seq"])
    assert page.get_element_by_id("odds-answer") is not None and page.get_element_by_id("again").get("value") == "1"


@pytest.mark.slow
def test_the_saved_game_pages_roll_warns_too(app, modules):
    """The check from a VASSAL file in a recorded game: the same attack from the same file asked
    again is held before the roll, with the record to open and the choice to roll again; the API's
    roll from a file is as it was (it rolls: the answer's notice says "asked again")."""
    from test_savedgame_checks import _page_form, kept_upload

    game = new_game(app.test_client(), "kwb", "pusan")
    client = pages(app, game, "communist")
    setup = modules[("kwb", 1)][2]["setups/pusan.vsav"]
    sha = kept_upload(client, f"/games/{game['game_id']}/savedgame", setup, name="pusan.vsav", _check="combat")
    url = f"/games/{game['game_id']}/savedgame/{sha}/checks/combat"

    def attack():
        form = _page_form(client.get(url).get_data(as_text=True), "savedgame-check")
        form.setlist("_attackers", ["nk-83-mot"])
        form["_target_hex"] = "0205"
        form["_resolve"] = "1"
        return form, client.post(url, data=form)

    _, first = attack()
    assert first.status_code == 303, first.get_data(as_text=True)[:3000]
    form, warned = attack()
    assert warned.status_code == 409
    page = html.fromstring(warned.get_data(as_text=True))
    assert page.get_element_by_id("errors").get("data-kind") == "asked-before"
    assert "This situation was asked as record #1 (Combat for Communist: NK 83 attacks US 27/25" in \
        page.get_element_by_id("errors").text_content()
    assert page.get_element_by_id("asked-before-link").get("href") == f"/games/{game['game_id']}/records/1"
    again = _page_form(warned.get_data(as_text=True), "savedgame-check")
    assert again["again"] == "1" and page.get_element_by_id("resolve").text_content() == "Roll again"
    again["_resolve"] = "1"
    rolled = client.post(url, data=again)
    assert rolled.status_code == 303 and rolled.headers["Location"].split("?")[0].endswith("/records/2")


def test_the_saved_game_pages_chances_warn_and_let_the_roll_follow(app, modules):
    from test_savedgame_checks import _page_form, kept_upload

    game = new_game(app.test_client(), "kwb", "pusan")
    client = pages(app, game, "communist")
    setup = modules[("kwb", 1)][2]["setups/pusan.vsav"]
    sha = kept_upload(client, f"/games/{game['game_id']}/savedgame", setup, name="pusan.vsav", _check="combat")
    url = f"/games/{game['game_id']}/savedgame/{sha}/checks/combat"
    form = _page_form(client.get(url).get_data(as_text=True), "savedgame-check")
    form.setlist("_attackers", ["nk-83-mot"])
    form["_target_hex"] = "0205"
    fresh = html.fromstring(client.get(f"{url}/odds", query_string=form).get_data(as_text=True))
    assert fresh.xpath('//section[@id="answer"]') and not fresh.xpath('//*[@id="asked-before"]')  # chances, no warning
    assert client.post(url, data={**form.to_dict(flat=False), "_resolve": "1"}).status_code == 303
    form["request_id"] = "page-odds-2"
    chances = html.fromstring(client.get(f"{url}/odds", query_string=form).get_data(as_text=True))
    assert chances.get_element_by_id("asked-before").get("data-record") == "1"
    again = _page_form(html.tostring(chances).decode(), "savedgame-check")
    assert again["again"] == "1" and chances.get_element_by_id("resolve").text_content() == "Roll again"
    again["_resolve"] = "1"
    assert client.post(url, data=again).status_code == 303  # warned on the chances: the roll follows
