"""Verification of receipts and whole ledgers; needs no server and no database.

Used by `POST /api/v1/verify`, the game page, and offline by `adjudicator verify`. It checks:

- every record's hash is SHA-256 of its canonical content (edits are detected);
- sequence numbers run 0, 1, 2, ... and each prev_hash is the previous record's hash
  (deleted, inserted and reordered records are detected);
- every receipt is a valid Ed25519 signature by a known key over that record's hash;
- record 0 is the game's creation and carries the seed commitment;
- if the seed is revealed: SHA-256(seed) matches the commitment and every die of every record
  is recomputed from the seed (the derivation of `adjudicator.ledger.dice`, restated in
  `recompute_die` below so a reader can check it against docs/api.md); every hidden part the
  closing record reveals matches its commitment, and every counter revealed from a sealed pool
  is the next of the order record 0 committed to (`adjudicator.ledger.draws.check_reveals`);
- every record's notices (an eliminated unit named again, the same situation asked again) are
  what the records before it give (`adjudicator.ledger.board`, folded here again). Where the fog
  of war seals parts of the records, that waits for the game's close, whose record reveals them.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from adjudicator.canonical import canonical_bytes
from adjudicator.ledger.draws import check_reveals, pools_of
from adjudicator.fog import Part, check_parts, has_sealed, put_back
from adjudicator.ledger.board import LedgerBoard, Notice
from adjudicator.ledger.keys import verify_signature
from adjudicator.ledger.records import (
    GAME_CLOSED,
    GAME_CREATED,
    GENESIS_PREV_HASH,
    RECEIPT_SIGNED_FIELDS,
    record_hash,
    receipt_message,
)


def recompute_die(seed: bytes, seq: int, index: int, sides: int) -> int:
    """Reference re-computation of one die, written from the documented rule alone."""
    counter = 0
    while True:
        block = hmac.new(seed, f"{seq}:{index}:{counter}".encode("ascii"), hashlib.sha256).digest()
        x = int.from_bytes(block[:8], "big")
        if x < 2**64 - (2**64 % sides):
            return 1 + x % sides
        counter += 1


@dataclass
class Finding:
    seq: int | None
    code: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "code": self.code, "message": self.message}


@dataclass
class Report:
    """The outcome of a verification. `ok` is true only when no problem was found."""

    problems: list[Finding] = field(default_factory=list)
    records_checked: int = 0
    signatures_checked: int = 0
    dice_recomputed: int = 0
    seed_revealed: bool = False
    bad_seqs: set[int] = field(default_factory=set)
    #: What was compared with what, in words (a recorded answer: which parts were hashed).
    compared: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, seq: int | None, code: str, message: str) -> None:
        self.problems.append(Finding(seq, code, message))
        if seq is not None:
            self.bad_seqs.add(seq)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "records_checked": self.records_checked,
            "signatures_checked": self.signatures_checked,
            "dice_recomputed": self.dice_recomputed,
            "seed_revealed": self.seed_revealed,
            "compared": list(self.compared),
            "problems": [p.to_json() for p in self.problems],
        }


def report_lines(report: dict[str, Any]) -> list[str]:
    """A verification report (`Report.to_json`, or the server's) in words: what `adjudicator verify`
    and `adjudicator-client verify` print, the same wording from both."""
    lines = [f"records checked:    {report.get('records_checked', 0)}",
             f"signatures checked: {report.get('signatures_checked', 0)}"]
    lines += [f"compared:           {what}" for what in report.get("compared", [])]
    if report.get("seed_revealed"):
        lines.append(f"dice recomputed:    {report.get('dice_recomputed', 0)} (seed revealed)")
    else:
        lines.append("dice recomputed:    none (seed not revealed yet: close the game to reveal it)")
    for problem in report.get("problems", []):
        where = f"record {problem['seq']}: " if problem.get("seq") is not None else ""
        lines.append(f"PROBLEM {problem['code']}: {where}{problem['message']}")
    lines.append("OK: verified" if report.get("ok") else "FAILED: does not verify")
    return lines


def check_receipt(
    receipt: Any,
    keys: dict[str, Ed25519PublicKey],
    report: Report,
    seq: int | None = None,
    expect: dict[str, Any] | None = None,
) -> None:
    """Check one receipt's signature, and that it names the record it came with (`expect`)."""
    if not isinstance(receipt, dict) or any(name not in receipt for name in RECEIPT_SIGNED_FIELDS):
        report.add(seq, "receipt_malformed", "receipt lacks one of " + ", ".join(RECEIPT_SIGNED_FIELDS))
        return
    key = keys.get(receipt["kid"]) if isinstance(receipt["kid"], str) else None
    if key is None:
        report.add(seq, "unknown_key", f"receipt signed with unknown key id {receipt['kid']!r} (not among "
                   "the keys given: use the keys the server publishes, adjudicator-client keys --out keys.json)")
        return
    signature = receipt.get("signature")
    report.signatures_checked += 1
    if not isinstance(signature, str) or not verify_signature(key, signature, receipt_message(receipt)):
        report.add(seq, "bad_signature", "receipt signature does not verify")
        return
    for name, value in (expect or {}).items():
        if receipt.get(name) != value:
            report.add(seq, "receipt_mismatch", f"receipt {name} is {receipt.get(name)!r}, record has {value!r}")


def verify_receipt(
    receipt: Any, keys: dict[str, Ed25519PublicKey], record: dict[str, Any] | None = None, game_id: str | None = None
) -> Report:
    """Verify a single receipt; with its record (and game id) also check the record's hash."""
    report = Report()
    seq = receipt.get("seq") if isinstance(receipt, dict) else None
    seq = seq if isinstance(seq, int) else None
    check_receipt(receipt, keys, report, seq)
    if record is not None and report.ok:
        gid = game_id or receipt["game_id"]
        _check_record_hash(record, gid, report)
        if report.ok and record.get("hash") != receipt["hash"]:
            report.add(seq, "receipt_mismatch", "receipt is for a different record hash")
        report.records_checked = 1
    return report


#: The parts of a recorded answer that are its record's result (adjudicator.rulings.recorded_response).
ANSWER_RESULT_FIELDS = ("outcome", "steps", "warnings", "dice_used")
#: The parts of a recorded answer that are the rest of its record's body.
ANSWER_BODY_FIELDS = ("request", "request_id", "side", "time")


def record_of_answer(answer: dict[str, Any]) -> dict[str, Any] | None:
    """The ledger record a game-mode answer stands for, rebuilt from the answer alone; None when
    the answer lacks a part of it (an answer from before answers carried their request)."""
    missing = [name for name in ("system", "check", "seq", "prev_hash", *ANSWER_RESULT_FIELDS, *ANSWER_BODY_FIELDS)
               if name not in answer]
    if missing:
        return None
    body = {"check": f"{answer['system']}.{answer['check']}",
            "result": {name: answer[name] for name in ANSWER_RESULT_FIELDS},
            **{name: answer[name] for name in ANSWER_BODY_FIELDS}}
    if "session" in answer:  # a ruling asked from a VASSAL log names it
        body["session"] = answer["session"]
    if "sealed" in answer:  # fog of war: the commitments of texts sealed whole
        body["result"]["sealed"] = answer["sealed"]
    if "notices" in answer:  # what the ledger said of the request (adjudicator.ledger.board)
        body["result"]["notices"] = answer["notices"]
    return {"seq": answer["seq"], "prev_hash": answer["prev_hash"], "hash": answer.get("hash"), "body": body}


def verify_answer(answer: Any, keys: dict[str, Ed25519PublicKey]) -> Report:
    """Verify a recorded ruling as a player kept it (a game-mode answer, `--json`).

    The receipt's signature alone says only that the server signed *some* record; the answer's
    content — outcome, dice, steps, warnings, the request, the side and the time — must also be
    that record: rebuilt from the answer, it must hash to the signed hash. An edited die or
    outcome no longer does.
    """
    report = Report()
    if not isinstance(answer, dict) or not isinstance(answer.get("receipt"), dict):
        report.add(None, "answer_malformed", "a recorded answer is an object with a 'receipt'")
        return report
    receipt = answer["receipt"]
    seq = receipt.get("seq") if isinstance(receipt.get("seq"), int) else None
    check_receipt(receipt, keys, report, seq)
    report.compared.append("receipt signature over (game, record number, record hash, key)")
    record = record_of_answer(answer)
    if record is None:
        report.add(seq, "answer_incomplete",
                   "the answer does not carry its request, so its outcome and dice cannot be compared with "
                   "the signed record; verify it against the game's ledger (adjudicator-client ledger, then "
                   "adjudicator verify) instead")
        return report
    game_id = receipt.get("game_id")
    for name, value in (("game_id", answer.get("game_id")), ("seq", answer.get("seq")),
                        ("hash", answer.get("hash"))):
        if receipt.get(name) != value:
            report.add(seq, "receipt_mismatch", f"the answer's {name} is {value!r}, its receipt's {receipt.get(name)!r}")
    report.records_checked = 1
    report.compared.append("outcome, dice, steps, warnings, request, side and time, hashed, against the "
                           "record hash the receipt signs")
    try:
        content_hash = record_hash(game_id, record["seq"], record["prev_hash"], record["body"])
    except (TypeError, ValueError) as error:
        report.add(seq, "answer_malformed", str(error))
        return report
    if content_hash != receipt.get("hash"):
        report.add(seq, "hash_mismatch", "the answer's content does not hash to the record its receipt signs: "
                   "something in it (outcome, dice, steps, request, side or time) was edited")
    return report


def _check_record_hash(record: dict[str, Any], game_id: str, report: Report) -> bool:
    seq = record.get("seq")
    try:
        expected = record_hash(game_id, seq, record.get("prev_hash"), record.get("body"))
    except (TypeError, ValueError) as error:
        report.add(seq if isinstance(seq, int) else None, "record_malformed", str(error))
        return False
    if expected != record.get("hash"):
        report.add(seq, "hash_mismatch", "record content does not match its hash (edited?)")
        return False
    return True


def verify_ledger(
    document: Any,
    keys: dict[str, Ed25519PublicKey],
    receipts: list[dict[str, Any]] | None = None,
) -> Report:
    """Verify a whole exported ledger (see `adjudicator.ledger.records.ledger_document`).

    `receipts`, if given, are receipts a player kept: each must match a record of the ledger,
    which also exposes a ledger truncated after the receipt was issued.
    """
    report = Report()
    if not isinstance(document, dict) or not isinstance(document.get("records"), list):
        report.add(None, "ledger_malformed", "a ledger is an object with a 'records' list")
        return report
    game = document.get("game") if isinstance(document.get("game"), dict) else {}
    game_id = game.get("id")
    records = document["records"]
    if not records:
        report.add(None, "ledger_empty", "the ledger has no records (not even the game creation)")
        return report

    previous_hash = GENESIS_PREV_HASH
    by_seq: dict[int, dict[str, Any]] = {}
    for position, record in enumerate(records):
        if not isinstance(record, dict):
            report.add(None, "record_malformed", f"record at position {position} is not an object")
            continue
        seq = record.get("seq")
        report.records_checked += 1
        if seq != position:
            report.add(seq if isinstance(seq, int) else None, "seq_gap",
                       f"record at position {position} has seq {seq!r}, expected {position} "
                       "(deleted, inserted or reordered records)")
        if record.get("prev_hash") != previous_hash:
            report.add(seq if isinstance(seq, int) else None, "chain_broken",
                       f"record {seq!r} does not follow the previous record's hash")
        _check_record_hash(record, game_id, report)
        check_receipt(record.get("receipt"), keys, report, seq if isinstance(seq, int) else None,
                      expect={"game_id": game_id, "seq": seq, "hash": record.get("hash")})
        previous_hash = record.get("hash")
        if isinstance(seq, int):
            by_seq[seq] = record

    _check_header(game, records, report)
    commitment = _check_genesis(records[0], game, report)
    seed = _revealed_seed(records, game, commitment, report)
    if seed is not None:
        report.seed_revealed = True
        sealed = revealed_values(records)
        for record in records:
            if isinstance(record, dict):
                _recompute_dice(record, seed, report, sealed)
        _check_revealed(records, by_seq, report)
        _check_sealed_draws(records, report)

    _check_notices(game, records, report, revealed_values(records) if seed is not None else None)

    for receipt in receipts or []:
        seq = receipt.get("seq") if isinstance(receipt, dict) else None
        record = by_seq.get(seq) if isinstance(seq, int) else None
        if record is None or record.get("hash") != receipt.get("hash"):
            report.add(seq if isinstance(seq, int) else None, "receipt_not_in_ledger",
                       f"a kept receipt for seq {seq!r} has no matching record in this ledger")
            continue
        check_receipt(receipt, keys, report, seq, expect={"game_id": game_id})
    return report


def _dict(value: Any) -> dict[str, Any]:
    """`value` if it is an object, else an empty one: verification reads untrusted input."""
    return value if isinstance(value, dict) else {}


def _check_header(game: dict[str, Any], records: list, report: Report) -> None:
    """The export's game header must agree with the records it comes with.

    The header is not signed, so this does not stop a forger who edits both; it does catch a
    ledger that lost its last records while the header still remembers them. (Receipts kept
    by the players catch the rest; see `receipts`.)
    """
    last = _dict(records[-1])
    if "head_seq" in game and (game.get("head_seq") != last.get("seq") or game.get("head_hash") != last.get("hash")):
        report.add(None, "head_mismatch",
                   f"the game header's head is record {game.get('head_seq')!r}, the ledger ends at {last.get('seq')!r}")
    closed = _dict(last.get("body")).get("check") == GAME_CLOSED
    if game.get("status") == "closed" and not closed:
        report.add(None, "close_missing", "the game header says closed, but the ledger has no closing record last")


def _check_genesis(first: Any, game: dict[str, Any], report: Report) -> str | None:
    body = _dict(_dict(first).get("body"))
    if body.get("check") != GAME_CREATED:
        report.add(0, "no_genesis", "record 0 is not the game creation")
        return None
    commitment = _dict(body.get("result")).get("seed_commitment")
    if game.get("seed_commitment") not in (None, commitment):
        report.add(0, "commitment_mismatch", "the game header's commitment differs from record 0")
    return commitment


def _revealed_seed(records, game, commitment, report) -> bytes | None:
    body = _dict(_dict(records[-1]).get("body"))
    seed_hex = _dict(body.get("result")).get("seed") if body.get("check") == GAME_CLOSED else None
    seed_hex = seed_hex or game.get("seed")
    if not seed_hex:
        return None
    try:
        seed = bytes.fromhex(seed_hex)
    except (TypeError, ValueError):
        report.add(None, "seed_malformed", "the revealed seed is not hex")
        return None
    if hashlib.sha256(seed).hexdigest() != commitment:
        report.add(None, "seed_mismatch", "SHA-256 of the revealed seed is not the commitment")
        return None
    return seed


def revealed_values(records: list) -> dict[str, Any]:
    """commitment -> value of every part the closing record reveals (fog of war)."""
    revealed = _dict(_dict(_dict(records[-1]).get("body")).get("result")).get("revealed")
    return {_dict(p).get("commitment"): _dict(p).get("value") for p in revealed} if isinstance(revealed, list) else {}


def _check_notices(game: dict[str, Any], records: list, report: Report, revealed: dict[str, Any] | None) -> None:
    """Each record's notices must be the ones the records before it give (`adjudicator.ledger.board`):
    kind, record referred to and unit are compared (the text follows the counters' names); a record
    without a `notices` list was written before notices existed and is not compared. Sealed
    parts are put back from the closing record's revelations; a ledger with sealed parts and none
    revealed yet is not judged."""
    bodies = [(r.get("seq"), _dict(r.get("body"))) for r in records if isinstance(r, dict) and isinstance(r.get("seq"), int)]
    system = game.get("system") or next((str(b.get("check", "")).partition(".")[0] for _, b in bodies
                                         if not str(b.get("check", "")).startswith("game.")), "")
    if any(has_sealed(body) for _, body in bodies):
        if not revealed:
            report.compared.append("notices: re-derived once the game is closed (the fog of war seals units until then)")
            return
        bodies = [(seq, put_back(body, revealed)) for seq, body in bodies]
    board = LedgerBoard(system)
    count = 0
    for seq, body in bodies:
        derived = sorted(n.key() for n in board.fold(seq, body).notices)
        stored = _dict(body.get("result")).get("notices")
        if stored is None:
            continue  # a record written before notices existed (or no ruling): nothing to compare
        count += len(stored) if isinstance(stored, list) else 0
        found = sorted(_notice_key(n) for n in stored) if isinstance(stored, list) else None
        if found != derived:
            said = "; ".join(f"{kind} (record #{record}{', ' + unit if unit else ''})" for kind, record, unit in derived)
            report.add(seq, "notice_mismatch", f"record {seq}'s notices are not what the records before it give"
                       f" ({said or 'none'})")
    report.compared.append(f"notices: {count} re-derived from the records before each")


def _notice_key(notice: Any) -> tuple[str, int, str]:
    n = _dict(notice)
    record = n.get("record") if isinstance(n.get("record"), int) else -1
    return Notice(str(n.get("kind", "")), record, "", str(n.get("unit", ""))).key()


def _check_revealed(records: list, by_seq: dict[int, dict[str, Any]], report: Report) -> None:
    """Fog of war: every part the closing record reveals must match its commitment in its record."""
    revealed = _dict(_dict(_dict(records[-1]).get("body")).get("result")).get("revealed")
    if not isinstance(revealed, list):
        return
    for item in revealed:
        item = _dict(item)
        seq = item.get("seq")
        record = by_seq.get(seq) if isinstance(seq, int) else None
        if record is None:
            report.add(None, "revealed_orphan", f"a revealed part names record {seq!r}, which the ledger lacks")
            continue
        try:
            problems = check_parts(_dict(record.get("body")), [Part.from_json(item)])
        except (KeyError, TypeError, ValueError):
            problems = ["a revealed part is malformed"]
        for problem in problems:
            report.add(seq, "revealed_mismatch", problem)


def _check_sealed_draws(records: list, report: Report) -> None:
    """Sealed draws (adjudicator.ledger.draws): every counter a record revealed is the next of the order
    record 0 committed to, which the closing record reveals."""
    bodies = [(record.get("seq"), _dict(record.get("body"))) for record in records if isinstance(record, dict)]
    if not bodies or not pools_of(bodies[0][1]):
        return
    orders = {commitment: value["order"] for commitment, value in revealed_values(records).items()
              if isinstance(value, dict) and isinstance(value.get("order"), list)}
    try:
        problems = check_reveals(bodies, orders)
    except (TypeError, ValueError, AttributeError):
        problems = [(None, "the sealed draws of record 0 or the closing record are malformed")]
    for seq, message in problems:
        report.add(seq if isinstance(seq, int) else None, "draw_mismatch", message)
    report.compared.append("every counter revealed from a sealed pool, against the order record 0 committed to")


def _recompute_dice(record: dict[str, Any], seed: bytes, report: Report, sealed: dict[str, Any] | None = None) -> None:
    body = _dict(record.get("body"))
    if body.get("check") in (GAME_CREATED, GAME_CLOSED):
        return
    seq = record.get("seq")
    dice = _dict(body.get("result")).get("dice_used")
    if not isinstance(seq, int) or not isinstance(dice, list):
        report.add(seq if isinstance(seq, int) else None, "record_malformed",
                   f"record {seq!r} has no list of dice_used to recompute")
        return
    for index, die in enumerate(dice):
        sides = _dict(die).get("sides")
        if not isinstance(sides, int) or not 1 <= sides <= 100:
            report.add(seq, "die_malformed", f"die {index} of record {seq} is malformed")
            continue
        expected = recompute_die(seed, seq, index, sides)
        report.dice_recomputed += 1
        value = _dict(die).get("value")
        if isinstance(value, str) and value.startswith("hidden:"):  # a sealed draw: its revealed value
            value = (sealed or {}).get(value[len("hidden:"):])
        if expected != value:
            report.add(seq, "die_mismatch",
                       f"die {index} of record {seq} is {value}, the seed gives {expected}")


__all__ = ["Report", "Finding", "verify_answer", "verify_ledger", "verify_receipt", "recompute_die",
           "canonical_bytes"]
