"""Request parts shared by several SPI Korea checks (pydantic, documented fields)."""

from __future__ import annotations

from typing import Literal

SideName = Literal["communist", "un"]
ScenarioName = Literal["invasion", "intervention", "stalemate", "campaign"]

#: Hex labels of the SPI map are CCRR (scenarios/data/spi/maps/korea.toml).
HEX_PATTERN = r"^\d{4}$"


def unique(values: list) -> bool:
    return len(values) == len(set(values))
