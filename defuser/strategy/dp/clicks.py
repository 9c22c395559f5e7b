"""The clicks the DP weighs in each state, as the rulebook answers them.

Contract: nothing here restates a rule. Which clicks are safe in a phase's
:class:`~defuser.strategy.dp.graph.Mode`, what each leads to and which faces a deal
brings all come from the rulebook (:mod:`defuser.engine.board`), asked with a state's
:class:`~defuser.engine.board.Facts` under every answer to "is the mitten on top?" that
the mode allows: a click is safe when it strikes under none of them, and a play that
solves if the mitten is on top and otherwise goes on the pile (a legal Defuse) is a
*probe*. :class:`RuleTables` keeps those answers per rule set, worked out on first use
(:func:`tables_for`); :class:`Choice` is a safe click as the DP's callers see it.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from defuser.engine.actions import Action, ActionKind
from defuser.engine.board import (
    Board,
    Effect,
    Facts,
    deal_faces_of,
    facts_by_discard,
    verdict_of,
)
from defuser.engine.deck import DealKind
from defuser.engine.rules import HAND_SIZE
from defuser.strategy.dp.graph import Mode
from defuser.strategy.dp.states import FACES, HAND_COUNT, HANDS, STATES, distinct_faces
from edgework import Card, Ruleset, TableLetter


class PlayKind(enum.Enum):
    """Why the DP plays a face: a plain legal play, a probe, or the solve."""

    PLAIN = "play"
    #: A legal Defuse while the mitten may be on top: it solves if the mitten is on
    #: top, and otherwise proves that it is not.
    PROBE = "probe"
    #: A Defuse with the mitten surely on top: the last click.
    SOLVE = "solve"


@dataclass(frozen=True, slots=True)
class Choice:
    """One safe click the DP weighs. The DP's hands are multisets, so a play names the
    face (``card``) rather than the slot; :meth:`action` finds the slot in a real hand.
    """

    kind: ActionKind
    card: Card | None = None
    play: PlayKind | None = None

    def action(self, hand: Sequence[Card]) -> Action:
        """The click that makes this choice with ``hand`` (slot order): a play clicks the
        first slot holding the face."""
        if self.card is None:
            return Action(self.kind)
        return Action.play(hand.index(self.card) + 1)


#: The DP's draw and discard choices.
DRAW: Final = Choice(ActionKind.DRAW)
DISCARD: Final = Choice(ActionKind.DISCARD)
#: Per face, its plain play, its probe and its solve.
PLAYS: Final = tuple(Choice(ActionKind.PLAY, card, PlayKind.PLAIN) for card in Card)
PROBES: Final = tuple(Choice(ActionKind.PLAY, card, PlayKind.PROBE) for card in Card)
SOLVES: Final = tuple(Choice(ActionKind.PLAY, card, PlayKind.SOLVE) for card in Card)


class OptionKind(enum.Enum):
    """How the DP values one safe click (see :meth:`RuleTables.options`)."""

    DRAW = "draw"
    DISCARD = "discard"
    #: A play that puts the card on the pile whatever the deck: the same phase.
    PLAY = "play"
    #: A play that solves with the mitten on top and otherwise puts the card on the
    #: pile, proving the mitten is not on top: the phase after a failed probe.
    PROBE = "probe"
    #: A click that solves: the last one.
    SOLVE = "solve"


def choice_of(option: OptionKind, face: int) -> Choice:
    """The :class:`Choice` of a safe click the DP values as ``option`` (``face``: the
    face a play plays)."""
    if option is OptionKind.DRAW:
        return DRAW
    if option is OptionKind.DISCARD:
        return DISCARD
    if option is OptionKind.PROBE:
        return PROBES[face]
    return SOLVES[face] if option is OptionKind.SOLVE else PLAYS[face]


#: One safe click as the DP values it: how, the face played (-1 for a draw or a
#: discard) and the state it leads to within the phase (-1 when none).
Option = tuple[OptionKind, int, int]

#: The answers to "is the mitten on top?" each mode allows.
_ANSWERS: Final = {Mode.SAFE: (False,), Mode.UNSAFE: (False, True), Mode.ZERO: (True,)}
#: A play's effects (mitten not on top, on top) -> how the DP values it.
_PLAY_OPTIONS: Final = {
    frozenset({Effect.PLAY}): OptionKind.PLAY,
    frozenset({Effect.SOLVE}): OptionKind.SOLVE,
    frozenset({Effect.PLAY, Effect.SOLVE}): OptionKind.PROBE,
}
_PLAIN: Final = DealKind.PLAIN
_DEFUSE: Final = DealKind.DEFUSE
_DRAW_ACTION: Final = Action.draw()
_DISCARD_ACTION: Final = Action.discard()
_PLAY_ACTIONS: Final = tuple(Action.play(slot) for slot in range(1, HAND_SIZE + 1))


@functools.cache
def _moves_a_card(facts: Facts) -> bool:
    """Whether some click can change the hand: a draw, or a play under either answer."""
    if verdict_of(facts, _DRAW_ACTION, False).effect is Effect.DEAL:
        return True
    return any(
        verdict_of(facts, play, t).effect in (Effect.PLAY, Effect.SOLVE)
        for play in _PLAY_ACTIONS[: facts.size]
        for t in (False, True)
    )


_MODE_INDEX: Final = {mode: i for i, mode in enumerate(Mode)}


@functools.cache
def classify(mode: Mode, facts: Facts) -> tuple[bool, bool, tuple[OptionKind | None, ...]]:
    """Which clicks are safe on a board with these facts in ``mode``: the draw, the
    discard, and per slot how the DP values its play (``None``: not safe).

    A click is safe when it strikes under no answer the mode allows to "is the mitten
    on top?". (Few facts exist, so each is worked out once.)
    """
    answers = _ANSWERS[mode]
    draw = all(verdict_of(facts, _DRAW_ACTION, t).effect is Effect.DEAL for t in answers)
    discard = all(
        verdict_of(facts, _DISCARD_ACTION, t).effect is Effect.DEAL for t in answers
    )
    plays = tuple(
        _PLAY_OPTIONS.get(frozenset(verdict_of(facts, play, t).effect for t in answers))
        for play in _PLAY_ACTIONS[: facts.size]
    )
    return draw, discard, plays


@functools.cache
def _derive(mode: Mode, h: int, facts: Facts) -> tuple[Option, ...]:
    """The safe clicks of hand ``h`` with these facts in ``mode`` (see
    :meth:`RuleTables.options`)."""
    draw, discard, plays = classify(mode, facts)
    faces = [(c, rest, plays[i]) for c, rest, i in distinct_faces(h)]
    solves = [(OptionKind.SOLVE, c, -1) for c, _, o in faces if o is OptionKind.SOLVE]
    if solves:
        return tuple(solves)
    out: list[Option] = []
    if draw:
        out.append((OptionKind.DRAW, -1, -1))
    if discard:
        out.append((OptionKind.DISCARD, -1, -1))
    out += [(o, c, rest * FACES + c) for c, rest, o in faces if o is not None]
    return tuple(out)


class RuleTables:
    """Per rule set: the rulebook's answers for every visible state, asked on first
    use (:meth:`options`, :meth:`draw_faces`).

    Nothing here restates a rule: which clicks are safe in a mode, what they lead to
    and which faces a deal brings all come from the rulebook
    (:mod:`defuser.engine.board`), asked with each state's :class:`Facts`.
    """

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.mitten = int(rules.mitten)
        #: The legal faces per discard top (the on-demand values' sharing keys).
        self.legal = [rules.legal_mask(Card(d)) for d in range(FACES)]
        self._cards = tuple(Card)
        # A discard replaces the top, so what it brings cannot depend on the board:
        # ask any board of this rule set.
        anyboard = Board(rules, rules.mitten, ())
        self.plain = [int(c) for c in anyboard.deal_faces(DealKind.PLAIN, draw=False)]
        self.defuses = [int(c) for c in anyboard.deal_faces(DealKind.DEFUSE, draw=False)]
        self._options: dict[int, tuple[Option, ...]] = {}
        self._facts: dict[int, tuple[Facts, ...]] = {}
        self._draw_faces: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def facts(self, state: int) -> Facts:
        """The rulebook's :class:`Facts` of ``state``."""
        h, d = divmod(state, FACES)
        return self.hand_facts(h)[d]

    def hand_facts(self, h: int) -> tuple[Facts, ...]:
        """The rulebook's :class:`Facts` of hand ``h`` on each discard top."""
        found = self._facts.get(h)
        if found is None:
            found = self._facts[h] = facts_by_discard(self.rules, HANDS[h])
        return found

    def options(self, mode: Mode, state: int) -> tuple[Option, ...]:
        """The safe clicks in ``state`` in a phase of ``mode``, in the order the DP
        weighs them: draw, discard, then plays by face (a face held twice is one
        choice). When a click solves, nothing is cheaper: only the solves are listed."""
        key = _MODE_INDEX[mode] * STATES + state
        found = self._options.get(key)
        if found is None:
            found = self._options[key] = _derive(mode, state // FACES, self.facts(state))
        return found

    def draw_faces(self, state: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The plain faces and the Defuse faces a draw can bring in ``state`` (the hand
        must have room)."""
        found = self._draw_faces.get(state)
        if found is None:
            found = self._draw_faces[state] = self._faces(state % FACES, self.facts(state))
        return found

    def _faces(self, d: int, facts: Facts) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return self.deal_faces(d, facts, _PLAIN), self.deal_faces(d, facts, _DEFUSE)

    def deal_faces(self, d: int, facts: Facts, kind: DealKind) -> tuple[int, ...]:
        """The faces a draw dealing ``kind`` can bring on discard top ``d`` with these
        facts (the rulebook's :func:`~defuser.engine.board.deal_faces_of`)."""
        found = deal_faces_of(self.rules, self._cards[d], facts, kind, draw=True)
        return tuple([int(c) for c in found])

    @functools.cached_property
    def dead(self) -> list[bool]:
        """Hands that can never be solved: full, and no click ever moves a card out of
        them whatever the discard top. The module never deals such a hand (a draw into
        two illegal cards is legal), but the DP covers every hand, so these start with
        an infinite value instead of a diverging one."""
        return [
            not any(_moves_a_card(self.facts(h * FACES + d)) for d in range(FACES))
            for h in range(HAND_COUNT)
        ]


@functools.lru_cache(maxsize=8)
def tables_for(table: TableLetter, last_digit: int) -> RuleTables:
    """The rulebook's answers for one rule set (shared by every N; the last few kept)."""
    return RuleTables(Ruleset(table, last_digit))
