"""The image API the module generator calls: names, determinism, the
content-addressed cache, and contact sheets."""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile

import pytest
from PIL import Image

from art.counters import unit_faces
from art.render import (
    MIN_JOBS_FOR_POOL,
    ImageCache,
    ImageJob,
    board_images,
    content_key,
    counter_images,
    encode_png,
    render_game_images,
    unit_key_data,
)
from art.sheet import counter_sheet, marker_sheet, write_contact_sheets
from test_art_fixtures import GAME_IDS, game_or_skip

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SAFE_NAME = re.compile(r"^[A-Za-z0-9.-]+(_[A-Za-z0-9.-]+)+\.png$")


@pytest.fixture(scope="module")
def example():
    return game_or_skip("example")


def test_render_game_images_names_every_image_safely_and_completely(example):
    images = render_game_images(example)
    expected_units = {f"example_{u.id}_{s.name}.png" for u in example.units.values() for s in u.steps}
    assert expected_units <= set(images)
    assert "example_marker_supply_0.png" in images
    assert "example_map_ridge.png" in images
    assert "example_box_dead-red.png" in images
    assert "example_turns_battle.png" in images
    assert "example_chart_crt.png" in images
    for name, blob in images.items():
        assert SAFE_NAME.match(name), name
        assert blob.startswith(PNG_SIGNATURE)


def test_counter_pngs_have_the_promised_size(example):
    images = counter_images(example, scale=2)
    for name, blob in images.items():
        import io

        assert Image.open(io.BytesIO(blob)).size == (150, 150), name


def test_rendering_is_byte_identical_twice(example):
    first = render_game_images(example)
    second = render_game_images(example)
    assert first == second


def test_png_has_no_metadata_chunks(example):
    blob = encode_png(unit_faces(example, example.units["rd-1"])[0].image)
    chunks = []
    pos = 8
    while pos < len(blob):
        length = int.from_bytes(blob[pos:pos + 4], "big")
        chunks.append(blob[pos + 4:pos + 8])
        pos += 12 + length
    assert set(chunks) <= {b"IHDR", b"IDAT", b"IEND", b"PLTE"}


def test_cache_redraws_only_the_changed_unit(example, tmp_path):
    first = ImageCache(tmp_path)
    before = counter_images(example, cache=first)
    assert len(first.drawn) == len(example.units) + len(example.markers)
    assert not first.reused

    changed = dataclasses.replace(
        example.units["rd-1"],
        steps=(dataclasses.replace(example.units["rd-1"].steps[0], text="11-9-3"),
               example.units["rd-1"].steps[1]),
    )
    edited = dataclasses.replace(example, units={**example.units, "rd-1": changed})
    second = ImageCache(tmp_path)  # a new run: everything comes from disk
    after = counter_images(edited, cache=second)
    assert len(second.drawn) == 1
    assert len(second.reused) == len(example.units) + len(example.markers) - 1
    assert after["example_rd-1_full.png"] != before["example_rd-1_full.png"]
    unchanged = {k: v for k, v in before.items() if not k.startswith("example_rd-1_")}
    assert all(after[k] == v for k, v in unchanged.items())


def test_cache_key_covers_what_draws_and_ignores_sources(example):
    unit = example.units["rd-1"]
    key = content_key("unit", unit_key_data(example, unit), 1)
    assert key == content_key("unit", unit_key_data(example, unit), 1)
    assert key != content_key("unit", unit_key_data(example, unit), 2)
    resourced = dataclasses.replace(unit, source=dataclasses.replace(unit.source, text="elsewhere"))
    assert key == content_key("unit", unit_key_data(example, resourced), 1)
    renamed = dataclasses.replace(unit, name="First Red Guards Division")  # long name: not printed
    assert key == content_key("unit", unit_key_data(example, renamed), 1)
    redesignated = dataclasses.replace(unit, designation="1G")
    assert key != content_key("unit", unit_key_data(example, redesignated), 1)
    recoloured = dataclasses.replace(
        example, nationalities={**example.nationalities,
                                "rd": dataclasses.replace(example.nationalities["rd"], background="#ff0000")})
    assert key != content_key("unit", unit_key_data(recoloured, unit), 1)


def test_map_is_redrawn_only_when_the_map_changes(example, tmp_path):
    cache = ImageCache(tmp_path)
    board_images(example, cache=cache)
    drawn_first = len(cache.drawn)
    again = ImageCache(tmp_path)
    board_images(example, cache=again)
    assert drawn_first > 0 and not again.drawn


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_gets_unique_image_names(game_id):
    game = game_or_skip(game_id)
    images = counter_images(game)
    steps = sum(len(u.steps) for u in game.units.values())
    faces = sum(max(1, len(m.faces)) for m in game.markers.values())
    assert len(images) == steps + faces  # no two images share a name


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_contact_sheets_show_every_counter_and_marker(game_id, tmp_path):
    game = game_or_skip(game_id)
    paths = write_contact_sheets(game, tmp_path)
    assert [p.name for p in paths] == [f"{game.id}-counters.png", f"{game.id}-markers.png"]
    for path in paths:
        assert path.read_bytes().startswith(PNG_SIGNATURE)
    sheet = counter_sheet(game)
    # one cell per unit, each at least a counter wide
    assert sheet.width * sheet.height >= len(game.units) * 75 * 75
    assert marker_sheet(game).height >= 75


# -- the drawing workers ----------------------------------------------------------------------


def _solid_jobs(count: int, fail_at: int | None = None, die_at: int | None = None) -> list[ImageJob]:
    """Small pictures, one per job; the job ``fail_at`` raises, the job ``die_at`` kills its worker."""
    def draw(i: int) -> list[Image.Image]:
        if i == fail_at:
            raise ValueError(f"no picture {i}")
        if i == die_at:
            os._exit(3)
        return [Image.new("RGB", (20 + i, 10), (i * 7 % 256, 40, 90))]
    return [ImageJob(f"{i:064x}", [f"t_{i}.png"], lambda i=i: draw(i), cost=1 + i % 3) for i in range(count)]


def test_workers_without_a_cache_directory_give_the_bytes_of_one_process(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the workers' private directory goes
    jobs = _solid_jobs(3 * MIN_JOBS_FOR_POOL)
    pooled = ImageCache().fetch(jobs, workers=2)
    assert pooled == ImageCache().fetch(jobs, workers=1)
    assert pooled["t_5.png"] == encode_png(jobs[5].draw()[0])
    assert list(tmp_path.iterdir()) == []  # the private directory is gone


def test_without_a_cache_directory_one_games_pictures_then_the_rest(tmp_path, monkeypatch):
    """The private directory stays until every picture has been read back: here the workers have
    drawn everything before the first game's pictures are taken (it used to be removed then, and
    the rest were "missing")."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    jobs = _solid_jobs(3 * MIN_JOBS_FOR_POOL)
    everything = ImageCache().fetch(jobs, workers=1)
    pending = ImageCache().start_fetch(jobs, workers=2)
    pending.drawing.workers.wait_for(list(range(len(jobs))))  # all drawn, none taken yet
    assert pending.result(["t_0.png"]) == {"t_0.png": everything["t_0.png"]}
    assert pending.result() == everything
    assert list(tmp_path.iterdir()) == []  # gone once all were taken


def test_a_workers_exception_is_raised_by_fetch(tmp_path):
    jobs = _solid_jobs(3 * MIN_JOBS_FOR_POOL, fail_at=11)
    with pytest.raises(ValueError, match="no picture 11"):
        ImageCache(tmp_path).fetch(jobs, workers=2)


def test_a_worker_that_dies_is_an_error_not_a_hang(tmp_path):
    jobs = _solid_jobs(3 * MIN_JOBS_FOR_POOL, die_at=4)
    with pytest.raises(RuntimeError, match="pictures missing"):
        ImageCache(tmp_path).fetch(jobs, workers=2)


@pytest.mark.parametrize("workers", [1, 2])
def test_pictures_can_be_taken_a_part_at_a_time(tmp_path, workers):
    """A module builder takes each game's pictures as soon as they are drawn: a part, then the
    rest, give the bytes of one fetch of all."""
    jobs = _solid_jobs(3 * MIN_JOBS_FOR_POOL)
    everything = ImageCache().fetch(jobs, workers=1)
    pending = ImageCache(tmp_path / str(workers)).start_fetch(jobs, workers=workers)
    first = pending.result(["t_0.png", "t_7.png"])
    assert first == {"t_0.png": everything["t_0.png"], "t_7.png": everything["t_7.png"]}
    assert pending.result() == everything


def test_cancelled_drawing_stops_its_workers_and_leaves_no_directory(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    pending = ImageCache().start_fetch(_solid_jobs(40 * MIN_JOBS_FOR_POOL), workers=2)
    workers = pending.drawing.workers
    assert workers is not None and len(workers.processes) == 2
    pending.cancel()
    assert all(process.exitcode is not None for process in workers.processes)
    assert list(tmp_path.iterdir()) == []
