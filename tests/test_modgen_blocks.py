"""HoldFast Korea's fog of war in the generated module: blocks stand upright
facing their owner (rules 3), so every HoldFast unit carries a Mask that only
its own side sees through; counter games carry none.

What the engine needs (VASSAL 3.7.26, ``Obscurable``, ``SideAccess``,
``ObscurableOptions``): access ``sides:<owning side>``, and a masked state of the owning
side's roster name (not a player id, which cannot be known before anybody
joins) followed by the options the engine itself writes under
nonOwnerUnmaskable="Never" (``false|0``).
"""

from __future__ import annotations

import io

import pytest
from lxml import etree
from PIL import Image

from art.render import ImageCache, block_back_image_name, block_back_images
from modgen.artwork import collect_images
from modgen.build import build_entries
from modgen.help import help_html
from modgen.pieces import GAMES_WITH_BLOCKS, HIDE, MASK_OPTIONS, unit_piece
from scenarios import game_ids, load_game
from vassalfmt import Obscurable, RawTrait, parse_add_piece_command, read_saved_game

COUNTER_GAMES = [g for g in game_ids() if g not in GAMES_WITH_BLOCKS]


@pytest.fixture(scope="module")
def holdfast():
    return load_game("holdfast")


@pytest.fixture(scope="module")
def built(holdfast, tmp_path_factory):
    cache = tmp_path_factory.mktemp("art-cache")
    return build_entries(holdfast, collect_images(holdfast, cache_dir=cache), "9.9.9")


def roster_sides(entries) -> list[str]:
    root = etree.fromstring(entries["buildFile.xml"])
    roster = next(root.iter("VASSAL.build.module.PlayerRoster"))
    return [e.text for e in roster.iter("entry")]


def palette_units(entries) -> dict[str, object]:
    """Unit id -> the palette piece, decoded."""
    root = etree.fromstring(entries["buildFile.xml"])
    units = {}
    for slot in root.iter("VASSAL.build.widget.PieceSlot"):
        _, piece = parse_add_piece_command(slot.text)
        unit_id = piece.properties().get("UnitId")
        if unit_id:
            units[unit_id] = piece
    return units


def test_holdfast_is_the_block_game():
    assert GAMES_WITH_BLOCKS == {"holdfast"}
    assert "holdfast" in game_ids()


def assert_guard(trait, side_name: str) -> None:
    """The Restrict Commands trait that ignores Ctrl+H unless the player's side owns the block."""
    assert isinstance(trait, RawTrait)
    assert trait.type == ('hideCmd;only the owning side reveals or hides;Hide;'
                          f'{{PlayerSide!="{side_name}"}};72\\,130')
    assert trait.state == ""


@pytest.mark.slow
def test_every_holdfast_unit_is_masked_from_the_other_side(holdfast, built):
    units = palette_units(built.entries)
    assert set(units) == set(holdfast.units)
    for unit_id, piece in units.items():
        side = holdfast.sides[holdfast.units[unit_id].side]
        assert_guard(piece.traits[0], side.name)
        mask = piece.traits[1]  # outside every other trait: hides layers, ZOC, properties
        assert isinstance(mask, Obscurable), unit_id
        assert [t for t in piece.traits if isinstance(t, Obscurable)] == [mask]
        assert mask.access == f"sides:{side.name}"  # only the owning side sees, reveals, hides
        assert mask.key == HIDE
        assert mask.hide_command == "Reveal/Hide"
        assert mask.display_style == "I"
        assert mask.image == block_back_image_name(holdfast, side.id)
        assert mask.mask_name == f"{side.name} block"
        assert (mask.obscured_by, mask.options) == (side.name, MASK_OPTIONS)


def test_mask_is_written_as_the_engine_reads_it(holdfast):
    unit = next(iter(holdfast.units.values()))
    side = holdfast.sides[unit.side]
    piece = unit_piece(holdfast, unit, ["a.png"] * len(unit.steps))
    mask = piece.traits[1]
    back = block_back_image_name(holdfast, unit.side)
    assert mask.type_string() == f"obs;72,130;{back};Reveal/Hide;I;{side.name} block;sides:{side.name};Peek;" \
                                 "fog of war: the opponent sees the block's back;true;;"
    assert mask.state_string() == f"{side.name};false|0"
    shown = unit_piece(holdfast, unit, ["a.png"] * len(unit.steps), hidden=False)
    assert shown.traits[1].state_string() == "null;"


def test_masks_name_a_side_of_the_player_roster(holdfast, built):
    """The engine shows a side-masked piece to the player whose side equals the
    mask's owner, so the owner must be spelled exactly as a roster side."""
    sides = roster_sides(built.entries)
    assert sorted(sides) == sorted(s.name for s in holdfast.sides.values())
    for piece in palette_units(built.entries).values():
        assert piece.traits[1].obscured_by in sides


def test_block_backs_are_in_the_module_one_per_side(holdfast, built):
    colours = set()
    for side in holdfast.sides:
        data = built.entries[f"images/{block_back_image_name(holdfast, side)}"]
        image = Image.open(io.BytesIO(data)).convert("RGB")
        assert image.size == (75, 75)  # as big as a block label
        centre = image.getpixel((37, 37))
        # plain: the whole face (inside the edge) is the side's colour, no label
        face = image.crop((8, 8, 67, 67))
        assert face.getcolors() == [(59 * 59, centre)]
        colours.add(centre)
    assert len(colours) == len(holdfast.sides)


def test_block_backs_are_content_cached(holdfast, tmp_path):
    first = ImageCache(tmp_path)
    drawn = block_back_images(holdfast, cache=first)
    assert len(first.drawn) == len(holdfast.sides) and not first.reused
    again = ImageCache(tmp_path)
    assert block_back_images(holdfast, cache=again) == drawn
    assert not again.drawn and len(again.reused) == len(holdfast.sides)


@pytest.mark.parametrize("game_id", COUNTER_GAMES)
def test_counter_games_have_no_mask_and_no_block_backs(game_id):
    game = load_game(game_id)
    assert block_back_images(game) == {}
    for unit in game.units.values():
        piece = unit_piece(game, unit, [f"{unit.id}_{i}.png" for i in range(len(unit.steps))])
        assert not piece.find(Obscurable), unit.id
        assert not [t for t in piece.traits if isinstance(t, RawTrait) and t.type.startswith("hideCmd;")]


def test_setup_places_every_block_hidden_from_the_opponent(holdfast, built):
    for scenario in holdfast.scenarios.values():
        saved = read_saved_game(built.entries[f"setups/{scenario.id}.vsav"])
        units = [p for p in saved.pieces if p.properties.get("UnitId")]
        assert units
        for placed in units:
            side = holdfast.sides[holdfast.units[placed.properties["UnitId"]].side]
            masks = placed.piece.find(Obscurable)
            assert len(masks) == 1 and placed.piece.traits[1] is masks[0]
            assert_guard(placed.piece.traits[0], side.name)
            assert (masks[0].obscured_by, masks[0].options) == (side.name, MASK_OPTIONS)
        markers = [p for p in saved.pieces if p.properties.get("MarkerId")]
        for placed in markers:  # turn, weather, support blocks: public information
            assert not placed.piece.find(Obscurable)


def test_help_explains_fog_of_war_only_for_block_games(holdfast):
    page = help_html(holdfast, "1.0")
    assert "Fog of war" in page and "Reveal/Hide" in page and "Ctrl+H" in page
    for game_id in COUNTER_GAMES:
        assert "Fog of war" not in help_html(load_game(game_id), "1.0")


def test_values_read_as_a_question_mark_to_whom_the_block_is_hidden(holdfast):
    """The Inventory prints every unit's Values; the engine's mask does not hide
    properties, so the expression itself answers "?" when ``Obscured`` (the
    engine's "obscured to me") is true."""
    from modgen.pieces import values_expression
    from vassalfmt import CalculatedProperty

    unit = next(u for u in holdfast.units.values() if len(u.steps) > 1)
    piece = unit_piece(holdfast, unit, ["a.png"] * len(unit.steps))
    (values,) = [t for t in piece.traits if isinstance(t, CalculatedProperty) and t.name == "Values"]
    plain = values_expression(unit)
    assert values.expression == "{(Obscured==true?\"?\":" + plain[1:-1] + ")}"
    for game_id in COUNTER_GAMES:
        game = load_game(game_id)
        unit = next(iter(game.units.values()))
        piece = unit_piece(game, unit, ["a.png"] * len(unit.steps))
        (values,) = [t for t in piece.traits if isinstance(t, CalculatedProperty) and t.name == "Values"]
        assert "Obscured" not in values.expression
