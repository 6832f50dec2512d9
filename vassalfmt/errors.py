"""The one exception type of the package.

Everything that reads VASSAL data (saved games uploaded by strangers, piece definitions, zips)
raises :class:`VassalFormatError` with a message a person can act on, so callers (the
adjudicator's HTTP layer in particular) can turn any damaged input into a 4xx answer by
catching a single class.
"""

from __future__ import annotations


class VassalFormatError(ValueError):
    """Input that is not valid VASSAL data, or that exceeds a safety limit."""


class VassalLimitError(VassalFormatError):
    """Readable data that needs more work than the caller allows (too many pieces, commands or
    moves, or longer than its time): the file may be fine, but not here."""


class VassalTimeLimit(VassalLimitError):
    """Reading took longer than the time the caller gave it."""
