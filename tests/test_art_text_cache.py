"""The remembered text measurements (``art.fonts.ink_bbox``, ``fit_font``) change no pixel:
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
