"""The module's own pictures, served to the pages: each board, every counter's steps, every marker's
faces, and the backs a hidden piece shows (a HoldFast block's, a face-down pool piece's).

``art`` draws them from the same data and code the module generator builds the ``.vmod`` from, under
the same image names (``art.render``), so the pages show what VASSAL shows. A page names a picture
by that name under its game's *art version*::

    GET /art/<system>/<version>/<image name>      e.g. /art/kwb/3f9c.../kwb_nk-6_full.png

The version is a hash of the content keys of every picture of the game (``art.render.content_key``:
the data that draws a picture, the renderer's code, the scale), so one address always gives the
same bytes: the answer is cacheable for good (``immutable``), and data or art that change make new
addresses. An address of an older version (the data was reloaded since the page was made) is sent
on to the current one, never cached.

Pictures are drawn when first asked for, kept in memory, and on disk in the content-addressed cache
``art`` shares with the module generator (``ADJUDICATOR_ART_CACHE``, default ``.cache/art``): a
server started beside a module build draws nothing. A scanned board (``GameMap.board``) is the scan
straightened as the module holds it (``art.board.board_file``).

What a page may name here is a picture, never a piece: a hidden unit's page shows its side's back,
whose address is the same for every unit of that side.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Response, abort, redirect, url_for

from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.games import load_system_game
from adjudicator.services import services

from art.board import board_file
from art.render import (
    ImageCache, ImageJob, block_back_jobs, board_jobs, content_key, counter_jobs, map_image_name,
    plain, pool_back_image_name, safe_part,
)
from scenarios.model import Game, GameMap

#: How long a browser keeps a picture: a year, the most HTTP caches honour; the address never
#: changes its bytes.
IMMUTABLE = "public, max-age=31536000, immutable"
#: The art scale the pages draw at: counters of 75 pixels on boards at the grid's own pixels, as a
#: module built at scale 1 (``modgen --scale 1``) and VASSAL at 100%.
PAGE_SCALE = 1
MEDIA_TYPES = {".png": "image/png", ".jpg": "image/jpeg"}


@dataclass(frozen=True)
class Scan:
    """A scanned board: drawn (straightened) on demand, kept by its own content key."""

    key: str
    game_map: GameMap


class Artwork:
    """Every picture of one game the pages show, by image name."""

    def __init__(self, game: Game, cache_dir: str | None):
        self.game = game
        self.cache = ImageCache(Path(cache_dir) if cache_dir else None)
        self._lock = threading.Lock()
        self._jobs: dict[str, tuple[ImageJob, int]] = {}
        self._scans: dict[str, Scan] = {}
        self._scan_bytes: dict[str, bytes] = {}
        self.board_names: dict[str, str] = {}  # map id -> the image name of its board
        scanned = {map_image_name(game, m) for m in game.maps.values() if m.board is not None}
        pool_backs = {pool_back_image_name(game, b) for b in game.boxes.values() if b.draw}
        drawn_boards = {map_image_name(game, m) for m in game.maps.values() if m.board is None}
        jobs = counter_jobs(game, PAGE_SCALE) + block_back_jobs(game, PAGE_SCALE)
        jobs += [job for job in board_jobs(game, PAGE_SCALE, map_scale=PAGE_SCALE, box_tiles=False)
                 if job.names[0] in pool_backs or job.names[0] in drawn_boards]
        for job in jobs:
            for index, name in enumerate(job.names):
                self._jobs[name] = (job, index)
        for game_map in game.maps.values():
            if game_map.board is None:
                self.board_names[game_map.id] = map_image_name(game, game_map)
                continue
            assert map_image_name(game, game_map) in scanned
            scan = Scan(scan_key(game_map), game_map)
            suffix = ".jpg" if Path(game_map.board.path).suffix.lower() in (".jpg", ".jpeg") else ".png"
            name = f"{safe_part(game.id)}_board_{safe_part(game_map.id)}{suffix}"
            self._scans[name] = scan
            self.board_names[game_map.id] = name
        keys = sorted([name, job.key] for name, (job, _) in self._jobs.items())
        keys += sorted([name, scan.key] for name, scan in self._scans.items())
        self.version = hashlib.sha256(json.dumps(keys).encode("ascii")).hexdigest()[:20]

    def has(self, name: str) -> bool:
        return name in self._jobs or name in self._scans

    def url(self, name: str) -> str:
        return f"{self.base_url()}{name}"

    def base_url(self) -> str:
        """The address a picture's name is added to (the pages' scripts do so)."""
        return url_for("artwork.picture", system=self.game.id, version=self.version, name="x")[:-1]

    def picture(self, name: str) -> tuple[bytes, str]:
        """The picture's bytes and media type, drawn now if no cache holds it."""
        if name in self._scans:
            return self._scan(name), MEDIA_TYPES[Path(name).suffix]
        job, index = self._jobs[name]
        with self._lock:  # one drawing of a picture at a time; the next asker finds it cached
            data = self.cache.images(job.key, job.count, job.draw)
        return data[index], "image/png"

    def _scan(self, name: str) -> bytes:
        scan = self._scans[name]
        with self._lock:
            if name not in self._scan_bytes:
                self._scan_bytes[name] = _cached_scan(self.cache.directory, scan)
        return self._scan_bytes[name]


def scan_key(game_map: GameMap) -> str:
    """A scanned board's content key: the scan's bytes and its calibration."""
    board = game_map.board
    digest = hashlib.sha256(Path(board.path).read_bytes()).hexdigest()
    return content_key("board-scan", {"scan": digest, "grid": plain(board.grid), "to_scan": plain(board.to_scan)},
                       PAGE_SCALE)


def _cached_scan(directory: Path | None, scan: Scan) -> bytes:
    path = directory / scan.key[:2] / f"{scan.key}-scan" if directory is not None else None
    if path is not None and path.is_file():
        return path.read_bytes()
    data, _ = board_file(scan.game_map.board)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    return data


_ARTWORK: dict[str, Artwork] = {}
_ARTWORK_LOCK = threading.Lock()


def artwork_of(game: Game) -> Artwork:
    """The game's pictures (made once per loaded game: a reload of the data makes them again)."""
    found = _ARTWORK.get(game.id)
    if found is None or found.game is not game:
        with _ARTWORK_LOCK:
            found = _ARTWORK.get(game.id)
            if found is None or found.game is not game:
                found = _ARTWORK[game.id] = Artwork(game, services().config.art_cache_dir or None)
    return found


def make_artwork_blueprint() -> Blueprint:
    bp = Blueprint("artwork", __name__)

    @bp.get("/art/<system>/<version>/<name>")
    def picture(system: str, version: str, name: str):
        try:
            game = load_system_game(system)
        except BridgeError:
            abort(404)
        art = artwork_of(game)
        if not art.has(name):
            abort(404)
        if version != art.version:
            response = redirect(url_for("artwork.picture", system=system, version=art.version, name=name), 302)
            response.headers["Cache-Control"] = "no-store"
            return response
        data, media_type = art.picture(name)
        return Response(data, mimetype=media_type, headers={"Cache-Control": IMMUTABLE})

    return bp
