"""Ledger records and receipts: the bytes that are hashed and signed (docs/api.md, "Ledger").

A game's ledger is a hash chain. Record n holds

    {"game_id": G, "seq": n, "prev_hash": hash of record n-1 ("0"*64 for record 0),
     "body": {"check", "request", "result", "request_id", "side", "time"[, "session"]}}

and its hash is SHA-256 over the canonical JSON of exactly that object. Record 0 is the game's
creation (`check` "game.created", whose result holds the seed commitment); closing the game
appends "game.closed", whose result reveals the seed.

A receipt is the server's Ed25519 signature over the canonical JSON of
{"v": 1, "game_id", "seq", "hash", "kid"}; because the hash covers the previous hash, a receipt
for record n also vouches for the whole chain before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from json.encoder import encode_basestring  # the string encoder of json.dumps(ensure_ascii=False)
from typing import Any

from adjudicator.canonical import canonical_bytes, sha256_hex
from adjudicator.ledger.keys import SigningKey

GENESIS_PREV_HASH = "0" * 64
GAME_CREATED = "game.created"
GAME_CLOSED = "game.closed"
RECEIPT_VERSION = 1
RECEIPT_SIGNED_FIELDS = ("v", "game_id", "seq", "hash", "kid")
LEDGER_FORMAT = "adjudicator-ledger/1"


def utc_now() -> str:
    """Record time: UTC, ISO 8601, millisecond precision, 'Z' suffix."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def make_body(
    check: str,
    request: dict[str, Any],
    result: dict[str, Any],
    request_id: str | None,
    side: str | None,
    time: str | None = None,
    session: dict[str, Any] | None = None,
) -> dict[str, Any]:
    body = {
        "check": check,
        "request": request,
        "result": result,
        "request_id": request_id,
        "side": side,
        "time": time or utc_now(),
    }
    if session is not None:  # asked from a VASSAL log: which one (rulings asked elsewhere have none)
        body["session"] = session
    return body


def record_hash(game_id: str, seq: int, prev_hash: str, body: dict[str, Any]) -> str:
    return sha256_hex(
        canonical_bytes({"game_id": game_id, "seq": seq, "prev_hash": prev_hash, "body": body})
    )


def record_hash_of_encoded_body(game_id: str, seq: int, prev_hash: str, body_bytes: bytes) -> str:
    """`record_hash`, given the body already in canonical JSON (the roll path has it anyway).

    Canonical JSON sorts keys, so the hashed object is written out in the order body,
    game_id, prev_hash, seq; the bytes are exactly `canonical_bytes` of the whole record
    (tests/test_adjudicator_encoding.py checks the two agree).
    """
    if type(seq) is not int:
        raise TypeError(f"seq must be an int, not {type(seq).__name__}")
    return sha256_hex(
        b'{"body":' + body_bytes
        + b',"game_id":' + encode_basestring(game_id).encode("utf-8")
        + b',"prev_hash":' + encode_basestring(prev_hash).encode("utf-8")
        + b',"seq":' + str(seq).encode("ascii") + b"}"
    )


def receipt_message(receipt: dict[str, Any]) -> bytes:
    """The exact bytes a receipt's signature covers."""
    return canonical_bytes({name: receipt.get(name) for name in RECEIPT_SIGNED_FIELDS})


def sign_receipt(key: SigningKey, game_id: str, seq: int, hash_: str) -> dict[str, Any]:
    receipt = {"v": RECEIPT_VERSION, "game_id": game_id, "seq": seq, "hash": hash_, "kid": key.kid}
    receipt["alg"] = "Ed25519"
    receipt["signature"] = key.sign(receipt_message(receipt))
    return receipt


@dataclass(frozen=True)
class Record:
    """One stored ledger record, as it is exported and verified."""

    game_id: str
    seq: int
    prev_hash: str
    hash: str
    body: dict[str, Any]
    receipt: dict[str, Any]
    #: The body's canonical JSON when this record was just built (hashed once, stored as is), or
    #: as the kept board's catch-up read it from storage (its fold looks units up in it); None for
    #: other records read back. Not part of the record's value: a verifier hashes the body.
    canonical_body: bytes | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
            "body": self.body,
            "receipt": self.receipt,
        }


def build_record(
    key: SigningKey, game_id: str, seq: int, prev_hash: str, body: dict[str, Any]
) -> Record:
    body_bytes = canonical_bytes(body)
    hash_ = record_hash_of_encoded_body(game_id, seq, prev_hash, body_bytes)
    return Record(
        game_id=game_id,
        seq=seq,
        prev_hash=prev_hash,
        hash=hash_,
        body=body,
        receipt=sign_receipt(key, game_id, seq, hash_),
        canonical_body=body_bytes,
    )


def ledger_document(game: dict[str, Any], records: list[Record]) -> dict[str, Any]:
    """The exported ledger: what `GET /games/<id>/ledger` returns and the verifier reads."""
    return {
        "format": LEDGER_FORMAT,
        "game": game,
        "records": [record.to_json() for record in records],
    }
