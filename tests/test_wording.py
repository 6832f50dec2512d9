"""Forms in a player's words (issue 41): what a saved game gives a check, and what its fields mean,
without the schema's `null`, identifiers in backticks or snake_case names."""

from __future__ import annotations

import io
import re

import pytest
from lxml import html

from adjudicator.checks import get_check
from adjudicator.words.forms import form_fields
from adjudicator.testing import make_app
from adjudicator.words.wording import field_path_words, players_words, read_from_file
from scenarios import load_game
from test_bridge_helpers import kwb, savedgame_bytes, setup_units

GAMES = ["kwb", "spi", "holdfast", "fireandice"]
#: What a player should not have to read: the schema's null, code in backticks, a snake_case name.
SCHEMA_WORDS = re.compile(r"\bnull\b|`|\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\((?:True|False)\)")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("wording")).test_client()


@pytest.mark.parametrize("text, words", [
    ("Terrain of the defender's hex; null = read from the map at defender.hex.",
     "Terrain of the defender's hex; left empty: read from the map at “Defender › Hex”."),
    ("Whether the unit is in supply (9.1); null = traced from `positions` (10).",
     "Whether the unit is in supply (9.1); left empty: traced from “Positions” (10)."),
    ("The chit drawn (id in table combat_chits, e.g. 'P01'); omit to draw one with a die.",
     "The chit drawn (id in the Combat chits table, e.g. 'P01'); leave it empty to draw one with a die."),
    ("The Game-Turn the Chinese Intervention began (check `chinese_intervention`).",
     "The Game-Turn the Chinese Intervention began (the “Chinese intervention” check)."),
    ("Blocks the edge leg (True) or only the 3-hex leg (False). Null = the data's reading.",
     "Blocks the edge leg (ticked) or only the 3-hex leg (not ticked). Left empty: the data's reading."),
    ("Rule 9.1.1, e.g. 12.1; the Turn Track's allowance.", "Rule 9.1.1, e.g. 12.1; the Turn Track's allowance."),
])
def test_a_description_in_a_players_words(text, words):
    assert players_words(text) == words


def test_what_a_saved_game_gives_a_check_in_words():
    spec = get_check("holdfast", "combat")
    fields = form_fields(spec)
    assert read_from_file(spec, load_game("holdfast"), fields) == [
        "the scenario", "the game turn, from the turn tracker",
        "Weather: where the weather marker stands on the Weather Track",
        "Attackers: the units you pick on the map, each with its hex and the step it shows",
        "Defender: the units in the hex you pick, with the steps they show"]
    combat = get_check("fireandice", "combat")
    assert field_path_words(form_fields(combat), "/attacking/tank_level") == "Attacking › Tank level"


@pytest.mark.parametrize("system", GAMES)
def test_no_form_help_reads_like_a_schema(client, system):
    """Every check's form on the system page: its legends, labels' hints and titles."""
    page = html.fromstring(client.get(f"/systems/{system}").get_data(as_text=True))
    hints = [h.text_content() for h in page.xpath("//form//*[contains(@class, 'hint')]")] + page.xpath("//form//@title")
    assert hints
    assert [h for h in hints if SCHEMA_WORDS.search(h)] == []


def test_the_saved_game_check_says_what_the_file_gives_in_words(client):
    data = savedgame_bytes(kwb(), setup_units(kwb(), "pusan", 6))
    response = client.post("/systems/kwb/savedgame", data={"file": (io.BytesIO(data), "t.vsav"), "_check": "combat"},
                           content_type="multipart/form-data", follow_redirects=True)
    block = html.fromstring(response.get_data(as_text=True)).get_element_by_id("from-board").text_content()
    assert "From the file: the scenario; Attacking side: the side asking (the one chosen below" in block
    assert "the game turn, from the turn tracker" in block and "(side)" not in block and "`" not in block
