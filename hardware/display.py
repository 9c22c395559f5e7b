"""What the prop shows, as one value: :class:`DisplayState`. Pure; no I/O.

The display is made of parts, each set by one display command (its ``slot``: most
commands set one whole part, ``IND`` and ``PLATE`` one part per number). A
:class:`DisplayState` holds the newest command of each part, and is what every side
keeps: the host session the state it wants and the state the prop confirmed, the
bridge the state it posted, the simulated prop the state it shows, ``mittens prop``
the state it prints. It

* applies a command (:meth:`DisplayState.apply`, a new state);
* lists the commands by which another state differs (:meth:`DisplayState.diff`), in
  the order of a full re-send (docs/protocol.md, section 5.3);
* reads its parts as values (:meth:`DisplayState.part` and the properties), with the
  prop's defaults for parts never set (no strikes, not solved, playing);
* gives its JSON view (:meth:`DisplayState.as_json`), its edge widgets as text
  (:meth:`DisplayState.widgets`) and the edge in Twitch Plays notation
  (:meth:`DisplayState.edge_text`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from edgework import Card
from hardware.protocol import (
    DisplayCommand,
    GameState,
    ShowBatteries,
    ShowGame,
    ShowHand,
    ShowHolders,
    ShowIndicator,
    ShowIndicatorCount,
    ShowLimit,
    ShowPlate,
    ShowPlateCount,
    ShowSerial,
    ShowSolved,
    ShowStrikes,
    ShowTimer,
    ShowTop,
    display_rank,
)

#: A part of the display: the command's first token and its number (0: a whole part).
Slot = tuple[str, int]
C = TypeVar("C", bound=DisplayCommand)

Hand = tuple[Card | None, Card | None, Card | None]


@dataclass(frozen=True, slots=True)
class DisplayState:
    """The display as the newest command of each part (empty: nothing shown yet)."""

    parts: Mapping[Slot, DisplayCommand] = field(default_factory=dict)

    @classmethod
    def of(cls, commands: Iterable[DisplayCommand]) -> DisplayState:
        """The state the commands make, applied in order."""
        parts: dict[Slot, DisplayCommand] = {}
        for command in commands:
            parts[command.slot] = command
        return cls(parts)

    def apply(self, command: DisplayCommand) -> DisplayState:
        """This state with ``command`` shown."""
        if self.parts.get(command.slot) == command:
            return self
        return DisplayState({**self.parts, command.slot: command})

    def get(self, slot: Slot) -> DisplayCommand | None:
        """The command that set part ``slot``, or None."""
        return self.parts.get(slot)

    def commands(self) -> list[DisplayCommand]:
        """Every part's command, in the order of a full re-send."""
        return sorted(self.parts.values(), key=display_rank)

    def diff(self, other: DisplayState) -> list[DisplayCommand]:
        """The commands that turn this state into ``other``, in re-send order (parts
        ``other`` lacks stay as they are)."""
        return [command for command in other.commands() if self.parts.get(command.slot) != command]

    def __bool__(self) -> bool:
        return bool(self.parts)

    # ------------------------------------------------------------------ the parts

    def part(self, kind: type[C], index: int = 0) -> C | None:
        """The command of kind ``kind`` (number ``index`` for ``IND`` and ``PLATE``)."""
        command = self.parts.get((kind.WORD, index))
        return command if isinstance(command, kind) else None

    @property
    def serial(self) -> str | None:
        """The serial number shown (None: none)."""
        shown = self.part(ShowSerial)
        return None if shown is None else shown.serial

    @property
    def batteries(self) -> int | None:
        """The battery count shown (None: never set)."""
        shown = self.part(ShowBatteries)
        return None if shown is None else shown.count

    @property
    def holders(self) -> int | None:
        """The battery holder count shown (None: unknown or never set)."""
        shown = self.part(ShowBatteries)
        return None if shown is None else shown.holders

    @property
    def aa(self) -> int | None:
        """AA holders (None: unknown or never set)."""
        shown = self.part(ShowHolders)
        return None if shown is None else shown.aa

    @property
    def d(self) -> int | None:
        """D holders (None: unknown or never set)."""
        shown = self.part(ShowHolders)
        return None if shown is None else shown.d

    @property
    def top(self) -> Card | None:
        """The discard top (None: empty)."""
        shown = self.part(ShowTop)
        return None if shown is None else shown.card

    @property
    def hand(self) -> Hand:
        """Hand slots 1-3 (None: empty)."""
        shown = self.part(ShowHand)
        return (None, None, None) if shown is None else shown.slots

    @property
    def strikes(self) -> int:
        """The strike count shown."""
        shown = self.part(ShowStrikes)
        return 0 if shown is None else shown.count

    @property
    def limit(self) -> int:
        """The strike limit shown (0: none)."""
        shown = self.part(ShowLimit)
        return 0 if shown is None else shown.limit

    @property
    def timer(self) -> tuple[int, int] | None:
        """The timer as set: milliseconds left and rate (None: no timer)."""
        shown = self.part(ShowTimer)
        return None if shown is None or shown.ms is None else (shown.ms, shown.rate)

    @property
    def game(self) -> GameState:
        """How the game stands."""
        shown = self.part(ShowGame)
        return GameState.PLAYING if shown is None else shown.state

    @property
    def solved(self) -> bool:
        """Whether the module is shown solved."""
        shown = self.part(ShowSolved)
        return False if shown is None else shown.solved

    @property
    def indicator_count(self) -> int:
        """How many indicators the bomb has."""
        shown = self.part(ShowIndicatorCount)
        return 0 if shown is None else shown.count

    @property
    def plate_count(self) -> int:
        """How many port plates the bomb has."""
        shown = self.part(ShowPlateCount)
        return 0 if shown is None else shown.count

    def indicators(self) -> list[ShowIndicator]:
        """The indicators set, by number, up to the count."""
        found = (self.part(ShowIndicator, index) for index in range(1, self.indicator_count + 1))
        return [indicator for indicator in found if indicator is not None]

    def plates(self) -> list[ShowPlate]:
        """The port plates set, by number, up to the count."""
        found = (self.part(ShowPlate, index) for index in range(1, self.plate_count + 1))
        return [plate for plate in found if plate is not None]

    # ------------------------------------------------------------------ views

    def edge_text(self) -> str:
        """The version-2 edge as Twitch Plays notation: ``*FRK, CAR // [Parallel]``."""
        inds = ", ".join(indicator_text(ind) for ind in self.indicators())
        plates = " ".join(plate_text(plate) for plate in self.plates())
        return " // ".join(part for part in (inds, plates) if part)

    def widgets(self) -> list[str]:
        """The edge widgets, one text each in re-send order: ``serial AB3CD4``, ``3B 2H``,
        ``1xAA 1xD``, ``*FRK``, ``[Parallel]`` (holders only when known)."""
        return [text for text in map(widget_text, self.commands()) if text]

    def as_json(self) -> dict[str, Any]:
        """The state as JSON-ready values, one key per part set, in re-send order."""
        state: dict[str, Any] = {}
        for command in self.commands():
            _json_part(state, command)
        return state


def widget_text(command: DisplayCommand) -> str:
    """One edge widget as text, or '' for a part that is no widget."""
    if isinstance(command, ShowSerial):
        return f"serial {command.serial or '------'}"
    if isinstance(command, ShowBatteries):
        holders = "" if command.holders is None else f" {command.holders}H"
        return f"{command.count}B{holders}"
    if isinstance(command, ShowHolders) and command.aa is not None:
        return f"{command.aa}xAA {command.d}xD"
    if isinstance(command, ShowIndicator):
        return indicator_text(command)
    if isinstance(command, ShowPlate):
        return plate_text(command)
    return ""


def indicator_text(command: ShowIndicator) -> str:
    """An indicator as Twitch Plays writes it: ``*FRK`` lit, ``CAR`` unlit."""
    return ("*" if command.lit else "") + command.label


def plate_text(command: ShowPlate) -> str:
    """A port plate as Twitch Plays writes it: ``[Parallel, Serial]``, ``[Empty]``."""
    return "[" + (", ".join(command.ports) or "Empty") + "]"


def _json_part(state: dict[str, Any], command: DisplayCommand) -> None:
    """Add one part's JSON keys to ``state`` (indicators and plates fill their lists)."""
    if isinstance(command, ShowSerial):
        state["serial"] = command.serial
    elif isinstance(command, ShowBatteries):
        state["batteries"], state["holders"] = command.count, command.holders
    elif isinstance(command, ShowHolders):
        state["aa_holders"], state["d_holders"] = command.aa, command.d
    elif isinstance(command, ShowIndicatorCount):
        state["indicators"] = [None] * command.count
    elif isinstance(command, ShowIndicator):
        state["indicators"][command.index - 1] = indicator_text(command)
    elif isinstance(command, ShowPlateCount):
        state["plates"] = [None] * command.count
    elif isinstance(command, ShowPlate):
        state["plates"][command.index - 1] = list(command.ports)
    elif isinstance(command, ShowLimit):
        state["strike_limit"] = command.limit
    elif isinstance(command, ShowTimer):
        state["timer_ms"], state["timer_rate"] = command.ms, command.rate
    elif isinstance(command, ShowGame):
        state["game"] = command.state.value
    elif isinstance(command, ShowTop):
        state["top"] = None if command.card is None else command.card.code
    elif isinstance(command, ShowHand):
        state["hand"] = [None if c is None else c.code for c in command.slots]
    elif isinstance(command, ShowStrikes):
        state["strikes"] = command.count
    else:
        state["solved"] = command.solved
