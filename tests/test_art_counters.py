"""Counters and markers: every one renders, at the promised size, with its
sides told apart, and with no text outside the inner margin."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import Image, ImageChops

from art.canvas import Canvas
from art.counters import counter_px, inner_margin_px, unit_faces
from art.fonts import Rect, draw_fitted, font
from art.markers import marker_faces
from art.nato import PRIMITIVES, draw_size_marks, draw_unit_symbol
from art.styles import style_for
from art.styles.base import RED
from scenarios.model import Step
from test_art_fixtures import GAME_IDS, game_or_skip


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def _assert_text_inside(face, scale: int, what: str) -> None:
    """No text pixel outside the counter's inner margin."""
    size = counter_px(scale)
    margin = inner_margin_px(scale)
    box = face.text_mask.getbbox()
    if box is None:
        return
    left, top, right, bottom = box
    assert left >= margin and top >= margin, f"{what}: text at {box}, margin {margin}"
    assert right <= size - margin and bottom <= size - margin, f"{what}: text at {box}, margin {margin}"


# -- every unit and marker of every game ----------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_unit_renders_one_image_per_step_at_counter_size(game_id):
    game = game_or_skip(game_id)
    assert game.units, "a game with data has units"
    for unit in game.units.values():
        faces = unit_faces(game, unit)
        assert [f.name for f in faces] == [s.name for s in unit.steps], unit.id
        for face in faces:
            assert face.image.size == (75, 75), unit.id
            assert face.image.mode == "RGB"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_step_of_a_unit_looks_different(game_id):
    game = game_or_skip(game_id)
    for unit in game.units.values():
        if len(unit.steps) < 2:
            continue
        faces = unit_faces(game, unit)
        for a, b in zip(faces, faces[1:]):
            assert not _same(a.image, b.image), f"{unit.id}: {a.name} and {b.name} look the same"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_marker_renders_every_face(game_id):
    game = game_or_skip(game_id)
    for marker in game.markers.values():
        faces = marker_faces(game, marker)
        assert len(faces) == max(1, len(marker.faces)), marker.id
        for face in faces:
            assert face.image.size == (75, 75)
        for a, b in zip(faces, faces[1:]):
            assert not _same(a.image, b.image), f"{marker.id}: faces look the same"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_text_leaves_the_inner_margin_on_any_counter_or_marker(game_id):
    game = game_or_skip(game_id)
    for unit in game.units.values():
        for face in unit_faces(game, unit, trace=True):
            _assert_text_inside(face, 1, f"{unit.id} {face.name}")
    for marker in game.markers.values():
        for face in marker_faces(game, marker, trace=True):
            _assert_text_inside(face, 1, f"marker {marker.id} {face.name}")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_longest_designation_fits_at_double_scale(game_id):
    game = game_or_skip(game_id)
    longest = max(game.units.values(), key=lambda u: (len(u.designation), u.id))
    faces = unit_faces(game, longest, scale=2, trace=True)
    assert faces[0].image.size == (150, 150)
    for face in faces:
        _assert_text_inside(face, 2, f"{longest.id} x2")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_absurdly_long_designation_is_squeezed_not_overflowing(game_id):
    game = game_or_skip(game_id)
    unit = next(iter(game.units.values()))
    huge = dataclasses.replace(
        unit, designation="Headquarters, Chinese People's Volunteer Army, Thirteenth Army Group",
        steps=tuple(dataclasses.replace(s, text=s.text + "-" + "8" * 12) for s in unit.steps),
    )
    for face in unit_faces(game, huge, trace=True):
        assert face.text_mask.getbbox() is not None
        _assert_text_inside(face, 1, "huge designation")


def test_scale_must_be_a_positive_integer():
    game = game_or_skip("example")
    unit = next(iter(game.units.values()))
    with pytest.raises(ValueError):
        unit_faces(game, unit, scale=0)
    with pytest.raises(ValueError):
        unit_faces(game, unit, scale=1.5)


# -- the rulebook looks ------------------------------------------------------------------------


def _has_colour(img: Image.Image, colour, tolerance: int = 40) -> bool:
    r0, g0, b0 = colour
    return any(abs(r - r0) + abs(g - g0) + abs(b - b0) <= tolerance for _, (r, g, b) in img.getcolors(1 << 16))


def test_mobile_units_print_movement_in_red_and_others_do_not():
    game = game_or_skip("example")
    tank = unit_faces(game, game.units["rd-tk"])[0].image  # tank type is mobile
    infantry = unit_faces(game, game.units["rd-1"])[0].image
    assert _has_colour(tank, RED)
    assert not _has_colour(infantry, RED)


def test_depleted_side_gets_a_white_stripe_across_the_counter():
    game = game_or_skip("example")
    full, depleted = unit_faces(game, game.units["rd-1"])
    y = 42  # the stripe row, below the symbol
    row_full = [full.image.getpixel((x, y)) for x in range(2, 73)]
    row_depleted = [depleted.image.getpixel((x, y)) for x in range(2, 73)]
    assert sum(p == (255, 255, 255) for p in row_depleted) > 50
    assert sum(p == (255, 255, 255) for p in row_full) == 0


def test_a_stepless_look_prints_no_values_but_marks_the_spent_side():
    """Fire and Ice ground counters: steps named fresh/spent print no numbers."""
    game = game_or_skip("example")
    unit = dataclasses.replace(
        game.units["rd-1"],
        steps=(Step("fresh", {"face": "fresh"}, "fresh"), Step("spent", {"face": "spent"}, "spent")),
    )
    fresh, spent = unit_faces(game, unit, trace=True)
    # The spent side is greyed and carries a dark SPENT band along the bottom.
    assert spent.image.getpixel((37, 73 - 6))[0] < 80
    assert fresh.image.getpixel((37, 73 - 6))[0] > 150


def test_fire_and_ice_aircraft_print_their_ratings_from_the_aircraft_table():
    """Ground counters print no values (2.2); an aircraft prints its ratings row of the data's
    aircraft table below its plane type, and a different row draws a different counter."""
    game = game_or_skip("fireandice")
    aircraft, ground = game.units["un-air-8fb"], game.units["rok-1"]
    ready, reduced = unit_faces(game, aircraft, trace=True)
    ratings_rows = (4, 48, 71, 71)
    assert ready.text_mask.crop(ratings_rows).getbbox() is not None
    assert reduced.text_mask.crop(ratings_rows).getbbox() is not None
    assert unit_faces(game, ground, trace=True)[0].text_mask.crop((4, 58, 71, 71)).getbbox() is None
    table = game.tables["aircraft"]
    rows = tuple({**r, "air_combat": "9"} if r["unit"] == aircraft.id else r for r in table.rows)
    changed = dataclasses.replace(game, tables={**game.tables, "aircraft": dataclasses.replace(table, rows=rows)})
    assert not _same(unit_faces(changed, aircraft)[0].image, ready.image)
    _assert_text_inside(ready, 1, "aircraft")


def test_holdfast_turn_and_weather_labels_are_not_drawn_as_un_blocks():
    """3: the turn and weather labels go on blue blocks; the label itself is neutral, so the
    turn block is not taken for a UN unit (whose label is the UN's blue)."""
    game = game_or_skip("holdfast")
    (turn,) = marker_faces(game, game.markers["turn"])
    un_rp = marker_faces(game, game.markers["rp-un"])[0]
    centre = turn.image.getpixel((20, 37))
    assert centre != un_rp.image.getpixel((20, 37)) and min(centre) > 180  # a light neutral label
    assert turn.image.getpixel((5, 37)) == un_rp.image.getpixel((5, 37))  # on the blue block


def test_holdfast_block_shows_each_strength_on_top_in_turn():
    """A block's step k is the label turned k quarter turns clockwise."""
    game = game_or_skip("example")
    unit = dataclasses.replace(
        game.units["rd-1"], steps=tuple(Step(str(n), {"sp": n}, str(n)) for n in (4, 3, 2, 1)),
    )
    from art.styles.holdfast import HoldFastStyle

    faces = HoldFastStyle().unit_faces(game, unit, trace=True)
    base = faces[0].image
    for k, face in enumerate(faces):
        expected = base
        for _ in range(k):
            expected = expected.transpose(Image.Transpose.ROTATE_270)
        assert _same(face.image, expected)
    # The top edge of each step carries text (its strength).
    for face in faces:
        assert face.text_mask.crop((20, 0, 55, 22)).getbbox() is not None
        _assert_text_inside(face, 1, f"block {face.name}")


def test_nationality_letter_is_printed_when_the_data_gives_one():
    game = game_or_skip("example")
    unit = game.units["bl-inf-1"]
    plain = unit_faces(game, unit, trace=True)[0]
    lettered_game = dataclasses.replace(
        game, nationalities={**game.nationalities,
                             "bl": dataclasses.replace(game.nationalities["bl"], letter="S")})
    lettered = unit_faces(lettered_game, unit, trace=True)[0]
    corner = (3, 3, 18, 16)
    assert plain.text_mask.crop(corner).getbbox() is None
    assert lettered.text_mask.crop(corner).getbbox() is not None


def test_every_game_with_data_has_a_style_and_unknown_games_get_the_generic_one():
    assert style_for(game_or_skip("example")).name == "generic"
    for game_id in GAME_IDS[1:]:
        if game_id in ("kwb", "spi", "holdfast", "fireandice"):
            assert style_for(game_or_skip(game_id)).name == game_id


# -- NATO symbols and size marks ---------------------------------------------------------------


def _symbol(name: str) -> Image.Image:
    c = Canvas(1, (255, 255, 255))
    draw_unit_symbol(c.image, c.rect(15, 20, 60, 55), name, (0, 0, 0), None, c.line_width(1.3))
    return c.finish(name).image


def test_every_nato_primitive_draws_something_of_its_own():
    frame_only = _symbol("")
    images = {name: _symbol(name) for name in PRIMITIVES}
    for name, img in images.items():
        assert not _same(img, frame_only), f"{name} draws nothing"
    names = list(images)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not _same(images[a], images[b]), f"{a} and {b} look the same"


def test_primitives_combine_and_unknown_ones_still_draw():
    assert not _same(_symbol("infantry+armour"), _symbol("infantry"))
    assert not _same(_symbol("bogus"), _symbol(""))


@pytest.mark.parametrize("size", ["I", "II", "III", "X", "XX", "XXX", "XXXX"])
def test_size_marks_stay_in_their_area(size):
    img = Image.new("L", (120, 40), 0)
    draw_size_marks(img, Rect(20, 10, 100, 30), size, 255, 2)
    left, top, right, bottom = img.getbbox()
    assert left >= 20 and top >= 10 and right <= 100 and bottom <= 31


def test_size_marks_differ_by_echelon():
    drawn = []
    for size in ["I", "II", "III", "X", "XX", "XXX", "XXXX"]:
        img = Image.new("L", (120, 40), 0)
        draw_size_marks(img, Rect(20, 10, 100, 30), size, 255, 2)
        drawn.append(img)
    for i, a in enumerate(drawn):
        for b in drawn[i + 1:]:
            assert not _same(a, b)


# -- fonts -------------------------------------------------------------------------------------------


def test_fitted_text_never_leaves_its_box():
    for text in ["1", "10-9-3", "Headquarters of the Eighth United States Army in Korea"]:
        img = Image.new("L", (200, 60), 0)
        box = Rect(10.5, 10.2, 90.7, 30.9)
        drawn = draw_fitted(img, text, box, 255, start=40, bold=True)
        assert drawn is not None
        left, top, right, bottom = img.getbbox()
        assert left >= 11 and top >= 11 and right <= 90 and bottom <= 30, (text, img.getbbox())


def test_the_font_is_bundled_not_taken_from_the_system():
    f = font(12, bold=True)
    assert "art/fonts" in f.path.replace("\\", "/")
