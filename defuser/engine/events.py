"""What a click visibly did: the events every reader of a module speaks.

Contract: an :data:`Event` is what an observer sees happen: :class:`Drew` a card,
:class:`Discarded` (the card that landed on the pile), :class:`Played` a slot,
:class:`Solved`, or :class:`Struck` (which click struck and, when known, why). The
simulator, the log replay, the live session and the trainer all speak these types, and
the belief's :meth:`~defuser.strategy.belief.Observation.apply` is the one place that
reads them. Nothing here knows the hidden deck.

They live apart from :mod:`defuser.engine.actions` so that a live session's first
answer, which reads no event, does not define them: each frozen dataclass costs about
3.5 M instructions to create at import.
"""

from __future__ import annotations

from dataclasses import dataclass

from defuser.engine.actions import Action, StrikeKind
from edgework import Card


@dataclass(frozen=True, slots=True)
class Drew:
    """A draw put ``card`` into the hand."""

    card: Card

    @property
    def action(self) -> Action:
        """The click that did this."""
        return Action.draw()


@dataclass(frozen=True, slots=True)
class Discarded:
    """A discard dealt ``card`` onto the pile (the new discard top)."""

    card: Card

    @property
    def action(self) -> Action:
        """The click that did this."""
        return Action.discard()


@dataclass(frozen=True, slots=True)
class Played:
    """The card in ``slot`` was played onto the pile (``card`` when the reporter knows it)."""

    slot: int
    card: Card | None = None

    @property
    def action(self) -> Action:
        """The click that did this."""
        return Action.play(self.slot)


@dataclass(frozen=True, slots=True)
class Solved:
    """A Defuse was played with the mitten on top: the module is solved.

    ``slot`` and ``card`` are ``None`` when the reporter does not say which Defuse.
    """

    slot: int | None = None
    card: Card | None = None

    @property
    def action(self) -> Action | None:
        """The click that did this, when the slot is known."""
        return None if self.slot is None else Action.play(self.slot)


@dataclass(frozen=True, slots=True)
class Struck:
    """``action`` struck; ``reason`` says why when the reporter knows it.

    ``card`` is the card that stayed in its slot after an invalid play, ``blocking``
    the slots that blocked a discard (both only when known).
    """

    action: Action
    reason: StrikeKind | None = None
    card: Card | None = None
    blocking: tuple[int, ...] = ()


#: What an observer sees one click do.
Event = Drew | Discarded | Played | Solved | Struck
