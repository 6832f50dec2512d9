"""Which Special Game Rules are in force on a given Game-Turn, read from the scenario's data.

Every rule is a `[special_rules.<name>]` table of the scenario (scenarios/<id>.toml) with its `turns`,
its parameters and its `source`, which is what the rulings cite: a scenario a maintainer adds with a
copy of one of these tables gets the rule, on the turns its copy gives.

- The Intervention Game's Special Game Rules (1)-(4), each a table of its own:
  `communist_always_supplied` (1) Communist units are in supply at all times;
  `free_zoc_exit` (2) no cost to leave enemy ZOCs in the First Movement Phases;
  `chinese_combat_shock` (3) in the Combat Phases a) Communist strengths multiplied when attacking,
  b) their losses against non-Korean UN units not doubled (Armies still lose divisions), c) no
  doubling in Rough; `chinese_rough_movement` (4) Chinese units enter entirely Rough hexes for
  `entire_rough_cost` MP in the Second Movement Phases.
- Campaign Game, Chinese Shock Effect (`chinese_shock_effect`): "Intervention Special Game Rules #1-4
  comprise the Shock Effect rule, and should be used for three Game Turns, beginning with the Game
  Turn that the Communist Player declares" (re-assembled OCR): its `rules` are in force on the turns
  the caller says the Shock Effect runs (the `shock_effect` check computes them), with the parameters
  of the scenario its data names (`rules_from`).
- Invasion Game rule (1) is lost from the text; the data's stand-in reading (`invasion_rule_1`) keeps
  Communist units in supply on Game-Turns 1-3 of the Invasion (and Campaign) Game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.rules.spi import data
from scenarios.model import Game, Source

#: The Intervention Game's Special Game Rules (1)-(4), as the data names them.
ALWAYS_SUPPLIED, FREE_ZOC_EXIT, COMBAT_SHOCK, ROUGH_MOVEMENT = (
    "communist_always_supplied", "free_zoc_exit", "chinese_combat_shock", "chinese_rough_movement")
TURN_RULES = (ALWAYS_SUPPLIED, FREE_ZOC_EXIT, COMBAT_SHOCK, ROUGH_MOVEMENT)
SHOCK_EFFECT = "chinese_shock_effect"


@dataclass
class InForce:
    """The special rules in force at one moment, with where each comes from."""

    communist_always_supplied: bool = False
    free_zoc_exit_first_phase: bool = False
    communist_attack_multiplier: int = 1
    communist_loss_doubling: bool = True
    rough_doubling: bool = True
    chinese_entire_rough_cost: int | None = None  # rule (4): MP to enter an entirely Rough hex
    #: special rule name -> the citation of the rule in force (its data's `source`)
    sources: dict[str, str] = field(default_factory=dict)
    rule: str = ""
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def cite(self, name: str) -> str:
        return self.sources.get(name, "")


def in_force(g: Game, scenario_id: str, game_turn: int | None, shock_effect_active: bool = False) -> InForce:
    """The special rules in force on `game_turn` of `scenario_id` (ValueError for an impossible claim)."""
    sc = data.scenario(g, scenario_id)
    if game_turn is not None:
        data.turn_record(g, scenario_id, game_turn)
    state = InForce()
    shock = data.special(g, scenario_id, SHOCK_EFFECT)
    if shock_effect_active and not shock:
        raise ValueError(f"the {sc.name} has no Chinese Shock Effect (its data has no special rule {SHOCK_EFFECT}); "
                         "it uses its own special rules")
    for name in TURN_RULES:
        rule = data.special(g, scenario_id, name)
        if rule and game_turn is not None and game_turn in rule.get("turns", []):
            _apply(state, name, rule, str(rule.get("source", "")))
            state.notes.append(f"{sc.name} Game-Turn {game_turn}: {rule.get('source', name)} is in force")
        elif shock_effect_active and name in shock.get("rules", []):
            borrowed = data.special(g, str(shock.get("rules_from", scenario_id)), name)
            _apply(state, name, borrowed, f"{shock.get('source', SHOCK_EFFECT)}: {borrowed.get('source', name)}")
    if shock_effect_active:
        state.notes.append(f"{sc.name} Shock Effect turn: {shock.get('rules_source') or shock.get('source')} in force")
    state.rule = "; ".join(dict.fromkeys(state.sources.values()))
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


def _apply(state: InForce, name: str, rule: dict, citation: str) -> None:
    """One of the Intervention Special Game Rules (1)-(4), with the parameters its data gives."""
    state.sources[name] = citation
    if name == ALWAYS_SUPPLIED:
        state.communist_always_supplied = True
    elif name == FREE_ZOC_EXIT:
        state.free_zoc_exit_first_phase = True
    elif name == COMBAT_SHOCK:
        state.communist_attack_multiplier = int(rule.get("communist_attack_multiplier", 1))
        state.communist_loss_doubling = bool(rule.get("communist_loss_doubling", True))
        state.rough_doubling = bool(rule.get("rough_doubling", True))
    elif name == ROUGH_MOVEMENT:
        state.chinese_entire_rough_cost = int(rule.get("entire_rough_cost", 1))
