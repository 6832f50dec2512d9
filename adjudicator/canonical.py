"""Canonical JSON: the one byte encoding that record hashes and receipt signatures cover.

Anyone re-computing a hash must produce the same bytes, so the rule is fixed and documented
(docs/api.md, "Canonical JSON"): keys sorted, no insignificant whitespace, UTF-8, non-ASCII
characters written as themselves, NaN/Infinity forbidden. Records hold only strings, integers,
booleans, null, lists and objects, so no floating-point formatting question arises.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_bytes(value: Any) -> bytes:
    """Encode `value` as canonical JSON bytes."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical_digest(value: Any) -> str:
    """SHA-256 (hex) of the canonical encoding of `value`."""
    return sha256_hex(canonical_bytes(value))
