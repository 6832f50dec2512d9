"""What a table's cells may hold: the column types of tables.toml `[table.columns]`.

The rules read some columns as numbers and some cells as codes of another table (every cell of a
combat results table is a code of its result-code table). The data says so next to the table, and
the loader checks every cell against it, so a replaced table the rules could not read is a
`file:line` problem of `scenarios check` instead of a failed ruling.

A type is one or more alternatives joined by `|`; an alternative is one or more space-separated
parts matched against the cell's space-separated words, one for one; a part ending in `?` may be
absent. A part is

- `count` (a whole number, 0 or more), `int` (a whole number, maybe signed: `-1`, `+2`), `number` (a decimal),
  `text` (anything, even nothing), `empty` (nothing);
- `key:<table>`: a value of that table's key column (a row of it must exist);
- anything else: that word literally; it may hold named types in angle brackets (`r<count>` matches
  `r1`, `r12`; `<count>-<count>` matches `1-5`).

Examples: `count|all` (a number of steps, or every one), `key:combat_results r<count>?` (a result
code, then maybe the hexes of retreat), `int|P` (a cost, or prohibited).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The type names a part may be, as regular expressions over one word of a cell.
NAMED = {
    "count": r"\d+",
    "int": r"[-+]?\d+",
    "number": r"[-+]?\d+(?:\.\d+)?",
}
#: How a problem message says each type name.
WORDS = {
    "count": "a whole number (0 or more)",
    "int": "a whole number",
    "number": "a number",
    "text": "any text",
    "empty": "nothing",
}
KEY_PREFIX = "key:"
_PLACEHOLDER = re.compile(r"<([a-z]+)>")


@dataclass(frozen=True)
class CellType:
    """A compiled column type: `matches(cell)`; `text` is the declaration as written."""

    text: str
    pattern: re.Pattern[str]
    tables: tuple[str, ...]  # the tables whose keys it names (for the problem message)

    def matches(self, cell: str) -> bool:
        return self.pattern.fullmatch(cell.strip()) is not None


class CellTypeError(ValueError):
    """A declaration that is not a type (an unknown `<name>`, a `key:` of no table, an empty part)."""


def referenced_tables(text: str) -> tuple[str, ...]:
    """The table ids a declaration's `key:` parts name, in order."""
    found = []
    for alternative in text.split("|"):
        for part in alternative.split():
            word = part.rstrip("?")
            if word.startswith(KEY_PREFIX):
                found.append(word[len(KEY_PREFIX):])
    return tuple(dict.fromkeys(found))


def compile_type(text: str, keys: dict[str, tuple[str, ...]]) -> CellType:
    """Compile a declaration; `keys` gives the key values of every table a `key:` part may name."""
    if not text.strip():
        raise CellTypeError("an empty type (give e.g. `count`, `int|P`, `key:crt_results`)")
    alternatives = [_alternative(alt, keys) for alt in text.split("|")]
    return CellType(text, re.compile("|".join(f"(?:{a})" for a in alternatives)), referenced_tables(text))


def _alternative(text: str, keys: dict[str, tuple[str, ...]]) -> str:
    parts = text.split()
    if not parts:
        raise CellTypeError(f"an empty alternative in {text!r}")
    pattern = ""
    for i, part in enumerate(parts):
        optional = part.endswith("?") and len(part) > 1
        word = part[:-1] if optional else part
        piece = ("" if i == 0 else " ") + _word(word, keys)
        pattern += f"(?:{piece})?" if optional else piece
    return pattern


def _word(word: str, keys: dict[str, tuple[str, ...]]) -> str:
    if word == "text":
        return r".*"
    if word == "empty":
        return ""
    if word in NAMED:
        return NAMED[word]
    if word.startswith(KEY_PREFIX):
        table = word[len(KEY_PREFIX):]
        if table not in keys:
            raise CellTypeError(f"{word!r}: no table {table!r} with a key column")
        values = sorted(keys[table], key=len, reverse=True)
        return "(?:" + "|".join(re.escape(v) for v in values) + ")" if values else r"(?!)"
    pieces, last = [], 0
    for m in _PLACEHOLDER.finditer(word):
        if m.group(1) not in NAMED:
            raise CellTypeError(f"{word!r}: <{m.group(1)}> is not one of {', '.join(f'<{n}>' for n in NAMED)}")
        pieces += [re.escape(word[last:m.start()]), NAMED[m.group(1)]]
        last = m.end()
    return "".join(pieces) + re.escape(word[last:])


def describe(text: str) -> str:
    """A declaration in words, for problem messages: `count|all` -> "a whole number (0 or more) or 'all'"."""
    alternatives = []
    for alternative in text.split("|"):
        said = []
        for part in alternative.split():
            optional = part.endswith("?") and len(part) > 1
            word = part[:-1] if optional else part
            if word in WORDS:
                phrase = WORDS[word]
            elif word.startswith(KEY_PREFIX):
                phrase = f"a code of table {word[len(KEY_PREFIX):]}"
            else:
                phrase = repr(word)
            said.append(f"maybe {phrase}" if optional else phrase)
        alternatives.append(", then ".join(said))
    return " or ".join(alternatives)
