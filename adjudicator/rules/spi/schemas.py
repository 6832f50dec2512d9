"""Request parts shared by several SPI Korea checks (pydantic, documented fields)."""

from __future__ import annotations

from typing import Literal

from adjudicator.rules.gamedata import scenario_id

SideName = Literal["communist", "un"]
#: A scenario of the game data (scenarios/*.toml): a maintainer's new scenario needs no code.
ScenarioName = scenario_id("spi")

#: Hex labels of the SPI map are CCRR (scenarios/data/spi/maps/korea.toml).
HEX_PATTERN = r"^\d{4}$"


def unique(values: list) -> bool:
    return len(values) == len(set(values))
