"""Rebuilds reuse the caches (art, boxes board) and give the same bytes as a cold build.

The caches exist for speed only (docs/performance.md, "Module builds"); these tests hold them
to that: whatever is reused must be byte-for-byte what building afresh gives, whatever the
number of drawing processes, and a changed input must not be answered from the cache.
"""

from __future__ import annotations

import dataclasses
import io
import warnings
import zipfile

import pytest
from PIL import Image

from art import render
from art.maps import box_size
from modgen.artwork import boxes_board_job, collect_images
from modgen.build import build_entries, build_modules, write_module
from scenarios import load_game
from vassalfmt import build_zip
from vassalfmt.piece import Piece, copy_trait, expand_prototypes
from vassalfmt.traits import BasicPiece, DynamicProperty, Marker, UsePrototype

GAME = "holdfast"  # the smallest game with boxes, several scenarios and prototypes


def module_bytes(game, cache_dir, workers=None) -> tuple[bytes, dict[str, bytes]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        images = collect_images(game, cache_dir=cache_dir, workers=workers)
        result = build_entries(game, images, "1.0")
    return build_zip(result.entries), result.entries


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


@pytest.fixture(scope="module")
def uncached(game):
    """The module built with no cache at all, in this process: the reference bytes."""
    return module_bytes(game, cache_dir=None, workers=1)


@pytest.mark.slow
def test_cold_build_in_a_pool_and_rebuild_give_the_uncached_bytes(game, uncached, tmp_path):
    reference, _ = uncached
    cold, _ = module_bytes(game, tmp_path, workers=2)
    assert cold == reference
    rebuilt, _ = module_bytes(game, tmp_path, workers=2)
    assert rebuilt == reference


@pytest.mark.slow
def test_written_module_is_identical_on_rebuild(game, tmp_path):
    images = collect_images(game, cache_dir=tmp_path / "cache")
    first = write_module(build_entries(game, images, "1.0"), tmp_path / "a", "m.vmod").read_bytes()
    images = collect_images(game, cache_dir=tmp_path / "cache")
    second = write_module(build_entries(game, images, "1.0"), tmp_path / "b", "m.vmod").read_bytes()
    assert first == second


@pytest.mark.slow
def test_boxes_board_is_its_tiles_composed_and_comes_from_the_cache(game, tmp_path):
    """The board job draws the tiles straight onto the board: it must be exactly the
    separately drawn tile pictures laid out, and a rebuild must take it from the cache."""
    job, layout = boxes_board_job(game)
    board = Image.open(io.BytesIO(render.ImageCache(tmp_path).fetch([job])[job.names[0]]))
    boards = render.ImageCache().fetch(render.board_jobs(game))
    composed = Image.new("RGB", layout.size, (255, 255, 255))
    for box in game.boxes.values():
        tile = Image.open(io.BytesIO(boards[render.box_image_name(game, box)]))
        assert tile.size == box_size()
        composed.paste(tile, layout.positions[box.id])
    assert board.tobytes() == composed.tobytes()
    again = render.ImageCache(tmp_path)
    again.fetch([boxes_board_job(game)[0]])
    assert again.drawn == [] and again.reused == [job.key]
    # a changed box is a different board
    first = next(iter(game.boxes.values()))
    changed = dataclasses.replace(game, boxes={**game.boxes, first.id: dataclasses.replace(first, name="Changed")})
    assert boxes_board_job(changed)[0].key != job.key


@pytest.mark.slow
def test_pool_and_single_process_draw_the_same_bytes(game, tmp_path):
    jobs = render.counter_jobs(game)
    assert len(jobs) >= render.MIN_JOBS_FOR_POOL
    pooled = render.ImageCache(tmp_path / "a").fetch(jobs, workers=2)
    single = render.ImageCache(tmp_path / "b").fetch(render.counter_jobs(game), workers=1)
    assert pooled == single
    # and the pool's workers wrote the files a later cache reads
    again = render.ImageCache(tmp_path / "a")
    assert again.fetch(render.counter_jobs(game)) == pooled
    assert not again.drawn


def test_copy_trait_is_a_deep_copy():
    prop = DynamicProperty(name="Moved", value="false")
    piece = Piece([Marker.of(Side="UN"), prop, BasicPiece(name="x", properties={"a": "1"})])
    copied = [copy_trait(t) for t in piece.traits]
    assert copied == piece.traits
    assert all(c is not t for c, t in zip(copied, piece.traits))
    copied[0].values.append("changed")
    copied[2].properties["a"] = "2"
    assert piece.traits[0].values == ["UN"] and piece.traits[2].properties == {"a": "1"}


def test_expanded_pieces_do_not_share_prototype_traits():
    prototypes = {"P": Piece([DynamicProperty(name="Moved", value="false"), BasicPiece()])}
    piece = Piece([UsePrototype(name="P"), BasicPiece(name="x")])
    first = expand_prototypes(piece, prototypes)
    second = expand_prototypes(piece, prototypes)
    first.traits[0].value = "true"
    assert second.traits[0].value == "false"
    assert prototypes["P"].traits[0].value == "false"


@pytest.mark.slow
def test_module_zip_lists_the_same_entries_either_way(uncached, game, tmp_path):
    _, reference_entries = uncached
    data, _ = module_bytes(game, tmp_path)
    assert sorted(zipfile.ZipFile(io.BytesIO(data)).namelist()) == sorted(reference_entries)


@pytest.mark.slow
def test_build_modules_draws_while_assembling_and_writes_the_uncached_bytes(game, uncached, tmp_path):
    """`modgen build`'s pipeline (one pool for every game, modules assembled meanwhile)."""
    reference, _ = uncached
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        built = list(build_modules([game], tmp_path / "out", "1.0", cache_dir=tmp_path / "cache", workers=2))
    assert [b.game.id for b in built] == [game.id]
    assert built[0].result.path.read_bytes() == reference
