"""The replay's lines grouped into the player's clicks.

Contract: :func:`build_steps` groups the chosen replay's :class:`LineRecord` values into
one :class:`ReplayStep` per click. A step says which click it was (an
:class:`~defuser.engine.actions.ActionKind` and the slot), how it ended (an
:class:`~defuser.engine.simulator.Outcome` and the :class:`StrikeKind`), and gives the
click as an :class:`~defuser.engine.actions.Action` and what it visibly did as an
:data:`~defuser.engine.events.Event`, so the judge and the analysis never read message
names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from defuser.engine import modlog
from defuser.engine.actions import Action, ActionKind, StrikeKind
from defuser.engine.events import Event
from defuser.engine.simulator import Outcome
from defuser.logs.check.messages import (
    CLICKS,
    STARTUP_MESSAGES,
    Click,
    click_of,
    event_of,
    moved_card,
)
from defuser.logs.check.state import LineRecord, ReplayState
from edgework import Card


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One click of the player as the replay understands it.

    ``before``/``after`` are the replay states around it; ``card`` is the card the
    click moved or named (for the solve, the Defuse played).
    """

    line: int
    last_line: int
    #: Which click: draw, discard or play.
    kind: ActionKind
    outcome: Outcome
    #: Why it struck, for a strike.
    strike: StrikeKind | None
    card: Card | None
    countdown: int | None
    blocking_listed: tuple[int, ...]
    before: ReplayState
    after: ReplayState
    #: The slot a play (or an invalid play, or the solve) took its card from, as the
    #: replay chose it when equal faces leave it open; ``None`` for draws and discards,
    #: and for a play of a card that was not in the hand.
    slot: int | None = None

    @property
    def action(self) -> Action | None:
        """The click, or ``None`` for a play whose slot is unknown."""
        if self.kind is not ActionKind.PLAY:
            return Action(self.kind)
        return None if self.slot is None else Action.play(self.slot)

    @property
    def command(self) -> str:
        """The Twitch Plays command of the click: ``draw``, ``discard``, ``play 2``
        (just ``play`` when the slot is unknown)."""
        action = self.action
        return str(self.kind.value) if action is None else str(action)

    @property
    def event(self) -> Event | None:
        """What the click visibly did, or ``None`` when the log does not say enough
        (a play whose slot is unknown, a deal without its card)."""
        if self.action is None:
            return None
        click = Click(self.kind, self.outcome, self.strike)
        return event_of(click, self.card, self.slot, self.blocking_listed)


def build_steps(records: Sequence[LineRecord]) -> list[ReplayStep]:
    """Group the replay's lines into the player's actions."""
    steps: list[ReplayStep] = []
    i = 0
    while i < len(records):
        record = records[i]
        click = click_of(record.message)
        if click is None:
            i += 1
            continue
        j = i + 1
        while j < len(records) and not _starts_anew(records[j]):
            j += 1
        group = records[i:j]
        countdown = next(
            (r.message.k for r in group if isinstance(r.message, modlog.MittenComingMessage)),
            None,
        )
        listed = tuple(
            r.message.slot for r in group if isinstance(r.message, modlog.BlockingSlotMessage)
        )
        card = moved_card(record.message)
        if click.outcome is Outcome.SOLVED and record.after.discard is not None:
            card = record.after.discard
        slot = None
        if click.kind is ActionKind.PLAY:
            slot = _slot_of(click.outcome, card, record.before.hand, record.after.hand)
        steps.append(ReplayStep(
            line=record.number, last_line=group[-1].number, kind=click.kind,
            outcome=click.outcome, strike=click.strike, card=card, countdown=countdown,
            blocking_listed=listed, before=record.before, after=group[-1].after, slot=slot,
        ))
        i = j
    return steps


def _starts_anew(record: LineRecord) -> bool:
    """Whether ``record`` begins another click or a start-up (ending the current one)."""
    kind = type(record.message)
    return kind in CLICKS or kind in STARTUP_MESSAGES


def _slot_of(
    outcome: Outcome, card: Card | None, before: tuple[Card, ...], after: tuple[Card, ...]
) -> int | None:
    """Which slot a play took ``card`` from, given the hands before and after it."""
    if card is None or card not in before:
        return None
    if outcome is not Outcome.STRIKE:
        for i, held in enumerate(before):
            if held == card and before[:i] + before[i + 1 :] == after:
                return i + 1
    return before.index(card) + 1
