"""What a KWB game establishes by itself: the Pusan UN supply shortage (12.1.1).

"The UN is initially subject to a supply shortage, and thus the UN player may apply no more than
one Support Fire marker to any one combat ... until the supply shortage ends. To attempt to end
the supply shortage, the UN player rolls one die at the end of each game-turn; if the number
rolled is less than the game-turn number, the supply shortage is permanently ended."

So whether it is in force is not the asking player's to say: a recorded game's ledger holds the
end-of-turn rolls (`ledger_facts`), and a saved game shows the UN Supply Shortage marker the
Pusan setup places in the UN box until the shortage ends (`read_shortage_marker`).
"""

from __future__ import annotations

from typing import Any

from adjudicator.boardread import BoardView, Read, reads_board
from adjudicator.facts import Fact, GameFacts, register_facts
from adjudicator.rules.kwb import data

RULE = "12.1.1 UN Supply Shortages"
SHORTAGE = "un_supply_shortage"
END_ROLL = "un_supply_shortage_end"
MARKER = "un-supply-shortage"


@register_facts("kwb", fields=(SHORTAGE,), checks=(END_ROLL,))
def ledger_facts(scenario: str, records: list[tuple[int, dict[str, Any]]]) -> GameFacts:
    """The shortage in a recorded game: the scenario opens with it, the ledger's rolls end it."""
    g = data.game()
    if scenario not in g.scenarios or not data.special(g, scenario, SHORTAGE):
        return GameFacts({SHORTAGE: Fact(False, f"this scenario has no UN supply shortage ({RULE} is a Pusan "
                                                "Perimeter rule)")})
    for seq, body in records:
        outcome = (body.get("result") or {}).get("outcome") or {}
        if body.get("check") == f"kwb.{END_ROLL}" and outcome.get("shortage_ended") is True:
            turn = (body.get("request") or {}).get("game_turn")
            why = (f"the UN supply shortage ended at the end of game-turn {turn}: record {seq} rolled "
                   f"{outcome.get('roll')}, less than {turn} ({RULE})")
            return GameFacts({SHORTAGE: Fact(False, why)},
                             closed_checks={END_ROLL: f"{why[0].upper()}{why[1:]}; it ended permanently, so "
                                                      "there is nothing more to roll for"})
    return GameFacts({SHORTAGE: Fact(True, "the UN supply shortage is in force: the Pusan Perimeter opens with "
                                           f"it and no end-of-turn roll in this game's ledger has ended it ({RULE})",
                                      applies=_a_un_matter)})


def _a_un_matter(request: dict[str, Any]) -> bool:
    """A combat always involves the UN; a bombardment or a marker limit only when it is the UN's."""
    return request.get("side", "un") == "un"


@reads_board("kwb", "combat", "bombardment", "support_fire_limit")
def read_shortage_marker(board: BoardView, request: dict[str, Any]) -> dict[str, Read]:
    """In the Pusan Perimeter, the UN Supply Shortage marker on the board is the shortage in force."""
    g = data.game()
    scenario = request.get("scenario")
    if scenario not in g.scenarios or not data.special(g, scenario, SHORTAGE):
        return {}
    if "side" in request and request["side"] != "un":
        return {}  # a Communist bombardment or limit: the UN's shortage does not enter
    on_board = board.has_marker(MARKER)
    where = (f"the UN Supply Shortage marker is on the board ({RULE})" if on_board
             else f"no UN Supply Shortage marker on the board: the shortage has ended ({RULE})")
    return {f"/{SHORTAGE}": Read(on_board, where)}
