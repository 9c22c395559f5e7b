"""The module's configurations: every (table, last digit, N) a bomb can give it.

Contract: :data:`CONFIGS` lists all 200 of them (Tables A-D, last digit 0-9, N 9-13) in
one fixed order, table first, then digit, then N; seeds, shipped solutions and reports
index them by that order. A :class:`Config` is the part of the edgework that the
module's play depends on, and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from edgework.tables import MAX_INTERVAL, MIN_INTERVAL, TABLE_LETTERS, Ruleset, TableLetter


@dataclass(frozen=True, slots=True)
class Config:
    """One kind of module: its table, the serial's last digit and N."""

    table: TableLetter
    last_digit: int
    interval: int

    @property
    def rules(self) -> Ruleset:
        """The rule set."""
        return Ruleset(self.table, self.last_digit)

    def __str__(self) -> str:
        return f"{self.table}{self.last_digit} N={self.interval}"


#: All 200 configurations, in a fixed order.
CONFIGS: Final[tuple[Config, ...]] = tuple(
    Config(t, d, n)
    for t in TABLE_LETTERS
    for d in range(10)
    for n in range(MIN_INTERVAL, MAX_INTERVAL + 1)
)
