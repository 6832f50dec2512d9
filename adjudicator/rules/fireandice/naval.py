"""The 7th Fleet (11.0): amphibious invasion and its bombardment.

11.3.1: the UN may launch one invasion per game, in a non-winter turn, into an Invasion box of the
sea zone where the 7th Fleet is (Yellow Sea: Inch'on, Kunsan; Sea of Japan: Pusan, Kangnung - table
`fleet_stations` / `invasion_boxes`).  One amphibious point per unit moved from the Sea Transport box
(one HQ free).  Then the UN may bombard each enemy unit within 2 hexes of the box's port: D10 <= the
FULL bombardment level (no -2) sends it to the Replacements box.

Reading: one D10 per enemy unit ("He rolls a D10 and if he rolls ... the enemy unit is placed in the
Replacements box"; the digest notes a single roll as the alternative).  The enemy units within 2
hexes are taken from `positions` when given (the map decides), otherwise from `enemy_units`.
"""

from __future__ import annotations

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board as board_field, register_check, the_side
from adjudicator.rules.fireandice import board, data
from adjudicator.rules.positions import PositionModel

RULE = "11.3.1 Invasions"


class InvasionRequest(CheckRequest):
    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO, max_length=40,
                                description="Scenario id (its map).")
    box: str = Field(max_length=40, description="Invasion box id, e.g. 'invasion-inchon' (table invasion_boxes).")
    fleet_station: str = Field(max_length=20, description="Where the 7th Fleet is: 'Yellow Sea' or 'Sea of Japan'.")
    units: list[str] = Field(min_length=1, max_length=30, description="Units and HQs moved from the Sea Transport box.")
    amphibious_points: int = Field(ge=0, le=19, description="The UN's amphibious level before the invasion.")
    bombardment_level: int = Field(default=0, ge=0, le=19, description="The UN's bombardment level (used in full).")
    winter: bool = Field(default=False, description="A winter turn (no invasion).")
    invasions_so_far: int = Field(default=0, ge=0, le=1, description="Amphibious invasions already made this game.")
    enemy_units: list[str] = Field(default_factory=list, max_length=30,
                                   description="Enemy units within 2 hexes of the port (if positions are not given).")
    positions: list[PositionModel] = board_field(
        "positions", default_factory=list, max_length=300,
        description="Units on the map: the enemy units within 2 hexes of the port are found from them.")

    @model_validator(mode="after")
    def _legal(self, info: ValidationInfo):
        g = data.game_in(info)
        plan(g, self)
        return self


def plan(g, req: InvasionRequest) -> dict:
    """Validate the invasion (11.3.1) and return its port, cost and bombardment targets."""
    if req.winter:
        raise ValueError("no amphibious invasion in a winter turn (11.3.1)")
    if req.invasions_so_far:
        raise ValueError("only one amphibious invasion may be launched per game (11.3.1)")
    boxes = data.table(g, "invasion_boxes")
    try:
        row = boxes.row(req.box)
    except KeyError:
        raise ValueError(f"unknown Invasion box {req.box!r}; known: {', '.join(r['box'] for r in boxes.rows)}") from None
    stations = data.table(g, "fleet_stations")
    try:
        station = stations.row(req.fleet_station)
    except KeyError:
        raise ValueError(f"unknown Sea Station {req.fleet_station!r}") from None
    if req.box not in station["invasion_boxes"].split():
        raise ValueError(f"with the 7th Fleet in the {req.fleet_station} Station the UN may invade only "
                         f"{station['invasion_boxes']} (11.3.1)")
    hqs = [u for u in req.units if data.unit(g, u).type == "hq"]
    for u in req.units:
        if data.unit(g, u).side != "un":
            raise ValueError(f"{u} is not a UN unit")
    cost = len(req.units) - (1 if hqs else 0)
    if len(hqs) > 1:
        raise ValueError("one HQ may join the invasion (free); more HQs cannot")
    if cost > req.amphibious_points:
        raise ValueError(f"the invasion needs {cost} amphibious points, the UN has {req.amphibious_points} (11.3.1)")
    gm = g.maps[data.scenario(g, req.scenario).maps[0]]
    port = board.parse(gm, row["port_hex"])
    if req.positions:
        targets = []
        for p in req.positions:
            u = data.unit(g, p.unit)
            if u.side == "communist" and u.type not in ("hq", "aircraft") and gm.grid.distance(port, board.parse(gm, p.hex)) <= 2:
                targets.append(p.unit)
    else:
        targets = list(req.enemy_units)
        for u in targets:
            if data.unit(g, u).side != "communist":
                raise ValueError(f"{u} is not a Communist unit")
    return {"port": row["port_hex"], "name": row["name"], "cost": cost, "targets": targets}


@register_check(system="fireandice", name="amphibious_invasion", request=InvasionRequest, random=True,
                summary="Amphibious invasion: legality, amphibious points, bombardment of units near the port",
                rule="11.3.1",
                actor=the_side("un", rule="11.0 (naval power is the UN's); 11.3.1"),
                example={"box": "invasion-inchon",
                         "fleet_station": "Yellow Sea",
                         "units": ["us-1mar-1", "un-hq-x"],
                         "amphibious_points": 8,
                         "bombardment_level": 6,
                         "enemy_units": ["nk-18"],
                         "dice": [3]})
def amphibious_invasion(req: InvasionRequest, dice: Dice) -> CheckResult:
    g = data.game()
    p = plan(g, req)
    steps = [Step(f"Invasion into the {p['name']} box (port {p['port']}) with the 7th Fleet in the {req.fleet_station} "
                  f"Station: {len(req.units)} units, {p['cost']} amphibious point(s) (one HQ free); amphibious level "
                  f"{req.amphibious_points} -> {req.amphibious_points - p['cost']}.", RULE)]
    hits = []
    for u in p["targets"]:
        (roll,) = dice.roll(10, purpose=f"bombardment of {u} (needs {req.bombardment_level} or less)")
        hit = roll <= req.bombardment_level
        if hit:
            hits.append(u)
        steps.append(Step(f"{u} within 2 hexes of the port: D10 {roll} vs bombardment {req.bombardment_level} (no -2): "
                          + ("to the Replacements box." if hit else "no effect."), RULE))
    if not p["targets"]:
        steps.append(Step("No enemy unit within 2 hexes of the port: no bombardment.", RULE))
    steps.append(Step("Units in the box: unlimited stacking, an LoC, 1 MP to the port; all but one attacker count as "
                      "supporting units. The campaign game's UN Surprise Attack applies this turn.", "11.3.1; 14.6"))
    return CheckResult(outcome={"port": p["port"], "amphibious_points_spent": p["cost"],
                                "amphibious_points_left": req.amphibious_points - p["cost"],
                                "bombarded": p["targets"], "to_replacements": hits},
                       steps=steps,
                       warnings=data.stand_in_warnings(g, f"map {data.scenario(g, req.scenario).maps[0]}")
                       if req.positions else [])
