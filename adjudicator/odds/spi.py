"""SPI Korea: The Mobile War: what the odds of its checks with dice compare and count.

Combat losses are regiments (Combat (J)): each regiment taken, three for a division taken from an
Army (its 10-4 breaks down into three 3-4s), and every regiment of a unit destroyed by Dx or Ax.
"""

from __future__ import annotations

from typing import Any

from adjudicator.odds.declare import declare, fields
from adjudicator.rules.spi import data, losses


def loss_report(report: dict | None) -> dict | None:
    if report is None:
        return None
    return {"eliminated": sorted(report["eliminated"]), "remaining": sorted(report["remaining"]),
            "unabsorbed": report["unabsorbed"]}


def regiments_lost(report: dict | None) -> int:
    if report is None:
        return 0
    if report["regiments_lost"] or report["divisions_from_armies"] or report["remaining"] or report["unabsorbed"]:
        return report["regiments_lost"] + 3 * report["divisions_from_armies"]
    g = data.game()  # Dx/Ax: every unit destroyed whole
    return sum(losses.regiments(g, data.values_text(data.unit(g, u))) for u in report["eliminated"])


def combat_losses(request: Any, o: dict) -> dict[str, int]:
    g = data.game()
    attacking = data.unit(g, request.attackers[0].unit).side
    defending = data.unit(g, request.defenders[0].unit).side
    return {attacking: regiments_lost(o["attacker_losses"]), defending: regiments_lost(o["defender_losses"])}


declare(
    "spi.combat",
    distinct=lambda o: {"result": o["cell"], "defender_losses": loss_report(o["defender_losses"]),
                        "attacker_losses": loss_report(o["attacker_losses"]),
                        "defender_retreat_hexes": o["defender_retreat_hexes"], "bridge_blown": o["bridge_blown"],
                        "entrenched_counters_removed": o["entrenched_counters_removed"]},
    label=lambda d: d["result"],
    headline=lambda given: f"{given['odds']} on the {given['table']} table" if "odds" in given else "",
    losses=combat_losses,
    loss_unit="regiments",
)

declare(
    "spi.north_edge_return",
    distinct=fields("second_10_3_arrives_now", "second_10_3_arrives", "second_10_3_placement"),
    label=lambda d: f"arrives {d['second_10_3_arrives']}",
)
