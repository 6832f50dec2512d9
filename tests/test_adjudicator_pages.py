"""Server-rendered pages: check forms (compute mode), game creation, the ledger page."""

import re

import pytest

from adjudicator.testing import first_scenario, probe_check, a_side, bearer, make_app, new_game


@pytest.fixture(autouse=True)
def probe():
    """The service is tested through a probe check registered for each test."""
    with probe_check() as spec:
        yield spec


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def html(response):
    return response.get_data(as_text=True)


def test_home_lists_every_system(client):
    page = html(client.get("/"))
    for system in ("kwb", "spi", "holdfast", "fireandice"):
        assert f'id="system-{system}"' in page
    assert 'id="create-game"' in page


@pytest.mark.slow
@pytest.mark.parametrize("system", ["kwb", "spi", "holdfast", "fireandice"])
def test_system_page_has_a_form_per_check(client, system):
    page = html(client.get(f"/systems/{system}"))
    checks = client.get("/api/v1/systems").get_json()["systems"]
    for check in next(s for s in checks if s["id"] == system)["checks"]:
        assert f'id="check-{check["name"]}"' in page
        assert (f'id="{check["name"]}-dice"' in page) is check["random"]
        for field in check["request_schema"]["properties"]:
            if field != "dice":
                assert f'id="{check["name"]}-{field}"' in page


@pytest.mark.slow
def test_form_resolves_a_check_with_steps_and_citations(client):
    response = client.post("/systems/kwb/probe_roll", data={"target": "5", "dice": "4"})
    assert response.status_code == 200
    page = html(response)
    result = re.search(r'id="result-probe_roll".*?</div>', page, re.S).group(0)
    assert '<td data-key="hit">no</td>' in result
    assert "<cite>(Probe rule 1)</cite>" in result


def test_form_checkboxes(client):
    checked = html(client.post("/systems/kwb/probe_roll", data={"target": "5", "cautious": "on", "dice": "5"}))
    assert '<td data-key="hit">no</td>' in checked
    assert re.search(r'id="probe_roll-cautious"\s+checked', checked)
    unchecked = html(client.post("/systems/kwb/probe_roll", data={"target": "5", "dice": "5"}))
    assert '<td data-key="hit">yes</td>' in unchecked
    assert not re.search(r'id="probe_roll-cautious"\s+checked', unchecked)


def test_form_errors_are_shown_next_to_the_form(client):
    response = client.post("/systems/kwb/probe_roll", data={"target": "40", "dice": "9"})
    assert response.status_code == 422
    errors = re.search(r'id="errors-probe_roll">(.*?)</ul>', html(response), re.S).group(1)
    assert "target" in errors


@pytest.mark.slow
def test_create_game_from_the_page_and_view_its_ledger(client):
    scenario = first_scenario(client, "kwb")
    response = client.post("/games", data={"system_scenario": f"kwb/{scenario}"})
    assert response.status_code == 201
    page = html(response)
    token = re.search(r'data-role="(?!observer)[^"]+">([^<]+)<', page).group(1)
    game_id = re.search(r'id="game-link" href="/games/([^"]+)"', page).group(1)
    client.post(f"/api/v1/games/{game_id}/probe_roll", json={"target": 2}, headers=bearer(token))

    ledger_page = html(client.post(f"/games/{game_id}", data={"token": token}, follow_redirects=True))
    assert 'id="verification" class="ok"' in ledger_page
    assert 'id="record-0"' in ledger_page and 'id="record-1"' in ledger_page
    assert ledger_page.count('data-status="ok"') == 2


def test_game_page_refuses_another_games_token(client):
    a, b = new_game(client), new_game(client)
    response = client.post(f"/games/{b['game_id']}", data={"token": a_side(a)}, follow_redirects=True)
    assert response.status_code == 403
    assert 'id="login-error"' in html(response)


def test_game_page_shows_failed_verification(client):
    game = new_game(client)
    token = a_side(game)
    client.post(f"/api/v1/games/{game['game_id']}/probe_roll", json={"target": 2},
                headers=bearer(token))
    store = client.application.extensions["adjudicator"].store
    with store.engine.begin() as conn:  # tamper with the stored record behind the server's back
        conn.exec_driver_sql("UPDATE ledger_records SET body = replace(body, '\"target\":2', "
                             "'\"target\":3') WHERE seq = 1")
    page = html(client.post(f"/games/{game['game_id']}", data={"token": token}, follow_redirects=True))
    assert 'id="verification" class="bad"' in page
    assert re.search(r'id="record-1".*?data-status="bad"', page, re.S)


@pytest.mark.slow
def test_page_game_creation_shares_the_creation_rate_limit(tmp_path):
    client = make_app(tmp_path, ADJUDICATOR_RATELIMIT_ENABLED=True,
                      ADJUDICATOR_RATE_LIMIT_CREATE_GAME="2/hour").test_client()
    scenario = first_scenario(client, "kwb")
    by_api = client.post("/api/v1/games", json={"system": "kwb", "scenario": scenario})
    by_page = [client.post("/games", data={"system_scenario": f"kwb/{scenario}"}).status_code for _ in range(2)]
    assert [by_api.status_code, *by_page] == [201, 201, 429]


def test_nested_fields_are_named_by_path_and_read_back_as_the_api_request():
    """Rows of objects, a single object and a map come from inputs named by their path; blank
    rows are left out; a unit's SP is one of its steps."""
    from werkzeug.datastructures import MultiDict

    from adjudicator.checks import get_check
    from adjudicator.words.forms import form_request, form_fields

    fields = form_fields(get_check("holdfast", "combat"))
    form = MultiDict({"turn": "6", "attackers.0.unit": "nkpa-1", "attackers.0.sp": "3",
                      "attackers.0.hex": "0405", "attackers.0.across_river": "yes",
                      "attackers.1.unit": "", "attackers.1.hex": "",
                      "defender.unit": "usa-24", "defender.sp": "2", "defender.hex": "0406",
                      "attacker_support_left.0.key": "air", "attacker_support_left.0.value": "1"})
    values, unreadable = form_request(fields, form)
    assert unreadable == []
    assert values["attackers"] == [{"unit": "nkpa-1", "sp": 3, "hex": "0405", "across_river": True}]
    assert values["defender"] == {"unit": "usa-24", "sp": 2, "hex": "0406"}
    assert values["attacker_support_left"] == {"air": 1}


def test_unreadable_and_missing_fields_are_reported_at_their_fields(client):
    response = client.post("/systems/holdfast/combat", data={
        "turn": "6", "weather": "clear", "attackers.0.unit": "nkpa-1", "attackers.0.sp": "x",
        "attackers.0.hex": "0405", "dice": "3"})
    assert response.status_code == 422
    from lxml import html as lxml_html

    page = lxml_html.fromstring(html(response))
    attackers = page.get_element_by_id("field-combat-attackers")
    assert [e.text_content() for e in attackers.xpath('.//p[@class="field-error"]')] == [
        "item 1 › sp: 'x' is not a number"]
    assert [e.text_content() for e in page.xpath('//p[@data-field="defender"]')] == [
        "unit: required: fill this in", "sp: required: fill this in"]
    assert page.get_element_by_id("combat-attackers-0-unit").value == "nkpa-1"  # kept to fix


def test_lists_are_entered_comma_separated(client):
    from adjudicator.words.forms import LIST, form_fields
    from adjudicator.checks import get_check

    kinds = {f.name: f.kind for f in form_fields(get_check("kwb", "bombardment"))}
    assert kinds["markers"] == LIST
    page = html(client.post("/systems/kwb/bombardment", data={"markers": "sf-com-1, ,sf-com-2", "dice": "1"}))
    assert 'id="field-bombardment-markers"' in page
    assert not re.search(r'data-field="markers">', page)  # two ids read fine, whatever else is wrong


def test_read_form_turns_form_text_into_the_api_request():
    """Lists split on commas and lines (ids may hold spaces); unreadable numbers stay at their field."""
    from werkzeug.datastructures import MultiDict

    from adjudicator.checks import get_check
    from adjudicator.words.forms import read_form

    spec = get_check("kwb", "victory")
    request, errors = read_form(spec, MultiDict({"scenario": "pusan", "places_occupied": "Taegu, Masan ,\nPusan"}))
    assert errors == [] and request.places_occupied == ["Taegu", "Masan", "Pusan"]
    request, errors = read_form(spec, MultiDict({"scenario": "pusan", "seoul_cleared_on_turn": "nan"}))
    assert request is None and [(e.field, e.message) for e in errors] == [("seoul_cleared_on_turn", "'nan' is not a number")]


def test_the_game_page_shows_its_ledger_a_page_at_a_time(client, monkeypatch):
    """issue 52: at ~1,000 records the one game page was 1.58 MB. The newest LEDGER_PAGE_ROWS rows
    (here 5 of 12), "older" and "newer" links between the pages; the verification covers them all;
    a record's page links to the ledger page that holds it."""
    from adjudicator.web import game_pages

    monkeypatch.setattr(game_pages, "LEDGER_PAGE_ROWS", 5)
    game = new_game(client, "kwb", "pusan")
    gid = game["game_id"]
    for n in range(11):
        answer = client.post(f"/api/v1/games/{gid}/probe_roll", json={"target": 4, "request_id": f"r{n}"},
                             headers=bearer(game["tokens"]["un"]))
        assert answer.status_code == 201
    assert client.post(f"/games/{gid}", data={"token": game["tokens"]["observer"]}).status_code == 303

    def rows(address: str) -> tuple[list[int], str]:
        page = html(client.get(address))
        return [int(seq) for seq in re.findall(r'<tr id="record-(\d+)"', page)], page

    seen, page = rows(f"/games/{gid}")
    assert seen == [7, 8, 9, 10, 11] and "Ledger verified: 12 records" in page
    assert 'id="ledger-newer-top"' not in page
    older = re.search(r'id="ledger-older-top" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert older == f"/games/{gid}?before=7"
    seen, page = rows(older)
    assert seen == [2, 3, 4, 5, 6]
    assert re.search(r'id="ledger-newer-top" href="([^"]+)"', page).group(1) == f"/games/{gid}"
    seen, page = rows(f"/games/{gid}?before=2")
    assert seen == [0, 1] and 'id="ledger-older-top"' not in page
    assert re.search(r'id="ledger-newer-top" href="([^"]+)"', page).group(1) == f"/games/{gid}?before=7"
    record = html(client.get(f"/games/{gid}/records/3"))
    assert f'href="/games/{gid}?before=4#record-3"' in record


def test_a_track_marker_a_ruling_moves_is_named_in_what_happened_and_in_the_chat(client):
    """issue 49: an order to a track is a change: HoldFast's weather roll (7) moves the Weather block to
    the weather rolled, and the ruling's page lists it under "What happened to each unit", with its rule,
    as both players' chat lines do (the answer's transcript)."""
    game = new_game(client, "holdfast")
    gid = game["game_id"]
    answer = client.post(f"/api/v1/games/{gid}/weather?transcript=1&changes=1", json={"turn": 12},
                         headers=bearer(game["tokens"]["communist"]))
    assert answer.status_code == 201, answer.get_json()
    ruled = answer.get_json()
    cell = ruled["outcome"]["weather"].capitalize()
    line = f"Weather block marker to {cell} on the Weather Track (3; 7 Weather)"
    assert [c["kind"] for c in ruled["piece_changes"]] == ["track"]
    assert any(line in text for text in ruled["transcript"]), ruled["transcript"]
    assert client.post(f"/games/{gid}", data={"token": game["tokens"]["observer"]}).status_code == 303
    page = html(client.get(f"/games/{gid}/records/{ruled['seq']}"))
    section = page[page.index('id="unit-changes"'):page.index("</section>", page.index('id="unit-changes"'))]
    assert f"<li>{line}</li>" in section, section
