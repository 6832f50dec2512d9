"""Satisfying a combat spread (5.6): retreats, eliminations, replacements, VPs - and what retreats cost.

5.6: the loser satisfies the spread with any mix of: retreat a unit 1-3 hexes (1 per hex), eliminate a
unit (1 each; to the Replacements box), spend at most 1 replacement point (the unit needs an LoC to an
HQ, US: to its cadre; the nationality must match a participating unit, 13.2), spend at most 2 VPs
(not while MacArthur commands, 14.4).  Or he eliminates all participating units and ignores the rest;
if he does not satisfy the spread, all defending units are eliminated.  Task Forces cannot retreat nor
pay with VPs or replacements, and are eliminated for good when they lose (14.2).  Disrupted and Routed
units cannot retreat (6.2 e, f).

Retreat consequences (5.6, 6.2): 2 hexes -> Disrupted; 3 hexes -> Routed; a US/UN Minor Powers unit
that retreated into or through an enemy ZoC -> Bug Out (+1 VP to the Communist, 6.2 g).  A fresh unit
that retreats is flipped spent.  Support losses: for each retreating unit that became Disrupted (and,
a US/UN Minor unit, entered or passed an enemy ZoC): tank -1 if tank support was used, artillery -1
if artillery was used; for each unit that became Routed and entered or passed an enemy ZoC: tank -2
if tank was used, artillery -1 if only 1 artillery was used, -2 if more.  SNAFU draws by the
opponent: 1 per Disrupted unit, 2 per Routed or Bug Out unit (6.2 e, f, g) - one die each; a unit
both Disrupted and Bug Out draws for both cases (`snafu_cases`).

Reading of the ambiguous first support-loss bullet (digest): every Disrupted retreating unit costs the
levels; the "(if US or UN Minor unit)" clause only reminds that such units may enter enemy ZoC.  A lost
US cadre gives the Communist +1 VP (12.1.2).  VPs the loser spends go to the enemy (zero-sum track).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board as board_field, named_side, register_check
from adjudicator.facts import Fact, GameFacts, Refused, register_follow_up, register_offered_once
from adjudicator.rules.fireandice import board, board_orders, data, events
from adjudicator.rules.fireandice.schemas import SideId
from adjudicator.rules.positions import PositionModel
from adjudicator.words.names import check_name

RULE = "5.6 Combat Losses and Retreat"


class RetreatModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    unit: str = Field(max_length=60, description="The retreating unit: its counter's name ('ROK 6') or its id.")
    hexes: int = Field(ge=1, le=3, description="Hexes retreated (each farther from the combat hex; max 3).")
    through_enemy_zoc: bool = Field(default=False, description="It entered or passed an enemy ZoC (US/UN Minor only).")
    fresh: bool | None = Field(default=None, description=(
        "It was fresh (it is flipped spent: 5.6 'If a fresh unit retreats, flip it to its spent side'); left out: as "
        "the board shows it (positions), else not."))
    markers: list[str] = Field(default_factory=list, max_length=6, description="Its status markers (disrupted, routed...).")
    path: list[str] = Field(default_factory=list, max_length=3,
                            description="The hexes entered, in order (checked on the map with `combat_hex` and "
                                        "`positions`; then through_enemy_zoc is computed, and the unit is moved to the "
                                        "last of them when the ruling is applied).")


class LossesRequest(CheckRequest):
    loser: SideId = board_field("side", description="The side that lost the combat.")
    combat_record: int | None = Field(default=None, ge=1, title="The combat these losses settle", description=(
        "The record (#N in the chat) of the combat ruling whose spread these losses satisfy, in a recorded game: "
        "its spread, its participating units and the support they used are read from it. Left out: the last combat "
        "the loser lost (the one the unit pointed at fought in) whose losses are not yet settled."))
    unit: str | None = board_field("unit", default=None, max_length=60, description=(
        "The unit whose menu asked ('Combat losses' on one of the losing side's units): one of the participating "
        "units; in a recorded game, the combat is the last one it fought in."))
    spread: int | None = Field(default=None, ge=0, le=7, description=(
        "The final spread to satisfy (the combat's; a recorded game reads it from the combat's record)."))
    participating: list[str] = Field(default_factory=list, max_length=12, description=(
        "The loser's participating units: the declaring (or defending) unit and the supporting units that added to "
        "the roll (5.6), by their counters' names ('ROK 6') or ids; a recorded game reads them from the combat's "
        "record."))
    retreats: list[RetreatModel] = Field(default_factory=list, max_length=12, description="Retreats chosen.")
    eliminate: list[str] = Field(default_factory=list, max_length=12,
                                 description="Units eliminated (to the Replacements box): counters' names or ids.")
    replacement_points: int = Field(default=0, ge=0, le=1, description="Replacement points spent (max 1).")
    replacement_unit_has_loc: bool = Field(default=True, description="The paying unit has an LoC to an HQ (US: cadre).")
    vps_spent: int = Field(default=0, ge=0, le=2, description="VPs spent (max 2).")
    eliminate_all: bool = Field(default=False, description="Eliminate every participating unit and ignore the rest.")
    macarthur_commands: bool = Field(default=False, description="MacArthur commands (UN may not pay with VPs).")
    replacement_kind: Literal["us", "rok", "un", "nk", "prc", "su"] | None = Field(
        default=None, description="Which replacement track pays: generic 'un' / 'prc' (Chinese) for any nationality of "
                                  "the side, or a nation's own (a unit of that nation must participate) (13.2).")
    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO, max_length=40,
                                description="Scenario id (its map).")
    combat_hex: str | None = Field(default=None, pattern=r"^\d{4}$",
                                   description="The combat hex (for retreat paths; a recorded game reads it from the "
                                               "combat's record).")
    positions: list[PositionModel] = board_field("positions", default_factory=list, max_length=300,
                                                 description="Units of both sides on the map (for retreat paths): the "
                                                       "retreating units' start hexes and the enemy's ZoC.")
    tank_support_used: int = Field(default=0, ge=0, le=19, description="Tank support the loser used in the combat.")
    artillery_support_used: int = Field(default=0, ge=0, le=19, description="Artillery support the loser used.")

    @model_validator(mode="after")
    def _legal(self, info: ValidationInfo):
        g = data.game_in(info)
        by_id(g, self)
        problems(g, self)
        return self


def by_id(g, req: LossesRequest) -> None:
    """The units a player named by their counters' names ('ROK 6'), by id from here on (ValueError for a
    name no counter has); a recorded request keeps the ids."""
    req.participating = [data.unit_named(g, u).id for u in req.participating]
    req.eliminate = [data.unit_named(g, u).id for u in req.eliminate]
    for r in req.retreats:
        r.unit = data.unit_named(g, r.unit).id
    if req.unit is not None:
        req.unit = data.unit_named(g, req.unit).id


def problems(g, req: LossesRequest) -> None:
    """Raise ValueError for a payment the rules forbid (5.6, 6.2, 14.2, 14.4)."""
    if req.spread is None or not req.participating:
        raise ValueError("give the spread and the participating units of the combat these losses settle (a recorded "
                         "game reads them from the combat's record: combat_record)")
    units = {u: data.unit(g, u) for u in req.participating}
    for u in units.values():
        if u.side != req.loser:
            raise ValueError(f"{data.name(g, u.id)} is not a {data.SIDE_NAMES[req.loser]} unit")
    if req.unit is not None and req.unit not in units:
        raise ValueError(f"{data.name(g, req.unit)} did not take part in the combat (5.6: the losses are applied to "
                         f"\"any units that participated in the combat\"): {', '.join(data.name(g, u) for u in units)}")
    used = [r.unit for r in req.retreats] + req.eliminate
    for u in used:
        if u not in units:
            raise ValueError(f"{data.name(g, u)} did not participate in the combat (5.6): the participating units are "
                             f"{', '.join(data.name(g, p) for p in units)}")
    if len(used) != len(set(used)):
        raise ValueError("a unit may retreat or be eliminated, once")
    for r in req.retreats:
        u = units[r.unit]
        if u.has("taskforce"):
            raise ValueError(f"{data.name(g, u.id)}: Task Forces cannot retreat (14.2)")
        if {"disrupted", "routed", "bug_out"} & set(r.markers):
            raise ValueError(f"{data.name(g, u.id)}: Disrupted and Routed units cannot retreat (6.2 e, f)")
        if r.through_enemy_zoc and not data.is_us_or_minor(u):
            raise ValueError(f"{data.name(g, u.id)}: only US and UN Minor Powers units may retreat into an enemy ZoC "
                             "(5.6)")
    if req.replacement_points and req.replacement_kind is not None:
        generic = {"un": "un", "prc": "communist"}
        if req.replacement_kind in generic:
            if generic[req.replacement_kind] != req.loser:
                raise ValueError(f"{req.replacement_kind} replacements belong to the other side")
        elif not any(u.nationality == req.replacement_kind for u in units.values()):
            raise ValueError(f"{req.replacement_kind} replacements need a participating {req.replacement_kind} unit (13.2)")
    if any(r.path for r in req.retreats):
        retreat_paths(g, req)
    if req.vps_spent and req.loser == "un" and req.macarthur_commands:
        raise ValueError("while MacArthur commands the UN may not satisfy losses with VPs (14.4)")
    if (req.vps_spent or req.replacement_points) and all(u.has("taskforce") for u in units.values()):
        raise ValueError("Task Forces cannot spend VPs or replacements in combat (14.2)")
    if req.replacement_points and not req.replacement_unit_has_loc:
        raise ValueError("replacements pay losses only for a unit with an LoC to an HQ (US: its cadre) (5.6)")
    paid = sum(r.hexes for r in req.retreats) + len(req.eliminate) + req.replacement_points + req.vps_spent
    if not req.eliminate_all and paid != req.spread:
        raise ValueError(f"the payments count {paid}, the spread is {req.spread}: they must match (5.6) "
                         "(or eliminate all participating units)")


def retreat_paths(g, req: "LossesRequest") -> dict[str, bool]:
    """Check each given retreat path on the map (5.6); return unit -> entered/passed an enemy ZoC.

    Each hex must be adjacent to the last, farther from the combat hex than the one before, in the
    side's direction (Communist north, UN south: the hex centre moves up / down the map), not all-sea,
    not enemy-occupied, and not in an enemy ZoC no friendly unit negates unless the unit is US or UN
    Minor Powers (which then Bug Out)."""
    if req.combat_hex is None or not req.positions:
        raise ValueError("retreat paths need combat_hex and positions")
    gm = g.maps[data.scenario(g, req.scenario).maps[0]]
    combat = board.parse(gm, req.combat_hex)
    b = board.Board(gm)
    start: dict[str, object] = {}
    for p in req.positions:
        u = data.unit(g, p.unit)
        h = board.parse(gm, p.hex)
        start[p.unit] = h
        if u.type not in ("hq", "aircraft"):
            b.place(p.unit, u.side, h)
    enemy = data.other_side(req.loser)
    zoc = b.zoc_of(enemy)
    through: dict[str, bool] = {}
    for r in req.retreats:
        if not r.path:
            continue
        if len(r.path) != r.hexes:
            raise ValueError(f"{r.unit}: the path has {len(r.path)} hexes, the retreat {r.hexes}")
        if r.unit not in start:
            raise ValueError(f"{r.unit}: give its hex in positions")
        u = data.unit(g, r.unit)
        here = start[r.unit]
        entered_zoc = False
        for label in r.path:
            h = board.parse(gm, label)
            if not gm.grid.are_adjacent(here, h):
                raise ValueError(f"{r.unit}: {label} is not adjacent to {board.label(gm, here)}")
            if gm.grid.distance(combat, h) <= gm.grid.distance(combat, here):
                raise ValueError(f"{r.unit}: {label} is not farther from the combat hex (5.6)")
            dy = gm.grid.center(h)[1] - gm.grid.center(here)[1]
            if (req.loser == "communist" and dy >= 0) or (req.loser == "un" and dy <= 0):
                raise ValueError(f"{r.unit}: {label} is not {'north' if req.loser == 'communist' else 'south'} (5.6)")
            if board.is_sea(gm, h) or b.occupied_by(h, enemy):
                raise ValueError(f"{r.unit}: may not retreat into {label} (sea or an enemy unit)")
            if h in zoc and not b.occupied_by(h, req.loser):
                if not data.is_us_or_minor(u):
                    raise ValueError(f"{r.unit}: may not retreat into the enemy ZoC in {label} (5.6)")
                entered_zoc = True
            here = h
        if r.through_enemy_zoc and not entered_zoc:
            raise ValueError(f"{r.unit}: the path enters no enemy ZoC, but through_enemy_zoc is set")
        through[r.unit] = entered_zoc
    return through


# -- the combat these losses settle (a recorded game's ledger) ------------------------------------

COMBAT, LOSSES = "fireandice.combat", "fireandice.combat_losses"


@register_follow_up("fireandice", "combat_losses")
def combat_settled(records: list[tuple[int, dict[str, Any]]], request: dict[str, Any]) -> GameFacts:
    """What the combat these losses settle establishes (5.6: "The loser of the combat must fulfill the spread as
    losses"): its spread, its loser, the loser's participating units, the combat hex and the support the loser used.
    The combat is the record the request names (`combat_record`), else the last combat the loser lost - the last the
    unit pointed at fought in - whose losses no ruling has settled yet. A combat recorded before combats named their
    units gives its spread only."""
    settled = {body["request"].get("combat_record"): seq for seq, body in records
               if body.get("check") == LOSSES and isinstance(body.get("request"), dict)}
    named = request.get("combat_record")
    if named is not None:
        body = next((b for seq, b in records if seq == named), None)
        if body is None or body.get("check") != COMBAT:
            check = str(body.get("check", "")) if body else ""
            what = ("no record of this game" if body is None else f"a {check_name(check)} ruling"
                    if check.startswith("fireandice.") else "no ruling")
            raise Refused("/combat_record", f"record {named} is {what}, not a combat: name the combat ruling whose "
                                            "losses these are (its record number, #N in the chat)")
        if named in settled:
            raise Refused("/combat_record", f"the losses of the combat of record {named} were settled by record "
                                            f"{settled[named]} (5.6: a spread is satisfied once)")
        return _facts_of(named, body, request)
    g = data.game()
    loser = request.get("loser")
    unit = data.unit_named(g, request["unit"]).id if isinstance(request.get("unit"), str) else None
    for seq, body in reversed(records):
        outcome = (body.get("result") or {}).get("outcome") or {}
        if body.get("check") != COMBAT or seq in settled or (loser and outcome.get("loser_side") != loser):
            continue
        if unit is not None and unit not in _participants(outcome).get(outcome.get("loser", ""), []):
            continue
        return _facts_of(seq, body, request)
    if request.get("spread") is None:
        whose = f"that {data.name(g, unit)} fought in" if unit else f"that the {data.SIDE_NAMES.get(loser, '')} lost"
        raise Refused("/combat_record", f"no combat {whose} waits for its losses in this game: name the combat's "
                                        "record, or give the spread and the participating units")  # not "fought in in"
    return GameFacts()


@register_offered_once("fireandice", "combat_losses")
def losses_to_the_loser(scenario: str, records: list[tuple[int, dict[str, Any]]], side: str | None) -> str | None:
    """5.6: "The loser of the combat must fulfill the spread as losses": a recorded game offers the losses to a
    side only while a combat it lost waits for them (the observer: while any combat does), never to the winner."""
    settled = {body["request"].get("combat_record") for seq, body in records
               if body.get("check") == LOSSES and isinstance(body.get("request"), dict)}
    for seq, body in records:
        outcome = (body.get("result") or {}).get("outcome") or {}
        if body.get("check") == COMBAT and seq not in settled and outcome.get("loser_side") in ((side,) if side else data.SIDES):
            return None
    who = f"the {data.SIDE_NAMES[side]}" if side else "either side"
    return f"no combat {who} lost waits for its losses (5.6: the loser of the combat satisfies the spread)"


def _participants(outcome: dict[str, Any]) -> dict[str, list[str]]:
    found = outcome.get("participants")
    return found if isinstance(found, dict) else {}


def _facts_of(seq: int, body: dict[str, Any], request: dict[str, Any]) -> GameFacts:
    """The losses' fields as the combat of record `seq` establishes them."""
    outcome = (body.get("result") or {}).get("outcome") or {}
    role = outcome.get("loser", "")
    why = f"the combat of record {seq}"
    facts = {"combat_record": Fact(seq, f"these losses settle {why}"),
             "spread": Fact(outcome.get("spread"), f"{why} ended with a spread of {outcome.get('spread')} (5.6)"),
             "loser": Fact(outcome.get("loser_side"), f"{why} was lost by the {role}")}
    units = _participants(outcome).get(role)
    if units:
        given = request.get("participating")
        g = data.game()
        same = isinstance(given, list) and given and sorted(data.unit_named(g, u).id for u in given) == sorted(units)
        facts["participating"] = Fact(given if same else units,
                                      f"the {role}'s units that took part in {why} (5.6): "
                                      f"{', '.join(data.name(g, u) for u in units)}")
    combat_hex = (body.get("request") or {}).get("combat_hex")
    if combat_hex:
        facts["combat_hex"] = Fact(combat_hex, f"{why} was fought in {combat_hex}")
    used = (outcome.get("support_used") or {}).get(role) or {}
    for kind in ("tank", "artillery"):
        if isinstance(used.get(kind), int):
            facts[f"{kind}_support_used"] = Fact(used[kind], f"the {role} used {used[kind]} {kind} support in {why}")
    return GameFacts(facts)


#: SNAFU draws per case of 6.2 (e: "draws once"; f: "draws two markers ... may place one of the two"; g: a Bug Out
#: unit is "treated as routed"), with the rule each comes from.
SNAFU_CASES = {"disrupted": (1, "6.2 e Disrupted"), "routed": (2, "6.2 f Rout"),
               "bug_out": (2, "6.2 g Bug Out (treated as routed: 6.2 f)")}


def snafu_cases(state: str, bug_out: bool) -> list[str]:
    """The 6.2 cases whose SNAFU draw a retreating unit gets (5.6: "if a unit (or units - draw for each to which
    this applies) is disrupted, routed or bugs out, draw from the Cup of Snafu as well. See 6.2; case e, f, and/or
    g").  Reading: each case draws, so a unit both Disrupted and Bug Out gets e's draw and g's (3 markers, one of
    each group may be placed): e ties its draw to the Disrupted marker being placed, and nothing lifts it when a
    Bug Out marker is placed too.  A Routed unit that bugs out draws once as routed: g's draw IS f's ("treated as
    routed"), which it has already.  Alternative, not implemented: the worse case only (2 draws for Disrupted + Bug
    Out)."""
    cases = [state] if state else []
    if bug_out and state != "routed":
        cases.append("bug_out")
    return cases


def _snafu_draws(g, unit_id: str, cases: list[str], enemy: str, dice: Dice, steps: list[Step]) -> list[dict]:
    """The opponent's draws for one retreating unit, case by case, from one cup (markers drawn stay out of it
    until he has chosen what to place)."""
    cup = events.snafu_cup(g)
    drawn = []
    for case in cases:
        count, rule = SNAFU_CASES[case]
        for i in range(count):
            d = events.draw_snafu(g, enemy, dice, purpose=f"SNAFU draw {i + 1} of {count} for {unit_id} ({case})",
                                  cup=cup)
            cup.remove(d.marker)
            drawn.append({"unit": unit_id, "case": case, **d.to_json()})
        steps.append(Step(f"{case.replace('_', ' ').capitalize()}: the {data.SIDE_NAMES[enemy]} player draws {count} "
                          f"SNAFU marker(s) for {unit_id} and may "
                          + ("place one of the two" if count == 2 else "place it") + " on it if it applies (a marker "
                          "not placed goes back to the cup).", rule))
    if len(cases) > 1:
        steps.append(Step(f"{unit_id} is {' and '.join(c.replace('_', ' ') for c in cases)}: each case draws (5.6: "
                          "\"See 6.2; case e, f, and/or g\").", "5.6; 6.2 e, f, g"))
    return drawn


@register_check(system="fireandice", name="combat_losses", request=LossesRequest, random=True,
                summary="Satisfy a combat spread: retreat consequences, support losses, VPs, SNAFU draws",
                rule="5.6; 6.2",
                actor=named_side("loser", rule="5.6",
                                 what="the side that lost the combat (loser): it satisfies the spread"),
                units=data.FIGHTING_UNITS,
                example={"loser": "communist",
                         "spread": 1,
                         "participating": ["nk-15"],
                         "retreats": [{"unit": "nk-15", "hexes": 1}],
                         "dice": []})
def combat_losses(req: LossesRequest, dice: Dice) -> CheckResult:
    g = data.game()
    enemy = data.other_side(req.loser)
    steps: list[Step] = []
    markers: dict[str, list[str]] = {}
    tank_loss = artillery_loss = 0
    vp_to_com = 0
    snafu: list[dict] = []
    eliminated = list(req.participating) if req.eliminate_all else list(req.eliminate)
    shown = {p.unit: p.step for p in req.positions}
    fresh = {r.unit: r.fresh if r.fresh is not None else shown.get(r.unit, "spent") != "spent" for r in req.retreats}
    moved: list[dict] = []
    if req.combat_record is not None:
        steps.append(Step(f"These losses settle the combat of record {req.combat_record}: spread {req.spread}, "
                          f"participating {', '.join(data.name(g, u) for u in req.participating)}.", RULE))
    if req.eliminate_all:
        steps.append(Step(f"The loser eliminates all {len(req.participating)} participating units and ignores the rest "
                          "of the spread.", RULE))
    else:
        on_map = retreat_paths(g, req) if any(r.path for r in req.retreats) else {}
        for r in req.retreats:
            u = data.unit(g, r.unit)
            bug_out = on_map.get(r.unit, r.through_enemy_zoc) and data.is_us_or_minor(u)
            state = "routed" if r.hexes == 3 else ("disrupted" if r.hexes == 2 else "")
            text = (f"{u.id} retreats {r.hexes} hex(es)" + (f" to {r.path[-1]}" if r.path else "")
                    + (" and is flipped spent" if fresh[r.unit] else ""))
            if r.path:  # where it ends, spent if it was fresh (5.6): one change of the unit's piece
                moved.append({"unit": u.id, "to_hex": r.path[-1], "hexes": r.hexes,
                              **({"step": "spent"} if fresh[r.unit] else {})})
            if state:
                text += f"; it is {state.capitalize()}"
            if bug_out:
                text += "; it entered or passed an enemy ZoC: Bug Out (+1 VP to the Communist)"
                vp_to_com += 1
            steps.append(Step(text + ".", "5.6 Retreating; 6.2 e, f, g"))
            placed = ([state] if state else []) + (["bug_out"] if bug_out else [])
            if placed:
                markers[u.id] = placed
            if state == "disrupted":
                t = 1 if req.tank_support_used else 0
                a = 1 if req.artillery_support_used else 0
                tank_loss += t
                artillery_loss += a
                if t or a:
                    steps.append(Step(f"{u.id} became Disrupted: tank -{t}, artillery -{a} (support used in the combat).", RULE))
            if state == "routed" and on_map.get(r.unit, r.through_enemy_zoc):
                t = 2 if req.tank_support_used else 0
                a = 0 if not req.artillery_support_used else (1 if req.artillery_support_used == 1 else 2)
                tank_loss += t
                artillery_loss += a
                steps.append(Step(f"{u.id} became Routed and entered/passed an enemy ZoC: tank -{t}, artillery -{a}.", RULE))
            snafu.extend(_snafu_draws(g, u.id, snafu_cases(state, bool(bug_out)), enemy, dice, steps))
        for u_id in req.eliminate:
            steps.append(Step(f"{u_id} is eliminated (Replacements box).", RULE))
        if req.replacement_points:
            steps.append(Step("1 replacement point spent (of a participating unit's nationality, or generic).", "5.6; 13.2"))
        if req.vps_spent:
            steps.append(Step(f"{req.vps_spent} VP(s) spent: they go to the {data.SIDE_NAMES[enemy]} on the zero-sum track.",
                              "5.6; 12.1.1"))
    task_forces_lost = [u for u in eliminated if data.unit(g, u).has("taskforce")]
    for u in req.participating:
        if data.unit(g, u).has("taskforce") and u not in eliminated:
            task_forces_lost.append(u)
    if task_forces_lost:
        steps.append(Step(f"Task Force(s) {', '.join(task_forces_lost)} defeated: eliminated permanently.", "14.2"))
    cadres = [u for u in eliminated if data.unit(g, u).type == "cadre"]
    if cadres:
        vp_to_com += len(cadres)
        steps.append(Step(f"US cadre(s) lost in combat: +{len(cadres)} VP to the Communist.", "12.1.2"))
    vp_change = {"un": 0, "communist": vp_to_com}
    vp_change[enemy] += req.vps_spent
    return CheckResult(outcome={
        "eliminated": eliminated, "task_forces_removed_permanently": task_forces_lost, "markers": markers,
        "support_level_losses": {"tank": tank_loss, "artillery": artillery_loss},
        "vp_gained": vp_change, "replacement_points_spent": req.replacement_points, "snafu_draws": snafu,
        "flipped_spent": [r.unit for r in req.retreats if fresh[r.unit] and not req.eliminate_all],
        "retreated": moved if not req.eliminate_all else [], "combat_record": req.combat_record,
        # retreats chosen without their hexes: ordered, the owner moves the unit (5.6 Retreating)
        "retreats_to_make": [] if req.eliminate_all else [{"unit": r.unit, "retreat_hexes": r.hexes}
                                                          for r in req.retreats if not r.path],
        "track_moves": board_orders.moves(
            board_orders.support_move(g, req.loser, "tank", -tank_loss, "5.6 Retreating: support losses"),
            board_orders.support_move(g, req.loser, "artillery", -artillery_loss, "5.6 Retreating: support losses"),
            board_orders.replacements_move(g, req.loser, -req.replacement_points if not req.eliminate_all else 0,
                                           "5.6; 13.2", req.replacement_kind)),
    }, steps=steps)
