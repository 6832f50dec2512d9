"""The remembered text measurements (``art.fonts.ink_bbox``, ``fit_font``) and rendered masks
(``RememberingFont``) change no pixel:
counters drawn with the caches warm are byte-identical to counters drawn with every
measurement made afresh by FreeType."""

from __future__ import annotations

import pytest

import art.canvas
import art.fonts
from art.render import counter_jobs, draw_and_encode
from test_art_fixtures import game_or_skip


def _uncached_bbox(text, fnt, stroke=0):
    return fnt.getbbox(text, stroke_width=stroke)


@pytest.mark.parametrize("game_id", ["spi", "holdfast"])
def test_cached_text_measurement_gives_identical_counters(game_id, monkeypatch):
    jobs = counter_jobs(game_or_skip(game_id))[:60]
    art.fonts.fit_font.cache_clear()
    art.fonts.ink_bbox.cache_clear()
    draw_and_encode(jobs[0])  # some strings recur between counters: warm the caches first
    cached = [draw_and_encode(job) for job in jobs]
    assert art.fonts.ink_bbox.cache_info().hits > 0

    uncached_fit = art.fonts.fit_font.__wrapped__
    for module in (art.fonts, art.canvas):
        monkeypatch.setattr(module, "ink_bbox", _uncached_bbox)
    monkeypatch.setattr(art.fonts, "fit_font", uncached_fit)
    monkeypatch.setattr(art.canvas, "fit_font", uncached_fit)
    fresh = [draw_and_encode(job) for job in jobs]
    assert cached == fresh


def test_remembered_masks_and_advances_draw_the_pixels_of_a_fresh_render():
    """A RememberingFont answers from its memory the second time; the pixels must be those of
    Pillow's own FreeTypeFont, at whole and fractional positions, plain and stroked."""
    from PIL import Image, ImageDraw, ImageFont

    remembering = art.fonts.RememberingFont(str(art.fonts.FONT_DIR / "DejaVuSansCondensed-Bold.ttf"), 15)
    fresh = ImageFont.truetype(str(art.fonts.FONT_DIR / "DejaVuSansCondensed-Bold.ttf"), 15)

    def draw(fnt):
        img = Image.new("RGB", (200, 120), (240, 230, 200))
        canvas = ImageDraw.Draw(img)
        for _ in range(2):  # the second round comes from memory
            for i, (text, xy) in enumerate([("4-4-6", (3, 2)), ("0101", (20.5, 30.25)), ("2-1 DR", (7.75, 60)),
                                            ("4-4-6", (50.5, 90.75))]):
                canvas.text(xy, text, font=fnt, fill=(40 * i, 0, 0), anchor="mt" if i == 1 else None)
                canvas.text((xy[0] + 90, xy[1]), text, font=fnt, fill=(0, 0, 90), stroke_width=1,
                            stroke_fill=(255, 255, 255))
        return img.tobytes(), [fnt.getlength(t) for t in ("4-4-6", "0101", "4-4-6")]

    assert draw(remembering) == draw(fresh)
    assert remembering._masks and remembering._lengths


def _greedy(text, fnt, max_w):
    """Word-by-word greedy wrapping, every candidate line measured."""
    lines = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line = words[0]
        for word in words[1:]:
            if art.fonts.text_size(f"{line} {word}", fnt)[0] <= max_w:
                line = f"{line} {word}"
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def test_wrap_lines_gives_the_greedy_lines():
    """The one-line shortcut for a paragraph that fits, and the breaks guessed from advances and
    then confirmed, give what word-by-word greedy wrapping gives."""
    fnt = art.fonts.font(13)
    texts = ["Attacker eliminated", "Defender retreats two hexes  and loses a step", "DR\n\nAE", "a",
             "AVAVAV WAWA Tokyo Yalu " * 6, "Supercalifragilisticexpialidocious x " * 3]
    for text in texts:
        for max_w in (10, 60, 120, 400):
            assert art.fonts.wrap_lines(text, fnt, max_w) == _greedy(text, fnt, max_w)


@pytest.mark.parametrize("game_id", ["spi", "kwb"])
def test_wrap_lines_breaks_every_chart_text_where_greedy_wrapping_does(game_id):
    """Every cell and note of a game's charts, at the sizes and widths the charts and markers use
    and narrower ones (where the guessed break is off more often)."""
    game = game_or_skip(game_id)
    texts = [str(row.get(c, "")) for t in game.tables.values() for row in t.rows for c in t.columns]
    texts += [t.note for t in game.tables.values() if t.note]
    texts = [t for t in texts if len(t.split()) > 3]
    assert texts
    for fnt in (art.fonts.font(13), art.fonts.font(13, bold=True), art.fonts.font(9)):
        for max_w in (45, 130, 260):
            for text in texts:
                assert art.fonts.wrap_lines(text, fnt, max_w) == _greedy(text, fnt, max_w), (text, max_w)


@pytest.mark.parametrize("anchor", ["mt", None, "ms"])
def test_draw_line_gives_the_pixels_of_draw_text(anchor):
    """The maps' hex numbers skip ImageDraw.text's layout object (``art.fonts.draw_line``): the
    pixels must be those ImageDraw.text draws, with the masks fresh or remembered."""
    import random

    from PIL import Image, ImageDraw

    rng = random.Random(11)
    for size, bold in ((7, False), (11, False), (11, True), (19, False)):
        fnt = art.fonts.font(size, bold)
        expected = Image.new("RGB", (400, 300), (120, 200, 90))
        drawn = expected.copy()
        for _ in range(60):
            xy = (rng.uniform(-5, 395), rng.uniform(-5, 295))
            text = rng.choice([f"{rng.randrange(10000):04d}", "Yalu", "AV-7", "x"])
            fill = rng.choice([(40, 40, 40), (235, 235, 235), (200, 0, 0)])
            ImageDraw.Draw(expected).text(xy, text, font=fnt, fill=fill, anchor=anchor)
            art.fonts.draw_line(ImageDraw.Draw(drawn), xy, text, fnt, fill, anchor=anchor)
        assert drawn.tobytes() == expected.tobytes(), (size, bold)
