"""Game mode: create a game, roll recorded checks, read the ledger, close (reveal the seed).

The views read the HTTP request and call the recorded-check path (`adjudicator.rulings`), the one
the pages and the saved-game routes call too.
"""

from __future__ import annotations

from flask import Response, jsonify, request

from adjudicator import rulings
from adjudicator.api.auth import require_grant
from adjudicator.api.body import parse_json_body, refuse_oversized_body
from adjudicator.api.schemas import CreateGameRequest
from adjudicator.api.systems import with_transcript
from adjudicator.fog import Part, reveal, visible_to
from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.ledger.storage import OBSERVER, GameNotFound
from adjudicator.words.names import UnitNames, changes_named
from adjudicator.words.transcript import headline
from adjudicator.unit_changes import canonical_outcome, changing, ruled_changes
from adjudicator.unit_owners import owners_of
from adjudicator.systems import system_info


def create_game():
    req = parse_json_body(CreateGameRequest)
    info = system_info(req.system)
    if info.scenario(req.scenario) is None:
        known = ", ".join(s.id for s in info.scenarios)
        raise Problem(
            422,
            "The request body is invalid",
            f"/scenario: {info.name} has no scenario {req.scenario!r} (known: {known})",
            kind="validation",
            errors=[{"pointer": "/scenario", "detail": f"unknown scenario; known: {known}", "code": "scenario"}],
        )
    created = rulings.create_game(req.system, req.scenario, info.sides)
    response = jsonify(
        {
            "game_id": created.game_id,
            "system": created.system,
            "scenario": created.scenario,
            "tokens": created.tokens,
            "seed_commitment": created.seed_commitment,
            "genesis": created.genesis.to_json(),
        }
    )
    response.status_code = 201
    response.headers["Location"] = f"/api/v1/games/{created.game_id}/ledger"
    response.headers["Cache-Control"] = "no-store"
    return response


def game_check(game_id: str, check: str):
    grant = require_grant(game_id, write=True)
    spec = rulings.game_check(grant, check)
    req = parse_json_body(spec.game_model, prepare=lambda body: rulings.bind(spec, grant, body),
                          words=UnitNames.of(spec.system).text)
    return recorded_response(rulings.record(grant, spec, req), viewer=grant.role)


def recorded_response(recorded: rulings.Recorded, extra: dict | None = None, viewer: str | None = None) -> Response:
    """201 for a new record, 200 with `Idempotent-Replayed` for a repeated request_id. `viewer`: the
    asking side, whose own hidden parts (fog of war) the answer carries."""
    response = jsonify(with_transcript(recorded.response(viewer) | (extra or {})))
    response.status_code = 200 if recorded.replayed else 201
    if recorded.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


def game_info(game_id: str):
    """What a token is in its game: the game's system, scenario and state, and the token's side.

    Clients (the VASSAL extension) take the side from here, never from what a player typed."""
    grant = require_grant(game_id, write=False)
    try:
        game = services().store.game(game_id)
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    return jsonify({
        "game_id": game_id,
        "system": game["system"],
        "scenario": game["scenario"],
        "status": game["status"],
        "records": game["head_seq"] + 1,
        "role": grant.role,
        "may_roll": grant.role != "observer" and game["status"] == "open",
        "checks": rulings.game_checks(grant),
        "waiting_checks": rulings.waiting_checks(grant),
        "public_url": public_url(),
        "result": _result_json(game_id, game["system"]),
    })


def _result_json(game_id: str, system: str) -> dict | None:
    """Who won, as the game's last victory ruling states it (null: no ruling has decided yet)."""
    found = rulings.game_result(game_id, system)
    return found.to_json() if found is not None else None


def public_url() -> str:
    """The address players reach this server at (ADJUDICATOR_PUBLIC_URL), else the one asked."""
    return services().config.public_url or request.host_url.rstrip("/")


def ledger(game_id: str):
    """The ledger as everyone may see it, with the hidden parts (fog of war) this token's side may
    see: its own at once (`revealed`), everyone's in the closing record."""
    grant = require_grant(game_id, write=False)
    store = services().store
    document = rulings.game_ledger(game_id)
    closed = document["game"]["status"] == "closed"
    mine = [{"seq": seq, **part} for seq, part in store.hidden_parts(game_id)
            if visible_to(Part.from_json(part), grant.role, closed=False)]
    if mine and not closed:
        document["revealed"] = mine
    return jsonify(document)


#: The most rulings one answer of GET /games/<id>/rulings carries; the client asks again from `next`.
MAX_RULINGS_LISTED = 100


def game_rulings(game_id: str):
    """The game's rulings after record `since` (0, the default: all of them), oldest first, each as
    its check's answer was — `?transcript=1` adds the chat lines everyone saw (the very lines the
    asker's VASSAL posted), the whole ruling and, with `&changes=1`, its changes to the board —
    with the hidden parts this token's side may see (fog of war: the asker's own view of his
    blocks, the opponent's sealed). What a player who was not there when a ruling was posted
    catches up from (docs/vassal-extension.md, "Live play"): a ruling made while his room
    connection was down, and every ruling so far for a player who joins late. At most `limit`
    (1 to 100) per answer; `next` is the `since` of the next answer (null: none left)."""
    grant = require_grant(game_id, write=False)
    since, limit = _count_arg("since", 0, 0, 2**31), _count_arg("limit", MAX_RULINGS_LISTED, 1, MAX_RULINGS_LISTED)
    store = services().store
    try:
        store.game(game_id)
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    found = _rulings_after(store, game_id, since, limit + 1)
    listed = found[:limit]
    parts: dict[int, list[Part]] = {}
    for seq, part in store.hidden_parts(game_id, after=since, through=listed[-1].seq if listed else since):
        parts.setdefault(seq, []).append(Part.from_json(part))
    viewer = None if grant.role == OBSERVER else grant.role
    answers = [with_transcript(rulings.Recorded(r, True, tuple(parts.get(r.seq, ()))).response(viewer)) for r in listed]
    return jsonify({"game_id": game_id, "since": since, "rulings": answers,
                    "next": listed[-1].seq if len(found) > limit else None})


def _rulings_after(store, game_id: str, since: int, wanted: int) -> list:
    """The first `wanted` rulings after record `since` (the game's own records, its creation and
    closing, left out), read a page at a time: a catch-up costs what it lists, not the game's length."""
    found: list = []
    after = since
    while len(found) < wanted:
        page = store.records(game_id, after=after, limit=wanted)
        found += [r for r in page if not str(r.body["check"]).startswith("game.")]
        if len(page) < wanted:
            break
        after = page[-1].seq
    return found[:wanted]


def _count_arg(name: str, default: int, low: int, high: int) -> int:
    """A whole-number query parameter within [low, high]; 400 otherwise."""
    text = request.args.get(name)
    if text is None or text == "":
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise Problem(400, "Bad query parameter", f"{name} must be a whole number from {low} to {high}, not {text[:20]!r}.",
                      kind="bad-parameter")
    return int(text)


def board_changes(game_id: str):
    """The changes the game's rulings order to this token's side's pieces that only it can make:
    its pieces the board hides from the side that asked (adjudicator.unit_changes, `applied_by`),
    named as this side sees them. What the Adjudicator extension offers to apply ("Apply the
    rulings' changes to my pieces"): a ruling the opponent asked changed a block of yours."""
    grant = require_grant(game_id, write=False)
    side = None if grant.role == OBSERVER else grant.role
    store = services().store
    document = rulings.game_ledger(game_id)
    closed = document["game"]["status"] == "closed"
    parts: dict[int, list[Part]] = {}
    for seq, part in store.hidden_parts(game_id):
        parts.setdefault(seq, []).append(Part.from_json(part))
    owed = []
    for record in document["records"]:
        body = record["body"]
        if side is None or str(body["check"]).startswith("game.") or body.get("side") in (None, side):
            continue
        seen = reveal(grant.system, body, parts.get(record["seq"], []), side, closed) if record["seq"] in parts else body
        answer = {**seen["result"], "system": grant.system, "check": body["check"].partition(".")[2],
                  "side": body.get("side"), "request": seen["request"]}
        mine = [c for c in changing(ruled_changes(canonical_outcome(answer), owners_of(grant.system), body.get("side") or ""),
                                    seen["request"]) if c.applied_by == side]
        if mine:
            owed.append({"seq": record["seq"], "side": body.get("side"), "headline": headline(answer),
                         "piece_changes": changes_named(grant.system, [c.to_json() for c in mine], side)})
    return jsonify({"game_id": game_id, "side": side, "rulings": owed})


def close_game(game_id: str):
    grant = require_grant(game_id, write=True)
    refuse_oversized_body()  # close takes no body; one over the limit is refused, not ignored
    svc = services()
    try:
        record, _ = svc.store.close_game(game_id, grant.role, svc.signing_key)
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    result = record.body["result"]
    return jsonify(
        {
            "game_id": game_id,
            "seed": result["seed"],
            "seed_commitment": result["seed_commitment"],
            "record": record.to_json(),
            "result": _result_json(game_id, grant.system),
        }
    )


def well_known_keys():
    keys = [info.to_json() for info in services().published_keys]
    response: Response = jsonify({"keys": keys})
    response.headers["Cache-Control"] = "public, max-age=300"
    return response
