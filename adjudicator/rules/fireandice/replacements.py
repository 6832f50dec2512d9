"""Rebuilding eliminated units (13.2).

"To bring an eliminated unit (or cadre) back to play, spend one replacement point and take any other
unit out of the Replacements box and place it in the Destroyed Units box. Then the chosen unit ...
may enter as a reinforcement on the next Reinforcement Placement subphase. ... Chinese and UN
replacements may be used for any nationality of their side. Nation specific replacements can only be
used for the respective nation."  (3.0 B 4 b: it enters on a friendly supply source.)

Reading: the generic tracks are 'un' (UN) and 'prc' (the Chinese/PRC track, generic for the
Communist side, markers.csv); a rebuild needs a second unit of the same side in the Replacements box.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, register_check
from adjudicator.rules.fireandice import data

GENERIC = {"un": "un", "prc": "communist"}


class RebuildRequest(CheckRequest):
    unit: str = board("unit", max_length=60, description="The eliminated unit (or cadre) to bring back.")
    destroyed_unit: str = Field(max_length=60, description="Another unit moved from the Replacements box to the "
                                                           "Destroyed Units box.")
    replacement_kind: Literal["us", "rok", "un", "nk", "prc", "su"] = Field(
        description="The replacement track spent: 'un' / 'prc' are generic for their side; the others only for "
                    "their nation.")
    replacement_points: int = Field(ge=0, le=19, description="Points on that track now.")
    replacements_box: list[str] = Field(min_length=2, max_length=100,
                                        description="Every unit now in the side's Replacements box.")

    @model_validator(mode="after")
    def _legal(self, info: ValidationInfo):
        g = data.game_in(info)
        u, other = data.unit(g, self.unit), data.unit(g, self.destroyed_unit)
        for x in self.replacements_box:
            data.unit(g, x)
        if self.unit not in self.replacements_box or self.destroyed_unit not in self.replacements_box:
            raise ValueError("both units must be in the Replacements box (13.2)")
        if self.unit == self.destroyed_unit:
            raise ValueError("the unit moved to the Destroyed Units box must be ANOTHER unit (13.2)")
        if u.side != other.side:
            raise ValueError("both units must be of the same side")
        kind = self.replacement_kind
        if kind in GENERIC:
            if GENERIC[kind] != u.side:
                raise ValueError(f"{kind} replacements are the other side's")
        elif kind != u.nationality:
            raise ValueError(f"{kind} replacements can only rebuild {kind} units; {u.id} is {u.nationality} (13.2)")
        if self.replacement_points < 1:
            raise ValueError("no replacement point left on that track")
        return self


@register_check(system="fireandice", name="rebuild", request=RebuildRequest, random=False,
                summary="Rebuild an eliminated unit: 1 replacement point and another unit to the Destroyed box",
                rule="13.2",
                actor=data.owner("the unit rebuilt", "13.2", lambda r: [r.unit]),
                units=data.OFF_THE_MAP,
                example={"unit": "nk-1",
                         "destroyed_unit": "nk-2",
                         "replacement_kind": "nk",
                         "replacement_points": 3,
                         "replacements_box": ["nk-1", "nk-2"]})
def rebuild(req: RebuildRequest, dice: Dice) -> CheckResult:
    g = data.game()
    u = data.unit(g, req.unit)
    steps = [Step(f"Spend 1 {req.replacement_kind.upper()} replacement point ({req.replacement_points} -> "
                  f"{req.replacement_points - 1}) and move {req.destroyed_unit} to the Destroyed Units box (it comes "
                  "back only through Foreign Aid).", "13.2 Replacements"),
             Step(f"{u.id} ({u.name}) enters at the next Reinforcement Placement subphase on a friendly supply source.",
                  "13.2; 3.0 B 4 b")]
    return CheckResult(outcome={"rebuilt": u.id, "destroyed": req.destroyed_unit,
                                "replacement_points_left": req.replacement_points - 1}, steps=steps)
