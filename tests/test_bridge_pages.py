"""The saved-game page: upload, report, map overlay with out-of-supply units ringed.

In-process with Flask's test client, and once end to end in headless Chromium against a real
server on a free loopback port (skipped, with the reason, when Chromium or its driver is
missing).
"""

from __future__ import annotations

import io
import json
import re
import shutil
import tempfile

import pytest
from test_bridge_helpers import (
    SCENARIO,
    SYSTEM,
    install_tracer,
    kwb,
    make_tracer,
    remove_tracer,
    running_server,
    savedgame_bytes,
    setup_units,
)

from adjudicator.testing import make_app

PAGE = f"/systems/{SYSTEM}/savedgame"


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


@pytest.fixture(scope="module")
def units():
    return setup_units(kwb(), SCENARIO, 10)


@pytest.fixture(scope="module")
def vsav(units):
    return savedgame_bytes(kwb(), units)


def post(client, data, **form):
    """Upload the file as the form does, following the redirect to its report (as a browser does)."""
    return client.post(PAGE, data={"file": (io.BytesIO(data), "turn3.vsav"), **form},
                       content_type="multipart/form-data", follow_redirects=True)


def board_data(page: str, map_id: str) -> dict:
    """The board of one map as the page gives it to its script (adjudicator.web.boardview)."""
    for blob in re.findall(r'<script type="application/json" class="board-data">(.*?)</script>', page, re.S):
        data = json.loads(blob)
        if data["map"] == map_id:
            return data
    raise AssertionError(f"no board of {map_id}")


@pytest.mark.slow
def test_form_page(app):
    page = app.test_client().get(PAGE)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'id="savedgame-form"' in text and 'type="file"' in text
    assert app.test_client().get("/systems/nosuch/savedgame").status_code == 404


def test_report_marks_out_of_supply_units_on_the_map(app, units, vsav, monkeypatch):
    out_unit, _map, out_hex, _ = units[0]
    install_tracer(monkeypatch, SYSTEM, make_tracer({out_hex}))
    response = post(app.test_client(), vsav)
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    text = response.get_data(as_text=True)
    board = board_data(text, "pusan")
    assert 'id="map-pusan"' in text
    assert board["marks"]["out-of-supply"] == sorted(u[0] for u in units if u[2] == out_hex)
    assert [s["hex"] for s in board["stacks"]] == sorted({u[2] for u in units})  # the script draws stack-pusan-<hex>
    for unit_id, *_ in units:
        assert f'id="unit-{unit_id}"' in text
    assert 'id="supply-un"' in text and 'id="supply-communist"' in text


def test_report_without_tracer_shows_positions_and_says_why(app, vsav, monkeypatch):
    remove_tracer(monkeypatch, SYSTEM)
    text = post(app.test_client(), vsav).get_data(as_text=True)
    assert 'id="supply-unavailable"' in text and "no supply tracer" in text.lower()
    assert 'id="map-pusan"' in text and not any(board_data(text, "pusan")["marks"].values())


@pytest.mark.slow
def test_a_damaged_upload_shows_the_reason_with_a_4xx(app):
    response = post(app.test_client(), b"not a zip")
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert 'id="savedgame-error"' in text and "not a zip" in text


# -- headless Chromium ---------------------------------------------------------------------------

def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.mark.slow
@pytest.mark.browser
def test_upload_in_headless_chromium(tmp_path, units, vsav, monkeypatch):
    browser, driver_path = _chromium(), shutil.which("chromedriver")
    if not browser or not driver_path:
        pytest.skip("headless Chromium and chromedriver are not installed")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    out_unit, _map, out_hex, _ = units[0]
    install_tracer(monkeypatch, SYSTEM, make_tracer({out_hex}))
    upload_file = tmp_path / "turn3.vsav"
    upload_file.write_bytes(vsav)
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    profile = tempfile.mkdtemp(prefix="bridge-chromium-", dir=tmp_path)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    app = make_app(tmp_path)
    with running_server(app) as url:
        driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=driver_path),
                                  options=options)
        try:
            driver.get(url + PAGE)
            driver.find_element(By.ID, "savedgame-file").send_keys(str(upload_file))
            driver.find_element(By.ID, "savedgame-submit").click()
            WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "positions")))
            ring = driver.find_element(By.ID, f"oos-{out_unit}")  # drawn by the board's script
            assert "out-of-supply" in ring.find_element(By.XPATH, "..").get_attribute("class")
            assert ring.value_of_css_property("visibility") == "visible"
            assert driver.find_element(By.ID, f"stack-pusan-{out_hex}").get_attribute("data-units")
            svg = driver.find_element(By.ID, "map-pusan")
            assert svg.size["width"] > 300  # the board at 100%
            row = driver.find_element(By.ID, f"supply-{kwb().units[out_unit].side}-{out_unit}")
            assert row.get_attribute("data-in-supply") == "false"
            assert "OUT OF SUPPLY" in row.text
            assert driver.find_element(By.ID, "scenario").text == SCENARIO
        finally:
            driver.quit()


def test_a_board_names_no_unit_the_viewer_may_not_see(tmp_path, modules):
    """HoldFast's setup seen as the UN player: his blocks are their counters, each Communist block
    its side's back only — no id, step or picture of its own in the page's board data."""
    from art.render import block_back_image_name

    game, _, entries = modules[("holdfast", 1)]
    client = make_app(tmp_path).test_client()
    page = client.post("/systems/holdfast/savedgame", data={"file": (io.BytesIO(entries["setups/campaign.vsav"]),
                                                                     "campaign.vsav"), "_check": "combat"},
                       content_type="multipart/form-data")
    text = client.get(page.headers["Location"] + "?as=un").get_data(as_text=True)
    looks = [look for stack in board_data(text, "korea")["stacks"] for look in stack["pieces"]]
    mine = [look for look in looks if look.get("s") == "un"]
    theirs = [look for look in looks if look.get("s") == "communist"]
    assert mine and theirs and len(mine) + len(theirs) == len(looks)
    assert all(not look.get("h") and look["l"] in game.units and look["i"].startswith(f"holdfast_{look['l']}_")
               for look in mine)
    back = block_back_image_name(game, "communist")
    assert all(look.get("h") == 1 and look["i"] == back and "st" not in look for look in theirs)
    communist = [u for u in game.units.values() if u.side == "communist"]
    shown = json.dumps(theirs)
    assert not [u.id for u in communist if f'"{u.id}"' in shown or u.name in shown]
