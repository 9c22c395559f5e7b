"""The learner's trainer settings, saved in the stats database.

Contract: :class:`Settings` holds the desired retention of the memory model, the caps on
new skills per session and per day, the daily goal (answers per day; 0 for none) and the
hour the learner's day starts (0-23, local time).
:func:`load_settings` reads them from the store's key/value pairs, falling back to the
default for a missing or unreadable value (a hand-edited file never stops a drill);
:meth:`Settings.items` gives the pairs to save. Values are checked by
:func:`check_setting`, which raises :class:`SettingError` naming the setting and the
range expected.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Final

from defuser.errors import DefuserError
from defuser.trainer.scheduler import (
    DEFAULT_DAY_START,
    DEFAULT_NEW_PER_DAY,
    DEFAULT_NEW_PER_SESSION,
    DEFAULT_RETENTION,
    RETENTION_RANGE,
)

#: The daily goal (answers per day) unless set; 0 means no goal.
DEFAULT_DAILY_GOAL: Final = 0


class SettingError(DefuserError):
    """A setting's value is out of range; the message names it and what is expected."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Trainer settings; every field has a default."""

    retention: float = DEFAULT_RETENTION
    new_per_session: int = DEFAULT_NEW_PER_SESSION
    new_per_day: int = DEFAULT_NEW_PER_DAY
    daily_goal: int = DEFAULT_DAILY_GOAL
    day_start: int = DEFAULT_DAY_START

    def items(self) -> dict[str, str]:
        """The settings as text pairs, as stored."""
        return {f.name: str(getattr(self, f.name)) for f in fields(self)}

    def with_values(self, **values: float | int | None) -> Settings:
        """These settings with the given values changed (``None`` keeps the old one)."""
        given: dict[str, Any] = {k: v for k, v in values.items() if v is not None}
        for key, value in given.items():
            check_setting(key, value)
        return replace(self, **given)


def check_setting(key: str, value: float) -> None:
    """Raise :class:`SettingError` when ``value`` is not valid for setting ``key``."""
    if key == "retention":
        low, high = RETENTION_RANGE
        if not low <= value <= high:
            raise SettingError(
                f"desired retention {value:g} is out of range, expected {low:g} to {high:g}"
            )
    elif key in ("new_per_session", "new_per_day", "daily_goal"):
        if value < 0 or int(value) != value:
            raise SettingError(f"{key.replace('_', ' ')} {value:g} must be a whole number >= 0")
    elif key == "day_start":
        if not 0 <= value <= 23 or int(value) != value:
            raise SettingError(f"day start {value:g} must be a whole hour from 0 to 23")
    else:
        raise SettingError(f"unknown setting {key!r}")


def load_settings(pairs: Mapping[str, str]) -> Settings:
    """Settings from stored pairs; a missing or unreadable value keeps its default."""
    found: dict[str, Any] = {}
    for f in fields(Settings):
        text = pairs.get(f.name)
        if text is None:
            continue
        try:
            value: float = float(text) if f.name == "retention" else int(text)
        except ValueError:  # only float() and int() here: a misuse is never swallowed
            continue
        try:
            check_setting(f.name, value)
        except SettingError:
            continue
        found[f.name] = value
    return Settings(**found)
