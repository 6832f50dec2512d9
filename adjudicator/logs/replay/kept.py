"""A replay built once and kept beside the files it was built from, then served in bounded parts.

Building a replay reads every file and walks every step: seconds for a long game, and its steps
are many times the log's size (a 7.9 MB log made a 70 MB page, rebuilt on every view: issue 39).
So it is built once per kept upload, viewer and ledger state — beside the requests, never inside
one (`adjudicator.logs.background`; the page shows its progress) — and stored in the same place and scope as the files
(`adjudicator.ledger.uploads`, compressed), where it expires with them. Its parts:

- the page: what the replay page shows at once (`Replay.page_json`, bounded);
- the pieces: its steps, `PIECE_STEPS` at a time, each with the board where it begins, fetched by
  the page's script as the player steps;
- the after-action report, as Markdown and as HTML.

Each part is stored under a key derived from the build's (`build_key`: the replay's files, the
viewer, the ledger's head), so a part is found only by who can name the build, in its scope.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from dataclasses import dataclass
from typing import Any

import orjson

from adjudicator.logs.replay import report
from adjudicator.logs.replay.build import MAX_INLINE_REPORT_CHARS, Replay
from adjudicator.services import services

BUILT_NAME = "replay (built)"
#: Part of the build key: a build of an older layout is never served.
LAYOUT = 2


def build_key(replay_key: str, viewer: dict[str, Any], ledger_head: str | None) -> str:
    """The key of one build: these files, seen by this viewer, checked against this ledger state."""
    text = json.dumps({"files": replay_key, "viewer": viewer, "ledger": ledger_head, "layout": LAYOUT}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _part_key(build: str, part: str) -> str:
    return hashlib.sha256(f"{build}/{part}".encode("ascii")).hexdigest()


def _pack(value: Any) -> bytes:
    """A part as compact JSON (orjson: the pure-Python encoder was a tenth of the largest log's
    build; a value it refuses, such as a key that is no string, takes the standard encoder), compressed."""
    try:
        data = orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError
        data = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return zlib.compress(data, 1)


def _unpack(data: bytes) -> Any:
    return json.loads(zlib.decompress(data))


@dataclass(frozen=True)
class Built:
    """A kept build's page part, and the key its other parts are found by."""

    key: str
    page: dict[str, Any]


def keep(scope: str, build: str, replay: Replay) -> Built:
    """Store a built replay's parts in `scope`."""
    page, parts = packed_parts(build, replay)
    store_parts(scope, parts)
    return Built(build, page)


def packed_parts(build: str, replay: Replay) -> tuple[dict[str, Any], list[tuple[str, str, bytes]]]:
    """A built replay's page part and every part packed for storage (CPU only: run beside the
    requests, `adjudicator.logs.background`; `store_parts` keeps them)."""
    page = replay.page_json()
    made = report.sections(replay)  # once for both forms: a long log's report is most of the packing
    markdown, html = report.markdown(replay, made), report.html(replay, made)
    page["report_markdown"] = markdown if len(markdown) <= MAX_INLINE_REPORT_CHARS else None
    page["report_html"] = html if len(html) <= MAX_INLINE_REPORT_CHARS else None
    page["report_title"] = report.title(replay)
    parts = [("page", page), ("report.md", markdown), ("report.html", html)]
    parts += [(f"piece/{number}", piece) for number, piece in enumerate(replay.pieces())]
    return page, [(_part_key(build, name), BUILT_NAME, _pack(value)) for name, value in parts]


def store_parts(scope: str, parts: list[tuple[str, str, bytes]]) -> None:
    services().uploads.put_derived(scope, parts)


def mark(scope: str, build: str, part: str, value: dict[str, Any]) -> None:
    """A small note beside a build (``building``: under way since; ``failed``: why) that every
    worker process reads: a build under way in one is not started again by another."""
    services().uploads.put_derived(scope, [(_part_key(build, part), f"replay ({part})", _pack(value))])


def kept_mark(scope: str, build: str, part: str) -> dict[str, Any] | None:
    return kept_part(scope, build, part)


def kept_page(scope: str, build: str) -> Built | None:
    found = services().uploads.get(scope, _part_key(build, "page"))
    return Built(build, _unpack(found.data)) if found is not None else None


def kept_part(scope: str, build: str, part: str) -> Any | None:
    """A kept build's piece (``piece/<n>``) or report (``report.md``, ``report.html``); None when gone."""
    found = services().uploads.get(scope, _part_key(build, part))
    return _unpack(found.data) if found is not None else None
