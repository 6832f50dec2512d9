"""The two kinds of dice a rules function can be given, and the documented die derivation.

Game mode derives every die from the game's secret seed, so that after the seed is revealed
anyone can recompute every roll. The rule (also in docs/api.md, "Verifiable dice"):

    For seed S (32 bytes), ledger sequence number n, die index i (0-based, in the order the
    check rolled them) and a die of `sides` sides:
      for counter c = 0, 1, 2, ...:
        block = HMAC-SHA256(key=S, message=ASCII(f"{n}:{i}:{c}"))
        x     = the first 8 bytes of block as an unsigned big-endian integer (0 <= x < 2**64)
        limit = 2**64 - (2**64 mod sides)
        if x < limit: the die is 1 + (x mod sides); stop
    Values at or above `limit` are rejected (rejection sampling), so every face is exactly
    equally likely: no modulo bias.

Compute mode feeds the dice a player rolled elsewhere, in order, and checks that exactly the
right number of dice were supplied and that each fits its die. A D10 is entered as 1..10: a
physical D10 showing 0 means 10 (Fire and Ice 1.0), and a 0 is refused with that hint rather than
read silently, so the dice recorded are always the values the rules compare.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from adjudicator.checks import DiceError, DieUsed

SEED_BYTES = 32
MAX_SIDES = 100
_TWO_64 = 1 << 64


def new_seed() -> bytes:
    """A fresh secret game seed."""
    return secrets.token_bytes(SEED_BYTES)


def seed_commitment(seed: bytes) -> str:
    """The commitment published when the game is created: SHA-256 of the seed, hex."""
    return hashlib.sha256(seed).hexdigest()


def uniform_from_blocks(blocks, sides: int) -> int:
    """Map a stream of 32-byte blocks to a uniform integer in [1, sides] by rejection sampling.

    Separated from the HMAC so the rejection branch can be tested with chosen blocks.
    """
    if not 1 <= sides <= MAX_SIDES:
        raise ValueError(f"a die must have 1..{MAX_SIDES} sides, not {sides}")
    limit = _TWO_64 - (_TWO_64 % sides)
    for block in blocks:
        x = int.from_bytes(block[:8], "big")
        if x < limit:
            return 1 + x % sides
    raise ValueError("block stream ended before a value was accepted")


def derive_die(seed: bytes, seq: int, index: int, sides: int) -> int:
    """The value of die `index` of ledger record `seq`, for a die of `sides` sides."""

    def blocks():
        counter = 0
        while True:
            message = f"{seq}:{index}:{counter}".encode("ascii")
            yield hmac.digest(seed, message, "sha256")  # one-shot: the same HMAC, computed in C
            counter += 1

    return uniform_from_blocks(blocks(), sides)


def check_roll_call(sides: int, count: int) -> None:
    """What every source of dice refuses: a die the rules cannot mean, or no dice at all."""
    if not isinstance(sides, int) or not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"rules asked for a die with {sides!r} sides")
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"rules asked for {count!r} dice")


class _RecordingDice:
    """Shared bookkeeping: validates each roll call and remembers every die used."""

    def __init__(self) -> None:
        self.used: list[DieUsed] = []

    def roll(self, sides: int, count: int = 1, purpose: str = "") -> list[int]:
        check_roll_call(sides, count)
        values = []
        for _ in range(count):
            value = self._next(sides, purpose)
            self.used.append(DieUsed(sides=sides, purpose=purpose, value=value))
            values.append(value)
        return values

    def _next(self, sides: int, purpose: str) -> int:  # pragma: no cover - abstract
        raise NotImplementedError


class SuppliedDice(_RecordingDice):
    """Compute mode: the dice the players rolled elsewhere, consumed in order."""

    def __init__(self, values: list[int]):
        super().__init__()
        self._values = list(values)

    def _next(self, sides: int, purpose: str) -> int:
        index = len(self.used)
        if index >= len(self._values):
            raise DiceError(
                f"too few dice supplied: the check needs a d{sides} for "
                f"'{purpose or 'a roll'}' as die {index + 1}, but only "
                f"{len(self._values)} were given",
                index=None,
            )
        value = self._values[index]
        if not 1 <= value <= sides:
            hint = " (a D10 showing 0 means 10: enter 10)" if sides == 10 and value == 0 else ""
            raise DiceError(
                f"die {index + 1} is {value}, but it is used as a d{sides} "
                f"('{purpose or 'a roll'}') and must be 1..{sides}{hint}",
                index=index,
            )
        return value

    def finish(self) -> None:
        """Call after the check ran: every supplied die must have been used."""
        if len(self.used) < len(self._values):
            raise DiceError(
                f"too many dice supplied: {len(self._values)} given, the check used "
                f"{len(self.used)}",
                index=len(self.used),
            )


class LedgerDice(_RecordingDice):
    """Game mode: dice derived from the game seed and the record's sequence number."""

    def __init__(self, seed: bytes, seq: int):
        super().__init__()
        self._seed = seed
        self._seq = seq

    def _next(self, sides: int, purpose: str) -> int:
        return derive_die(self._seed, self._seq, len(self.used), sides)
