"""`GET /systems` and compute mode `POST /systems/<system>/<check>` (stateless)."""

from __future__ import annotations

from flask import jsonify, request

from adjudicator import rulings
from adjudicator.api.body import parse_json_body
from adjudicator.checks import BOARD_ROLES, CheckSpec, all_checks, canonical_side, get_check
from adjudicator.facts import result_checks
from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.systems import all_systems, system_info
from adjudicator.words.names import UnitNames, changes_named
from adjudicator.words.transcript import chat_lines, detail_lines, notice_texts, stand_ins
from adjudicator.unit_changes import canonical_outcome, changing, ruled_changes
from adjudicator.unit_owners import owners_of


def systems_document() -> dict:
    """The systems, their scenarios and checks (with request schemas). Built once per app."""
    checks = all_checks()
    out = []
    for info in all_systems():
        out.append(
            {
                "id": info.id,
                "name": info.name,
                "sides": list(info.sides),
                "scenarios": [scenario_json(s) for s in info.scenarios],
                "checks": [check_info(spec) for spec in checks if spec.system == info.id],
            }
        )
    return {"systems": out, "board_roles": dict(BOARD_ROLES)}


def scenario_json(scenario) -> dict:
    """A scenario as clients read it: its id, its name and, where its turn record gives them, the
    month of each turn (what a board's turn fills in a check's `month`) and how many turns it lasts."""
    out = {"id": scenario.id, "name": scenario.name}
    if scenario.months:
        out["months"] = {str(turn): month for turn, month in scenario.months}
    if scenario.turns:
        out["turns"] = scenario.turns
    return out


def check_info(spec: CheckSpec) -> dict:
    scenarios = ([s.id for s in system_info(spec.system).scenarios if spec.belongs_to(s.id)]
                 if spec.scenarios or spec.scenario_rule else [])
    offered = ([s.id for s in system_info(spec.system).scenarios if spec.offered_in(s.id)]
               if spec.offered_rule else scenarios)
    return {
        "name": spec.name,
        "key": spec.key,
        "summary": spec.summary,
        "rule": spec.rule,
        "random": spec.random,
        "scenarios": scenarios,
        "applies": applies(spec, offered),
        "actor": spec.actor.to_json(),
        "ends_game": spec.name in result_checks(spec.system),
        "board": {pointer: role for pointer, role in spec.board},
        "example": spec.example,
        "compute_url": f"/api/v1/systems/{spec.system}/{spec.name}",
        "odds_url": f"/api/v1/systems/{spec.system}/{spec.name}/odds" if spec.random else None,
        "request_schema": spec.compute_model.model_json_schema(),
    }


def applies(spec: CheckSpec, scenarios: list[str]) -> dict:
    """When a player may be offered the check (a menu on a piece, a page's list): the scenarios it
    belongs to and is offered in (null: every one; `CheckSpec.offered_in`), the sides that may ask it (null: either, as the request says),
    whether it is the owner's check of the units it names, and which units a check about one unit
    takes (`CheckSpec.units`). The rules stay the judge: the check refuses what does not fit."""
    return {"scenarios": scenarios if scenarios or spec.offered_rule else None, "sides": list(spec.actor.only) if spec.actor.only is not None else None,
            "owner_of_units": spec.actor.owner_of_units, "units": spec.units.to_json() if spec.units else None}


def find_check(system: str, check: str) -> CheckSpec:
    if system_info(system) is None:
        raise Problem(404, "Not Found", f"Unknown game system {system!r}.", kind="unknown-system")
    spec = get_check(system, check)
    if spec is None:
        raise Problem(404, "Not Found", f"System {system!r} has no check {check!r}.", kind="unknown-check")
    return spec


def compute(system: str, check: str):
    spec = find_check(system, check)
    req = parse_json_body(spec.compute_model, prepare=lambda body: rulings.units_by_id(spec, body),
                          words=UnitNames.of(spec.system).text)
    body = rulings.compute(spec, req)
    if wants_transcript():
        views = rulings.calculation_as_seen(spec, req, body, canonical_side(request.args.get("side")) or None)
        if views is not None:
            return jsonify(with_fogged_transcript(body, *views))
    return jsonify(with_transcript(body))


def with_fogged_transcript(body: dict, public: dict, private: dict) -> dict:
    """A calculation in a game with hidden units: `body` whole (the caller sent every value), its
    chat `transcript` as everyone may see it (the extension posts it: it goes into the log the
    opponent receives), `private_transcript` as the asking side (`?side=`) may, and with
    `?changes=1` the changes to the units that side may see."""
    out = {**body, "transcript": transcript_of(public), "private_transcript": transcript_of(private),
           "details": detail_lines(private), "stand_ins": stand_ins(body)}
    if wants_changes():
        out["piece_changes"] = piece_changes(body["system"], private, canonical_side(request.args.get("side")) or "")
    return out


def wants_transcript() -> bool:
    """`?transcript=1`: the client (the VASSAL extension, a page) wants the ruling as chat lines."""
    if not request.environ.get("QUERY_STRING"):  # most calls: no need to parse the arguments
        return False
    return request.args.get("transcript", "").lower() in ("1", "true", "yes")


def with_transcript(body: dict) -> dict:
    """`body` plus `transcript` (chat lines), `details` (the whole ruling as lines, for the asker's
    eyes: never posted) and `stand_ins` (adjudicator.words.transcript) when the client asked, and with
    `?changes=1` the units' new states (`piece_changes`, adjudicator.unit_changes)."""
    if not wants_transcript():
        return body
    out = {**body, "transcript": transcript_of(body), "details": detail_lines(body), "stand_ins": stand_ins(body)}
    if "as_you_see_it" in body:  # fog of war: the lines for the asker's eyes only (never the log)
        seen = {**body, **body["as_you_see_it"]}
        out["private_transcript"] = transcript_of(seen)
        out["details"] = detail_lines(seen)
    if "notices" in body:  # the ledger's notices in words, as the asker may read them
        seen = body["as_you_see_it"] if "notices" in body.get("as_you_see_it", {}) else body
        out["notice_texts"] = notice_texts(seen, body["system"])
    if wants_changes():
        asker = body.get("side") or canonical_side(request.args.get("side")) or ""
        seen = {**body, **body["as_you_see_it"]} if "as_you_see_it" in body else body  # the asker's own hidden units named
        out["piece_changes"] = piece_changes(body["system"], seen, asker)
    return out


def wants_changes() -> bool:
    """`?changes=1`: the client (the VASSAL extension) wants the ruling's changes to the units."""
    return request.args.get("changes", "").lower() in ("1", "true", "yes")


def piece_changes(system: str, body: dict, asker: str) -> list[dict]:
    """What the ruling does to the board (`adjudicator.unit_changes`), each change with who makes it
    and its unit named as the asker reads it; a unit the outcome names as the request gave it (a
    combatant left as it stood) is no change."""
    return changes_named(system, [c.to_json() for c in changing(ruled_changes(canonical_outcome(body), owners_of(system),
                                                                              asker), body.get("request"))],
                         asker or None)


def transcript_of(body: dict) -> list[str]:
    """A check response's chat lines, its verify link at the server's public address."""
    info = system_info(body["system"])
    verify_url = ""
    if body.get("game_id") and body.get("seq") is not None:
        base = services().config.public_url or request.host_url.rstrip("/")
        verify_url = f"{base}/games/{body['game_id']}#record-{body['seq']}"
    return chat_lines(body, system_name=info.name if info else "", verify_url=verify_url)

