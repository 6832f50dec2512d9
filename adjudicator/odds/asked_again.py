"""A repeat warned before the roll: the same situation was asked as record #N.

The ledger's board (`adjudicator.ledger.board`) names a ruling "asked again: the same situation as
record #N" once it is recorded: the same check, side and request, none of its units changed by a
ruling since. A player should know that before he rolls: asking again rolls again, and both players
see both rulings. `asked_before` reads the request against the board as it stands now (nothing is
recorded, the board is the one the recorded-check path reads: `rulings.ledger_board_before`) and
says which record the situation was asked as, with that ruling's first line as everyone reads it.

The pages' roll forms and chances, and the API's chances of a recorded game (`asked_before` in the
answer, so the VASSAL extension's form may say it too), carry the warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from adjudicator import rulings
from adjudicator.checks import CheckSpec, canonical_side, recorded_request
from adjudicator.ledger.board import REPEAT_NOTICE, RestoredByError
from adjudicator.ledger.storage import TokenGrant
from adjudicator.services import services
from adjudicator.systems import system_info
from adjudicator.words.transcript import RULING_MARK, chat_lines

#: The roll form's field that confirms a repeat: the record number the player was warned of.
AGAIN_FIELD = "again"
#: A chat line's tag ("[ADJ <game>#<seq>] "): the headline reads without it.
TAG = re.compile(r"^\[ADJ [^\]]*\] ?")


@dataclass(frozen=True)
class AskedBefore:
    """The record a situation was asked as, and its ruling in one line."""

    record: int
    headline: str
    rolled: bool  # it rolled dice: asking again rolls them again

    @property
    def text(self) -> str:
        again = "asking again rolls again" if self.rolled else "asking again records it again"
        return (f"This situation was asked as record #{self.record} ({self.headline}); {again}, and both players "
                "will see it.")

    def to_json(self) -> dict[str, Any]:
        return {"record": self.record, "headline": self.headline, "rolled": self.rolled, "text": self.text}


def asked_before(grant: TokenGrant, spec: CheckSpec, req: BaseModel) -> AskedBefore | None:
    """The record this request's situation was asked as, if the ledger's board says it repeats one
    (nothing is recorded); None for a new situation, and for the request already recorded under
    its own request id (a retry shows its record, it rolls nothing)."""
    situation = recorded_request(req)  # as the record would hold it
    request_id = getattr(req, "request_id", None)
    head = services().store.game(grant.game_id)["head_seq"]
    board = rulings.ledger_board_before(grant, head + 1)
    try:
        derived = board.derive(head + 1, spec.key, situation, canonical_side(grant.role))
    except RestoredByError:
        return None  # the roll itself will say what is wrong with the request
    repeat = next((n for n in derived.notices if n.kind == REPEAT_NOTICE), None)
    if repeat is None:
        return None
    found = rulings.find_record(grant.game_id, repeat.record)
    if request_id and found.body.get("request_id") == request_id:
        return None
    answer = rulings.recorded_response(found)
    info = system_info(grant.system)
    lines = chat_lines(answer, system_name=info.name if info else "")
    headline = TAG.sub("", lines[0]).removeprefix(RULING_MARK) if lines else str(found.body.get("check", ""))
    dice = (found.body.get("result") or {}).get("dice_used") if isinstance(found.body, dict) else None
    return AskedBefore(repeat.record, headline, bool(dice))
