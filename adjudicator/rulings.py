"""How a ruling is made, on every way in.

The JSON API, the pages, the saved-game routes (API and pages) and the VASSAL extension (which
speaks the JSON API) all call these functions, so no way in can skip a rule of the trusted path.

A computed ruling (the players' own dice, nothing recorded)::

    compute(spec, request)                       the result, or 422 for dice that do not fit

A recorded ruling, in this order::

    grant = authorize(token, game_id, write=True)    who asks: 401 for no or an unknown token,
                                                     403 for another game's token or, to write,
                                                     an observer's
    spec = game_check(grant, check, system=...)      one of the game's system's checks; a page or
                                                     route naming another system is refused
    req = validate(spec, bind(spec, grant, body))    a check of the game's scenario, for its
                                                     scenario; the asker's side where the request
                                                     leaves it out; what the game's ledger
                                                     establishes (adjudicator.facts); the schema
    recorded = record(grant, spec, req)              only the side that acts; one record per
                                                     request id (a repeat returns the record);
                                                     read against the ledger's board (notices;
                                                     an eliminated unit cannot fight: 422)
    recorded.response()                              the answer, built from the stored record alone

`record_result` records a result computed outside the check registry (a saved game's supply
reports) under the same grant, idempotency and storage rules.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable

from pydantic import BaseModel, ValidationError

from adjudicator.ledger import draws
from adjudicator.checks import (
    REQUEST_ID_PATTERN,
    CheckResult,
    CheckSpec,
    DiceError,
    canonical_side,
    checks_for,
    get_check,
    narrow_request,
    recorded_request,
    run_check,
    side_label,
)
from adjudicator.ledger.dice import LedgerDice, SuppliedDice
from adjudicator.facts import (
    GameFacts, GameResult, Refused, concerns, facts_of, follow_up_of, ledger_facts_of, result_of,
)
from adjudicator.facts import waiting_checks as facts_waiting
from adjudicator.canonical import canonical_bytes
from adjudicator.fog import Part, fog_of, named_in_clear, named_units, reveal, seal, unseen_by, visible_to
from adjudicator.ledger.records import Record, ledger_document
from adjudicator.ledger.board import RESTORED_BY, Derived, LedgerBoard, Notice, RestoredByError, UnitState
from adjudicator.problems import Problem, validation_problem
from adjudicator.services import services
from adjudicator.ledger.storage import (
    OBSERVER,
    CreatedGame,
    GameClosed,
    GameNotFound,
    IdempotencyConflict,
    LedgerMoved,
    TokenGrant,
)
from adjudicator.systems import system_info, system_label
from adjudicator.request_units import unit_ids
from adjudicator.words.names import (
    UnitNameRefused, UnitNames, check_name, rule_words, said_to, unit_as_seen, with_unit_ids,
)


# -- computed rulings ------------------------------------------------------------------------------

def compute(spec: CheckSpec, req: BaseModel) -> dict[str, Any]:
    """A validated compute-mode request run with its own dice: the check's response body.

    422 problems for dice that do not fit and for situations the rules refuse."""
    dice = SuppliedDice(getattr(req, "dice", []))
    result = None
    try:
        result = run_check(spec, req, dice)
        dice.finish()
    except DiceError as error:
        pointer = "/dice" if error.index is None else f"/dice/{error.index}"
        detail = said_to(spec.system, str(error) + (why_no_roll(result) if result is not None else ""))  # a die's purpose names units
        raise Problem(
            422, "The supplied dice do not fit this check", detail, kind="dice",
            errors=[{"pointer": pointer, "detail": detail, "code": "dice"}],
        ) from None
    except ValueError as error:  # SituationError, or a rules module's own ValueError
        raise situation_problem(error, spec.system) from None
    return response_head(spec) | result.to_json()


def why_no_roll(result: CheckResult) -> str:
    """Why a check that ran used fewer dice than were sent, from its own steps: those that say no roll
    is made (a scenario's rule that forbids the roll, a roll already made), with their rules. Before,
    the answer said only "too many dice supplied", and the player could not tell the rule from a typo."""
    said = [f"{step.text} ({step.rule})" if step.rule else step.text
            for step in result.steps if "no roll" in step.text.lower()]
    return f". No roll is made here: {' '.join(said)}" if said else ""


def calculation_as_seen(spec: CheckSpec, req: BaseModel, body: dict[str, Any],
                        viewer: str | None) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A calculation in a game with hidden units (fog of war), as everyone may see it and as
    `viewer` (a side, or None) may: what a recorded ruling's record and `as_you_see_it` would
    show. Its chat lines go into the log the opponent receives, so they are the first; None for
    a game without fog. The answer's own fields stay whole: the caller sent every value."""
    if fog_of(spec.system) is None:
        return None
    head = response_head(spec)
    result = {key: value for key, value in body.items() if key not in head}
    sealed = seal(spec.system, spec.name, viewer or "", req.model_dump(mode="json", exclude={"dice"}), result)
    seen = reveal(spec.system, {"request": sealed.request, "result": sealed.result}, sealed.parts, viewer, closed=False)
    return head | sealed.result, head | seen["result"]


def response_head(spec: CheckSpec) -> dict[str, Any]:
    return {"system": spec.system, "check": spec.name, "rule": spec.rule}


def situation_problem(error: ValueError, system: str = "", viewer: str | None = None, fogged: bool = False) -> Problem:
    """422 for a situation the rules refuse, its units named as the asker reads them (`said_to`)."""
    detail = said_to(system, str(error), viewer, fogged) if system else str(error)
    return Problem(422, "The situation is not possible by the rules", detail, kind="situation")


def validate(model: type[BaseModel], body: dict[str, Any], system: str = "") -> BaseModel:
    """`body` validated as if it had come as JSON: check models are strict, and only their JSON
    mode reads e.g. a scenario name into its enum, as the JSON API does. `system`: the game whose
    units a refusal names (as their counters read)."""
    try:
        return model.model_validate_json(json.dumps(body, allow_nan=False))
    except ValueError as error:
        if isinstance(error, ValidationError):
            raise validation_problem(error, words=UnitNames.of(system).text if system else None) from None
        raise Problem(422, "The request body is invalid", "numbers must be finite (no NaN or Infinity)",
                      kind="validation") from None


def units_by_id(spec: CheckSpec, body: dict[str, Any]) -> dict[str, Any]:
    """`body` with each unit named by its counter's name ("S 17") named by its id, as the rules read
    it and the record keeps it (`adjudicator.words.names.with_unit_ids`); 422 for a name several
    counters read, naming them."""
    try:
        return with_unit_ids(spec.system, spec.request, body)
    except UnitNameRefused as refused:
        raise Problem(422, "The request names a unit several counters read", f"{refused.pointer}: {refused.detail}",
                      kind="ambiguous-unit",
                      errors=[{"pointer": refused.pointer, "detail": refused.detail, "code": "ambiguous-unit"}]
                      ) from None


# -- a new recorded game ---------------------------------------------------------------------------

def create_game(system: str, scenario: str, sides: tuple[str, ...],
                shuffle: Callable[[list[str]], list[str]] | None = None) -> CreatedGame:
    """A new recorded game: its record 0 commits to the seed and to the order of each sealed pool
    of its scenario (`adjudicator.ledger.draws.commit`; `shuffle` is the draw, a test's own order)."""
    svc = services()
    sealed, parts = draws.commit(system, scenario, shuffle)
    return svc.store.create_game(system, scenario, sides, svc.signing_key, sealed_draws=sealed, parts=parts)


# -- who asks --------------------------------------------------------------------------------------

def authorize(token: str | None, game_id: str, *, write: bool) -> TokenGrant:
    """The grant of `token` for `game_id`.

    401 without a token or with an unknown one; 403 for another game's token, and (`write`)
    for an observer token: observers read, they never roll, record or close."""
    if not token:
        raise Problem(401, "Unauthorized", "Send 'Authorization: Bearer <token>' with a token of this game.",
                      kind="missing-token", headers={"WWW-Authenticate": "Bearer"})
    grant = services().store.grant_for(token)
    if grant is None:
        raise Problem(401, "Unauthorized", "Unknown token.", kind="bad-token",
                      headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
    if grant.game_id != game_id:
        raise Problem(403, "Forbidden", "This token belongs to another game.", kind="wrong-game")
    if write and grant.role == OBSERVER:
        raise Problem(403, "Forbidden", "Observer tokens are read-only: they cannot roll, record or close.",
                      kind="read-only-token")
    return grant


# -- which check -----------------------------------------------------------------------------------

def game_checks(grant: TokenGrant) -> list[str]:
    """The checks of a recorded game's system that its scenario has."""
    return [s.name for s in checks_for(grant.system) if s.belongs_to(grant.scenario)]


def waiting_checks(grant: TokenGrant) -> dict[str, str]:
    """The game's checks its ledger does not offer the token's side now -> why, in words (Fire and
    Ice's Atomic Strike before a successful Atomic Release, a combat's losses to its winner): menus
    and lists leave them out; asked anyway, each still answers (`facts.register_offered_once`)."""
    return facts_waiting(grant.system, grant.scenario, game_checks(grant),
                         lambda: [(r.seq, r.body) for r in services().store.records(grant.game_id)],
                         None if grant.role == OBSERVER else canonical_side(grant.role))


def game_check(grant: TokenGrant, check: str, *, system: str | None = None) -> CheckSpec:
    """The check a recorded game asks for: one of its system's and its scenario's.

    `system` is the system a route or form names, if any: a recorded game only ever records its
    own system's checks (403 otherwise). 404 for a check the system does not have (one of
    another scenario is refused by `bind`)."""
    if system is not None and system != grant.system:
        raise Problem(403, "Another game system",
                      f"This is a {system_label(grant.system)} game; it cannot record a {system_label(system)} "
                      "check.", kind="wrong-system")
    spec = get_check(grant.system, check)
    if spec is None:
        known = ", ".join(game_checks(grant))
        raise Problem(404, "Not Found", f"{system_label(grant.system)} has no check {check!r}. This game's "
                      f"checks: {known}.", kind="unknown-check", checks=game_checks(grant))
    return spec


def refuse_check_of_other_scenario(spec: CheckSpec, grant: TokenGrant) -> None:
    """422 for a check of another scenario than the game's (after the body's size is checked)."""
    if not spec.belongs_to(grant.scenario):
        scenarios = {s.id: s.name for s in system_info(grant.system).scenarios}
        having = [name for sid, name in scenarios.items() if spec.belongs_to(sid)]
        where = (f"the scenario {' or '.join(scenarios.get(s, s) for s in spec.scenarios)}" if spec.scenarios
                 else f"the scenarios with {rule_words(spec.scenario_rule_text)} ({' or '.join(having) or 'none'})")
        raise Problem(
            422, "The check is not part of this game's scenario",
            f"{check_name(spec.name)} belongs to {where}; this game plays {scenarios.get(grant.scenario, grant.scenario)}. "
            f"This game's checks: {', '.join(check_name(c) for c in game_checks(grant))}.",
            kind="scenario-mismatch", checks=game_checks(grant),
        )


def bind(spec: CheckSpec, grant: TokenGrant, body: dict[str, Any]) -> dict[str, Any]:
    """The request as the recorded game asks it: its scenario, and the asking side by default.

    A scenario field may be left out (the game's own is used) or must match; a field naming the
    asker's side (board role `side`) is the token's side when left out; a unit named by its
    counter's name is named by its id (`units_by_id`). A check of another scenario is refused (422).
    """
    refuse_check_of_other_scenario(spec, grant)
    body = units_by_id(spec, dict(body))
    scenario_field = spec.top_level_field("scenario")
    if scenario_field:
        given = body.setdefault(scenario_field, grant.scenario)
        if given != grant.scenario:
            detail = (f"This game plays scenario {grant.scenario!r}, not {given!r}: leave {scenario_field} out "
                      f"or send {grant.scenario!r}.")
            raise Problem(
                422, "The request is for another scenario", f"/{scenario_field}: {detail}",
                kind="scenario-mismatch",
                errors=[{"pointer": f"/{scenario_field}", "detail": detail, "code": "scenario-mismatch"}],
            )
    side_field = spec.top_level_field("side")
    if side_field:
        body.setdefault(side_field, canonical_side(grant.role))
    return apply_game_facts(spec, grant, body)


def game_facts(spec: CheckSpec, grant: TokenGrant, request_id: str | None = None,
               body: dict[str, Any] | None = None) -> GameFacts:
    """What the game's scenario and ledger establish for this check (`adjudicator.facts`), and,
    for a request (`body`) of a check that follows an earlier ruling, what that ruling establishes.

    A repeated request id is judged by the ledger as it stood when it was first recorded, so a
    retry is the same request and replays its record."""
    follow_up = follow_up_of(grant.system, spec.name) if body is not None else None
    general = concerns(grant.system, spec.name, spec.request.model_fields)
    at_the_end = ledger_facts_of(grant.system, spec.name)
    if not general and follow_up is None and at_the_end is None:
        return GameFacts()
    records = [(r.seq, r.body) for r in services().store.records(grant.game_id)]
    first = next((seq for seq, body in records if request_id and body.get("request_id") == request_id), None)
    if first is not None:
        records = [(seq, body) for seq, body in records if seq < first]
    found = facts_of(grant.system, grant.scenario, records) if general else GameFacts()
    if at_the_end is not None:
        full = full_records(grant.game_id, grant.system, records)
        read = at_the_end(grant.scenario, full, ledger_board_of(grant.system, full), canonical_side(grant.role))
        found = GameFacts({**found.values, **read.values}, {**found.closed_checks, **read.closed_checks})
    if follow_up is not None:
        try:
            followed = follow_up(records, body)
        except Refused as refused:
            raise Problem(422, "The request follows no such ruling", f"{refused.pointer}: {refused.detail}",
                          kind="not-followed",
                          errors=[{"pointer": refused.pointer, "detail": refused.detail, "code": "not-followed"}]
                          ) from None
        found = GameFacts({**found.values, **followed.values}, {**found.closed_checks, **followed.closed_checks})
    return found


def apply_game_facts(spec: CheckSpec, grant: TokenGrant, body: dict[str, Any]) -> dict[str, Any]:
    """Fill the fields the game itself establishes; refuse a request that says otherwise (422,
    naming the record or rule that decides), and a check the game has closed.

    A field holding its schema default is taken as not stated (a form's unticked box, a client
    that sends every field): the game's value replaces it. Only a value the player chose against
    the game is refused."""
    found = game_facts(spec, grant, body.get("request_id"), body)
    if spec.name in found.closed_checks:
        raise Problem(422, "Nothing to roll any more", found.closed_checks[spec.name], kind="check-closed")
    for name, fact in found.values.items():
        field = spec.request.model_fields.get(name)
        if field is None or not fact.applies(body):
            continue
        if fact.includes:  # the ledger's units are in it; the player may add others
            given = list(body.get(name) or [])
            body[name] = given + [v for v in fact.value if v not in given]
            continue
        if name not in body or body[name] == field.get_default(call_default_factory=True):  # left out, or untouched
            body[name] = fact.value
        given = body[name]
        if given != fact.value:
            detail = f"{name} is {json.dumps(fact.value)} in this game, not {json.dumps(given)}: {fact.why}."
            raise Problem(422, "The request contradicts the game", f"/{name}: {detail}", kind="contradicts-game",
                          errors=[{"pointer": f"/{name}", "detail": detail, "code": "contradicts-game"}])
    return body


# -- the record ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Recorded:
    """A ruling in the ledger: the stored record, whether this call only repeated it, and (fog of
    war) the hidden parts kept beside it."""

    record: Record
    replayed: bool
    parts: tuple[Part, ...] = ()

    def response(self, viewer: str | None = None) -> dict[str, Any]:
        """The answer: the record as everyone may see it (what the receipt signs); for a game with
        fog of war, also the viewer's own hidden parts and the ruling as the viewer sees it."""
        answer = recorded_response(self.record)
        mine = [p for p in self.parts if visible_to(p, viewer, closed=False)]
        if self.parts:
            seen = reveal(self.record.body["check"].partition(".")[0], self.record.body, list(self.parts), viewer,
                          closed=False)
            answer["yours"] = [p.to_json() for p in mine]
            answer["as_you_see_it"] = {"request": seen["request"], **{k: seen["result"].get(k) for k in
                                                                      ("outcome", "steps", "warnings")}}
            if "notices" in seen["result"]:
                answer["as_you_see_it"]["notices"] = seen["result"]["notices"]
        return answer


class _Refused(Exception):
    """Carries a rules function's refusal out of the ledger transaction (which rolls back)."""

    def __init__(self, error: ValueError):
        super().__init__(str(error))
        self.error = error


#: How many times a ruling that settles a sealed draw is prepared again when another record was
#: appended while it was being prepared (adjudicator.ledger.draws).
SETTLE_ATTEMPTS = 5


class _RefusedByLedger(Exception):
    """Carries the ledger board's refusal (a problem) out of the ledger transaction."""

    def __init__(self, problem: Problem):
        super().__init__(problem.detail)
        self.problem = problem


def record(grant: TokenGrant, spec: CheckSpec, req: BaseModel) -> Recorded:
    """Roll a validated game-mode request into the game's ledger.

    Only a side that acts in the check may ask (403 otherwise, nothing recorded); the grant
    must allow writing (see `authorize`). In a game with sealed pools, the placeholders the check
    reveals are settled from the ledger first (`settle_draws`)."""
    if grant.role == OBSERVER:  # every caller authorized for writing; this keeps it so
        raise Problem(403, "Forbidden", "Observer tokens are read-only.", kind="read-only-token")
    side = canonical_side(grant.role)
    for _ in range(SETTLE_ATTEMPTS):
        settled, head = settle_draws(grant, spec, req)  # each time from the request as asked
        own = narrow_request(spec, settled)  # once: the actor and the rules function both read it
        refuse_other_side(spec, own, side)
        try:
            return _record(grant, spec, settled, own, head)
        except LedgerMoved:
            continue
    raise Problem(409, "Conflict", "Other rulings were recorded while this one was being prepared; ask again.",
                  kind="ledger-busy")


def _record(grant: TokenGrant, spec: CheckSpec, req: BaseModel, own: BaseModel, head: int | None) -> Recorded:
    request_json = recorded_request(req)
    log_session = getattr(req, "log_session", None)
    # a log kept alone (play by e-mail) is recorded as before live sessions: without `live`
    session = log_session.model_dump(mode="json", exclude={"live"} if log_session.live is None else None) \
        if log_session is not None else None

    def run(seed: bytes, seq: int) -> dict:
        try:
            return run_check(spec, own, LedgerDice(seed, seq)).to_json()
        except ValueError as error:  # SituationError, or a rules module's own ValueError
            raise _Refused(error) from error

    try:
        return _append(grant, spec.key, request_json, req.request_id, run, session, combatants(spec, request_json),
                       expect_head=head)
    except _Refused as refused:
        raise situation_problem(refused.error, grant.system, canonical_side(grant.role), fogged=True) from None


def settle_draws(grant: TokenGrant, spec: CheckSpec, req: BaseModel) -> tuple[BaseModel, int | None]:
    """The request with each placeholder it reveals settled from the game's sealed pools
    (`adjudicator.ledger.draws.settle`), and the last record it was settled against (None: nothing to
    settle). A repeated request id is settled against the ledger as it stood when it was first
    recorded, so a retry is the same request and replays its record."""
    if not draws.has_sealed_pools(grant.system, grant.scenario):
        return req, None
    store = services().store
    records = [(r.seq, r.body) for r in store.records(grant.game_id)]
    first = next((seq for seq, body in records if req.request_id and body.get("request_id") == req.request_id), None)
    before = [(seq, body) for seq, body in records[1:] if first is None or seq < first]
    orders = draws.orders_of([Part.from_json(part) for seq, part in store.hidden_parts(grant.game_id) if seq == 0])
    request_json = req.model_dump(mode="json", exclude={"request_id", "log_session"})
    try:
        settled = draws.settle(grant.system, spec.name, request_json, draws.pools_of(records[0][1], orders), before)
    except draws.Refused as refused:
        raise Problem(422, "The request names what nobody has seen", str(refused), kind="sealed-draw") from None
    if settled != request_json:
        req = validate(spec.game_model, {**req.model_dump(mode="json"), **settled}, spec.system)
    return req, records[-1][0]


def record_result(grant: TokenGrant, check_key: str, request_json: dict[str, Any], request_id: str | None,
                  result: dict[str, Any]) -> Recorded:
    """Record a result worked out without dice outside the check registry (a saved game's supply)."""
    if grant.role == OBSERVER:
        raise Problem(403, "Forbidden", "Observer tokens are read-only.", kind="read-only-token")
    if request_id is not None and not re.fullmatch(REQUEST_ID_PATTERN, request_id):
        raise Problem(422, "The request is invalid", f"request_id must match {REQUEST_ID_PATTERN}",
                      kind="validation", errors=[{"pointer": "/request_id", "detail": "bad request_id",
                                                  "code": "pattern"}])
    return _append(grant, check_key, request_json, request_id, lambda seed, seq: result)


def _append(grant: TokenGrant, check_key: str, request_json: dict[str, Any], request_id: str | None,
            run: Callable[[bytes, int], dict], session: dict[str, Any] | None = None,
            fighting: frozenset[str] = frozenset(), expect_head: int | None = None) -> Recorded:
    svc = services()
    side = canonical_side(grant.role)
    read: list[Derived] = []  # what the board said of the request (folded with the record it becomes)
    made: list[dict[str, Any]] = []  # the result the record is made of, before sealing (folded with it)
    unknown: list[str] = []  # units whose notices tell what the asker could not see (`notice_unseen`)

    def read_against_ledger(seed: bytes, seq: int) -> dict:
        """The ruling with its notices; refused (nothing recorded) for an eliminated unit that
        fights. Runs under the ledger's write lock, so the board is the records before `seq`; or
        before it for the record after the board's last (`Store.prepare_check`), which is kept
        only if the ledger still ends there under the lock."""
        board = ledger_board_before(grant, seq)
        try:
            derived = board.derive(seq, check_key, request_json, side)
        except RestoredByError as error:
            raise _RefusedByLedger(Problem(
                422, "The request names a ruling that brought nothing back", f"/{RESTORED_BY}: {error.detail}.",
                kind="restored-by", errors=[{"pointer": f"/{RESTORED_BY}", "detail": error.detail,
                                             "code": "restored-by"}])) from None
        unknown[:] = sorted({n.unit for n in derived.notices if n.unit and notice_unseen(grant, n, board)})
        refuse_eliminated_fighters(grant, board, [n for n in derived.eliminated_units()
                                                 if n.unit in fighting and n.unit not in unknown])
        read[:] = [derived]
        # always a list, empty too: a record without one was written before notices existed
        made[:] = [{**run(seed, seq), "notices": [n.to_json() for n in derived.notices]}]
        return made[0]

    sealed: list[Part] = []
    sealer = None
    if fog_of(grant.system) is not None:
        def sealer(request: dict[str, Any], result: dict[str, Any]):
            done = seal(grant.system, check_key.partition(".")[2], side, request, result, owners_notices=unknown)
            sealed[:] = done.parts
            return done.request, done.result, done.parts
    board = ledger_board_before(grant, None)  # caught up outside the write lock: under it, only what comes meanwhile
    try:
        with _appending(grant.game_id) as alone:
            prepared = None
            if alone and isinstance(board, KeptBoard) and board.head_hash is not None \
                    and expect_head in (None, board.head):
                try:  # made while other rulings are recorded; appended as it is if none comes in meanwhile
                    prepared = svc.store.prepare_check(
                        grant.game_id, side, check_key, request_json, request_id, svc.signing_key,
                        read_against_ledger, board.head + 1, board.head_hash, session=session, seal=sealer)
                except Exception:  # refused, or a retry of a recorded request: decided under the lock, as always
                    prepared = None
            stored, replayed = svc.store.append_check(
                grant.game_id, side, check_key, request_json, request_id, svc.signing_key, read_against_ledger,
                session=session, seal=sealer, expect_head=expect_head, prepared=prepared)
    except _RefusedByLedger as refused:
        raise refused.problem from None
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    except GameClosed:
        raise Problem(409, "Conflict", "The game is closed; no more rolls.", kind="game-closed") from None
    except IdempotencyConflict:
        raise Problem(
            409, "Conflict",
            f"request_id {request_id!r} was already used for a different request in this game.",
            kind="idempotency-conflict",
        ) from None
    if replayed and sealer is not None:
        sealed = record_parts(grant.game_id, stored.seq)
    recorded = Recorded(stored, replayed, tuple(sealed))
    if not replayed:
        _fold_appended(grant, recorded, read[0], request_json, made[0])
    return recorded


#: The most games whose ledger board a process keeps (each is folded again from its records when
#: it was dropped).
MAX_BOARDS = 256
_BOARDS_LOCK = threading.Lock()
#: Board roles of the request fields whose units fight: an eliminated one makes the request impossible.
FIGHTING_ROLES = ("attackers", "defenders")


#: Rulings of each game this process is recording now (prepared, or waiting for the write lock).
_APPENDING: dict[str, int] = {}


@contextmanager
def _appending(game_id: str) -> Iterator[bool]:
    """Counts a ruling of `game_id` in flight in this process; yields whether it is the only one.

    A ruling prepared while another of the same game is on its way to the ledger is made for a head
    the other will have moved: it is made again under the write lock, its first making wasted. Under
    gevent, where a worker's requests of one game wait together for the lock, that was half of the
    rulings made (measured: `_made_record` as often under the lock as before it). Such a ruling is
    made under the lock only."""
    with _BOARDS_LOCK:
        alone = _APPENDING.get(game_id, 0) == 0
        _APPENDING[game_id] = _APPENDING.get(game_id, 0) + 1
    try:
        yield alone
    finally:
        with _BOARDS_LOCK:
            left = _APPENDING.pop(game_id) - 1
            if left:
                _APPENDING[game_id] = left


def combatants(spec: CheckSpec, request_json: dict[str, Any]) -> frozenset[str]:
    """The units of the request's fields that attack or defend (their board roles say)."""
    names = [pointer[1:] for pointer, role in spec.board if role in FIGHTING_ROLES and pointer.count("/") == 1]
    return frozenset(u for name in names for u in unit_ids(request_json.get(name)))


class KeptBoard(LedgerBoard):
    """A game's ledger board as this process keeps it, with, for each record folded, the hidden
    units a notice may name with it (those it named or left in a state) that its public body names
    in the clear (those the rules revealed): what `notice_unseen` asks of the record a notice names,
    without reading it again."""

    def __init__(self, system: str):
        super().__init__(system)
        fog = fog_of(system)
        self.fog = fog if fog is not None and (fog.hidden_units is None or fog.hidden_units()) else None
        self.in_clear: dict[int, frozenset[str]] = {}
        self.head_hash: str | None = None  # the hash of record `head` (None: none folded yet)
        self._left: set[str] = set()  # the units the record being folded left in a state
        #: Held while records are folded in: the process's other requests of the game (threads, or
        #: greenlets where a read yields) wait for the fold rather than fold the ledger again.
        self.turn = threading.Lock()

    def _set(self, unit: str, state: UnitState, seq: int) -> None:
        super()._set(unit, state, seq)
        self._left.add(unit)

    def fold_public(self, record: Record, parts: list[Part], derived: Derived | None = None) -> None:
        """Fold a record from its stored (public) body and its hidden parts (its objects' keys in the
        ledger's order where no part is put back), without its notices' texts where they change
        nothing of the fold (`LedgerBoard.read_to_fold`)."""
        full = _full_body(self.system, record.body, parts)
        self.fold_made(record, full, derived or self.read_to_fold(full), ordered=not parts)

    def fold_made(self, record: Record, full_body: dict[str, Any], derived: Derived | None = None,
                  ordered: bool = False) -> None:
        """Fold a record from its body with full values (its hidden parts in place): this process's
        own record from what it made it of, with no second reveal of its sealed body."""
        self._left = set()
        self.fold(record.seq, full_body, derived, ordered)
        if self.fog is not None:  # a notice names a unit with the record that left it so, or that named it
            asked = self._left | self.mentions.get(record.seq, set())
            self.in_clear[record.seq] = frozenset(named_in_clear(
                self.fog, record.body, record.canonical_body or canonical_bytes(record.body), asked))
        self.head_hash = record.hash


def ledger_board_before(grant: TokenGrant, seq: int | None) -> LedgerBoard:
    """The game's ledger board folded up to record `seq - 1` (None: every record committed so
    far): kept per process (each record this process appends folded in as it is recorded) and
    caught up with the records appended since by other processes, each with its hidden parts put
    back. A ruling catches its board up before it takes the ledger's write lock (`seq` None), then
    under it (`Store.append_check`'s `run`: no record comes in meanwhile) reads only what another
    process appended in between, usually nothing. The board stays kept while it is caught up: a
    request of the same game meanwhile waits for its turn (`KeptBoard.turn`) and finds it folded,
    where before it found none and folded the whole ledger again."""
    svc = services()
    boards: dict[str, KeptBoard] = svc.ledger_boards
    with _BOARDS_LOCK:  # other games' rulings may be recorded meanwhile (PostgreSQL locks per game)
        board = boards.pop(grant.game_id, None)
        if board is None or (seq is not None and board.head >= seq):
            board = KeptBoard(grant.system)
        boards[grant.game_id] = board  # kept while it is caught up; the most recently used last
        while len(boards) > MAX_BOARDS:
            boards.pop(next(iter(boards)))
    with board.turn:
        if seq is None or board.head < seq - 1:  # records this process has not folded (another worker's, or a new board)
            records, parts = svc.store.appended_since(grant.game_id, board.head, parts=fog_of(grant.system) is not None)
            hidden: dict[int, list[Part]] = {}
            for at, part in parts:
                hidden.setdefault(at, []).append(Part.from_json(part))
            for found in records:
                if seq is not None and found.seq >= seq:
                    break
                board.fold_public(found, hidden.get(found.seq, []))
    return board


def full_records(game_id: str, system: str, records: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """A game's records (seq, body) with their hidden parts put back: what the server's own
    readings of the ledger (its board, a victory check's facts) take."""
    if fog_of(system) is None:
        return records
    parts: dict[int, list[Part]] = {}
    for at, part in services().store.hidden_parts(game_id):
        parts.setdefault(at, []).append(Part.from_json(part))
    return [(seq, _full_body(system, body, parts.get(seq, []))) for seq, body in records]


def ledger_board_of(system: str, records: list[tuple[int, dict[str, Any]]]) -> LedgerBoard:
    """A fresh ledger board folded from records with full values (a reading, never the kept one)."""
    board = LedgerBoard(system)
    for seq, body in records:
        board.fold(seq, body)
    return board


def game_result(game_id: str, system: str) -> GameResult | None:
    """The game's result as its last victory ruling states it (None: no ruling decides one yet)."""
    records = [(r.seq, r.body) for r in services().store.records(game_id)]
    for seq, body in reversed(full_records(game_id, system, records)):
        check_system, _, name = str(body.get("check", "")).partition(".")
        result = body.get("result") if isinstance(body.get("result"), dict) else {}
        found = result_of(check_system, name, body.get("request") or {}, result.get("outcome") or {}, seq)
        if found is not None:
            return found
    return None


def _full_body(system: str, body: dict[str, Any], parts: list[Part]) -> dict[str, Any]:
    """A record's body with its hidden parts put back (what the ledger's board folds)."""
    return reveal(system, body, parts, None, closed=True) if parts else body


def _fold_appended(grant: TokenGrant, recorded: Recorded, derived: Derived, request: dict[str, Any],
                   result: dict[str, Any]) -> None:
    """The record just appended folded into this process's board of its game, when the board
    stands right before it: the next ruling then reads the board without reading the ledger. It is
    folded from what it was made of (its request and result before sealing, what the board derived
    of them), the board another process catches up from the stored record and its hidden parts."""
    with _BOARDS_LOCK:
        board = services().ledger_boards.get(grant.game_id)
    if board is None:
        return
    with board.turn:
        if board.head == recorded.record.seq - 1:
            board.fold_made(recorded.record, {**recorded.record.body, "request": request, "result": result}, derived)


def notice_unseen(grant: TokenGrant, notice: Notice, board: LedgerBoard | None = None) -> bool:
    """Whether a notice tells the asker what he could not see: the fog of war hides its unit from him,
    and the record it names shows that unit only sealed (its owner's own supply ruling, say).

    Such a notice is sealed for the owner even where the check reveals the unit (`seal`'s
    `owners_notices`): "ROK 6 was left at 2 SP by record #1" would give away what the supply ruling
    sealed. And an eliminated fighter among them is not refused: "a UN block in 0101 was eliminated by
    record #1", for nothing recorded, told him which block it was. The request goes on as for a unit
    not eliminated (the same answer); the ledger keeps the unit eliminated (its changes not folded)."""
    fog = fog_of(grant.system)
    owner = fog.unit_owner(notice.unit) if fog is not None else None
    if owner is None or (fog.owner_sees and owner == canonical_side(grant.role)):
        return False
    in_clear = board.in_clear.get(notice.record) if isinstance(board, KeptBoard) else None
    if in_clear is not None:  # the kept board read the record when it folded it
        return notice.unit not in in_clear
    named = services().store.record(grant.game_id, notice.record)
    return named is None or notice.unit not in named_units(fog, named.body)


def refuse_eliminated_fighters(grant: TokenGrant, board: LedgerBoard, fighters: list[Notice]) -> None:
    """422 for units the ledger eliminated that the request has attack or defend: the rules make
    that impossible. A unit the fog of war hides from the asker is named only by its side and hex."""
    if not fighters:
        return
    viewer = canonical_side(grant.role)
    said = [f"{unit_as_seen(grant.system, notice.unit, viewer, notice.hex, board.names)} was eliminated by record "
            f"#{notice.record}" for notice in fighters]
    detail = (f"{'; '.join(said)}: an eliminated unit cannot attack or defend. If a later ruling brought it back, "
              f"name that ruling in {RESTORED_BY} (its record number); else leave the unit out. Nothing was recorded.")
    raise _RefusedByLedger(Problem(422, "The ledger has eliminated a unit of this combat", detail,
                                   kind="eliminated-unit", records=sorted({n.record for n in fighters})))


def record_parts(game_id: str, seq: int) -> list[Part]:
    """The hidden parts kept beside one record (fog of war)."""
    return [Part.from_json(part) for at, part in services().store.hidden_parts(game_id) if at == seq]


def refuse_a_peek(grant: TokenGrant, check: str, request_json: dict[str, Any]) -> None:
    """422 when a question asked before the roll (its chances) would give away a unit the fog of
    war hides from the asking side (`adjudicator.fog.unseen_by`), or would need a placeholder the
    ruling itself is to reveal (`adjudicator.ledger.draws.unrevealed`)."""
    if draws.has_sealed_pools(grant.system, grant.scenario):
        records = [(r.seq, r.body) for r in services().store.records(grant.game_id)]
        waiting = draws.unrevealed(grant.system, check, request_json, draws.pools_of(records[0][1]), records[1:])
        if waiting:
            raise Problem(422, "The chances would need what is not drawn yet",
                          f"{', '.join(waiting)}: which counter it is, the adjudicator draws when the ruling is "
                          f"recorded ({draws.reveal_of(grant.system, check).rule}); its strength, and so the chances, "
                          "are unknown until then.", kind="sealed-draw")
    refuse_a_peek_by(grant.system, check, request_json, grant.role)


def refuse_a_peek_by(system: str, check: str, request_json: dict[str, Any], side: str | None) -> None:
    """`refuse_a_peek` for a side (None: a viewer of no side, who sees no hidden unit)."""
    if unseen_by(system, check, request_json, side):
        raise Problem(422, "The chances would show what is hidden from you",
                      f"The situation names a unit whose identity the fog of war hides from your side "
                      f"({fog_of(system).rule}); its chances would give its strength away. Ask for them "
                      "once the rules reveal it.", kind="fog-of-war")


def chances_withheld(spec: CheckSpec) -> str:
    """Why no side of a recorded game gets this check's chances before its roll, in a sentence (""
    when it may ask, and `refuse_a_peek` judges the situation asked): the roll is what reveals the
    units it names (`Fog.revealed_by`) and it always names defending units, the opponent's, whose
    identity the fog of war hides from the asker until then (a HoldFast combat's block)."""
    fog = fog_of(spec.system)
    revealed = set(fog.revealed_by.get(spec.name, ())) if fog else set()
    required = set(spec.request.model_json_schema().get("required", []))
    if not any(pointer[1:] in revealed & required for pointer, role in spec.board if role == "defenders"):
        return ""
    return (f"No chances before this roll: the enemy {fog.noun} it names is hidden from you until the roll "
            f"reveals it ({fog.rule}), and its chances would give its strength away.")


def refuse_other_side(spec: CheckSpec, req: BaseModel, side: str) -> None:
    """403 unless `side` may act in this check (the rules package's `actor`); nothing is recorded."""
    try:
        allowed = spec.actor.sides(narrow_request(spec, req))
    except ValueError as error:
        raise situation_problem(error, spec.system, side, fogged=True) from None
    if allowed is None or side in allowed:
        return
    actor = spec.actor
    who = rule_words(f"who acts: {actor.description}; rule {actor.rule}")  # a field named in words, as the form labels it
    check = check_name(spec.name)  # as players call it: the check's id stays in the problem's `actor`
    if allowed:
        names = " or the ".join(side_label(s) for s in sorted(allowed))
        detail = (f"Only the {names} player may roll {check} here ({who}). This token is the "
                  f"{side_label(side)} player's. Nothing was recorded.")
    else:
        detail = (f"No side may ask for {check} alone here ({who}): the units named belong to both "
                  "sides. Ask once per side. Nothing was recorded.")
    raise Problem(403, "Not your roll", detail, kind="not-your-roll", may_roll=sorted(allowed),
                  actor=actor.to_json())


def recorded_response(record: Record) -> dict[str, Any]:
    """A game-mode answer, built only from the stored record so a replay is identical.

    It carries the recorded `request` too: with it, the answer alone is the record's body, so
    anyone holding the answer can hash it and check the signed receipt (`adjudicator.ledger.verify.
    verify_answer`): an edited outcome, die or step no longer matches."""
    body = record.body
    system, _, name = body["check"].partition(".")
    spec = get_check(system, name)
    return {
        "system": system,
        "check": name,
        "rule": spec.rule if spec else "",
        **body["result"],
        "request": body["request"],
        "game_id": record.game_id,
        "seq": record.seq,
        "prev_hash": record.prev_hash,
        "hash": record.hash,
        "request_id": body["request_id"],
        "side": body["side"],
        "time": body["time"],
        **({"session": body["session"]} if "session" in body else {}),
        "receipt": record.receipt,
    }


def game_ledger(game_id: str) -> dict[str, Any]:
    """A game's whole ledger document as stored (404 for an unknown game); what a viewer may see
    of it is the caller's to narrow."""
    store = services().store
    try:
        return ledger_document(store.game(game_id), store.records(game_id))
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None


def find_record(game_id: str, seq: int) -> Record:
    """One record of a game's ledger (404 for an unknown game or record)."""
    store = services().store
    try:
        found = store.record(game_id, seq)
    except GameNotFound:
        raise Problem(404, "Not Found", "No such game.", kind="unknown-game") from None
    if found is None:
        raise Problem(404, "Not Found", f"Game {game_id} has no record {seq}.", kind="unknown-record")
    return found
