"""Canonical JSON: the one byte encoding that record hashes and receipt signatures cover.

Anyone re-computing a hash must produce the same bytes, so the rule is fixed and documented
(docs/api.md, "Canonical JSON"): keys sorted, no insignificant whitespace, UTF-8, non-ASCII
characters written as themselves, NaN/Infinity forbidden. The definition is Python's
``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)``
encoded as UTF-8 (`reference_canonical_bytes`).

Every roll encodes its record three times, so the service uses orjson, a compiled encoder, for
speed (issue 17). Its output is the same bytes for the same value except in corners, which fall
back to the reference encoder:

- values orjson refuses (integers beyond 64 bits, keys that are not strings, lone surrogates);
- floats: orjson writes 1e-05 as ``0.00001`` and 1e-6 as ``1e-6`` where Python writes
  ``1e-05`` and ``1e-06``. Any output containing ``0.0000`` or an exponent of one digit after
  ``e-`` is encoded again by the reference encoder (also when those characters are inside a
  string: a false alarm costs only time);
- NaN and Infinity, which orjson writes as ``null`` where the reference refuses them. Looking
  for them would cost more than the reference encoding, so they are refused where values enter:
  request models refuse them (``allow_inf_nan=False`` in `adjudicator.checks.CheckRequest`), and
  the rules' results are written by our own code, whose floats are move costs in halves.

tests/test_adjudicator_canonical.py checks the two encoders byte for byte on generated values.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import orjson

#: Output where orjson's float formatting may differ from Python's (see the module docstring).
_SHORT_NEGATIVE_EXPONENT = re.compile(rb"[0-9]e-[0-9](?![0-9])")
#: UTF-8 bytes to "0" for a digit and a space for every other byte: a text's runs of digits, found in C
#: (a regular expression looking for one took four times as long as reading the text).
_DIGITS = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
#: A run of digits that may be an integer orjson reads as a float (beyond 64 bits: 19 digits on).
_LONG_NUMBER = b"0" * 19


def reference_canonical_bytes(value: Any) -> bytes:
    """The definition of canonical JSON (slow: the pure-Python encoder)."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def canonical_bytes(value: Any) -> bytes:
    """Encode `value` as canonical JSON bytes (identical to `reference_canonical_bytes`)."""
    try:
        encoded = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError: a value orjson refuses; the reference decides
        return reference_canonical_bytes(value)
    if b"0.0000" in encoded or (b"e-" in encoded and _SHORT_NEGATIVE_EXPONENT.search(encoded)):
        return reference_canonical_bytes(value)
    return encoded


def parse_json(text: str) -> Any:
    """A stored JSON text (a record's body, a hidden part's value) read back as Python values.

    orjson reads a record's body several times faster than the json module, and every ruling of
    a game another worker also rolls in reads that worker's records (the kept board's catch-up).
    The values are the same, type for type, except in corners the json module reads as it always
    did: a lone surrogate escaped in a string (orjson refuses it), and integers beyond 64 bits,
    which orjson reads as floats; a text with a run of 19 digits may hold one (in a hash's hex
    too: a false alarm costs only time)."""
    if _LONG_NUMBER in text.encode("utf-8", "surrogatepass").translate(_DIGITS):
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical_digest(value: Any) -> str:
    """SHA-256 (hex) of the canonical encoding of `value`."""
    return sha256_hex(canonical_bytes(value))
