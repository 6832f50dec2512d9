"""The pages a play-by-e-mail player walks (issue #18): links to the saved-game page, results
readable everywhere (no raw JSON), an HTML page for a mistyped address, the API page's code."""

from __future__ import annotations

import re

import pytest
from lxml import html

from adjudicator.testing import bearer, make_app, new_game


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("pages-pbem")).test_client()


def page(response) -> html.HtmlElement:
    assert response.mimetype == "text/html"
    return html.fromstring(response.get_data(as_text=True))


@pytest.mark.slow
def test_the_saved_game_page_is_linked_from_home_and_each_system_page(client):
    home = page(client.get("/"))
    for system in ("kwb", "spi", "holdfast", "fireandice"):
        link = home.get_element_by_id(f"savedgame-{system}").get("href")
        assert link == f"/systems/{system}/savedgame"
        assert client.get(link).status_code == 200
        system_page = page(client.get(f"/systems/{system}"))
        assert system_page.get_element_by_id("savedgame-link").get("href") == link


def test_a_mistyped_page_address_gets_an_html_page_and_the_api_a_problem(client):
    for path in ("/sytems/kwb", "/systems/nope", "/systems/kwb/nope", "/games"):
        response = client.get(path)
        assert response.status_code in (404, 405) and response.mimetype == "text/html", path
        assert page(response).get_element_by_id("not-found") is not None
    api = client.get("/api/v1/nothing-here")
    assert api.status_code == 404 and api.mimetype == "application/problem+json"
    assert client.get("/.well-known/nothing").mimetype == "application/problem+json"


def test_nested_results_read_as_tables_on_the_check_page(client):
    spec_example = {"scenario": "pusan", "side": "communist", "game_turn": "1",
                    "positions.0.unit": "nk-1-hq", "positions.0.hex": "2501",
                    "positions.1.unit": "nk-3", "positions.1.hex": "2104", "positions.1.step": "depleted"}
    result = page(client.post("/systems/kwb/supply", data=spec_example))
    units = result.xpath('//table[@id="outcome-supply"]//td[@data-key="units"]')[0]
    assert units.xpath(".//table[@class='items']//th")  # a table with a column per key
    headers = [th.text_content() for th in units.xpath(".//table[@class='items']/tr[1]/th")]
    assert headers[:3] == ["Unit", "Hex", "In supply"]
    assert "{" not in units.text_content() and "'" not in units.text_content()


def test_the_ledger_shows_every_record_readably_with_its_anchor(client, modules):
    game = new_game(client, "kwb", "pusan")
    un = bearer(game["tokens"]["un"])
    client.post(f"/api/v1/games/{game['game_id']}/un_supply_shortage_end", json={"game_turn": 3}, headers=un)
    _, _, entries = modules[("kwb", 1)]
    recorded = client.post(f"/api/v1/games/{game['game_id']}/savedgame/supply", data=entries["setups/pusan.vsav"],
                           content_type="application/octet-stream", headers=un)
    assert recorded.status_code == 201
    ledger = page(client.post(f"/games/{game['game_id']}", data={"token": game["tokens"]["observer"]}, follow_redirects=True))
    rows = ledger.xpath('//table[@id="ledger"]/tbody/tr')
    assert [r.get("id") for r in rows] == ["record-0", "record-1", "record-2"]
    supply = ledger.get_element_by_id("record-2")
    visible = supply.xpath('.//td[@class="what"]/strong')[0].text_content()
    assert "{" not in visible and visible.startswith("Savedgame supply for UN: ")  # its headline, not a JSON wall
    assert len(visible) < 400
    text = supply.text_content()
    assert '{"' not in text and "': " not in text  # nothing printed as JSON or a Python repr
    assert supply.xpath('.//table[@id="outcome-r2"]//table[@class="items"]')  # the sides, as a table
    assert supply.xpath('.//div[@class="situation"]//table')  # the recorded positions, as a table


def test_the_api_page_shows_code_not_backticks(client):
    docs = client.get("/api/v1/docs").get_data(as_text=True)
    shown = re.sub(r"<pre>.*?</pre>", "", docs, flags=re.S)  # schemas are JSON on purpose
    assert "`" not in shown
    assert "<code>transcript</code>" in docs or "<code>dice</code>" in docs


def test_the_saved_game_form_takes_a_game_turn(client):
    form = page(client.get("/systems/kwb/savedgame"))
    assert form.get_element_by_id("savedgame-turn").get("name") == "game_turn"
