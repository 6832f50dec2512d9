"""VASSAL's sequence encoding: lists of strings joined by a one-character delimiter.

Every piece definition, piece state and saved-game command is built from this encoding
(VASSAL 3.7.26, ``VASSAL/tools/SequenceEncoder.java``), often nested several levels deep:
``';'`` inside a trait, ``'\\t'`` between traits, ``'/'`` in an AddPiece command, ESC between
commands. This module is our own implementation of the same rules, so what we write is read by
the engine exactly as we meant, and what the engine writes is read back by us.

Encoding one field:

* an empty field is written as nothing (two delimiters in a row);
* every delimiter inside the field gets a backslash in front of it (other backslashes are left
  alone, so each nesting level adds one backslash in front of the delimiters of inner levels);
* a field that starts with a backslash, or starts *and* ends with a single quote, is wrapped in
  one extra pair of single quotes (decoding strips one enclosing pair).

Decoding splits at delimiters not preceded by a backslash, drops that one backslash, and strips
one pair of enclosing single quotes.

One deliberate difference from the engine's encoder: the engine writes a field that *ends* with
a backslash unchanged, so the following delimiter looks escaped and the field silently merges
with the next one (data loss). We quote-wrap such a field instead (``a\\`` -> ``'a\\'``), which
the engine's decoder reads back correctly. Every other field is written byte for byte as the
engine writes it. With that, ``decode(encode(fields)) == fields`` holds for every non-empty list
of strings (property-tested in ``tests/test_vassalfmt_sequence.py``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from .errors import VassalFormatError

TAB = "\t"
ESC = "\x1b"

_MISSING = object()


def _needs_quotes(field: str, more_follows: bool) -> bool:
    if field.startswith("\\"):
        return True
    if len(field) >= 1 and field[0] == "'" and field[-1] == "'":
        return True
    # Our one addition (see module docstring): a trailing backslash would escape the delimiter.
    return more_follows and field.endswith("\\")


def encode_field(field: str, delim: str, more_follows: bool = False) -> str:
    """Encode a single field for a sequence joined by ``delim``."""
    if not field:
        return ""
    escaped = field.replace(delim, "\\" + delim)
    if _needs_quotes(field, more_follows):
        return "'" + escaped + "'"
    return escaped


def encode(fields: Iterable[str | None], delim: str) -> str:
    """Join ``fields`` with ``delim`` the way ``SequenceEncoder`` does (``None`` = empty).

    An empty list encodes to ``""`` (the engine returns null there; every caller in the
    engine turns that into an empty string or never asks).
    """
    _check_delim(delim)
    items = ["" if f is None else str(f) for f in fields]
    last = len(items) - 1
    # Most fields need no escaping: test for that inline (module builds encode ~350,000 fields).
    for i, f in enumerate(items):
        if f and (delim in f or f[0] == "\\" or f[0] == "'" or f[-1] == "\\"):
            items[i] = encode_field(f, delim, i < last)
    return delim.join(items)


def decode(text: str | None, delim: str) -> list[str]:
    """Split an encoded sequence into its fields. ``""`` gives ``[""]``; ``None`` gives ``[]``."""
    decoder = SequenceDecoder(text, delim)
    out = []
    while decoder.has_more():
        out.append(decoder.next_token())
    return out


def _check_delim(delim: str) -> None:
    if len(delim) != 1:
        raise ValueError(f"a sequence delimiter is one character, got {delim!r}")
    if delim in "\\'":
        raise ValueError("backslash and single quote cannot be sequence delimiters")


def _unquote(token: str) -> str:
    if len(token) > 1 and token[0] == "'" and token[-1] == "'":
        return token[1:-1]
    return token


class SequenceDecoder:
    """Reads fields one at a time, with the engine's defaults for missing or bad fields.

    The ``next_*`` helpers mirror ``SequenceEncoder.Decoder``: when the sequence is exhausted
    they return the default; ``next_int``/``next_double`` also return the default for text that
    is not a number (the engine is lenient the same way, which is why generated definitions are
    round-trip checked rather than trusted).
    """

    def __init__(self, text: str | None, delim: str):
        _check_delim(delim)
        self._text = text
        self._pos = 0
        self._delim = delim

    def has_more(self) -> bool:
        return self._text is not None

    def remaining(self) -> str:
        """The undecoded rest, as the engine's ``getRemaining`` gives it."""
        if self._text is None:
            return ""
        return self._text[self._pos:]

    def next_token(self, default=_MISSING) -> str:
        text = self._text
        if text is None:
            if default is _MISSING:
                raise VassalFormatError("sequence ended before an expected field")
            return default
        if self._pos == len(text):
            self._text = None
            return ""
        delim = self._delim
        start = self._pos
        hit = text.find(delim, start)
        if hit == -1 or hit == 0 or text[hit - 1] != "\\":  # fast path: no escape here
            if hit == -1:
                token = text[start:]
                self._text = None
            else:
                token = text[start:hit]
                self._pos = hit + 1
            return _unquote(token) if token[:1] == "'" else token
        parts = []
        search = start
        while True:
            hit = text.find(delim, search)
            if hit == -1:
                parts.append(text[start:])
                self._text = None
                break
            if hit > 0 and text[hit - 1] == "\\":
                parts.append(text[start:hit - 1])
                start = hit
                search = hit + 1
                continue
            parts.append(text[start:hit])
            self._pos = hit + 1
            break
        return _unquote("".join(parts))

    def next_int(self, default: int) -> int:
        if self._text is None:
            return default
        token = self.next_token()
        return _java_int(token, default)

    def next_double(self, default: float) -> float:
        if self._text is None:
            return default
        token = self.next_token()
        try:
            value = float(token)
        except ValueError:
            return default
        return value

    def next_bool(self, default: bool) -> bool:
        if self._text is None:
            return default
        return self.next_token() == "true"

    def next_char(self, default: str) -> str:
        if self._text is None:
            return default
        token = self.next_token()
        return token[0] if token else default


def _java_int(token: str, default: int) -> int:
    """``Integer.parseInt`` semantics: optional sign, decimal digits, 32-bit range."""
    body = token[1:] if token[:1] in "+-" else token
    if not body or not body.isascii() or not body.isdigit():
        return default
    value = int(token)
    if not -(2**31) <= value < 2**31:
        return default
    return value


def java_bool(value: bool) -> str:
    """``String.valueOf(boolean)``."""
    return "true" if value else "false"


def java_double(value: float) -> str:
    """``Double.toString``: plain form for 1e-3 <= |x| < 1e7 (``1.0``, ``0.5``), else ``1.0E-4``.

    Uses Python's shortest round-trip digits, which is what the engine's Java 17+ prints for
    every value a module is likely to hold.
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    sign = "-" if value < 0 else ""
    digits, exponent = _shortest_digits(abs(value))  # value = 0.d1d2d3... * 10**exponent
    if 1e-3 <= abs(value) < 1e7:
        if exponent <= 0:
            whole, frac = "0", "0" * (-exponent) + digits
        elif exponent >= len(digits):
            whole, frac = digits + "0" * (exponent - len(digits)), "0"
        else:
            whole, frac = digits[:exponent], digits[exponent:]
        return f"{sign}{whole}.{frac}"
    mantissa_frac = digits[1:] or "0"
    return f"{sign}{digits[0]}.{mantissa_frac}E{exponent - 1}"


def _shortest_digits(magnitude: float) -> tuple[str, int]:
    """Significant digits (no trailing zeros) and exponent e with magnitude = 0.DIGITS * 10**e."""
    mantissa, _, exp_text = repr(magnitude).partition("e")
    exp = int(exp_text) if exp_text else 0
    whole, _, frac = mantissa.partition(".")
    all_digits = whole + frac
    point = len(whole) + exp
    stripped = all_digits.lstrip("0")
    point -= len(all_digits) - len(stripped)
    return stripped.rstrip("0") or "0", point


class SequenceEncoder:
    """Builds a sequence field by field, formatting values the way the engine does.

    >>> SequenceEncoder(";").add("Flip").add_int(130).add_bool(True).value()
    'Flip;130;true'
    """

    def __init__(self, delim: str):
        _check_delim(delim)
        self._delim = delim
        self._fields: list[str] = []

    def add(self, value: str | None) -> SequenceEncoder:
        self._fields.append("" if value is None else str(value))
        return self

    def add_int(self, value: int) -> SequenceEncoder:
        return self.add(str(int(value)))

    def add_bool(self, value: bool) -> SequenceEncoder:
        return self.add(java_bool(value))

    def add_double(self, value: float) -> SequenceEncoder:
        return self.add(java_double(float(value)))

    def add_list(self, values: Iterable[str | None]) -> SequenceEncoder:
        """A nested comma list as one field (``StringArrayConfigurer.arrayToString``)."""
        return self.add(string_array(values))

    def value(self) -> str:
        return encode(self._fields, self._delim)


def string_array(values: Iterable[str | None]) -> str:
    """``StringArrayConfigurer.arrayToString``: a comma sequence, ``""`` for no items."""
    items = list(values)
    if not items:
        return ""
    return encode(items, ",")


def parse_string_array(text: str) -> list[str]:
    """``StringArrayConfigurer.stringToArray``: ``""`` is the empty list."""
    if not text:
        return []
    return decode(text, ",")
