"""Which Special Game Rules are in force on a given Game-Turn (read from the scenario TOMLs).

- Intervention Game, first three Game-Turns (Special Game Rules: Intervention (1)-(4)):
  (1) Communist units are in supply at all times; (2) no cost to leave enemy ZOCs in the First
  Movement Phases; (3) in the Combat Phases a) Communist strengths doubled when attacking, b) their
  losses against non-Korean UN units not doubled (Armies still lose divisions), c) no doubling in
  Rough; (4) Chinese units enter entirely Rough hexes for 1 MP in the Second Movement Phases.
- Campaign Game, Chinese Shock Effect: "Intervention Special Game Rules #1-4 comprise the Shock
  Effect rule, and should be used for three Game Turns, beginning with the Game Turn that the
  Communist Player declares" (re-assembled OCR). The caller says whether the Shock turns are running
  (the `shock_effect` check computes them).
- Invasion Game rule (1) is lost from the text; the data's stand-in reading (invasion_rule_1) keeps
  Communist units in supply on Game-Turns 1-3 of the Invasion (and Campaign) Game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.rules.spi import data
from scenarios.model import Game, Source

RULE_INTERVENTION = "Special Game Rules: Intervention (1)-(4)"
RULE_SHOCK = "Campaign Game: Chinese Shock Effect"


@dataclass
class InForce:
    """The special rules in force at one moment, with where each comes from."""

    communist_always_supplied: bool = False
    free_zoc_exit_first_phase: bool = False
    communist_attack_doubled: bool = False
    communist_loss_doubling: bool = True
    rough_doubling: bool = True
    chinese_rough_at_one: bool = False
    rule: str = ""
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _turns(g: Game, scenario_id: str, rule: str, key: str = "turns") -> list[int]:
    return list(data.special(g, scenario_id, rule).get(key, []))


def in_force(g: Game, scenario_id: str, game_turn: int | None, shock_effect_active: bool = False) -> InForce:
    """The special rules in force on `game_turn` of `scenario_id` (ValueError for an impossible claim)."""
    data.scenario(g, scenario_id)
    if game_turn is not None:
        data.turn_record(g, scenario_id, game_turn)
    state = InForce()
    if shock_effect_active and scenario_id != "campaign":
        raise ValueError("the Chinese Shock Effect is a Campaign Game rule (Campaign Game: Chinese Shock Effect); "
                         f"the {scenario_id} game uses its own special rules")
    shock = False
    if scenario_id == "intervention" and game_turn is not None:
        shock = game_turn in _turns(g, scenario_id, "chinese_combat_shock")
        if shock:
            state.rule = RULE_INTERVENTION
            state.notes.append(f"Intervention Game-Turn {game_turn}: Special Game Rules (1)-(4) are in force")
    elif scenario_id == "campaign" and shock_effect_active:
        shock = True
        state.rule = RULE_SHOCK
        state.notes.append("Campaign Game Shock Effect turn: Intervention Special Game Rules (1)-(4) are in force")
    if shock:
        src = "intervention"
        combat = data.special(g, src, "chinese_combat_shock")
        state.communist_always_supplied = True
        state.free_zoc_exit_first_phase = True
        state.communist_attack_doubled = int(combat.get("communist_attack_multiplier", 1)) > 1
        state.communist_loss_doubling = bool(combat.get("communist_loss_doubling", True))
        state.rough_doubling = bool(combat.get("rough_doubling", True))
        state.chinese_rough_at_one = True
    rule1 = data.special(g, scenario_id, "invasion_rule_1")
    if rule1 and game_turn is not None and game_turn in rule1.get("communist_always_supplied_turns", []):
        state.communist_always_supplied = True
        source = Source(str(rule1.get("source", "")))
        state.notes.append(f"Game-Turn {game_turn}: Invasion Special Game Rule (1) as read by the data - "
                           "Communist units are in supply at all times")
        if source.is_stand_in:
            state.warnings.append(f"Invasion Special Game Rule (1) is lost from the text: {source}")
        # The data's source is the citation: a maintainer who restores the rule's text names its section.
        state.rule = state.rule or ("Special Game Rules: Invasion (1) (stand-in reading)" if source.is_stand_in
                                    else str(source) or "Special Game Rules: Invasion (1)")
    return state
