"""HoldFast Korea: what the odds of its checks with dice compare and count.

Combat (9.2) rolls two pools of d6 at once. A die does one of a few things, whatever its face:
it misses every block it is rolled against, or it reaches the hit numbers up to some block's, and
a Communist 6 also goes to the Marine block (or, against Communist armor support, a UN
defender's 6 also lowers the armor level). So the faces of a pool fall into those kinds
(`die_kinds`), and the pool is tried once per multiset of kinds, since its hits are counted, not
read in order - except against blocks of different hit numbers, where the owner's hit order
reads the dice in turn: then once per sequence of kinds. Losses are SP.
"""

from __future__ import annotations

from typing import Any, Callable

from adjudicator.odds import faces
from adjudicator.odds.declare import declare, fields
from adjudicator.odds.faces import Option, RollCall
from adjudicator.rules.holdfast import combat, data
from adjudicator.rules.holdfast.schemas import Block

ATTACKER_DICE = "attacker combat dice"  # combat.roll_pools' purposes
DEFENDER_DICE = "defender combat dice"
SIX = combat.SIX


def die_kinds(targets: set[int], six_counts: bool) -> Callable[[int], tuple]:
    """What a face does against blocks of these hit numbers: which it reaches, and whether a 6 counts twice."""
    ordered = sorted(targets)
    return lambda face: (tuple(face >= t for t in ordered), six_counts and face == SIX)


def combat_pools(request: Any, call: RollCall) -> list[Option] | None:
    if call.purpose not in (ATTACKER_DICE, DEFENDER_DICE):
        return None
    s = combat.validated_situation(request, data.game())
    if call.purpose == ATTACKER_DICE:
        targets, rolled_by = [s.defender], s.attacker_side
        armor_six = False
    else:
        targets, rolled_by = s.attackers, s.defender_side
        armor_six = s.attacker_side == "communist" and "armor" in s.attacker_support
    marine_six = rolled_by == "communist" and any(t.marines for t in targets)
    hit_numbers = {t.target for t in targets}
    return faces.pool(call, die_kinds(hit_numbers, marine_six or armor_six), ordered=len(hit_numbers) > 1)


def blocks_of(request: Any, block: Block) -> set[str]:
    """A block and the blocks it may swap to as it loses SP (3)."""
    g = data.game()
    return {data.lose_sp(g, request.scenario, block.unit, block.sp, hits).block for hits in range(block.sp)}


def assault_pools(request: Any, call: RollCall) -> list[Option] | None:
    """A naval assault's rounds: the UN block against the Communist one, whichever blocks they have become."""
    if call.purpose not in (ATTACKER_DICE, DEFENDER_DICE) or request.defender is None:
        return None
    g = data.game()
    un_blocks = blocks_of(request, request.attacker)
    communist_blocks = blocks_of(request, request.defender)
    if call.purpose == ATTACKER_DICE:
        targets = {data.unit_chart(g, b).target for b in communist_blocks}
        return faces.pool(call, die_kinds(targets, False))
    targets = {data.unit_chart(g, b).target for b in un_blocks}
    marines = any(data.is_marines(g, data.unit(g, b)) for b in un_blocks)
    return faces.pool(call, die_kinds(targets, marines))


def block_after(after: dict | None) -> dict | None:
    if after is None:
        return None
    return {"block": after["block"], "sp": after["sp"], "eliminated": after["eliminated"]}


def block_text(after: dict) -> str:
    if after["eliminated"]:
        return f"{after['block']} eliminated"
    return f"{after['block']} {after['sp']} SP"


def combat_label(d: dict) -> str:
    losses = [f"{a['unit']} eliminated" if a["eliminated"] else f"{a['unit']} -{a['hits']} SP"
              for a in [d["defender"], *d["attackers"]] if a["hits"]]
    armor = f"; Communist armor {d['communist_armor_level']}" if "communist_armor_level" in d else ""
    return (", ".join(losses) or "no losses") + armor


def combat_losses(request: Any, o: dict) -> dict[str, int]:
    return {o["attacker_side"]: o["hits_absorbed_by_attackers"],
            data.other_side(o["attacker_side"]): o["hits_absorbed_by_defender"]}


def assault_label(d: dict) -> str:
    if d["occupies_port"]:
        return f"port taken ({block_text(d['attacker'])})"
    if d["broke_off"]:
        return f"broke off ({block_text(d['attacker'])}; {block_text(d['defender'])})"
    return f"assault destroyed ({block_text(d['defender'])})" if d["attacker"]["eliminated"] else \
        f"{block_text(d['attacker'])}; {block_text(d['defender'])}"


def assault_losses(request: Any, o: dict) -> dict[str, int]:
    lost = {"un": request.attacker.sp - o["attacker"]["sp"]}
    if request.defender is not None and o["defender"] is not None:
        lost["communist"] = request.defender.sp - o["defender"]["sp"]
    return lost


def combat_outcome(o: dict) -> dict:
    """Each block's hits and what it shows after; the Communist armor level where its armor attacked."""
    distinct = {
        "attackers": [{"unit": a["unit"], "hits": a["hits"], **block_after(a)} for a in o["attackers"]],
        "defender": {"unit": o["defender"]["unit"], "hits": o["defender"]["hits"], **block_after(o["defender"])}}
    if o["attacker_side"] == "communist" and "armor" in o["support_used"].get("communist", []):
        distinct["communist_armor_level"] = o["communist_armor_level"]
    return distinct


declare(
    "holdfast.combat",
    distinct=combat_outcome,
    label=combat_label,
    headline=lambda given: (f"{given['attacker_dice']} dice against {given['defender_dice']}"
                            if "attacker_dice" in given else ""),
    losses=combat_losses,
    loss_unit="SP",
    options=combat_pools,
)

declare(
    "holdfast.naval_assault",
    distinct=lambda o: {"occupies_port": o["occupies_port"], "broke_off": o["broke_off"],
                        "attacker": block_after(o["attacker"]), "defender": block_after(o["defender"])},
    label=assault_label,
    losses=assault_losses,
    loss_unit="SP",
    options=assault_pools,
    # Each run fights every round until a block falls: few runs, and a sample for the long fights.
    exact_runs=80,
    samples=80,
)

declare(
    "holdfast.chinese_intervention",
    distinct=fields("intervenes", "chinese_units_placed", "chinese_unit_sp", "communist_rp_per_turn"),
    label=lambda d: "the Chinese intervene" if d["intervenes"] else "no intervention",
)

declare(
    "holdfast.weather",
    distinct=fields("weather", "air_support", "mp_modifier"),
    label=lambda d: d["weather"],
)
