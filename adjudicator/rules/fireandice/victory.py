"""Victory points (12.1): the zero-sum track, MacArthur's double points, the 21-VP automatic victory.

12.1.1: only one side holds VPs.  A gain by the side holding them adds; a gain by the other side
first reduces the holder's total to 0, then counts for the gainer.  21 or more at a Victory Point
Check wins at once.  14.4: while MacArthur commands, each point the UN earns counts double, and he is
relieved the moment the marker flips from blue (UN) to red (Communist); Ridgway commands from the
next month.  At the end of a scenario without an automatic victory: the scenario's `[victory]`
(19.0: the side with more VPs; at 0 the Communist).

The track is given as one signed number: positive = UN VPs, negative = Communist VPs.  Reading: the
marker at 0 is not red, so a gain that takes it from 0 (or from blue) to red relieves MacArthur.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, either_side, named_side, register_check
from adjudicator.facts import Fact, GameFacts, GameResult, register_ledger_facts, register_result
from adjudicator.rules.fireandice import board_orders, data
from adjudicator.rules.fireandice.schemas import SideId
from adjudicator.rules.gamedata import draw_at_random

RULE = "12.1.1 Tracking Victory Points"


class GainModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    side: SideId = Field(description="Who earns the points.")
    vp: int = Field(ge=1, le=21, description="Points earned.")
    reason: str = Field(default="", max_length=80, description="Why (e.g. 'Bug Out', 'MiG Alley').")


class VictoryRequest(CheckRequest):
    scenario: str = board("scenario", default=data.DEFAULT_SCENARIO, max_length=40, description="Scenario id.")
    track: int = Field(ge=-40, le=40, description="VP marker now: positive = UN VPs, negative = Communist VPs, 0 = none.")
    gains: list[GainModel] = Field(default_factory=list, max_length=20, description="Points earned, in order.")
    macarthur_commands: bool = Field(default=False, description="MacArthur commands the UN (14.4).")
    vp_check: bool = Field(default=False, description="This is the End Phase Victory Point Check (21 VPs win).")
    scenario_end: bool = Field(default=False, description="The scenario's last End Phase: apply its victory conditions.")
    game_turn: int | None = board("turn", default=None, ge=1, le=60, description=(
        "The turn the Game Turn Record Track shows: at the scenario's last, this is its last End Phase "
        "(as scenario_end)."))
    ports_communist_controlled: bool = Field(default=False, title="Every Invasion box's port Communist controlled", description="All Invasion boxes' ports are Communist "
                                                                          "controlled (13.1: automatic Communist victory).")

    @model_validator(mode="after")
    def _scenario(self, info: ValidationInfo):
        length = data.scenario(data.game_in(info), self.scenario).length
        if self.game_turn is not None and self.game_turn > length:
            raise ValueError(f"game_turn {self.game_turn}: the scenario has {length} turns")
        return self


def holder(track: int) -> str:
    return "un" if track > 0 else ("communist" if track < 0 else "none")


@register_check(system="fireandice", name="victory_points", request=VictoryRequest, random=False,
                summary="Move the zero-sum VP track; MacArthur doubling and relief; 21-VP victory", rule="12.1",
                actor=either_side(rule="12.1", why="moves the shared VP track; no die"),
                example={"track": 19,
                         "gains": [{"side": "un", "vp": 1}],
                         "macarthur_commands": True,
                         "vp_check": True})
def victory_points(req: VictoryRequest, dice: Dice) -> CheckResult:
    g = data.game()
    track = req.track
    macarthur = req.macarthur_commands
    relieved = False
    steps = [Step(f"VP marker at {abs(track)} ({'UN' if track > 0 else 'Communist' if track < 0 else 'nobody'}).", RULE)]
    for gain in req.gains:
        points = gain.vp * (2 if gain.side == "un" and macarthur else 1)
        before = track
        track += points if gain.side == "un" else -points
        steps.append(Step(f"{data.SIDE_NAMES[gain.side]} earns {gain.vp}"
                          + (f" x 2 = {points} (MacArthur)" if points != gain.vp else "")
                          + (f" ({gain.reason})" if gain.reason else "")
                          + f": marker {abs(before)} {holder(before)} -> {abs(track)} {holder(track)}.", RULE))
        if macarthur and before >= 0 and track < 0:
            macarthur = False
            relieved = True
            steps.append(Step("The marker flipped from blue to red while MacArthur commands: he is relieved at once; "
                              "Ridgway commands from the next month.", "14.4 Theater Commanders"))
    sc = data.scenario(g, req.scenario)
    v = sc.victory
    automatic = int(v.get("automatic_vp", 21))
    winner = None
    warnings: list[str] = []
    if req.ports_communist_controlled:
        winner = "communist"
        steps.append(Step("All Invasion boxes' ports are Communist controlled: automatic Communist victory.", "13.1; 16.0"))
    elif req.vp_check and abs(track) >= automatic:
        who = holder(track)
        only = v.get("automatic_winner")
        if only and only != who:
            steps.append(Step(f"{abs(track)} VPs, but in this scenario only the {data.SIDE_NAMES[only]} wins "
                              "automatically.", v.get("source", "scenario")))
        else:
            winner = who
            steps.append(Step(f"{abs(track)} VPs at a Victory Point Check: the {data.SIDE_NAMES[winner]} wins at once.",
                              "12.1.1; 3.0 C c ii"))
    scenario_end = req.scenario_end or req.game_turn == sc.length
    if scenario_end and not req.scenario_end:
        steps.append(Step(f"Turn {req.game_turn} is the scenario's last: this is its last End Phase.",
                          v.get("source", "scenario victory conditions")))
    if winner is None and scenario_end:
        if v.get("otherwise_winner"):
            winner = v["otherwise_winner"]
        elif track == 0:
            winner = v.get("tie_winner")
            if winner is None:
                warnings.append("The scenario names no winner with the VP marker at 0.")
        else:
            winner = holder(track)
        steps.append(Step(f"End of the scenario: {v.get('text', '')} -> "
                          + (f"the {data.SIDE_NAMES[winner]} wins." if winner else "no winner stated."),
                          v.get("source", "scenario victory conditions")))
    return CheckResult(outcome={"track": track, "holder": holder(track), "vp": abs(track),
                                "macarthur_relieved": relieved, "macarthur_commands": macarthur, "winner": winner,
                                "scenario_end": scenario_end,
                                "track_moves": board_orders.moves(board_orders.vp_move(g, req.track, track))},
                       steps=steps, warnings=warnings)


def _whose(track: int) -> str:
    return data.SIDE_NAMES.get(holder(track), "nobody's")


@register_ledger_facts("fireandice", "victory_points")
def ledger_facts(scenario: str, records: list[tuple[int, dict]], ledger_board, side: str | None) -> GameFacts:
    """The VP track is where the last ruling of it left it (12.1.1), and so is the UN's commander:
    MacArthur, once relieved, never commands again (14.4): neither is the player's to state again."""
    last = next(((seq, body) for seq, body in reversed(records) if body.get("check") == "fireandice.victory_points"),
                None)
    if last is None:
        return GameFacts()
    seq, body = last
    outcome = (body.get("result") or {}).get("outcome") or {}
    values = {"track": Fact(outcome.get("track"), f"record #{seq} left the VP marker at {outcome.get('vp')} "
                                                  f"({_whose(outcome.get('track') or 0)}) ({RULE})")}
    relieved = next((s for s, b in records if b.get("check") == "fireandice.victory_points"
                     and ((b.get("result") or {}).get("outcome") or {}).get("macarthur_relieved")), None)
    if relieved is not None:
        values["macarthur_commands"] = Fact(False, f"MacArthur was relieved by record #{relieved} (14.4 Theater "
                                                   "Commanders)")
    elif outcome.get("macarthur_commands"):
        values["macarthur_commands"] = Fact(True, f"record #{seq} left MacArthur in command; only the marker "
                                                  "flipping to red relieves him (14.4 Theater Commanders)")
    return GameFacts(values)


@register_result("fireandice", "victory_points")
def game_result(request: dict, outcome: dict) -> GameResult | None:
    """12.1.1 / 13.1 / the scenario's conditions: a ruling names a winner only at a Victory Point Check
    with 21 VPs, all ports Communist, or the scenario's end."""
    winner = outcome.get("winner")
    if winner is None:
        return None
    if request.get("ports_communist_controlled"):
        how = "every Invasion box's port Communist controlled (13.1)"
    elif request.get("scenario_end") or outcome.get("scenario_end"):
        how = f"the scenario's end with the VP marker at {outcome.get('vp')} ({_whose(outcome.get('track') or 0)})"
    else:
        how = f"{outcome.get('vp')} VPs at a Victory Point Check (12.1.1)"
    return GameResult(winner, f"{data.SIDE_NAMES.get(winner, winner)} victory: {how}")


# -- Objective markers (12.1.3) ---------------------------------------------------------------------


class ObjectiveDrawRequest(CheckRequest):
    side: SideId = board("side", description="Whose Objective marker is drawn (the colour placed).")
    out_of_pool: dict[str, int] = Field(default_factory=dict,
                                        description="Markers of this side already on the map, by value "
                                                    "('1', '3', '5') -> how many (they are not in the pool).")
    count: int = Field(default=1, ge=1, le=6, description="Markers drawn (16.0 setup: six).")

    @model_validator(mode="after")
    def _pool(self, info: ValidationInfo):
        pool = objective_pool(data.game_in(info), self.side, self.out_of_pool)
        if len(pool) < self.count:
            raise ValueError(f"only {len(pool)} Objective markers left in the pool (12.1.3: the player then loses 1 VP)")
        return self


def objective_pool(g, side: str, out: dict[str, int]) -> list[int]:
    """The side's Objective markers not on the map, one entry per marker (markers.csv counts)."""
    pool: list[int] = []
    for m in g.markers.values():
        if m.kind == "objective" and m.side == side:
            value = int(m.faces[-1])
            pool += [value] * m.count
    for value, n in out.items():
        for _ in range(n):
            try:
                pool.remove(int(value))
            except ValueError:
                raise ValueError(f"there are not that many {value}-VP Objective markers") from None
    return sorted(pool)


@register_check(system="fireandice", name="objective_draw", request=ObjectiveDrawRequest, random=True,
                summary="Draw Objective markers at random from a side's pool (values hidden until revealed)",
                rule="12.1.3",
                actor=named_side("side", rule="12.1.3", what="the side whose Objective markers are drawn (side)"),
                example={"side": "communist", "count": 6, "dice": [1, 1, 1, 1, 1, 1]})
def objective_draw(req: ObjectiveDrawRequest, dice: Dice) -> CheckResult:
    g = data.game()
    pool = objective_pool(g, req.side, req.out_of_pool)
    drawn = draw_at_random(pool, req.count, dice, lambda n, left: f"Objective marker draw {n} ({left} in the pool)")
    steps = [Step(f"Draw {n}: a {data.SIDE_NAMES[req.side]} Objective marker (value kept hidden until revealed).",
                  "12.1.3 Placing/Removing/Claiming Objective Markers") for n in range(1, req.count + 1)]
    return CheckResult(outcome={"values": drawn},
                       steps=steps,
                       warnings=data.stand_in_warnings(g, *(f"marker {m.id}" for m in g.markers.values()
                                                            if m.kind == "objective" and m.side == req.side)))
