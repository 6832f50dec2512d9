"""The air war (10.0): air-to-air combat, Top Cover, strikes, interdiction, station and repair rolls.

Ratings come from table `aircraft` (a labelled stand-in: the Air Displays print them) and the
modifiers of table `air_modifiers` (10.1, 10.2, 10.3.1, 14.1): reduced -1, long range -1, rain -1;
no aircraft fly in a Snow month; a rating of 0 or less means the aircraft cannot fly that mission.
The die and success of each roll are the book's (table `air_checks`).

- Air-to-air (10.3.1; Top Cover 10.4.1 when both sides are in the box): the highest air combat value
  fires first; on equal values the UN fires first and then the sides alternate; each aircraft fires
  once, at one enemy aircraft still in the box; damaged aircraft do not fire.  D10 <= value: the target
  is flipped to reduced and goes to the Damaged Aircraft box; a reduced aircraft hit again is
  eliminated.  MiG Alley only: if exactly one side has aircraft left, it gains 1 VP (and in the
  Invasion, Inch'on and Campaign games a Communist MiG Alley VP makes the UN roll a D6: 1-4 = the 4 F-I
  arrives next month, special rule `mig_alley_4fi`).  Targets are the owner's choice: the request gives
  each aircraft's targets in order of preference; it fires at the first one still in the box.
- D6 attacks (10.3.1 lone MiG Alley side; 10.4.1 Top Cover vs a tactical mission or vs an interceptor).
- Stay on station (10.4, 10.4.3): D6 <= station number; Ground Support: a 6 = damaged (not flipped).
- Infrastructure Strike (10.3.2), Airfield Strike (10.3.3), Atomic Strike (10.3.4), Interdiction
  (10.4.2), damaged-aircraft repair (10.2), Ground Support level (10.4.3).

Readings: the firing order uses each aircraft's rating for the mission (after reduced / long range /
rain), the value it also rolls against.  Station numbers are not modified (the 10.4.1 example's
long-range MiG-15 still stays on a 2).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, either_side, register_check, the_side
from adjudicator.rules.fireandice import data

MISSION_COLUMN = {"air_combat": "air_combat", "strategic": "strategic", "interdiction": "interdiction",
                  "ground_support": "ground_support"}


class AircraftModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    unit: str = board("unit", max_length=40, description="Aircraft unit id (table aircraft), e.g. 'un-air-4fi'.")
    reduced: bool = Field(default=False, description="Showing its reduced side (-1).")
    long_range: bool = Field(default=False, description="Flying a long-range mission (-1; 10.1).")
    targets: list[str] = Field(default_factory=list, max_length=20,
                               description="Air-to-air only: enemy aircraft to fire at, in order of preference.")


class WeatherMixin(CheckRequest):
    rain: bool = Field(default=False, description="A rainy month: all ratings -1 (14.1).")
    snow: bool = Field(default=False, description="A Snow month: no aircraft fly (14.1).")


def row(g, unit_id: str) -> dict:
    t = data.table(g, "aircraft")
    try:
        return dict(t.row(unit_id))
    except KeyError:
        raise ValueError(f"{unit_id!r} is not an aircraft of table aircraft") from None


def side_of(g, unit_id: str) -> str:
    return data.unit(g, unit_id).side


def rating(g, a: AircraftModel, column: str, rain: bool) -> tuple[int, str]:
    """The aircraft's rating for a mission with the 10.1/10.2/14.1 modifiers, and how it was reached."""
    r = row(g, a.unit)
    base = int(r[column])
    value = base
    parts = [f"{a.unit} ({r['plane']}) {column.replace('_', ' ')} {base}"]
    t = data.table(g, "air_modifiers")
    for flag, key in ((a.reduced, "reduced aircraft"), (a.long_range, None), (rain, "rain month")):
        if not flag:
            continue
        if key is None:
            key = next(x["condition"] for x in t.rows if x["condition"].startswith("long range"))
        mod = int(t.cell(key, "modifier"))
        value += mod
        parts.append(f"{mod:+d} {key.split(' (')[0]}")
    return value, " ".join(parts) + f" = {value}"


def is_elite(g, unit_id: str) -> bool:
    """The Soviet elite aircraft (303 and 324 IAD, 'the ones with a star'): removed from play if damaged (10.2)."""
    return row(g, unit_id)["elite"].strip().lower() == "yes"


def hit_result(g, unit_id: str, reduced: bool) -> str:
    """What a hit does to an aircraft (10.3.1; 10.2 for the elite ones)."""
    if is_elite(g, unit_id):
        return "removed from play"
    return "eliminated" if reduced else "reduced and damaged"


HIT_RULE = {"removed from play": "10.2: a Soviet elite aircraft is removed from play if damaged and never returns"}


def _check_aircraft(g, aircraft: list[AircraftModel]) -> None:
    seen = set()
    for a in aircraft:
        row(g, a.unit)
        if a.unit in seen:
            raise ValueError(f"{a.unit} is listed twice")
        seen.add(a.unit)


def _warnings(g) -> list[str]:
    return data.stand_in_warnings(g, "table aircraft")


# -- air-to-air combat ---------------------------------------------------------------------------


class AirCombatRequest(WeatherMixin):
    scenario: str = board("scenario", default=data.DEFAULT_SCENARIO, max_length=40,
                          description="Scenario id (special rules).")
    box: Literal["mig_alley", "top_cover"] = Field(description="Where the air-to-air combat happens.")
    aircraft: list[AircraftModel] = Field(min_length=2, max_length=40, description="Every aircraft of both sides in the box.")

    @model_validator(mode="after")
    def _valid(self, info: ValidationInfo):
        g = data.game_in(info)
        _check_aircraft(g, self.aircraft)
        sides = {side_of(g, a.unit) for a in self.aircraft}
        if sides != {"un", "communist"}:
            raise ValueError("air-to-air combat needs aircraft of both sides in the box (10.3.1)")
        if self.snow:
            raise ValueError("no aircraft fly in a Snow month (14.1)")
        for a in self.aircraft:
            if self.box not in row(g, a.unit)["missions"].split():
                raise ValueError(f"{a.unit} may not fly {self.box} (Air Display)")
            for t in a.targets:
                if t not in {x.unit for x in self.aircraft} or side_of(g, t) == side_of(g, a.unit):
                    raise ValueError(f"{a.unit}: target {t} is not an enemy aircraft in the box")
        return self


def firing_order(entries: list[tuple[str, str, int]]) -> list[str]:
    """10.3.1: highest value first; on equal values the UN first, then alternate one each.
    `entries` = (unit, side, value) in the request's order."""
    order: list[str] = []
    for value in sorted({v for _, _, v in entries}, reverse=True):
        un = [u for u, s, v in entries if v == value and s == "un"]
        com = [u for u, s, v in entries if v == value and s == "communist"]
        while un or com:
            if un:
                order.append(un.pop(0))
            if com:
                order.append(com.pop(0))
    return order


@register_check(system="fireandice", name="air_combat", request=AirCombatRequest, random=True,
                summary="Air-to-air combat in MiG Alley or Top Cover (both sides present)", rule="10.3.1; 10.4.1",
                actor=either_side(rule="10.3.1", why="both sides fire in turn, highest air combat value first"),
                example={"box": "mig_alley",
                         "aircraft": [{"unit": "un-air-4fi"}, {"unit": "com-air-3ad"}],
                         "dice": [9, 9]})
def air_combat(req: AirCombatRequest, dice: Dice) -> CheckResult:
    g = data.game()
    by_id = {a.unit: a for a in req.aircraft}
    steps: list[Step] = []
    values: dict[str, int] = {}
    for a in req.aircraft:
        values[a.unit], text = rating(g, a, "air_combat", req.rain)
        steps.append(Step(text + ("" if values[a.unit] > 0 else ": cannot fly this mission (to Available)."),
                          "10.1; 10.2; 10.3.1"))
    present = {u for u, v in values.items() if v > 0}
    state = {u: ("reduced" if by_id[u].reduced else "full") for u in present}
    order = firing_order([(a.unit, side_of(g, a.unit), values[a.unit]) for a in req.aircraft if a.unit in present])
    steps.append(Step("Firing order: " + ", ".join(f"{u} ({values[u]})" for u in order) + ".", "10.3.1 Air-to-Air Combat"))
    shots = []
    in_box = set(present)
    for shooter in order:
        if shooter not in in_box:
            continue
        side = side_of(g, shooter)
        enemies = [u for u in by_id[shooter].targets if u in in_box] or \
                  [a.unit for a in req.aircraft if a.unit in in_box and side_of(g, a.unit) != side]
        if not enemies:
            break
        target = enemies[0]
        (roll,) = dice.roll(10, purpose=f"{shooter} fires at {target} (needs {values[shooter]} or less)")
        hit = roll <= values[shooter]
        result = "miss"
        if hit:
            in_box.discard(target)
            result = hit_result(g, target, state[target] == "reduced")
            state[target] = "damaged" if result == "reduced and damaged" else result
        shots.append({"shooter": shooter, "target": target, "roll": roll, "needed": values[shooter], "result": result})
        why = f" ({HIT_RULE[result]})" if result in HIT_RULE else ""
        steps.append(Step(f"{shooter} fires at {target}: D10 {roll} vs {values[shooter]} - {result}{why}.",
                          "10.3.1; 10.2" if why else "10.3.1"))
    sides_left = {side_of(g, u) for u in in_box}
    vp_to = None
    arrival = None
    if req.box == "mig_alley" and len(sides_left) == 1:
        vp_to = sides_left.pop()
        steps.append(Step(f"Only {data.SIDE_NAMES[vp_to]} aircraft remain in MiG Alley: +1 VP.", "10.3.1"))
        rule = data.special(g, req.scenario, "mig_alley_4fi")
        if vp_to == "communist" and rule:
            low, high = rule.get("success", [1, 4])
            (roll,) = dice.roll(6, purpose="4 F-I arrival roll after a Communist MiG Alley VP")
            arrival = low <= roll <= high
            steps.append(Step(f"D6 {roll}: " + (f"{rule.get('unit')} enters next month." if arrival else "no arrival."),
                              rule.get("source", "special rule")))
    elif req.box == "top_cover" and len(sides_left) == 1:
        steps.append(Step("Only one side remains in Top Cover: no VP; it intercepts tactical missions as if alone.", "10.4.1"))
    return CheckResult(outcome={"shots": shots, "remaining": sorted(in_box),
                                "aircraft": {u: state.get(u, "cannot fly") for u in values},
                                "vp_to": vp_to, "four_fi_arrives": arrival},
                       steps=steps, warnings=_warnings(g))


# -- single D6 attacks, station rolls ------------------------------------------------------------


def _station(g, a: AircraftModel, dice: Dice, ground_support: bool, steps: list[Step]) -> str:
    station = int(row(g, a.unit)["station"])
    (roll,) = dice.roll(6, purpose=f"{a.unit} stays on station (needs {station} or less)")
    if roll <= station:
        result = "stays"
    elif ground_support and roll == 6:
        result = "damaged"
    else:
        result = "to available"
    steps.append(Step(f"{a.unit} station {station}: D6 {roll} - " + {"stays": "stays in its box.",
                      "damaged": "a 6: to the Damaged Aircraft box (not flipped).",
                      "to available": "to the Available Aircraft box for next month."}[result], "10.4; 10.4.3"))
    return result


class AirAttackRequest(WeatherMixin):
    kind: Literal["lone_mig_alley", "top_cover_vs_mission", "top_cover_vs_interceptor"] = Field(
        description="Lone MiG Alley side attacking another strategic box (10.3.1), Top Cover attacking a tactical "
                    "mission, or Top Cover attacking an interceptor (10.4.1).")
    attacker: AircraftModel = board("attackers", description="The attacking aircraft.")
    target: AircraftModel = board("defenders", description="The aircraft attacked.")

    @model_validator(mode="after")
    def _valid(self, info: ValidationInfo):
        g = data.game_in(info)
        _check_aircraft(g, [self.attacker, self.target])
        if side_of(g, self.attacker.unit) == side_of(g, self.target.unit):
            raise ValueError("the target must be an enemy aircraft")
        if self.snow:
            raise ValueError("no aircraft fly in a Snow month (14.1)")
        return self


@register_check(system="fireandice", name="air_attack", request=AirAttackRequest, random=True,
                summary="D6 air attack: lone MiG Alley side or Top Cover interception (then stay on station)",
                rule="10.3.1; 10.4.1",
                actor=data.owner("the attacking aircraft", "10.3.1; 10.4.1", lambda r: [r.attacker.unit]),
                example={"kind": "top_cover_vs_mission",
                         "attacker": {"unit": "com-air-4ad", "long_range": True},
                         "target": {"unit": "un-air-18fb"},
                         "dice": [5, 1]})
def air_attack(req: AirAttackRequest, dice: Dice) -> CheckResult:
    g = data.game()
    value, text = rating(g, req.attacker, "air_combat", req.rain)
    steps = [Step(text + ".", "10.1; 10.3.1")]
    if value <= 0:
        return CheckResult(outcome={"hit": False, "can_fly": False}, steps=steps + [Step(
            "A rating of 0 or less: it cannot fly this mission.", "10.3.1")], warnings=_warnings(g))
    (roll,) = dice.roll(6, purpose=f"{req.attacker.unit} attacks {req.target.unit} (D6, needs {value} or less)")
    hit = roll <= value
    result = "miss" if not hit else hit_result(g, req.target.unit, req.target.reduced)
    rule = "10.3.1" if req.kind == "lone_mig_alley" else "10.4.1 Top Cover"
    if result in HIT_RULE:
        rule += "; 10.2"
    steps.append(Step(f"D6 {roll} vs {value}: {req.target.unit} {result}"
                      + (f" ({HIT_RULE[result]})" if result in HIT_RULE else "")
                      + ("; its mission fails." if hit and req.kind == "top_cover_vs_mission" else
                         "; the interception is stopped." if hit and req.kind == "top_cover_vs_interceptor" else "."), rule))
    station = None
    if req.kind != "lone_mig_alley":
        station = _station(g, req.attacker, dice, False, steps)
    return CheckResult(outcome={"roll": roll, "needed": value, "hit": hit, "target_result": result,
                                "attacker_station": station}, steps=steps, warnings=_warnings(g))


class StationRequest(CheckRequest):
    aircraft: AircraftModel = board("unit", description="The aircraft that flew its tactical mission.")
    mission: Literal["top_cover", "interdiction", "ground_support"] = Field(description="Its mission box.")

    @model_validator(mode="after")
    def _valid(self, info: ValidationInfo):
        _check_aircraft(data.game_in(info), [self.aircraft])
        return self


@register_check(system="fireandice", name="stay_on_station", request=StationRequest, random=True,
                summary="Stay-on-station roll after a tactical mission", rule="10.4; 10.4.3",
                actor=data.owner("the aircraft", "10.4", lambda r: [r.aircraft.unit]),
                units=data.AIRCRAFT,
                example={"aircraft": {"unit": "un-air-18fb"}, "mission": "ground_support", "dice": [3]})
def stay_on_station(req: StationRequest, dice: Dice) -> CheckResult:
    g = data.game()
    steps: list[Step] = []
    result = _station(g, req.aircraft, dice, req.mission == "ground_support", steps)
    return CheckResult(outcome={"result": result}, steps=steps, warnings=_warnings(g))


# -- strategic strikes ---------------------------------------------------------------------------


#: 10.3.3, the book's words on the one box an Airfield Strike may not choose.
CARRIERS_SAFE = ("choose an airfield box to attack (China, North Korea, Japan or South Korea - Carriers can't be "
                 "attacked)")


class StrikeRequest(WeatherMixin):
    kind: Literal["infrastructure", "airfield"] = Field(description="Infrastructure Strike or Airfield Strike.")
    aircraft: list[AircraftModel] = board("attackers", min_length=1, max_length=20,
                                          description="Aircraft in the strike box.")
    airfield_box: Literal["china", "north_korea", "japan", "south_korea"] | None = Field(
        default=None, description="Airfield Strike: the airfield box attacked (never the carriers).")
    macarthur_commands: bool = Field(default=False, description="MacArthur commands (UN strikes on China allowed).")
    enemy_infrastructure: int | None = Field(default=None, ge=0, le=19,
                                             description="The enemy's Infrastructure now: the loss applied is worked "
                                                         "out against its floor (7.0).")
    airfields_there: int | None = Field(default=None, ge=0, le=40, description=(
        "Airfield Strike: undamaged airfields and improved airfields in the struck airfield box (each hit damages "
        "one while any is left; 10.3.3)."))
    aircraft_there: int | None = Field(default=None, ge=0, le=60, description=(
        "Airfield Strike: enemy aircraft in the Damaged and Available Aircraft boxes of the struck airfield box (a hit "
        "removes one 'if there is' one; 10.3.3)."))

    @field_validator("airfield_box", mode="before")
    @classmethod
    def _not_the_carriers(cls, value):
        """10.3.3 names the boxes an Airfield Strike may choose and the one it may not: refused by the rule,
        not by the list of allowed values."""
        if isinstance(value, str) and "carrier" in value.lower():
            raise ValueError(f"{CARRIERS_SAFE} - the 7th Fleet Carriers box is not an airfield box an Airfield "
                             "Strike may choose (10.3.3)")
        return value

    @model_validator(mode="after")
    def _valid(self, info: ValidationInfo):
        g = data.game_in(info)
        _check_aircraft(g, self.aircraft)
        if len({side_of(g, a.unit) for a in self.aircraft}) != 1:
            raise ValueError("one side's aircraft per strike")
        for a in self.aircraft:
            if int(row(g, a.unit)["strategic"]) <= 0:
                raise ValueError(f"{a.unit} has no Strategic Mission value (10.3.2, 10.3.3)")
        if self.snow:
            raise ValueError("no aircraft fly in a Snow month (14.1)")
        if self.kind == "infrastructure" and self.enemy_infrastructure is not None:
            enemy = data.other_side(side_of(g, self.aircraft[0].unit))
            floor, _ = data.infrastructure_limits(g, enemy)
            if self.enemy_infrastructure < floor:
                raise ValueError(f"the {data.SIDE_NAMES[enemy]} Infrastructure is never below {floor} (7.0)")
        if self.kind == "airfield":
            if self.airfield_box is None:
                raise ValueError("an Airfield Strike needs airfield_box")
            side = side_of(g, self.aircraft[0].unit)
            if side == "un" and self.airfield_box == "china" and not self.macarthur_commands:
                raise ValueError("the UN may strike Chinese airfields only while MacArthur commands (14.4)")
            own = ("japan", "south_korea") if side == "un" else ("china", "north_korea")
            if self.airfield_box in own:
                raise ValueError("strike an enemy airfield box")
            if self.airfields_there == 0:
                raise ValueError(f"no undamaged airfield is left in the {self.airfield_box.replace('_', ' ')} box: "
                                 "nothing to attack (10.3.3: \"The player may attack either an airfield or an "
                                 "improved airfield of his choice\")")
        return self


@register_check(system="fireandice", name="strategic_strike", request=StrikeRequest, random=True,
                summary="Infrastructure or Airfield Strike: one D6 per aircraft", rule="10.3.2; 10.3.3",
                actor=data.owner("the striking aircraft", "10.3.2; 10.3.3", lambda r: [a.unit for a in r.aircraft]),
                example={"kind": "infrastructure", "aircraft": [{"unit": "un-air-19bomb"}], "dice": [1]})
def strategic_strike(req: StrikeRequest, dice: Dice) -> CheckResult:
    g = data.game()
    steps: list[Step] = []
    results = []
    infra_loss = airfields = 0
    rule = "10.3.2 Infrastructure Strike" if req.kind == "infrastructure" else "10.3.3 Airfield Strike"
    fields_left, planes_left = req.airfields_there, req.aircraft_there
    planes_removed = 0
    box = (req.airfield_box or "").replace("_", " ")
    for a in req.aircraft:
        value, text = rating(g, a, "strategic", req.rain)
        (roll,) = dice.roll(6, purpose=f"{a.unit} {req.kind} strike (needs {value} or less)")
        hit = value > 0 and roll <= value
        loss = 0
        effect = "miss"
        if hit and req.kind == "infrastructure":
            loss = 2 if roll == 1 else 1
            infra_loss += loss
            effect = f"enemy Infrastructure -{loss}"
        elif hit:
            effect, damaged_field, removed = _airfield_hit(box, fields_left, planes_left)
            airfields += damaged_field
            planes_removed += removed
            fields_left = None if fields_left is None else fields_left - damaged_field
            planes_left = None if planes_left is None else planes_left - removed
        damaged = roll == 6
        results.append({"aircraft": a.unit, "roll": roll, "needed": value, "hit": hit, "infrastructure": -loss,
                        "attacker_damaged": damaged})
        steps.append(Step(f"{text}; D6 {roll}: {effect}" + ("; a 6: the aircraft is damaged (not reduced)." if damaged else "."), rule))
    outcome = {"results": results, "infrastructure_struck": infra_loss, "infrastructure_loss": infra_loss,
               "airfields_damaged": airfields}
    if req.kind == "airfield" and req.aircraft_there is not None:
        outcome["aircraft_removed"] = planes_removed
    warnings = _warnings(g)
    if req.kind == "infrastructure":
        enemy = data.other_side(side_of(g, req.aircraft[0].unit))
        floor, _ = data.infrastructure_limits(g, enemy)
        _infrastructure_applied(req.enemy_infrastructure, infra_loss, floor, enemy, outcome, steps, warnings)
    return CheckResult(outcome=outcome, steps=steps, warnings=warnings)


def _infrastructure_applied(now: int | None, struck: int, floor: int, enemy: str, outcome: dict, steps: list[Step],
                            warnings: list[str]) -> None:
    """The change the hits make to the enemy's Infrastructure (7.0: "never less than 2 for the Communists or 0
    for the UN side"): `infrastructure_struck` is what the hits take (10.3.2), `infrastructure_loss` the change
    the marker makes - smaller where the floor stops it.  Unknown without the enemy's Infrastructure now."""
    who = data.SIDE_NAMES[enemy]
    if now is None:
        steps.append(Step(f"The hits take {struck} from the {who} Infrastructure, effective next month (the Supply "
                          "marker stays).", "7.0; 10.3.2"))
        if struck and floor > 0:
            warnings.append(f"The {who} Infrastructure never goes below {floor} (7.0): the change applied may be less "
                            f"than {struck}; give the enemy's Infrastructure now to have it worked out.")
        return
    after = max(floor, now - struck)
    outcome["enemy_infrastructure"] = after
    outcome["infrastructure_loss"] = now - after
    if now - after < struck:
        why = (f"the {who} Infrastructure never goes below {floor} (7.0), so it changes by {now - after}, "
               f"not {struck}")
    else:
        why = f"a change of {struck}"
    steps.append(Step(f"The hits take {struck} (10.3.2): {who} Infrastructure {now} -> {after}, effective next month "
                      f"(the Supply marker stays); {why}.", "7.0; 10.3.2"))


def _airfield_hit(box: str, fields_left: int | None, planes_left: int | None) -> tuple[str, int, int]:
    """One Airfield Strike hit (10.3.3): what it does, airfields damaged (0/1), aircraft removed (0/1).

    "the airfield is damaged and placed in the Damaged Airfield box of that airfield box. In addition, if there
    is an aircraft in either the Damaged or the Available Aircraft box of this airfield it is permanently removed
    from play (owner's choice)." A count not given is described, not assumed.

    Reading: once every airfield of the box is damaged (earlier hits of this strike), a hit damages
    nothing and removes no aircraft - the aircraft goes "in addition" to the airfield, and the player
    attacks "an airfield or an improved airfield", none of which is left (a strike on a box with none
    is refused).  Alternative, not implemented: the aircraft is removed all the same.
    """
    if fields_left == 0:
        return (f"no undamaged airfield is left in the {box} box, so nothing is damaged and - the aircraft being "
                "removed only 'in addition' to a damaged airfield - no aircraft is removed"), 0, 0
    field, damaged = (f"one airfield or improved airfield (attacker's choice) goes to the {box} box's Damaged "
                      "Airfield box"), 1
    if planes_left is None:
        plane, removed = (f"if there is an aircraft in the {box} box's Damaged or Available Aircraft box, one is "
                          "permanently removed from play (owner's choice)"), 0
    elif planes_left > 0:
        plane, removed = (f"an aircraft of its Damaged or Available Aircraft box is permanently removed from play "
                          f"(owner's choice; {planes_left - 1} left there)"), 1
    else:
        plane, removed = "no aircraft is in its Damaged or Available Aircraft box: none is removed", 0
    return f"{field}; {plane}", damaged, removed


class AtomicStrikeRequest(CheckRequest):
    aircraft: str = board("unit", max_length=40, description="The B-29 flying the strike.")
    target: Literal["airfield_box", "hex"] = Field(description="An airfield box (China or North Korea) or a hex.")
    airfield_box: Literal["china", "north_korea"] | None = Field(default=None, description="The airfield box struck.")
    hex: str | None = board("target_hex", default=None, pattern=r"^\d{4}$", description="The hex struck.")
    atomic_release: bool = Field(description="Atomic Release has occurred (12.2.1).")
    strikes_so_far: int = Field(default=0, ge=0, le=5, description="Atomic strikes already launched this game.")

    @model_validator(mode="after")
    def _valid(self, info: ValidationInfo):
        g = data.game_in(info)
        r = row(g, self.aircraft)
        if r["plane"] != "B-29":
            raise ValueError("only B-29s may launch an Atomic Strike (10.3.4)")
        if not self.atomic_release:
            raise ValueError("Atomic Strikes need Atomic Release (10.3.4; 12.2.1)")
        if self.strikes_so_far >= 5:
            raise ValueError("a total of 5 atomic strikes may be launched in the game (10.3.4)")
        if (self.target == "hex") != (self.hex is not None) or (self.target == "airfield_box") != (self.airfield_box is not None):
            raise ValueError("give the airfield_box for an airfield-box strike, the hex for a hex strike")
        return self


@register_check(system="fireandice", name="atomic_strike", request=AtomicStrikeRequest, random=False,
                summary="Atomic Strike against an airfield box or a hex (no roll)", rule="10.3.4",
                actor=the_side("un", rule="10.3.4 (B-29 only)"),
                example={"aircraft": "un-air-19bomb",
                         "target": "airfield_box",
                         "airfield_box": "north_korea",
                         "atomic_release": True})
def atomic_strike(req: AtomicStrikeRequest, dice: Dice) -> CheckResult:
    if req.target == "airfield_box":
        text = (f"Remove 2 airfields or improved airfields from the {req.airfield_box.replace('_', ' ')} box (never "
                "repairable) and 2 aircraft from its Available or Damaged Aircraft box (owner's choice); place an Atomic "
                "Strike marker.")
    else:
        text = (f"Hex {req.hex}: every unit there goes to the Replacements box; HQs are displaced; the hex loses its "
                "roads and railroads; no unit may end its movement there.")
    return CheckResult(outcome={"strikes_left": 5 - req.strikes_so_far - 1, "effect": text},
                       steps=[Step(text, "10.3.4 Atomic Strike")])


# -- interdiction, repair, ground support -------------------------------------------------------


class InterdictionRequest(WeatherMixin):
    aircraft: AircraftModel = board("unit", description="The interdicting aircraft (one per enemy action, 10.4.2).")
    action: Literal["strategic_move", "flip_fresh", "hq_activation", "combat_support", "replacements"] = Field(
        description="The enemy action interdicted (10.4.2).")

    @model_validator(mode="after")
    def _valid(self, info: ValidationInfo):
        g = data.game_in(info)
        _check_aircraft(g, [self.aircraft])
        if self.snow:
            raise ValueError("no aircraft fly in a Snow month (14.1)")
        return self


EFFECTS = {"strategic_move": "the unit or HQ may not strategically move this phase (it stays fresh)",
           "flip_fresh": "the spent unit does not flip to fresh (no OOC marker)",
           "hq_activation": "the HQ may not activate; it stays fresh and may not try again this turn",
           "combat_support": "the combat hex gets no artillery or tank support (nor air: 5.3.1 \"all references to "
                             "Artillery apply equally to air support used\")",
           "replacements": "no replacements may be used for the losses"}


@register_check(system="fireandice", name="interdiction", request=InterdictionRequest, random=True,
                summary="Interdiction of an enemy strategic move or LoC-dependent action", rule="10.4.2",
                actor=data.owner("the interdicting aircraft", "10.4.2", lambda r: [r.aircraft.unit]),
                units=data.AIRCRAFT,
                example={"aircraft": {"unit": "un-air-3bomb"}, "action": "combat_support", "dice": [2, 1]})
def interdiction(req: InterdictionRequest, dice: Dice) -> CheckResult:
    g = data.game()
    value, text = rating(g, req.aircraft, "interdiction", req.rain)
    steps = [Step(text + ".", "10.4.2 Interdiction")]
    (roll,) = dice.roll(6, purpose=f"{req.aircraft.unit} interdiction (needs {value} or less)")
    denied = value > 0 and roll <= value
    damaged = roll == 6
    steps.append(Step(f"D6 {roll} vs {value}: " + (EFFECTS[req.action] if denied else "no effect")
                      + ("; a 6: the interdictor is damaged (not reduced)." if damaged else "."), "10.4.2"))
    station = None if damaged else _station(g, req.aircraft, dice, False, steps)
    return CheckResult(outcome={"roll": roll, "needed": value, "denied": denied, "interdictor_damaged": damaged,
                                "station": station, "effect": EFFECTS[req.action] if denied else ""},
                       steps=steps, warnings=_warnings(g))


class RepairRequest(CheckRequest):
    aircraft: list[str] = Field(min_length=1, max_length=30, description="Aircraft in the owner's Damaged Aircraft box.")

    @model_validator(mode="after")
    def _valid(self, info: ValidationInfo):
        g = data.game_in(info)
        for a in self.aircraft:
            row(g, a)
        if len({side_of(g, a) for a in self.aircraft}) != 1:
            raise ValueError("one side's damaged aircraft per repair check")
        return self


@register_check(system="fireandice", name="aircraft_repair", request=RepairRequest, random=True,
                summary="Damaged aircraft repair rolls (D10: UN 5 or less, Communist 3 or less)", rule="10.2",
                actor=data.owner("the damaged aircraft (start of the owner's Air Commitment subphase)", "10.2",
                                 lambda r: r.aircraft),
                example={"aircraft": ["un-air-8fb"], "dice": [2]})
def aircraft_repair(req: RepairRequest, dice: Dice) -> CheckResult:
    g = data.game()
    side = side_of(g, req.aircraft[0])
    t = data.table(g, "air_checks")
    check = f"damaged aircraft repair ({'UN' if side == 'un' else 'Communist'})"
    low, high = data.success_range(t.cell(check, "success"))
    steps, results = [], {}
    for a in req.aircraft:
        if is_elite(g, a):
            results[a] = "removed from play"
            steps.append(Step(f"{a} is a Soviet elite aircraft: removed from play when damaged, never repaired.", "10.2"))
            continue
        (roll,) = dice.roll(10, purpose=f"repair roll for {a} (needs {high:g} or less)")
        ok = low <= roll <= high
        results[a] = "available (still reduced)" if ok else "stays damaged"
        steps.append(Step(f"{a}: D10 {roll} - " + ("back to the Available Aircraft box, still reduced." if ok else
                                                   "stays in the Damaged Aircraft box until next month."), "10.2 Air Commitment"))
    return CheckResult(outcome={"results": results}, steps=steps, warnings=_warnings(g))


class GroundSupportRequest(WeatherMixin):
    aircraft: list[AircraftModel] = Field(min_length=1, max_length=20, description="Aircraft in the Ground Support box.")

    @model_validator(mode="after")
    def _valid(self, info: ValidationInfo):
        g = data.game_in(info)
        _check_aircraft(g, self.aircraft)
        if len({side_of(g, a.unit) for a in self.aircraft}) != 1:
            raise ValueError("one side's Ground Support box at a time")
        return self


@register_check(system="fireandice", name="ground_support_level", request=GroundSupportRequest, random=False,
                summary="Air Support marker: the sum of the Ground Support box's values", rule="10.4.3",
                actor=either_side(rule="10.4.3", why="the sum of the box's values; no die"),
                example={"aircraft": [{"unit": "com-air-il10"}]})
def ground_support_level(req: GroundSupportRequest, dice: Dice) -> CheckResult:
    g = data.game()
    if req.snow:
        return CheckResult(outcome={"air_support_level": 0, "aircraft": {}},
                           steps=[Step("Snow: no aircraft fly this month.", "14.1")], warnings=_warnings(g))
    steps, values = [], {}
    for a in req.aircraft:
        value, text = rating(g, a, "ground_support", req.rain)
        values[a.unit] = max(0, value)
        steps.append(Step(text + ("" if value > 0 else ": cannot fly it") + ".", "10.4.3 Ground Support"))
    total = sum(values.values())
    steps.append(Step(f"Air Support marker on {total}.", "10.4.3"))
    return CheckResult(outcome={"air_support_level": total, "aircraft": values}, steps=steps, warnings=_warnings(g))
