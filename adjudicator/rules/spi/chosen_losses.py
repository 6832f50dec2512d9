"""The defender's own choice of which of his units lose a combat's regiments (Combat (J)).

Combat (J): "D1, D2, D3 - defending unit(s) lose one, two, or three regiments; units may be broken
down to remove the exact losses". The book names no chooser, so each player takes his own losses
(`adjudicator.rules.spi.losses`). A combat the attacker asks against a stack whose owner has not
said which units lose them leaves the choice open (its outcome's ``defender_losses_to_choose``,
owed by the defender: the server has no default the rules give). He makes it here, in his next
file or at the board: his units in that hex in the order they lose regiments, the combat's record
naming how many regiments (Combat (K) doubling included) and which units stood there. The losses
are then taken as the combat takes them (breakdowns place counters not in play, Stacking & Unit
Breakdown), and the survivors retreat as the combat's Pursuit table ordered.

Check `combat_losses`.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, register_check, side_label
from adjudicator.facts import Fact, GameFacts, Refused, register_follow_up, register_offered_once
from adjudicator.rules.spi import data, losses
from adjudicator.rules.spi.combat import in_order
from adjudicator.rules.spi.schemas import ScenarioName

RULE = "Combat (J), (K); Stacking & Unit Breakdown"
COMBAT, LOSSES = "spi.combat", "spi.combat_losses"


class ChosenLossesRequest(CheckRequest):
    """The defender's units in the order they lose a combat's regiments."""

    scenario: ScenarioName = board("scenario", description="Game played: a scenario id of the data.")
    combat_record: int | None = Field(default=None, ge=1, title="The combat these losses settle", description=(
        "The record (#N in the chat) of the combat whose losses the defender chooses, in a recorded game: how many "
        "regiments, doubled or not, and which units stood in the hex are read from it. Left out: the last combat "
        "whose losses wait for the defender's choice (one the unit pointed at defended in)."))
    unit: str | None = board("unit", default=None, max_length=60, description=(
        "The unit whose menu asked ('Combat losses' on one of the defending units)."))
    losses_from: list[str] = Field(min_length=1, max_length=12, title="Losses taken from", description=(
        "Your units in the defending hex, in the order they lose regiments: a division named first is broken down "
        "first (Combat (J)); units left out follow in the order the combat listed them."))
    regiments: int | None = Field(default=None, ge=1, le=6, description=(
        "The CRT losses to take (D2 = 2); a recorded game reads them from the combat's record."))
    doubled: bool = Field(default=False, description="Combat (K) doubles them (a recorded game: from the combat).")
    units: list[str] = Field(default_factory=list, max_length=12, description=(
        "The units that defended the hex (a recorded game: from the combat's record); left out: losses_from."))
    retreat_hexes: int = Field(default=0, ge=0, le=6, description=(
        "Hexes the survivors retreat (the combat's Pursuit table; a recorded game reads it from the record)."))
    counters_not_in_play: list[str] | None = board("counters_not_in_play", default=None, max_length=300, description=(
        "The counters lying in the sides' boxes of counters not in play: what a breakdown places on the hex."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        if self.regiments is None:
            raise ValueError("give the regiments to lose (a recorded game reads them from the combat's record: "
                             "combat_record)")
        for unit in self.losses_from + self.units:
            data.unit(g, unit)
        stood = set(self.units or self.losses_from)
        strays = [u for u in self.losses_from if u not in stood]
        if strays:
            raise ValueError(f"{', '.join(strays)} did not defend the hex of this combat")
        if len({data.unit(g, u).side for u in stood}) > 1:
            raise ValueError("the defending units are of one side")
        return self


@register_follow_up("spi", "combat_losses")
def losses_owed(records: list[tuple[int, dict[str, Any]]], request: dict[str, Any]) -> GameFacts:
    """What the combat whose losses wait for the defender establishes: the regiments, their doubling,
    the units that defended and the survivors' retreat. The combat is the record the request names,
    else the last combat still waiting whose defending units include the unit pointed at (or the first
    of `losses_from`)."""
    settled = {body["request"].get("combat_record"): seq for seq, body in records
               if body.get("check") == LOSSES and isinstance(body.get("request"), dict)}
    named = request.get("combat_record")
    if named is not None:
        body = next((b for seq, b in records if seq == named), None)
        if body is None or _owed(body) is None:
            raise Refused("/combat_record", f"record {named} is no combat whose losses wait for the defender's choice")
        if named in settled:
            raise Refused("/combat_record", f"the losses of the combat of record {named} were chosen by record "
                                            f"{settled[named]}")
        return _facts_of(named, _owed(body))
    listed = request.get("losses_from")
    pointed = request.get("unit") or (listed[0] if isinstance(listed, list) and listed else None)
    for seq, body in reversed(records):
        owed = _owed(body)
        if owed is not None and seq not in settled and (pointed is None or pointed in owed.get("units", [])):
            return _facts_of(seq, owed)
    if request.get("regiments") is None:
        raise Refused("/combat_record", "no combat of this game waits for these units' losses: name the combat's record")
    return GameFacts()


@register_offered_once("spi", "combat_losses")
def losses_to_the_defender(scenario: str, records: list[tuple[int, dict[str, Any]]], side: str | None) -> str | None:
    """Combat (J): the defending units lose the regiments, and their owner chooses which: a recorded game
    offers the choice to a side only while a combat owes it his units' losses (the observer: while any
    combat does), never to the attacker who won them."""
    settled = {body["request"].get("combat_record") for seq, body in records
               if body.get("check") == LOSSES and isinstance(body.get("request"), dict)}
    g = data.game()
    for seq, body in records:
        owed = _owed(body)
        if owed is None or seq in settled:
            continue
        if side is None or any(u in g.units and g.units[u].side == side for u in owed.get("units") or ()):
            return None
    whose = f"the {side_label(side)}'s" if side else "any"
    return f"no combat waits for {whose} units' losses to be chosen (Combat (J): the defender takes them)"


def _owed(body: dict[str, Any]) -> dict[str, Any] | None:
    if body.get("check") != COMBAT:
        return None
    owed = ((body.get("result") or {}).get("outcome") or {}).get("defender_losses_to_choose")
    return owed if isinstance(owed, dict) else None


def _facts_of(seq: int, owed: dict[str, Any]) -> GameFacts:
    why = f"the combat of record {seq}"
    return GameFacts({
        "combat_record": Fact(seq, f"these losses settle {why}"),
        "regiments": Fact(owed.get("regiments"), f"{why} cost the defender {owed.get('regiments')} loss(es) (Combat (J))"),
        "doubled": Fact(bool(owed.get("doubled")),
                        f"{why}: Combat (K) doubling {'applies' if owed.get('doubled') else 'does not apply'}"),
        "units": Fact(owed.get("units") or [], f"the units that defended {owed.get('hex', 'the hex')} in {why}"),
        "retreat_hexes": Fact(owed.get("retreat_hexes") or 0, f"{why}'s Pursuit table retreat"),
    })


@register_check(system="spi", name="combat_losses", request=ChosenLossesRequest, random=False,
                summary="The defender chooses which of his units lose a combat's regiments",
                rule="Combat (J), (K); Stacking & Unit Breakdown",
                actor=data.owner("the defending units (each player takes his own losses)", "Combat (J)",
                                 lambda r: list(r.losses_from)),
                example={"scenario": "stalemate", "losses_from": ["nk-d1"], "units": ["nk-d1", "nk-d2"],
                         "regiments": 2})
def combat_losses(req: ChosenLossesRequest, dice: Dice) -> CheckResult:
    g = data.game()
    order = in_order(list(req.units or req.losses_from), req.losses_from)
    spares = losses.Spares(g, losses.spares_of(g, req.counters_not_in_play, set(order)))
    report = losses.take_losses(g, order, req.regiments or 0, req.doubled, spares)
    steps = [Step(f"The defender takes {req.regiments} loss(es) in regiments{' (doubled)' if req.doubled else ''} from "
                  f"his units in the order he chose: {', '.join(order)}"
                  + (f" (the combat of record {req.combat_record})" if req.combat_record else "") + ".", RULE)]
    detail = "; ".join(report.notes)
    steps.append(Step(f"Defender loses: {', '.join(report.eliminated) or 'nothing'}" + (f" ({detail})" if detail else "")
                      + (f"; left: {', '.join(report.remaining)}" if report.remaining else "; nothing left") + ".", RULE))
    retreats = [{"unit": u, "retreat_hexes": req.retreat_hexes} for u in report.remaining] if req.retreat_hexes else []
    if retreats:
        steps.append(Step(f"Pursuit table: the surviving defenders retreat {req.retreat_hexes} hex(es).", "Combat (J)"))
    warnings = []
    if report.missing_counters:
        warnings.append(f"No counter not in play is left for {', '.join(report.missing_counters)}: place a counter of "
                        "those values by hand (Stacking & Unit Breakdown).")
    return CheckResult(outcome={"combat_record": req.combat_record, "defender_losses": report.to_json(),
                                "retreats": retreats}, steps=steps, warnings=warnings)
