"""Combat (5.0-5.7, 8.0): the combat chit, both sides' support, the dice, random events, the result.

Procedure (checks `combat`, `combat_support`, `draw_chits`):
1. The chit (5.2.1): given by id, or drawn from the cup of the combat type (table `combat_chits`,
   a labelled stand-in: one die over the chits of that cup).
2. Support of each side (5.3, 8.2, 8.3; module `support`), the attacker first (5.4.3).
3. Dice (5.4.1): the attacker rolls the chit's die; the defender a D10 if fresh (he then becomes
   spent) or, by choice or when spent, a D6.
4. Special rolls (5.4.2) on the natural dice: equal naturals -> a Random Event on the chit's table
   (5.5, applied at once, including to this combat); a natural 1 -> Poor (UN) / Penal (Communist)
   on a participating unit without a quality marker; a natural 10 on a D10 or 6 on a D6 -> Elite /
   Guards; effective at once.
5. Totals (5.4.3): attacker = die + chit modifier + support; defender = die + support + terrain
   (Terrain Effects Chart defence, the river bonus only if the declaring and all supporting units
   attack across it, Prepared Position / Trenches).
6. Result (5.6): higher total wins; a tie = the attacker loses with a spread of 1.  Spread capped at
   5, then quality (max 1 per side): loser Poor/Penal +1, Elite/Guards -1; winner Elite/Guards +1,
   Poor/Penal -1 (so 3 to 7).  A side with both kinds picks the one better for it (Elite).  The
   winner never takes losses but pays the road option's tank level.

Readings (digest): quality markers also adjust a tie's spread of 1 ("as if he had lost"); a spread
cannot go below 0.  The Great Leader / Incompetent Leader re-roll is a player's option: it is
reported, not made (repeat the check with the re-rolled die).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import (
    CheckRequest, CheckResult, Dice, Refusal, Step, at_field, board as board_field, either_side, named_side, register_check,
)
from adjudicator.rules.fireandice import board, board_orders, data, events, support
from adjudicator.rules.fireandice.schemas import ChitId, CombatType, HexTerrain, SideCombatModel, SideId, UnitInCombat

RULE = "5.0 Combat"
#: 5.3.1, the book's words (the road option's limit, whether the map or the request's flags say so).
ROAD_ACROSS_RIVER = ("The road advantage may not be used if the road connecting the declared attacker and the "
                     "combat chit hex crosses a river.")
#: The situation of the 5.6 Combat Example: the example of `combat` and `combat_support`.
EXAMPLE_SITUATION = {"attacker": "communist", "combat_type": "Prepared Attack", "chit": "P01", "terrain": "town",
                     "road_bonus": True, "communist_tank_level": 6, "communist_artillery_level": 7,
                     "un_tank_level": 5, "un_artillery_level": 4,
                     "attacking": {"adjacent_units": 2}, "defending": {"adjacent_units": 1}}

#: The Support Level Track's markers (2.2, 8.1, 10.4.3, 11.2): the request field that holds each
#: marker's level, the side it is, the kind of support, and the marker's id (markers.csv).
SUPPORT_MARKERS = (
    ("un_tank_level", "un", "tank", "un-tank"),
    ("un_artillery_level", "un", "artillery", "un-artillery"),
    ("un_air_level", "un", "air", "un-air"),
    ("un_bombardment_level", "un", "bombardment", "un-bombardment"),
    ("communist_tank_level", "communist", "tank", "com-tank"),
    ("communist_artillery_level", "communist", "artillery", "com-artillery"),
    ("communist_air_level", "communist", "air", "com-air"),
)
#: Glossary "Spent", the book's words; and the one thing a spent unit may do in a combat (5.3.3, 9.3).
SPENT = ("HQ or unit that has ended its activation this game turn and is no longer available to be active, until "
         "it is flipped to its fresh side")
SPENT_MAY_SUPPORT = ("a spent unit may support a friendly active attacker if it is adjacent to the combat hex (see "
                     "5.3). He can't do anything else.")
CONVENIENCE_FLIP = ("For more convenience during play, HQs and units are flipped to their spent side at the beginning "
                    "of their activation.")


def _level(side: str, kind: str, marker: str):
    """A level field: the cell its marker stands on, on the Support Level Track (markers.csv's names)."""
    words = {"tank": "Tank Support", "artillery": "Artillery Support", "air": "Air Support",
             "bombardment": "Navy Bombardment"}[kind]
    name = f"{'UN' if side == 'un' else 'Communist'} {words}" if kind != "bombardment" else f"US {words}"
    rule = {"tank": "2.2, 8.1", "artillery": "2.2, 8.1", "air": "2.2, 10.4.3", "bombardment": "2.2, 5.3.2, 11.2"}[kind]
    return board_field(f"track:support:{marker}", default=0, ge=0, le=19, title=f"{name} level",
                       description=f"Where the {name} marker stands on the Support Level Track ({rule}).")


class CombatSituation(CheckRequest):
    """A combat's situation: the units on the board, what both sides' support and the terrain make of it."""

    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO, max_length=40,
                                description="Scenario id (its map is used).")
    attacker: SideId = board_field("side", description="The attacking side: 'un' or 'communist'.")
    attackers: list[UnitInCombat] = board_field("attackers", default_factory=list, max_length=7, description=(
        "The declaring unit (the one that places the combat chit) first, then the units adjacent to the combat hex "
        "the attacker chooses to support it (5.3.3: 'Any attacking unit (fresh or spent) adjacent to a combat hex may "
        "support the combat'): on the board, the units selected, the declaring one first."))
    defenders: list[UnitInCombat] = board_field("defenders", default_factory=list, max_length=6, description=(
        "The defending unit: the unit in the combat hex (4.2: one unit per hex; HQs are not units and do not "
        "defend)."))
    combat_type: CombatType = Field(title="Combat declared", description=(
        "The combat the declaring unit declares and pays for (5.2): Meeting Engagement 1 MP, Hasty Attack 2 MP, "
        "Prepared Attack 3 MP, Deliberate Attack all movement points."))
    chit: ChitId | None = Field(default=None, title="Combat chit", description=(
        "The combat chit drawn and placed on the combat hex (5.2.1; table combat_chits); left out: the adjudicator "
        "draws one from the combat type's mug with a die."))
    terrain: HexTerrain | None = Field(default=None, title="Terrain of the combat hex", description=(
        "The combat hex's terrain (a row of the Terrain Effects Chart); left out: the map's terrain of the combat "
        "hex."))
    combat_hex: str | None = board_field("target_hex", default=None, pattern=r"^\d{4}$",
                                         description="The combat hex, e.g. '2542'.")
    road_bonus: bool = Field(default=False, title="Road option", description=(
        "Attacker uses the road option: road tank factor, -1 tank level after the combat (5.3.1). Needs a "
        "road/railroad from the declaring unit's hex not crossing a river (so not with across_river)."))
    across_river: bool = Field(default=False,
                               description="The declaring and ALL supporting units attack across a river (5.4.3).")
    across_bridge: bool = Field(default=False, description="The river is crossed by a bridge (Terrain Effects Chart).")
    prepared_position: bool = Field(default=False, description="A Prepared Position marker is in the combat hex (6.2 b).")
    trenches: bool = Field(default=False, description="A Trenches marker is in the combat hex (6.2 c).")
    bombardment_in_range: bool = Field(default=False,
                                       description="The 7th Fleet is in the station covering the combat hex: the hex "
                                                   "is within 2 hexes of that station's coast (11.2; 5.3.2).")
    fleet_station: Literal["Yellow Sea", "Sea of Japan"] | None = Field(
        default=None, description="Where the 7th Fleet is; with combat_hex the map decides whether bombardment "
                                  "reaches the combat hex (11.2), instead of bombardment_in_range.")
    un_tank_level: int = _level("un", "tank", "un-tank")
    un_artillery_level: int = _level("un", "artillery", "un-artillery")
    un_air_level: int = _level("un", "air", "un-air")
    un_bombardment_level: int = _level("un", "bombardment", "un-bombardment")
    communist_tank_level: int = _level("communist", "tank", "com-tank")
    communist_artillery_level: int = _level("communist", "artillery", "com-artillery")
    communist_air_level: int = _level("communist", "air", "com-air")
    attacking: SideCombatModel = Field(default_factory=SideCombatModel,
                                       description="The attacking side's choices of support and its units' state.")
    defending: SideCombatModel = Field(default_factory=SideCombatModel,
                                       description="The defending side's choices of support and its unit's state.")
    defender_supporting: list[str] = Field(default_factory=list, max_length=6, title="Defender's supporting units",
                                           description=(
        "The defender's units adjacent to the combat hex that support it, the defender's choice (5.3.3: 'each "
        "friendly supporting unit adjacent to the combat hex adds 2'): their counters' names ('ROK 7') or ids."))
    declaring_unit_activated: bool = Field(default=False, title="The declaring unit is being activated now", description=(
        "The declaring unit shows its spent side because it was flipped as its activation began (Glossary 'Spent': "
        f"'{CONVENIENCE_FLIP}'). Otherwise a spent unit may not declare a combat."))

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo):
        situation(self, data.game_in(info))
        return self

    def level(self, side: str, kind: str) -> int:
        """A side's support level of a kind, as its marker stands on the Support Level Track."""
        return next((getattr(self, name) for name, s, k, _ in SUPPORT_MARKERS if s == side and k == kind), 0)


class CombatSupportRequest(CombatSituation):
    @model_validator(mode="after")
    def _needs_chit(self):
        if self.chit is None:
            raise ValueError("combat_support needs the chit drawn (its Spt row, 5.3.1)")
        return self


class CombatRequest(CombatSituation):
    defender_fresh: bool | None = Field(default=None, description=(
        "The defending unit shows its fresh side (5.4.1); left out: as the defending unit shows it (fresh when no "
        "defending unit is named)."))
    defender_die: Literal["d10", "d6"] | None = Field(default=None, title="Defender's die", description=(
        "The defender's choice (5.4.1: 'The defender rolls a D10, if fresh, or a D6, if spent. The defender may "
        "choose to roll a D6 and stay fresh otherwise if he rolls a D10, he is spent.'). Left out: a D10 if he is "
        "fresh, a D6 if spent."))
    attacker_replacements: int | None = Field(default=None, ge=0, le=19,
                                              description="Attacker's replacements (for the Ambush event, 5.5 A-3).")

    @model_validator(mode="after")
    def _die(self, info: ValidationInfo):
        g = data.game_in(info)
        lead = sides_of(self, g).lead_defender
        shown = next((d.step or "fresh" for d in self.defenders if data.unit_named(g, d.unit).id == lead), None)
        if self.defender_fresh is not None and shown is not None and self.defender_fresh != (shown == "fresh"):
            raise ValueError(f"the defending unit {data.name(g, lead)} shows its {shown} side: defender_fresh cannot "
                             f"say otherwise (5.4.1)")
        if self.defender_die == "d10" and not fresh_defender(self, g):
            raise ValueError("a spent defender rolls a D6 (5.4.1: 'The defender rolls a D10, if fresh, or a D6, if "
                             "spent')")
        return self


@dataclass(frozen=True)
class Sides:
    """Who fights: the declaring unit and its supporters, the defending unit(s) and theirs (unit ids),
    each unit's hex and the side it shows, as the request names them."""

    declaring: str | None
    attacker_support: tuple[str, ...]
    defending: tuple[str, ...]
    defender_support: tuple[str, ...]
    hexes: dict[str, str]
    shown: dict[str, str]  # unit -> "fresh" / "spent"
    headquarters: tuple[str, ...]  # HQs in the combat hex: not units, they do not defend

    @property
    def lead_defender(self) -> str | None:
        return self.defending[0] if self.defending else None


def sides_of(req: CombatSituation, g) -> Sides:
    """The units the request names, by id, checked against the rules (5.2, 5.3.3, 9.3, Glossary); ValueError."""
    defender_side = data.other_side(req.attacker)
    hexes: dict[str, str] = {}
    shown: dict[str, str] = {}
    attackers = []
    for i, item in enumerate(req.attackers):
        u = data.unit_named(g, item.unit)
        if u.side != req.attacker:
            raise ValueError(f"{data.name(g, u.id)} is not a {data.SIDE_NAMES[req.attacker]} unit: it cannot attack")
        if u.type in ("hq", "aircraft"):
            raise ValueError(f"{data.name(g, u.id)} is no unit (Glossary 'Unit': a counter that is not a marker or HQ): "
                             "it can neither declare nor support a combat")
        if u.id in attackers:
            raise ValueError(f"{data.name(g, u.id)} is named twice among the attacking units")
        attackers.append(u.id)
        hexes[u.id], shown[u.id] = item.hex or "", item.step or "fresh"
    defending, headquarters = [], []
    for item in req.defenders:
        u = data.unit_named(g, item.unit)
        if u.side != defender_side:
            raise ValueError(f"{data.name(g, u.id)} in the combat hex is not a {data.SIDE_NAMES[defender_side]} unit")
        hexes[u.id], shown[u.id] = item.hex or "", item.step or "fresh"
        (headquarters if u.type == "hq" else defending).append(u.id)
    if req.defenders and not defending:
        raise ValueError(f"no {data.SIDE_NAMES[defender_side]} unit in the combat hex, only "
                         f"{', '.join(data.name(g, h) for h in headquarters)}: an HQ is not a unit (Glossary 'Unit') "
                         "and is not attacked")
    supporting = []
    for name in req.defender_supporting:
        u = data.unit_named(g, name)
        if u.side != defender_side or u.type in ("hq", "aircraft"):
            raise ValueError(f"{name}: the defender's supporting units are {data.SIDE_NAMES[defender_side]} units "
                             "(5.3.3)")
        if u.id in defending or u.id in supporting:
            raise ValueError(f"{data.name(g, u.id)} is named twice among the defending units")
        supporting.append(u.id)
    return Sides(attackers[0] if attackers else None, tuple(attackers[1:]), tuple(defending), tuple(supporting),
                 hexes, shown, tuple(headquarters))


def fresh_defender(req: CombatSituation, g) -> bool:
    """Whether the defending unit is fresh (5.4.1): as the request says, else as its counter shows."""
    if getattr(req, "defender_fresh", None) is not None:
        return req.defender_fresh
    who = sides_of(req, g)
    return who.lead_defender is None or who.shown[who.lead_defender] != "spent"


def _check_units(req: CombatSituation, g, gm, combat_hex, who: Sides) -> None:
    """The declaring unit may declare (5.2, 9.3, Glossary 'Spent'); every unit stands where it must (5.2, 5.3.3)."""
    if who.declaring is not None and who.shown[who.declaring] == "spent" and not req.declaring_unit_activated:
        name = data.name(g, who.declaring)
        where = f" ({who.hexes[who.declaring]})" if who.hexes[who.declaring] else ""
        raise ValueError(f"{name}{where} shows its spent side and may not declare a combat: spent is \"{SPENT}\" "
                         f"(Glossary), and \"{SPENT_MAY_SUPPORT}\" (9.3; 5.3.3). Select a fresh unit to declare; "
                         f"{name} may support it. (If {name} was flipped to spent as its activation began - \""
                         f"{CONVENIENCE_FLIP}\" - say that the declaring unit is being activated now.)")
    if combat_hex is None:
        return
    for unit in (who.declaring, *who.attacker_support):
        if unit is None or not who.hexes[unit]:
            continue
        here = board.parse(gm, who.hexes[unit])
        if not gm.grid.are_adjacent(here, combat_hex):
            role = "declaring unit" if unit == who.declaring else "supporting unit"
            rule = "5.2: 'A moving unit that is adjacent to an enemy unit may declare a combat'" if unit == who.declaring \
                else "5.3.3: 'Any attacking unit (fresh or spent) adjacent to a combat hex may support the combat'"
            raise ValueError(f"the {role} {data.name(g, unit)} ({who.hexes[unit]}) is not adjacent to the combat hex "
                             f"{req.combat_hex} ({rule})")
    for unit in who.defending:
        if who.hexes[unit] and who.hexes[unit] != req.combat_hex:
            raise ValueError(f"the defending unit {data.name(g, unit)} stands in {who.hexes[unit]}, not in the combat "
                             f"hex {req.combat_hex}")


def _check_counts(req: CombatSituation, g, who: Sides) -> None:
    """A count of supporting units given beside the units named must be their number (5.3.3)."""
    for role, model, named in (("attacking", req.attacking, who.attacker_support),
                               ("defending", req.defending, who.defender_support)):
        if named and model.adjacent_units is not None and model.adjacent_units != len(named):
            raise ValueError(f"{role}.adjacent_units says {model.adjacent_units} supporting units, but "
                             f"{len(named)} are named ({', '.join(data.name(g, u) for u in named)})")


def supporting_count(model: SideCombatModel, named: tuple[str, ...]) -> int:
    return model.adjacent_units if model.adjacent_units is not None else len(named)


def situation(req: CombatSituation, g) -> dict:
    """Validate and gather what the request leaves to the map and the tables; ValueError if wrong."""
    sc = data.scenario(g, req.scenario)
    gm = g.maps[sc.maps[0]]
    combat_hex = board.parse(gm, req.combat_hex) if req.combat_hex else None
    who = sides_of(req, g)
    _check_units(req, g, gm, combat_hex, who)
    _check_counts(req, g, who)
    terrain = req.terrain or (gm.terrain_at(combat_hex) if combat_hex else None)
    if terrain is None:
        raise ValueError("give the combat hex's terrain or the combat_hex")
    effects = board.terrain_effects(g, terrain)
    if effects.movement is None and terrain != "city":
        raise ValueError(f"no combat in a {terrain} hex: units may not enter it")
    bombard = (req.bombardment_in_range, "as the request says")
    if req.fleet_station is not None:
        if combat_hex is None:
            raise ValueError("fleet_station needs the combat_hex")
        bombard = board.in_bombardment_range(g, gm, combat_hex, req.fleet_station)
    elif req.bombardment_in_range and combat_hex is not None:
        if not board.stations_in_range(g, gm, combat_hex):
            raise ValueError(f"no bombardment: {req.combat_hex} is not within 2 hexes of the coast either Sea Station "
                             "covers (11.2)")
    if req.chit is not None:
        with at_field("/chit"):
            c = data.chit(g, req.chit)
            if c.cup != data.cup_for(req.combat_type):
                raise Refusal(f"chit {c.id} is from the {c.cup} cup, not the one for a {req.combat_type} (5.2.1)",
                              allowed=[x.id for x in data.cup(g, req.combat_type)])
    if req.road_bonus and req.across_river:
        raise ValueError(f"the declaring unit attacks across a river: no road option (5.3.1: \"{ROAD_ACROSS_RIVER}\")")
    declaring_hex = who.hexes.get(who.declaring or "", "")
    if req.road_bonus and declaring_hex and combat_hex is not None:
        dh = board.parse(gm, declaring_hex)
        if not board.road_connects(gm, dh, combat_hex):
            raise ValueError("no road or railroad joins the declaring unit's hex and the combat hex: no road option "
                             "(5.3.1)")
        if board.river_between(gm, dh, combat_hex):
            raise ValueError(f"the road crosses a river: no road option (5.3.1: \"{ROAD_ACROSS_RIVER}\")")
    for role, s in (("attacking", req.attacking), ("defending", req.defending)):
        _check_air_used(g, s, req.attacker if role == "attacking" else data.other_side(req.attacker))
    if req.combat_type == "Deliberate Attack" and "low_morale" in req.attacking.lead_markers:
        raise ValueError("a Low Morale unit may never perform a Deliberate Attack (6.2 j)")
    if {"routed", "bug_out"} & set(req.attacking.lead_markers):
        raise ValueError("a Routed (or Bug Out) unit may not attack (6.2 f)")
    return {"gm": gm, "terrain": effects, "combat_hex": combat_hex, "bombardment": bombard, "who": who}


def _check_air_used(g, s: SideCombatModel, side: str) -> None:
    """The aircraft named for ground support are the side's, fly Ground Support, and are named once (10.4.3)."""
    named = [a.unit for a in s.air_used or ()]
    if len(set(named)) != len(named):
        raise ValueError("an aircraft is named twice in air_used")
    aircraft = data.table(g, "aircraft")
    for unit in named:
        if unit not in {r["unit"] for r in aircraft.rows}:
            raise ValueError(f"{unit!r} is not an aircraft of table aircraft")
        if data.unit(g, unit).side != side or "ground_support" not in aircraft.cell(unit, "missions").split():
            raise ValueError(f"{unit} is not a {data.SIDE_NAMES[side]} aircraft that flies Ground Support (10.4.3)")


def side_support(g, req: CombatSituation, sit: dict, role: str) -> support.SideSupport:
    """One side's support as the Support Level Track, its choices and its units give it (5.3, 8.2, 8.3)."""
    who: Sides = sit["who"]
    side = req.attacker if role == "attacking" else data.other_side(req.attacker)
    model = req.attacking if role == "attacking" else req.defending
    lead_id = who.declaring if role == "attacking" else who.lead_defender
    lead = g.units.get(lead_id) if lead_id else None
    task_force = bool(lead and (lead.type in ("taskforce", "airborne") or lead.has("taskforce")))
    named = who.attacker_support if role == "attacking" else who.defender_support
    return support.SideSupport(
        tank_level=req.level(side, "tank"), artillery_level=req.level(side, "artillery"), air_level=req.level(side, "air"),
        bombardment_level=req.level(side, "bombardment"), use_tank=model.use_tank, use_artillery=model.use_artillery,
        use_air=model.use_air, use_bombardment=model.use_bombardment,
        air_used=None if model.air_used is None else tuple((a.unit, a.rating) for a in model.air_used),
        adjacent_units=supporting_count(model, named),
        lead_markers=frozenset(model.lead_markers), task_force=task_force, combat_hex_loc=model.combat_hex_loc,
        cadre_in_range=model.cadre_in_range if (lead is None or lead.nationality == "us") else True,
        support_interdicted=model.support_interdicted)


def terrain_defense(g, req: CombatSituation, effects: board.TerrainEffects) -> tuple[int, list[Step]]:
    """The defender's terrain modifiers (5.4.3, Terrain Effects Chart)."""
    total = effects.defense
    steps = [Step(f"Defender: {effects.terrain} terrain {effects.defense:+d}.", "5.4.3; Terrain Effects Chart")]
    if req.across_river:
        row = "bridge" if req.across_bridge else "river hexside"
        value = board.terrain_effects(g, row).defense
        total += value
        steps.append(Step(f"Defender: attack across a {row} (declaring and all supporting units) {value:+d}.",
                          "5.4.3 (river bonus only if all attack across it)"))
    for flag, row in ((req.prepared_position, "prepared position"), (req.trenches, "trenches")):
        if flag:
            value = board.terrain_effects(g, row).defense
            total += value
            steps.append(Step(f"Defender: {row} {value:+d}.", "6.2 b, c; Terrain Effects Chart"))
    return total, steps


def resolve_chit(g, req: CombatSituation, dice: Dice) -> tuple[data.Chit, list[Step]]:
    if req.chit is not None:
        c = data.chit(g, req.chit)
        return c, [Step(f"Combat chit {c.label}.", "5.2.1 Combat Chits")]
    cup = data.cup(g, req.combat_type)
    (n,) = dice.roll(len(cup), purpose=f"draw a combat chit from the {cup[0].cup} cup ({len(cup)} chits)")
    c = cup[n - 1]
    return c, [Step(f"Drew chit {n} of {len(cup)} from the {req.combat_type} cup: {c.label}.", "5.2 Declaring Combat; 5.2.1")]


def both_supports(g, req, sit, chit, att: support.SideSupport, dfd: support.SideSupport, radio: bool = False):
    defender = data.other_side(req.attacker)
    in_range = sit["bombardment"][0]
    a = support.determine(g, "attacker", req.attacker, att, req.combat_type, chit.spt, sit["terrain"],
                          road_bonus=req.road_bonus, bombardment_in_range=in_range)
    d = support.determine(g, "defender", defender, dfd, req.combat_type, chit.spt, sit["terrain"],
                          bombardment_in_range=in_range, radio_failure=radio)
    return a, d


def fleet_steps(req: CombatSituation, sit: dict) -> list[Step]:
    if req.fleet_station is None:
        return []
    ok, why = sit["bombardment"]
    return [Step(f"7th Fleet in the {req.fleet_station} Station: {why}"
                 + (" - bombardment may support the UN." if ok else " - no bombardment."), "11.2 Bombardment; 5.3.2")]


def _warnings(g, sit) -> list[str]:
    names = ["table combat_chits", "table terrain_effects"]
    if sit["combat_hex"] is not None:
        names.append(f"map {sit['gm'].id}")
    return data.stand_in_warnings(g, *names)


def unit_steps(g, req: CombatSituation, who: Sides) -> list[Step]:
    """Who fights, as the board shows them: the first steps of a combat's ruling (5.2, 5.3.3)."""
    if who.declaring is None and not who.defending:
        return []

    def named(unit: str) -> str:
        where = who.hexes.get(unit) or ""
        return f"{data.name(g, unit)} ({where}, {who.shown[unit]})" if where else f"{data.name(g, unit)} ({who.shown[unit]})"

    text = []
    if who.declaring is not None:
        text.append(f"{named(who.declaring)} declares a {req.combat_type}"
                    + (f" on {req.combat_hex}" if req.combat_hex else "")
                    + (" (being activated: flipped to spent as its activation began)"
                       if who.shown[who.declaring] == "spent" else "") + ".")
    if who.attacker_support:
        text.append(f"Supporting the attack: {', '.join(named(u) for u in who.attacker_support)}.")
    if who.defending:
        text.append(f"Defending: {', '.join(named(u) for u in who.defending)}.")
    if who.defender_support:
        text.append(f"Supporting the defence: {', '.join(data.name(g, u) for u in who.defender_support)}.")
    if who.headquarters:
        text.append(f"{', '.join(data.name(g, h) for h in who.headquarters)} in the combat hex: an HQ is not a unit "
                    "and does not defend.")
    return [Step(" ".join(text), "5.2 Declaring Combat; 5.3.3")]


def units_outcome(who: Sides) -> dict:
    """The units of a combat, as its outcome names them: who declared and defended, where, and every
    participating unit of each side (5.6: 'the declaring unit and the supporting units that added to the
    roll'; the defending unit and its supporters) - what the combat's losses are taken from."""

    def placed(unit: str | None) -> dict | None:
        return None if unit is None else {"unit": unit, "hex": who.hexes.get(unit) or None}

    return {"declaring_unit": placed(who.declaring), "defending_unit": placed(who.lead_defender),
            "participants": {"attacker": [u for u in (who.declaring, *who.attacker_support) if u],
                             "defender": [*who.defending, *who.defender_support]}}


@register_check(system="fireandice", name="combat_support", request=CombatSupportRequest, random=False,
                summary="Support determination of both sides of a combat (no dice)", rule="5.3; 8.2; 8.3",
                actor=either_side(rule="5.3; 8.2", why="the support of both sides; no die"),
                example=EXAMPLE_SITUATION)
def combat_support(req: CombatSupportRequest, dice: Dice) -> CheckResult:
    g = data.game()
    sit = situation(req, g)
    chit, steps = resolve_chit(g, req, dice)
    steps += fleet_steps(req, sit)
    a, d = both_supports(g, req, sit, chit, side_support(g, req, sit, "attacking"), side_support(g, req, sit, "defending"))
    defense, tsteps = terrain_defense(g, req, sit["terrain"])
    steps += a.steps + d.steps + tsteps
    return CheckResult(outcome={"chit": chit.id, "attacker": a.to_json(), "defender": d.to_json(),
                                "attacker_modifier": chit.modifier + a.total, "defender_modifier": d.total + defense,
                                "terrain_defense": defense,
                                "road_bonus_tank_cost": 1 if req.road_bonus else 0},
                       steps=steps, warnings=_warnings(g, sit))


def quality_applies(markers: set[str], won: bool) -> int:
    """The spread change a side's quality markers make (5.4.2): the owner picks when both exist."""
    if not markers:
        return 0
    options = []
    if "elite" in markers:
        options.append(1 if won else -1)
    if "poor" in markers:
        options.append(-1 if won else 1)
    # the owner chooses: a winner wants the larger spread, a loser the smaller one
    return max(options) if won else min(options)


def _quality_rolls(req: CombatRequest, attacker: str, defender: str, a_roll: tuple[int, int],
                   d_roll: tuple[int, int], steps: list[Step]) -> tuple[dict[str, set], list[dict]]:
    """Special rolls (5.4.2): a natural 1 or the die's highest face places a quality marker, effective at
    once: (each role's quality markers in this combat, the markers placed). Rolls are (roll, die)."""
    quality = {"attacker": set(req.attacking.quality), "defender": set(req.defending.quality)}
    placed = []
    for role, (roll, die), model in (("attacker", a_roll, req.attacking), ("defender", d_roll, req.defending)):
        side = attacker if role == "attacker" else defender
        kind = "poor" if roll == 1 else ("elite" if roll == die else None)
        if kind is None:
            continue
        name = {("poor", "un"): "Poor", ("poor", "communist"): "Penal", ("elite", "un"): "Elite", ("elite", "communist"): "Guards"}[(kind, side)]
        if model.unmarked_units < 1:
            steps.append(Step(f"{role.capitalize()} rolled a natural {roll}, but no participating unit is without a quality "
                              f"marker: no {name} marker.", "5.4.2 Special Rolls"))
            continue
        quality[role].add(kind)
        placed.append({"side": side, "marker": name})
        article = "an" if name[:1].lower() in "aeiou" else "a"
        steps.append(Step(f"{role.capitalize()} rolled a natural {roll}: place {article} {name} marker on one of his "
                          "participating units without a quality marker; it counts in this combat.", "5.4.2 Special Rolls"))
    return quality, placed


def _random_event(g, req: CombatRequest, chit, dice: Dice, roll: int, supports: tuple, level_changes: dict,
                  warnings: list[str], steps: list[Step]) -> tuple[dict, bool, Any, Any]:
    """Both dice the same: a Random Event (5.5), its effects at once: (the event as the outcome says it,
    whether the radio failed, the attacker's and the defender's support after it)."""
    attacker, defender = req.attacker, data.other_side(req.attacker)
    att, dfd = supports
    ev = events.roll_random_event(g, chit.re, dice)
    event_out = {"table": ev.table, "roll": ev.roll, "text": ev.text, "kind": ev.kind}
    steps.append(Step(f"Both dice show {roll}: Random Event, Table {ev.table}, D10 = {ev.roll}: {ev.text}.",
                      "5.5 Random Events"))
    if ev.kind == "antitank_ambush":
        att = replace(att, tank_level=max(0, att.tank_level - 1))
        level_changes["attacker"]["tank"] -= 1
        steps.append(Step("The attacker's tank support level drops by 1, at once (this combat too).", "5.5 Table A 2"))
    elif ev.kind == "ambush":
        level_changes["attacker"]["replacements"] -= 1
        if req.attacker_replacements == 0:
            warnings.append("Ambush: the attacker has no replacements to lose.")
        steps.append(Step("The attacker's replacements drop by 1.", "5.5 Table A 3"))
    elif ev.kind == "radio_failure":
        return event_out, True, att, dfd
    elif ev.kind == "news_reporters":
        colour = attacker if ev.who == "attacker" else defender
        event_out["objective_marker"] = colour
        steps.append(Step(f"Place a revealed {data.SIDE_NAMES[colour]} Objective marker on the combat hex.", "5.5; 12.1.3"))
    elif ev.kind == "snafu":
        att, dfd = _snafu(g, ev, attacker, defender, (att, dfd), event_out, dice, warnings, steps)
    return event_out, False, att, dfd


def _snafu(g, ev, attacker: str, defender: str, supports: tuple, event_out: dict, dice: Dice, warnings: list[str],
           steps: list[Step]) -> tuple[Any, Any]:
    """A SNAFU chit drawn (5.5): an ammo or fuel marker on a lead unit changes this combat's support;
    another face gives a re-roll right. (The attacker's and the defender's support after it.)"""
    att, dfd = supports
    placer = attacker if ev.who == "attacker" else defender
    draw = events.draw_snafu(g, placer, dice)
    event_out["snafu"] = draw.to_json()
    steps.append(events.describe_snafu(draw))
    owner_role = "attacker" if draw.side == attacker else "defender"
    owner = att if owner_role == "attacker" else dfd
    if draw.kind in ("ammo", "fuel"):
        on_lead = draw.harsh or owner.adjacent_units == 0
        if on_lead:
            markers = events.combine_supply_marker(set(owner.lead_markers), draw.kind, out=draw.harsh)
            owner = replace(owner, lead_markers=frozenset(markers))
            steps.append(Step(f"It goes on the {owner_role}'s {'declaring' if owner_role == 'attacker' else 'defending'} "
                              "unit and counts for the support of this combat.", "6.1; 8.3"))
        else:
            steps.append(Step(f"The {owner_role} places it on a supporting unit: no effect on this combat's support.",
                              "6.1; 8.3"))
        event_out["snafu"]["on_lead_unit"] = on_lead
        return (owner, dfd) if owner_role == "attacker" else (att, owner)
    beneficiary = owner_role if not draw.harsh else ("defender" if owner_role == "attacker" else "attacker")
    warnings.append(f"{draw.face} on the {owner_role}'s lead unit: the {beneficiary} may re-roll "
                    f"the {owner_role}'s combat die once (voluntary; repeat the check with the new die).")
    event_out["snafu"]["reroll_right"] = beneficiary
    return att, dfd


@register_check(system="fireandice", name="combat", request=CombatRequest, random=True,
                summary="Resolve one combat: chit, support, dice, random events, quality, spread", rule="5.0; 8.0",
                actor=named_side("attacker", rule="5.0", what="the attacking side (attacker)"),
                example={**EXAMPLE_SITUATION, "dice": [1, 1, 6, 6]})
def combat(req: CombatRequest, dice: Dice) -> CheckResult:
    g = data.game()
    sit = situation(req, g)
    attacker, defender = req.attacker, data.other_side(req.attacker)
    chit, steps = resolve_chit(g, req, dice)
    steps += fleet_steps(req, sit)
    att, dfd = side_support(g, req, sit, "attacking"), side_support(g, req, sit, "defending")
    warnings = _warnings(g, sit)
    level_changes = {"attacker": {"tank": 0, "replacements": 0}, "defender": {"tank": 0}}

    who: Sides = sit["who"]
    steps = unit_steps(g, req, who) + steps

    # dice (5.4.1)
    fresh = fresh_defender(req, g)
    defender_die = 10 if (req.defender_die or ("d10" if fresh else "d6")) == "d10" else 6
    (a_roll,) = dice.roll(chit.die, purpose=f"attacker's combat die (chit {chit.id}: D{chit.die})")
    (d_roll,) = dice.roll(defender_die, purpose=f"defender's combat die (D{defender_die})")
    becomes_spent = fresh and defender_die == 10
    after = (" and becomes spent." if becomes_spent else " and stays fresh." if fresh else
             " (a spent defender rolls a D6).")
    steps.append(Step(f"Attacker rolls D{chit.die}: {a_roll}. Defender rolls D{defender_die}: {d_roll}{after}",
                      "5.4.1 Combat Dice"))

    quality, placed = _quality_rolls(req, attacker, defender, (a_roll, chit.die), (d_roll, defender_die), steps)
    event_out, radio = None, False
    if a_roll == d_roll:
        event_out, radio, att, dfd = _random_event(g, req, chit, dice, a_roll, (att, dfd), level_changes, warnings,
                                                   steps)

    # support (after the events that change it, 5.5: effects apply immediately)
    a_sup, d_sup = both_supports(g, req, sit, chit, att, dfd, radio=radio)
    steps += a_sup.steps + d_sup.steps
    defense, tsteps = terrain_defense(g, req, sit["terrain"])
    steps += tsteps

    a_total = a_roll + chit.modifier + a_sup.total
    d_total = d_roll + d_sup.total + defense
    steps.append(Step(f"Attacker: {a_roll} {chit.modifier:+d} (chit) +{a_sup.total} (support) = {a_total}.", "5.4.3"))
    steps.append(Step(f"Defender: {d_roll} +{d_sup.total} (support) {defense:+d} (terrain) = {d_total}.", "5.4.3"))

    # result (5.6)
    if a_total > d_total:
        winner, raw = "attacker", a_total - d_total
    elif d_total > a_total:
        winner, raw = "defender", d_total - a_total
    else:
        winner, raw = "defender", 1
        steps.append(Step("Tie: the attacker takes a 1 result, as if he had lost with a spread of 1.", "5.6"))
    loser = "defender" if winner == "attacker" else "attacker"
    capped = min(raw, 5)
    if raw > 5:
        steps.append(Step(f"Spread {raw} is limited to 5.", "5.6"))
    adj_w = quality_applies(quality[winner], True)
    adj_l = quality_applies(quality[loser], False)
    spread = max(0, capped + adj_w + adj_l)
    if adj_w or adj_l:
        steps.append(Step(f"Quality markers: winner {adj_w:+d}, loser {adj_l:+d} -> spread {spread}.", "5.4.2; 6.2 h"))
    winner_side = attacker if winner == "attacker" else defender
    steps.append(Step(f"The {winner} ({data.SIDE_NAMES[winner_side]}) wins; the {loser} must satisfy a spread of "
                      f"{spread} (retreats, eliminations, at most 1 replacement, at most 2 VPs) or eliminate all "
                      "participating units.", "5.6 Combat Losses and Retreat"))
    if req.road_bonus:
        level_changes["attacker"]["tank"] -= 1
        steps.append(Step("Road option: the attacker's tank support level drops by 1 at the end of the combat, "
                          "win or lose.", "5.3.1; 5.6"))
    advance = winner == "attacker" and req.combat_type != "Meeting Engagement"
    if winner == "attacker":
        steps.append(Step("If the combat hex is vacated, the declaring unit and active supporting units may advance "
                          + (f"and exploit with the chit's Adv {chit.adv} MP." if advance else
                             "- but not after a Meeting Engagement (no advance or exploitation)."), "5.7; 5.2.2"))
    if a_sup.air or d_sup.air:
        named = (a_sup.air_aircraft or []) + (d_sup.air_aircraft or [])
        steps.append(Step("Each aircraft that gave ground support" + (f" ({', '.join(named)})" if named else "")
                          + " rolls to stay on station (check stay_on_station).", "10.4.3"))
    return CheckResult(
        outcome={
            **units_outcome(who),
            "result": (f"{a_total} against {d_total}: the {data.SIDE_NAMES[winner_side]} wins, spread {spread}"),
            "flipped_spent": [who.lead_defender] if becomes_spent and who.lead_defender else [],
            "chit": {"id": chit.id, "die": chit.die, "modifier": chit.modifier, "re": chit.re, "spt": chit.spt, "adv": chit.adv},
            "attacker_roll": a_roll, "defender_roll": d_roll, "defender_die": defender_die,
            "defender_becomes_spent": becomes_spent,
            "attacker_support": a_sup.to_json(), "defender_support": d_sup.to_json(), "terrain_defense": defense,
            "attacker_total": a_total, "defender_total": d_total,
            "random_event": event_out, "quality_markers_placed": placed,
            "winner": winner, "winner_side": winner_side, "loser": loser,
            "loser_side": attacker if loser == "attacker" else defender,
            "raw_spread": raw if a_total != d_total else 0, "spread": spread,
            "quality_adjustment": {"winner": adj_w, "loser": adj_l},
            "support_used": {"attacker": {"tank": a_sup.tank, "artillery": a_sup.artillery},
                             "defender": {"tank": d_sup.tank, "artillery": d_sup.artillery}},
            "level_changes": level_changes,
            "advance_allowed": advance, "exploitation_mp": chit.adv if advance else 0,
            **_board_orders(g, req, event_out, level_changes),
        },
        steps=steps, warnings=warnings)


def _board_orders(g, req: CombatRequest, event: dict | None, level_changes: dict) -> dict:
    """What the combat orders onto the board beyond its units (`board_orders`): the News reporters'
    Objective marker on the combat hex (5.5), the attacker's tank level and replacements lowered on
    their tracks (5.3.1 road option; 5.5 Table A 2, 3)."""
    attacker = req.attacker
    event_kind = (event or {}).get("kind")
    tank_rules = [rule for rule, on in (("5.3.1 road option", req.road_bonus),
                                        ("5.5 Table A 2 Anti-tank ambush", event_kind == "antitank_ambush")) if on]
    tank_by = max(-req.level(attacker, "tank"), level_changes["attacker"]["tank"])
    lost = level_changes["attacker"]["replacements"] if req.attacker_replacements != 0 else 0
    on_hexes = [board_orders.objective_on_hex(g, event["objective_marker"], req.combat_hex)] \
        if event and event.get("objective_marker") else []
    return {"markers_on_hexes": on_hexes,
            "track_moves": board_orders.moves(
                board_orders.support_move(g, attacker, "tank", tank_by, "; ".join(tank_rules)),
                board_orders.replacements_move(g, attacker, lost, "5.5 Table A 3 Ambush; 13.2"))}


class DrawChitsRequest(CheckRequest):
    combat_type: CombatType = Field(description="Declared combat type: picks the cup (5.2.1).")
    count: Literal[1, 3] = Field(default=1, description="1, or 3 when the side draws three and chooses one "
                                                        "(first turn, Peng in winter, Ridgway, Surprise Attack: 14.4, 14.6).")


@register_check(system="fireandice", name="draw_chits", request=DrawChitsRequest, random=True,
                summary="Draw combat chits from the cup of a combat type", rule="5.2.1; 14.4; 14.6",
                actor=either_side(rule="5.2.1", why="the attacking player draws; the request does not name the sides"),
                example={"combat_type": "Hasty Attack", "count": 3, "dice": [1, 1, 1]})
def draw_chits(req: DrawChitsRequest, dice: Dice) -> CheckResult:
    g = data.game()
    cup = list(data.cup(g, req.combat_type))
    drawn, steps = [], []
    for i in range(req.count):
        (n,) = dice.roll(len(cup), purpose=f"combat chit draw {i + 1} ({len(cup)} chits left in the cup)")
        c = cup.pop(n - 1)
        drawn.append(c)
        steps.append(Step(f"Draw {i + 1}: {c.label}.", "5.2.1 Combat Chits"))
    if req.count == 3:
        steps.append(Step("Choose one; return the other two to the cup at once.", "14.4; 14.6"))
    return CheckResult(outcome={"chits": [{"id": c.id, "die": c.die, "modifier": c.modifier, "re": c.re,
                                           "spt": c.spt, "adv": c.adv} for c in drawn]},
                       steps=steps, warnings=data.stand_in_warnings(g, "table combat_chits"))
