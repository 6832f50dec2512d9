"""The last few results of costly work on uploaded files, kept in the process by what they were made from.

Reading a long log is the costly part of the pages that show one: a 50,000-command log took 1 to 2 s
a view, for the same file and the same ledger, every time (issue 53). A file is named by its content
(SHA-256), so what is read or judged from it never changes while what else it depends on (the
ledger's head, the game data) stays the same: each use says that in its key. Bounded: `entries`
results per memo, the oldest used dropped first; a process that restarts reads again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Memo(Generic[T]):
    def __init__(self, entries: int):
        self.entries = entries
        self._kept: OrderedDict[Hashable, T] = OrderedDict()
        self.made = 0  # results made (not found), for the tests

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """The result kept for `key`, else `make()`'s (kept; an exception keeps nothing)."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        value = make()
        self.made += 1
        self._kept[key] = value
        while len(self._kept) > self.entries:
            self._kept.popitem(last=False)
        return value
