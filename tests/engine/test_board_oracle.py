"""The rulebook (:class:`defuser.engine.board.Board`) against the independent oracle.

The oracle is ``tests/oracle_module.py``, the module written straight from the spec.
For every table, last digit and discard top, and every hand, the board must say what
the oracle says for every click (draw, discard, play 1-3) with the mitten on top and
not on top: the effect, the strike's reason, the blocking slots, the board the click
leaves, what the effect proves about the mitten, and, for every deal kind (plain,
Defuse, mitten) a draw or a discard can bring, the faces it can bring.

"Every hand": the spec tells faces apart only by whether the rule in force admits them
and whether they are plain, a Defuse or the mitten, so hands are built from one face of
each such kind (as the oracle classifies them): every ordered hand of up to two cards
and every three-card multiset in a varying order. Every face is also tried alone, so a
rule that mistook one particular face would still show.
"""

from __future__ import annotations

import dataclasses
import itertools

import oracle_manual as manual
from oracle_manual import Face
from oracle_module import NaiveModule

from defuser.engine.actions import Action, ActionKind, StrikeKind
from defuser.engine.board import Board, Effect
from defuser.engine.deck import DealKind
from edgework import TABLE_LETTERS, Card, Colour, Ruleset, Shape, TableLetter

ACTIONS = (Action.draw(), Action.discard(), Action.play(1), Action.play(2), Action.play(3))
ORACLE_KIND = {ActionKind.DRAW: "draw", ActionKind.DISCARD: "discard", ActionKind.PLAY: "play"}
EFFECT_OF = {"nothing": Effect.NOTHING, "solved": Effect.SOLVE, "strike": Effect.STRIKE}
N = 10  # the interval does not enter the visible rules; any N lets the oracle run


def card_of(face: Face) -> Card:
    """The project's face for an oracle ``(colour, shape)`` pair."""
    return Card.of(Shape[face[1].upper()], Colour[face[0].upper()])


FACE_CARDS = {face: card_of(face) for face in manual.ALL_FACES}


def representatives(table: str, digit: int, discard: Face) -> list[Face]:
    """One face per kind the spec tells apart: legal or not x plain, Defuse, mitten."""
    seen: dict[tuple[bool, str], Face] = {}
    for face in manual.ALL_FACES:
        kind = manual.card_type(table, face)
        key = (
            manual.is_legal(table, digit, face, discard),
            kind if kind in (manual.DEFUSE, manual.MITTEN) else "plain",
        )
        seen.setdefault(key, face)
    return list(seen.values())


def hands(faces: list[Face]) -> list[tuple[Face, ...]]:
    """Every face alone, every ordered hand of up to two representative faces, and
    every three-card multiset of them in a varying order."""
    reps = faces
    out: list[tuple[Face, ...]] = [(f,) for f in manual.ALL_FACES]
    out += [()]
    out += list(itertools.product(reps, repeat=2))
    orders = list(itertools.permutations(range(3)))
    for i, triple in enumerate(itertools.combinations_with_replacement(reps, 3)):
        out.append(tuple(triple[j] for j in orders[i % len(orders)]))
    return out


def oracle_at(table: str, digit: int, discard: Face, hand: tuple[Face, ...],
              next_deal: DealKind) -> NaiveModule:
    """An oracle module whose next deal is of kind ``next_deal`` (the mitten on top
    exactly when that kind is the mitten)."""
    mitten_deal = 1 if next_deal is DealKind.MITTEN else 3
    defuse_deal = 1 if next_deal is DealKind.DEFUSE else None
    return NaiveModule(table, digit, N, discard, list(hand), mitten_deal, defuse_deal)


def oracle_answer(oracle: NaiveModule, action: Action) -> tuple[object, ...]:
    """What the oracle says ``action`` does, in the shape of :func:`board_answer`."""
    kind = ORACLE_KIND[action.kind]
    out = oracle.predict(kind, action.slot)
    if out.kind == "ok":
        effect = Effect.DEAL if out.deals else Effect.PLAY
    else:
        effect = EFFECT_OF[out.kind]
    strike = None if out.strike is None else StrikeKind(out.strike)
    faces: frozenset[Card] = frozenset()
    after = None
    if effect in (Effect.PLAY, Effect.SOLVE):
        moved = dataclasses.replace(oracle, hand=list(oracle.hand), log=list(oracle.log))
        moved.apply(kind, action.slot, None, None)
        after = (FACE_CARDS[moved.discard], tuple(FACE_CARDS[c] for c in moved.hand))
    if effect is Effect.DEAL:
        faces = frozenset(FACE_CARDS[f] for f in oracle.allowed_faces(kind))
    return effect, strike, tuple(out.blocking), after, faces


def board_answer(board: Board, action: Action, kind: DealKind) -> tuple[object, ...]:
    """What the board says ``action`` does when the next deal is of kind ``kind``."""
    verdict = board.verdict(action, mitten_on_top=kind is DealKind.MITTEN)
    effect = verdict.effect
    after = None
    if effect is Effect.PLAY:
        moved = board.after(action)
        after = (moved.discard, moved.hand)
    elif effect is Effect.SOLVE:
        assert action.slot is not None
        moved = board.solve(action.slot)
        assert moved.solved
        after = (moved.discard, moved.hand)
    faces: frozenset[Card] = frozenset()
    if effect is Effect.DEAL:
        faces = frozenset(board.deal_faces(kind, draw=action.kind is ActionKind.DRAW))
    return effect, verdict.strike, verdict.blocking, after, faces


def test_board_against_the_oracle_module() -> None:
    """Every table, digit, discard, hand, click and deal kind: the board says what the
    oracle says, and what each effect proves about the mitten follows from it."""
    boards = 0
    proofs = 0
    for table, digit in itertools.product(TABLE_LETTERS, range(10)):
        rules = Ruleset(table, digit)
        for discard in manual.ALL_FACES:
            d = FACE_CARDS[discard]
            expected = []
            got = []
            for hand in hands(representatives(table, digit, discard)):
                board = Board(rules, d, tuple(FACE_CARDS[c] for c in hand))
                boards += 1
                for kind in DealKind:
                    oracle = oracle_at(table, digit, discard, hand, kind)
                    # A Defuse due next changes only what a deal brings.
                    for action in ACTIONS if kind is not DealKind.DEFUSE else ACTIONS[:2]:
                        expected.append((hand, kind, action, oracle_answer(oracle, action)))
                        got.append((hand, kind, action, board_answer(board, action, kind)))
                for action in ACTIONS:
                    not_top, on_top = board.effects(action)
                    if not_top is on_top:
                        assert board.on_top_if(action, on_top) == (False, True)
                        continue
                    assert board.on_top_if(action, not_top) == (False,)
                    assert board.on_top_if(action, on_top) == (True,)
                    proofs += 1
            if got != expected:
                i = next(i for i, (g, e) in enumerate(zip(got, expected, strict=True)) if g != e)
                raise AssertionError((table, digit, discard, got[i], expected[i]))
    assert boards == 42_200
    # Effects that prove something happen (a draw with room, a Defuse played).
    assert proofs > 10_000


def test_a_solved_board_does_nothing() -> None:
    """Once solved, no click does anything, whatever the deck."""
    board = Board(Ruleset(TableLetter.A, 3), Card.RED_CIRCLE, (Card.BLUE_CIRCLE,), solved=True)
    for action in ACTIONS:
        assert board.effects(action) == (Effect.NOTHING, Effect.NOTHING)


def test_every_rule_set_admits_a_plain_face_on_every_discard() -> None:
    """The guaranteed-legal draw always has a legal plain face to bring (the board's
    fallback to every plain face is never used)."""
    for table, digit in itertools.product(TABLE_LETTERS, range(10)):
        rules = Ruleset(table, digit)
        for d in Card:
            board = Board(rules, d, ())
            assert any(board.is_legal(c) for c in rules.plain_faces), (table, digit, d)
