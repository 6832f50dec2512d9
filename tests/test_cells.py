"""Column types of tables.toml (`scenarios.cells`): what each declaration accepts and refuses."""

from __future__ import annotations

import pytest

from scenarios.cells import CellTypeError, compile_type, describe

KEYS = {"results": ("D1", "Dx", "AE")}


@pytest.mark.parametrize("declared, good, bad", [
    ("count|all", ["0", "3", "all"], ["-1", "two", "", "all 2"]),
    ("int|P", ["-2", "+1", "0", "P"], ["p", "1.5", ""]),
    ("key:results", ["D1", "Dx", "AE"], ["D", "D2", "AE r1"]),
    ("key:results r<count>?", ["D1", "D1 r2", "Dx r10"], ["D1 r", "D1 2", "r2"]),
    ("count|<count>-<count>|-", ["6", "1-5", "-"], ["1-", "a-b", "1–5"]),
    ("int|empty", ["", "31", "-1"], ["x"]),
    ("text", ["", "anything at all"], []),
])
def test_a_declaration_accepts_its_cells_only(declared, good, bad):
    kind = compile_type(declared, KEYS)
    assert [c for c in good if not kind.matches(c)] == []
    assert [c for c in bad if kind.matches(c)] == []


@pytest.mark.parametrize("declared, message", [
    ("key:nowhere", "no table 'nowhere'"),
    ("r<digits>", "<digits> is not one of"),
    ("", "an empty type"),
    ("count||all", "an empty alternative"),
])
def test_a_bad_declaration_says_why(declared, message):
    with pytest.raises(CellTypeError, match=message):
        compile_type(declared, KEYS)


def test_described_in_words():
    assert describe("count|all") == "a whole number (0 or more) or 'all'"
    assert describe("key:results r<count>?") == "a code of table results, then maybe 'r<count>'"
