"""Korean War Battles victory: points by each scenario's schedule and the level on the 11.0 scale.

11.0 "At the end of the scenario, deduct the total UN VPs from the total Communist VPs and apply the
difference to this scale": > 31 Decisive Communist / 21 30 Tactical Communist / 10 20 Pyrrhic
Communist / 0 10 Tactical UN / < 0 Decisive UN.

The schedules are DATA: `[[victory.communist]]` / `[[victory.un]]` in scenarios/<id>.toml (12.1.3,
12.22 VICTORY, 12.32); each entry is scored by what it carries:
- `match` (+ "deadpile" in `per`): units in the deadpile at the end that match a selector;
  Changjin's first entry also counts optional reinforcements taken by the UN (`optional_units_taken_by`).
- `match` + "withdrawn" in `per` (Changjin UN): units withdrawn during play, optional reinforcements excluded.
- `places` (Pusan Taegu/Masan/Pusan, Seoul Inchon): occupied at any time (each place once).
- `feature_kind = "city"` (Seoul): 5 per city hex the Communists occupy at the end.
- `unit` + "overdue" (Pusan): points per turn the unit is overdue for withdrawal.
- "unable to trace a supply line" (Changjin): per UN unit out of supply at the end (use `supply`).
- `optional_units_taken_by` alone (Changjin UN): per optional reinforcement the Communist player took.
- `points_formula` (Seoul): (14 - turn) x 3 once, for the turn Seoul is first cleared (the
  `seoul_cleared` check judges a position: at least one UN unit and no Communist regiment-size or
  larger unit in the capital city hexes — the map's city hexes named Seoul; reading of "any capital
  city-hex or hexes north of the Han River"; alternative `every_hex`: all of them UN-held).

The victory scale as printed leaves D = 31 in no band and puts D = 10 in two (tables/victory_levels.csv
transcribes it literally). Resolution, applied from the table data and stated in every result:
a difference in no band belongs to the band just above it (the printed '> 31' read as '>= 31'); a
difference in two bands belongs to the lower one (bands read 21-30, 11-20, 0-10: each band ends where
the next begins, as 21-30 does). So 31 = Decisive Communist Victory, 10 = Tactical UN Victory.
Alternative (tables/victory_levels.csv header): 10 = Pyrrhic Communist, with Tactical UN 0-9.

Overdue withdrawals (Pusan 12.1.1): a unit due on turn T and withdrawn on turn W is overdue for W - T
turns; never withdrawn, for (last turn + 1) - T turns. The 17th ROK's due turn is the chart's (turn 20,
special_rules.withdrawal.due_turn); `withdrawal_due` = "text" uses the rule text's turn 16.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, SituationError, Step, board, either_side, register_check
from adjudicator.facts import Fact, GameFacts, GameResult, register_ledger_facts, register_result
from adjudicator.rules.endgame import eliminated_fact
from adjudicator.rules.kwb import board as kb
from adjudicator.rules.kwb import data
from adjudicator.rules.kwb.schemas import ScenarioName, unique
from adjudicator.rules.positions import PositionModel, UnitAt
from scenarios.model import Game, Table, Unit

#: The victory scale's own section: a scenario's schedule is cited by the rest of its `[victory]` source.
SCALE = "11.0"


def schedule_rule(sc) -> str:
    """The section of a scenario's victory schedule: its `[victory]` source less the 11.0 scale
    ("12.1.3; 11.0" -> "12.1.3"), so a scenario a maintainer adds cites its own."""
    parts = [p.strip() for p in str(sc.victory.get("source", "")).split(";")]
    return "; ".join(p for p in parts if p and p != SCALE) or SCALE


def scores(sc, test) -> bool:
    """Whether any entry of the scenario's victory schedule passes `test` (what a field can score)."""
    return any(test(e) for side in ("communist", "un") for e in sc.victory.get(side, []))


# -- the scale -------------------------------------------------------------------------------------


def _bound(text: str) -> int | None:
    text = (text or "").strip()
    return int(text) if text else None


def victory_level(levels: Table, difference: int) -> tuple[dict, list[str]]:
    """The band of `difference` on the victory scale, and the notes when the printed scale had to be
    resolved (no band, or two bands)."""
    rows = list(levels.rows)

    def contains(r) -> bool:
        low, high = _bound(r["low"]), _bound(r["high"])
        return (low is None or difference >= low) and (high is None or difference <= high)

    hits = [r for r in rows if contains(r)]
    if len(hits) == 1:
        return dict(hits[0]), []
    if len(hits) > 1:
        chosen = min(hits, key=lambda r: _bound(r["high"]) if _bound(r["high"]) is not None else 10**9)
        printed = " and ".join(f"'{r['printed']}' ({r['level']})" for r in hits)
        return dict(chosen), [f"As printed, {difference} is in two bands, {printed}; resolved to the lower band, "
                              f"{chosen['level']} (bands read as ending where the next begins, like '21 30')."]
    above = [r for r in rows if _bound(r["low"]) is not None and _bound(r["low"]) > difference]
    chosen = min(above, key=lambda r: _bound(r["low"]))
    return dict(chosen), [f"As printed, {difference} falls in no band; resolved to the band just above it, "
                          f"'{chosen['printed']}' read as including {difference}: {chosen['level']}."]


def seoul_clearing_vp(entry: dict, turn: int) -> int:
    """12.22: '14 minus the game-turn number, multiplied by 3' (cleared at the end of turn 10: 12)."""
    return (int(entry["formula_turns"]) - turn) * int(entry["formula_multiplier"])


# -- matching units --------------------------------------------------------------------------------


def matches(u: Unit, selectors: list[dict]) -> bool:
    """A unit matches a `match` list when every key of one alternative holds."""
    for alt in selectors:
        ok = True
        for key, allowed in alt.items():
            if key == "flags":
                ok = ok and any(u.has(f) for f in allowed)
            else:
                ok = ok and getattr(u, key) in allowed
        if ok:
            return True
    return False


class VictoryRequest(CheckRequest):
    """The end-of-game position a scenario's victory schedule scores (12.1.3, 12.22, 12.32; 11.0)."""

    scenario: ScenarioName = board("scenario", description="Scenario id.")
    deadpile: list[str] = Field(default_factory=list, max_length=200, description=(
        "Every unit in either deadpile at the end of the game (unit ids), burned/expended Supply Centers included."))
    places_occupied: list[str] = Field(default_factory=list, max_length=6, description=(
        "Pusan: places the Communists occupied at any time ('Taegu', 'Masan', 'Pusan'). Seoul: 'Inchon' if an "
        "in-supply Communist regiment-size unit occupied a hex of Inchon after game-turn 5."))
    withdrawn_on_turn: dict[str, int] = Field(default_factory=dict, description=(
        "Pusan: the game-turn each required unit (us-5-1m, rok-17) or its permitted substitute was withdrawn; "
        "a unit not listed was never withdrawn."))
    withdrawal_due: Literal["chart", "text"] = Field(default="chart", description=(
        "Pusan reading: 'chart' = 17th ROK due turn 20 (reinforcement chart); 'text' = turn 16 (12.1.1 text)."))
    city_hexes_occupied: list[str] = Field(default_factory=list, max_length=20, description=(
        "Seoul: city hexes the Communists occupy at the end of the game (5 VP each)."))
    seoul_cleared_on_turn: int | None = Field(default=None, ge=1, le=14, description=(
        "Seoul: the game-turn at whose end Seoul was first cleared (UN VP (14 - turn) x 3, once)."))
    un_units_out_of_supply: int = Field(default=0, ge=0, le=60, description=(
        "Changjin: UN units unable to trace a supply line at the end (3 VP each; use the `supply` check)."))
    withdrawn: list[str] = Field(default_factory=list, max_length=40, description="Changjin: UN units withdrawn off the south edge.")
    optional_taken: list[str] = Field(default_factory=list, max_length=7, description=(
        "Changjin: optional reinforcements taken (unit ids, either side)."))
    game_turn: int | None = board("turn", default=None, ge=1, le=40, description=(
        "The game-turn the turn track shows: at the scenario's last, the score is the game's result; before it, "
        "the score so far (11.0 'at the end of the scenario')."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        validate_victory(g, self)
        return self


def _places(sc) -> list[str]:
    return [p for side in ("communist", "un") for e in sc.victory.get(side, []) for p in e.get("places", [])]


def validate_victory(g: Game, req: VictoryRequest) -> None:
    sc = data.scenario(g, req.scenario)
    for uid in req.deadpile + req.withdrawn + req.optional_taken + list(req.withdrawn_on_turn):
        data.unit(g, uid)
    for name, ids in (("deadpile", req.deadpile), ("withdrawn", req.withdrawn), ("optional_taken", req.optional_taken)):
        if not unique(ids):
            raise ValueError(f"{name} lists a unit twice")
    allowed = _places(sc)
    for p in req.places_occupied:
        if p not in allowed:
            raise ValueError(f"{p!r} scores nothing in {sc.name}; places: {', '.join(allowed) or 'none'}")
    if req.game_turn is not None and req.game_turn > sc.length:
        raise ValueError(f"game_turn {req.game_turn}: {sc.name} has {sc.length} game-turns")
    withdrawal = data.special(g, req.scenario, "withdrawal")
    for uid, turn in req.withdrawn_on_turn.items():
        if uid not in withdrawal.get("units", []):
            raise ValueError(f"withdrawn_on_turn: {uid} is not a unit {sc.name} requires to withdraw")
        if not 1 <= turn <= sc.length:
            raise ValueError(f"withdrawn_on_turn: turn {turn} is not a game-turn of {sc.name}")
    gm = data.scenario_map(g, req.scenario)
    if req.city_hexes_occupied and not scores(sc, lambda e: e.get("feature_kind") == "city"):
        raise ValueError(f"city_hexes_occupied scores nothing in {sc.name}: only in a schedule that scores city hexes "
                         "(the Battle for Seoul, 12.22)")
    for x in req.city_hexes_occupied:
        if not kb.is_city(gm, kb.parse(gm, x)):
            raise ValueError(f"{x} is not a city hex of map {gm.id}")
    if req.seoul_cleared_on_turn is not None and not scores(sc, lambda e: "points_formula" in e):
        raise ValueError(f"seoul_cleared_on_turn scores nothing in {sc.name}: only in the Battle for Seoul (12.22)")
    changjin = (("un_units_out_of_supply", lambda e: "supply line" in e.get("per", "")),
                ("withdrawn", lambda e: "withdrawn" in e.get("per", "")),
                ("optional_taken", lambda e: "optional_units_taken_by" in e))
    for name, test in changjin:
        if getattr(req, name) and not scores(sc, test):
            raise ValueError(f"{name} scores nothing in {sc.name}: un_units_out_of_supply, withdrawn and optional_taken "
                             "score only in Changjin (12.32)")
    optional = data.special(g, req.scenario, "optional_reinforcements")
    for uid in req.optional_taken:
        if uid not in optional.get("communist", []) + optional.get("un", []):
            raise ValueError(f"{uid} is not an optional reinforcement (12.3)")
    for uid in req.withdrawn:
        if data.unit(g, uid).side != "un":
            raise ValueError(f"only UN units are withdrawn (12.3); {uid} is not")


def score(g: Game, req: VictoryRequest) -> CheckResult:
    sc = data.scenario(g, req.scenario)
    rule = schedule_rule(sc)
    steps: list[Step] = []
    totals = {"communist": 0, "un": 0}
    lines: list[dict] = []
    dead = [data.unit(g, u) for u in req.deadpile]
    optional = data.special(g, req.scenario, "optional_reinforcements")
    withdrawal = data.special(g, req.scenario, "withdrawal")
    for side in ("communist", "un"):
        for entry in sc.victory.get(side, []):
            count, points, detail = _score_entry(g, req, entry, side, dead, optional, withdrawal)
            if points:
                totals[side] += points
                lines.append({"side": side, "text": entry["text"], "count": count, "points": points, "detail": detail})
                steps.append(Step(f"{side}: {points} VP — {entry['text']}" + (f" ({detail})" if detail else ""), rule))
    difference = totals["communist"] - totals["un"]
    steps.append(Step(f"Communist {totals['communist']} - UN {totals['un']} = {difference}.", "11.0"))
    levels = data.table(g, sc.victory.get("levels_table", "victory_levels"))
    band, notes = victory_level(levels, difference)
    steps.append(Step(f"Victory level: {band['level']} (band '{band['printed']}'). Resolution of the printed scale: "
                      "a difference in no band (31) takes the band above; one in two bands (10) takes the lower.", "11.0"))
    warnings = list(notes)
    if req.game_turn is not None and req.game_turn < sc.length:
        warnings.append(f"Game-turn {req.game_turn} is before {sc.name}'s last ({sc.length}): this is the score so far; "
                        "the victory level is decided at the end of the scenario (11.0).")
    if req.city_hexes_occupied:
        warnings += data.map_warnings(g, data.scenario_map(g, req.scenario).id)
    return CheckResult(outcome={"communist_vp": totals["communist"], "un_vp": totals["un"], "difference": difference,
                                "level": band["level"], "band": band["printed"], "scale_resolved": bool(notes),
                                "lines": lines, "track_moves": vp_markers(g, totals)}, steps=steps, warnings=warnings)


#: The VP track and each side's marker on it (game.toml, markers.csv: stand-ins, as the book prints no track).
VP_TRACK, VP_MARKERS = "vp", {"communist": "vp-communist", "un": "vp-un"}


def vp_markers(g: Game, totals: dict[str, int]) -> list[dict]:
    """Each side's VP marker onto the cell of its running total (11.0: the book keeps running totals; the
    module's stand-in track holds them, the marker's "+50" side for a total of 50 or more), in the shape
    `adjudicator.ruled_orders.track_orders` reads: an order every reader of the ruling sees."""
    track = g.tracks.get(VP_TRACK)
    out = []
    for side, marker_id in VP_MARKERS.items():
        marker = g.markers.get(marker_id)
        if track is None or marker is None or not marker.faces:
            continue
        total, cells = totals[side], len(track.cells)
        if total // cells >= len(marker.faces):
            continue  # more than the track and the marker's sides can show
        # the asker moves both: the markers are the game's bookkeeping, neither side's hidden piece
        out.append({"track": VP_TRACK, "marker": marker_id, "marker_name": marker.name, "to": track.cells[total % cells],
                    "face": marker.faces[total // cells], "side": "", "rule": "11.0 Victory points"})
    return out


def _score_entry(g: Game, req: VictoryRequest, entry: dict, side: str, dead: list[Unit], optional: dict,
                 withdrawal: dict) -> tuple[int, int, str]:
    """(count, points, detail) of one schedule entry."""
    pts = int(entry.get("points", 0))
    per = entry.get("per", "")
    if "points_formula" in entry:
        if req.seoul_cleared_on_turn is None:
            return 0, 0, ""
        vp = seoul_clearing_vp(entry, req.seoul_cleared_on_turn)
        return 1, vp, (f"cleared at the end of game-turn {req.seoul_cleared_on_turn}: "
                       f"({entry['formula_turns']} - {req.seoul_cleared_on_turn}) x {entry['formula_multiplier']}")
    if "match" in entry and "withdrawn" in per:
        excluded = set(optional.get("un", []))
        units = [u for u in req.withdrawn if u not in excluded and matches(data.unit(g, u), entry["match"])]
        return len(units), len(units) * pts, ", ".join(units)
    if "match" in entry:
        units = [u.id for u in dead if matches(u, entry["match"])]
        taker = entry.get("optional_units_taken_by")
        if taker:
            units += [u for u in req.optional_taken if u in optional.get(taker, [])]
        return len(units), len(units) * pts, ", ".join(units)
    if entry.get("optional_units_taken_by"):
        units = [u for u in req.optional_taken if u in optional.get(entry["optional_units_taken_by"], [])]
        return len(units), len(units) * pts, ", ".join(units)
    if "places" in entry:
        hit = [p for p in entry["places"] if p in req.places_occupied]
        return len(hit), len(hit) * pts, ", ".join(hit)
    if entry.get("feature_kind") == "city":
        n = len(set(req.city_hexes_occupied))
        return n, n * pts, ", ".join(sorted(set(req.city_hexes_occupied)))
    if "unit" in entry and "overdue" in per:
        uid = entry["unit"]
        due = int(withdrawal.get("due_turn", {}).get(uid, withdrawal.get("turn", 0)))
        if req.withdrawal_due == "text":
            due = int(withdrawal.get("due_turn_alternative", {}).get(uid, due))
        last = data.scenario(g, req.scenario).length
        turn = req.withdrawn_on_turn.get(uid)
        overdue = max(0, (turn if turn is not None else last + 1) - due)
        when = f"withdrawn on turn {turn}" if turn is not None else "never withdrawn"
        reading = ""
        if uid in withdrawal.get("due_turn_alternative", {}):
            reading = (" (chart reading; the 12.1.1 text says turn "
                       f"{withdrawal['due_turn_alternative'][uid]}: withdrawal_due='text')" if req.withdrawal_due == "chart"
                       else " (12.1.1 text reading; the chart says turn "
                       f"{withdrawal.get('due_turn', {}).get(uid)})")
        return overdue, overdue * pts, f"due turn {due}{reading}, {when}: {overdue} turn(s) overdue"
    if "supply line" in per:
        n = req.un_units_out_of_supply
        return n, n * pts, f"{n} UN unit(s) out of supply"
    return 0, 0, ""


@register_check(system="kwb", name="victory", request=VictoryRequest, random=False,
                summary="Victory points by the scenario's schedule and the victory level (11.0 scale resolved)",
                rule="11.0, 12.1.3, 12.22, 12.32",
                actor=either_side(rule="11.0", why="the score of the final position; no die"),
                example={"scenario": "seoul", "seoul_cleared_on_turn": 10})
def victory(req: VictoryRequest, dice: Dice) -> CheckResult:
    return score(data.game(), req)


# -- 12.22 Seoul cleared -----------------------------------------------------------------------------

REGIMENT_OR_LARGER = ("III", "X", "XX", "XXX")


class SeoulClearedRequest(CheckRequest):
    """Whether Seoul is cleared at the end of a game-turn, and the once-only award (12.22 VICTORY)."""

    scenario: ScenarioName = board("scenario", default="seoul", description=(
        "Scenario id: one whose victory schedule has the clearing award (Battle for Seoul's)."))
    game_turn: int = board("turn", ge=1, le=14, description="The game-turn that is ending.")
    positions: list[PositionModel] = board("positions", min_length=1, max_length=200,
                                           description="Every unit on the Seoul map, both sides.")
    awarded_on_turn: int | None = Field(default=None, ge=1, le=14, description=(
        "The turn the award was already made, if it was ('This award is made only once')."))
    every_hex: bool = Field(default=False, description=(
        "Reading switch: True = every capital city hex must hold a UN unit (alternative reading); default: at least one."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        clearing_award(g, self.scenario)
        kb.Board.from_positions(g, data.scenario_map(g, self.scenario), [UnitAt.from_model(p) for p in self.positions])
        if self.awarded_on_turn is not None and self.awarded_on_turn > self.game_turn:
            raise ValueError("awarded_on_turn is after the turn that is ending")
        return self


def clearing_award(g: Game, scenario_id: str) -> dict:
    """The scenario's clearing award (12.22: its UN victory entry with a `points_formula`); ValueError
    when its victory schedule has none."""
    entry = next((e for e in data.scenario(g, scenario_id).victory.get("un", []) if "points_formula" in e), None)
    if entry is None:
        raise ValueError(f"{data.scenario(g, scenario_id).name} has no clearing award in its victory schedule "
                         f"(scenarios/{scenario_id}.toml): this check does not apply to it")
    return entry


def capital_hexes(gm, capital: str = "Seoul") -> list:
    """The capital's city hexes: the map's city hexes named as the award's `capital` (12.22: Seoul;
    the book prints none)."""
    return sorted({f.hex for f in gm.features if f.kind == "city" and f.name.strip().lower() == capital.lower()})


def seoul_cleared(g: Game, req: SeoulClearedRequest) -> CheckResult:
    gm = data.scenario_map(g, req.scenario)
    b = kb.Board.from_positions(g, gm, [UnitAt.from_model(p) for p in req.positions])
    entry = clearing_award(g, req.scenario)
    name = str(entry.get("capital", "Seoul"))
    cited = str(data.scenario(g, req.scenario).victory.get("source", "12.22 VICTORY")).split(";")[0].strip()
    capital = capital_hexes(gm, name)
    if not capital:
        raise SituationError(f"the {gm.id} map has no city hexes named {name}: the capital cannot be judged")
    labels = [gm.grid.label(h) for h in capital]
    un_in = [gm.grid.label(h) for h in capital if b.occupied_by(h, "un")]
    red = [p.at.unit for h in capital for p in b.by_hex.get(h, [])
           if p.unit.side == "communist" and p.unit.size in REGIMENT_OR_LARGER and not data.is_supply_center(p.unit)]
    held = len(un_in) == len(capital) if req.every_hex else bool(un_in)
    cleared = held and not red
    steps = [Step(f"Capital city hexes (city hexes named {name} on the map): {', '.join(labels)}. UN units in "
                  f"{', '.join(un_in) or 'none'}; Communist regiment-size or larger units there: {', '.join(red) or 'none'}.",
                  cited),
             Step(("Cleared" if cleared else "Not cleared") + f" at the end of game-turn {req.game_turn}"
                  + (" (reading: every capital hex must hold a UN unit)." if req.every_hex
                     else " (reading: at least one UN unit in a capital hex)."), cited)]
    vp = 0
    if cleared and req.awarded_on_turn is None:
        vp = seoul_clearing_vp(entry, req.game_turn)
        steps.append(Step(f"Award: ({entry['formula_turns']} - {req.game_turn}) x {entry['formula_multiplier']} = {vp} UN VP, "
                          f"once; it stays even if {name} is lost later.", cited))
    elif req.awarded_on_turn is not None:
        steps.append(Step(f"The award was already made on turn {req.awarded_on_turn}: nothing more.", cited))
    return CheckResult(outcome={"cleared": cleared, "un_vp": vp, "capital_hexes": labels, "un_in": un_in,
                                "communist_regiments_in": red},
                       steps=steps, warnings=data.map_warnings(g, gm.id))


def _awards_seoul_clearing(scenario_id: str) -> bool:
    """The scenarios whose victory schedule awards Seoul's clearing (12.22): the data says so, not
    the scenario's id, so a scenario added with that award gets the check."""
    g = data.game()
    return scenario_id in g.scenarios and scores(g.scenarios[scenario_id], lambda e: "points_formula" in e)


@register_check(system="kwb", name="seoul_cleared", request=SeoulClearedRequest, random=False,
                summary="Is Seoul cleared at the end of this turn? The once-only (14 - turn) x 3 UN award",
                rule="12.22 VICTORY", scenario_rule=(_awards_seoul_clearing, "a Seoul-cleared award in its victory schedule"),
                actor=either_side(rule="12.22 VICTORY",
                                  why="it reads the position at the end of the game-turn; no die"),
                example={"scenario": "seoul", "game_turn": 10, "positions": [{"unit": "us-1-1m", "hex": "1305"}]})
def seoul_cleared_check(req: SeoulClearedRequest, dice: Dice) -> CheckResult:
    return seoul_cleared(data.game(), req)


# -- what the ledger establishes at the end, and the result ---------------------------------------


@register_ledger_facts("kwb", "victory", "seoul_cleared")
def ledger_facts(scenario: str, records: list[tuple[int, dict]], ledger_board, side: str | None) -> GameFacts:
    """A recorded game's victory: every unit its rulings eliminated is in the deadpile (the player
    adds what the ledger never ruled on: a burned Supply Center), and the Seoul clearing award a
    ruling made (12.22 "only once") is that ruling's turn."""
    g = data.game()
    values: dict[str, Fact] = {}
    gone = eliminated_fact(ledger_board, "11.0: units in the deadpile at the end", known=lambda u: u in g.units,
                           system="kwb", side=side)
    if gone is not None:
        values["deadpile"] = gone
    for seq, body in records:
        outcome = (body.get("result") or {}).get("outcome") or {}
        if body.get("check") == "kwb.seoul_cleared" and outcome.get("cleared") and outcome.get("un_vp"):
            turn = (body.get("request") or {}).get("game_turn")
            why = f"record #{seq} found Seoul cleared at the end of game-turn {turn} and made the award (12.22 VICTORY)"
            values["seoul_cleared_on_turn"] = Fact(turn, why)
            values["awarded_on_turn"] = Fact(turn, why)
            break
    return GameFacts(values)


@register_result("kwb", "victory")
def game_result(request: dict, outcome: dict) -> GameResult | None:
    """11.0: the level names the side ("Decisive UN Victory", "Pyrrhic Communist victory")."""
    level = str(outcome.get("level") or "")
    if not level:
        return None
    winner = "communist" if "communist" in level.lower() else "un" if " un " in f" {level.lower()} " else None
    return GameResult(winner, f"{level}: Communist {outcome.get('communist_vp')} VP, UN {outcome.get('un_vp')} VP")
