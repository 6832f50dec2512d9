"""Request parts shared by several Korean War Battles checks (pydantic, documented fields)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from adjudicator.checks import board
from adjudicator.rules.gamedata import scenario_id

SideName = Literal["communist", "un"]
#: A scenario of the game data (scenarios/*.toml): a maintainer's new scenario needs no code.
ScenarioName = scenario_id("kwb")

HEX_PATTERN = r"^\d{4}$"


class UnitInCombat(BaseModel):
    """One unit taking part in a combat: which counter, which side is showing, where it stands."""

    model_config = ConfigDict(extra="forbid")

    unit: str = board("unit", min_length=1, max_length=60, description="Unit id from units.csv, e.g. 'nk-6', "
                      "'prc-reg-3', 'us-5-1m'.")
    step: Literal["", "full", "depleted"] = board("step", default="", description="Side showing: '' or 'full' = full "
                                                  "strength, 'depleted' = the depleted side (2.3.1).")
    hex: str = board("hex", pattern=HEX_PATTERN, description="Hex the unit stands in, as printed (XXYY).")

    @property
    def shown(self) -> str:
        """The step as the data names it for lookups: '' (full strength) or 'depleted'."""
        return "" if self.step == "full" else self.step


class Defender(UnitInCombat):
    revealed_as: str | None = Field(default=None, min_length=1, max_length=60, description=(
        "Only for a Scratch Unit still face down ('? 4', e.g. 'nk-scratch-7'): the counter it turns out to be when "
        "its hex is attacked (12.21), e.g. 'nk-scratch-c-1'. In a recorded game leave it out: the adjudicator draws "
        "it from the order it committed to when the game was created. In a calculation: the counter you drew."))


class Attacker(UnitInCombat):
    doubled: bool = Field(default=False, description="Intensive attack (7.1, Communist only): this unit's "
                          "Attack Strength is doubled. Chosen before support fire is declared.")
    in_supply: bool = Field(default=True, description="Whether the unit traces supply now (9.0; use the "
                            "`supply` check). Out of supply: Attack Strength halved, fractions rounded up (9.1).")


def unique(values: list) -> bool:
    return len(values) == len(set(values))
