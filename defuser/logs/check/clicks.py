"""The replay's clicks: draws, discards, plays, strikes and the solve.

Contract: each function takes a state and the first line of one click (with its
fields) and returns the successor state(s), each with the contradictions the line
costs; a contradicted click continues from its most plausible repairs. What each
click should have done is the rulebook's answer (:class:`~defuser.engine.board.Board`),
the mitten being on top when the replay's countdown says so.
"""

from __future__ import annotations

import functools

from defuser.engine import modlog
from defuser.engine.actions import Action, StrikeKind
from defuser.engine.board import Board, Effect
from defuser.engine.rules import HAND_SIZE
from defuser.logs.check.cycle import deal
from defuser.logs.check.messages import ORDINAL_WORD, SLOT_EXCLAIM
from defuser.logs.check.state import (
    Branch,
    Context,
    ReplayState,
    Stage,
    hand_words,
    legal_words,
    ordinal_line,
    remove,
    rule_why,
    ruleset,
    slot_words,
    type_problem,
)
from edgework import Card, CardType

_DRAW = Action.draw()
_DISCARD = Action.discard()
#: ``Action.play(slot)`` made once per slot (the replay asks for them on every play).
_PLAYS = {slot: Action.play(slot) for slot in range(1, HAND_SIZE + 1)}


def _board(s: ReplayState) -> Board:
    """The visible module of a replay state (clicks come after the opening discard)."""
    assert s.discard is not None
    return _board_of(s.table, s.digit, s.discard, s.hand)


@functools.lru_cache(maxsize=4096)
def _board_of(table: str, digit: int, discard: Card, hand: tuple[Card, ...]) -> Board:
    """Boards are values: a long module's replay asks for the same few again and again."""
    return Board(ruleset(table, digit), discard, hand)


def _draw_strike(s: ReplayState) -> StrikeKind | None:
    """Why a draw strikes in this state (``None``: it deals)."""
    return _board(s).verdict(_DRAW, mitten_on_top=s.until == 0).strike


def _hand_after_draw(s: ReplayState, card: Card) -> tuple[Card, ...]:
    """The hand a draw line leaves, the log being right that ``card`` was drawn: the
    board the draw leaves (:meth:`~defuser.engine.board.Board.after`) while the hand
    has room, the hand as it was when it is full (no slot takes the card)."""
    board = _board(s)
    return board.after(_DRAW, card).hand if board.has_room else s.hand


def _play_effect(s: ReplayState, card: Card) -> Effect:
    """What playing ``card`` (which is in the hand) does in this state."""
    slot = _PLAYS[s.hand.index(card) + 1]
    return _board(s).verdict(slot, mitten_on_top=s.until == 0).effect


def drew(ctx: Context, s: ReplayState, line: int, card: Card, claimed: CardType) -> list[Branch]:
    """A draw dealt ``card`` into the hand."""
    rules = ruleset(s.table, s.digit)
    problems = []
    bad_type = type_problem(rules, card, claimed)
    if bad_type:
        problems.append(bad_type)
    strike = _draw_strike(s)
    if strike is StrikeKind.MITTEN_ON_TOP:
        problems.append(
            "the Exploding Mitten was on top of the deck, so a draw strikes "
            "('You were going to draw an Exploding Mitten. Strike!')"
        )
        hand = _hand_after_draw(s, card)
        return [(s.evolve(hand=hand, stage=Stage.COMING, coming=1, pending_line=line),
                 problems)]
    if strike is StrikeKind.HAND_FULL:
        problems.append(
            f"the hand held {HAND_SIZE} cards ({' '.join(c.words for c in s.hand)}), so "
            "a draw strikes ('Your hand was full. Strike!')"
        )
    hand = _hand_after_draw(s, card)  # a deal moves the deck, never the hand
    out = []
    for new, deal_problems in deal(ctx, s, line, card, via_draw=True):
        out.append((new.evolve(hand=hand, stage=Stage.COMING, pending_line=line),
                    problems + deal_problems))
    return out


def discarded(
    ctx: Context, s: ReplayState, line: int, card: Card, claimed: CardType
) -> list[Branch]:
    """A discard dealt ``card`` onto the pile."""
    rules = ruleset(s.table, s.digit)
    assert s.discard is not None
    problems = []
    bad_type = type_problem(rules, card, claimed)
    if bad_type:
        problems.append(bad_type)
    blocking = _board(s).verdict(_DISCARD, mitten_on_top=s.until == 0).blocking
    if blocking:
        problems.append(
            f"discarding was not allowed: {slot_words(s.hand, blocking)} could be "
            f"played under {rule_why(rules, s.discard)}, so the module "
            "strikes instead"
        )
    out = []
    for new, deal_problems in deal(ctx, s, line, card, via_draw=False):
        base = new.evolve(stage=Stage.RULE_AFTER_DISCARD, pending_line=line)
        out.append((base.evolve(discard=card), problems + deal_problems))
        if s.until == 0 and card != rules.mitten:
            # The face may be what was altered: the mitten really went to the pile.
            out.append((base.evolve(discard=rules.mitten), problems + deal_problems))
    return out


def played(ctx: Context, s: ReplayState, line: int, card: Card, claimed: CardType) -> list[Branch]:
    """``card`` was played from the hand onto the pile."""
    rules = ruleset(s.table, s.digit)
    assert s.discard is not None
    problems = []
    bad_type = type_problem(rules, card, claimed)
    if bad_type:
        problems.append(bad_type)
    base = s.evolve(stage=Stage.RULE_AFTER_PLAY, pending_line=line)
    board = _board(s)
    legal = board.is_legal(card)
    held = card in s.hand
    if held and _play_effect(s, card) is Effect.PLAY:
        return [(base.evolve(hand=h, discard=card), problems) for h in remove(s.hand, card)]
    if not held:
        problems.append(
            f"{card.words} is not in the hand ({hand_words(s.hand)})"
        )
    elif not legal:
        problems.append(
            f"{card.words} cannot be played under {rule_why(rules, s.discard)}"
            f" ({legal_words(board)}); the module strikes instead"
        )
    else:
        problems.append(
            "the Exploding Mitten was on top of the deck, so playing a Defuse solves the "
            "module ('You played a Defuse card when an Exploding Mitten was at the top "
            "of the deck. Module solved!')"
        )
    # Repairs: the log is right about the card (it moved anyway), or it names the
    # wrong card and one of the legal cards was played.
    out: list[Branch] = []
    if held:
        out += [(base.evolve(hand=h, discard=card), problems)
                for h in remove(s.hand, card)]
    else:
        out.append((base.evolve(discard=card), problems))
    for other in dict.fromkeys(s.hand[i - 1] for i in board.legal_slots):
        if other != card:
            out += [(base.evolve(hand=h, discard=other), problems)
                    for h in remove(s.hand, other)]
    return out


def invalid_play(ctx: Context, s: ReplayState, card: Card) -> Branch:
    """Playing ``card`` struck: it was not legal."""
    rules = ruleset(s.table, s.digit)
    assert s.discard is not None
    problems = []
    if card not in s.hand:
        problems.append(f"{card.words} is not in the hand ({hand_words(s.hand)})")
    elif (effect := _play_effect(s, card)) is Effect.SOLVE:
        problems.append(
            "the Exploding Mitten was on top of the deck, so playing a Defuse solves the "
            "module"
        )
    elif effect is Effect.PLAY:
        problems.append(
            f"{card.words} is legal under {rule_why(rules, s.discard)}, "
            "so playing it succeeds"
        )
    return s, problems


def mitten_strike(ctx: Context, s: ReplayState) -> Branch:
    """A draw struck because the mitten was on top."""
    if s.until is None:
        return s, [
            "no card has been dealt yet and the first card dealt is never the "
            "Exploding Mitten, so it cannot be on top"
        ]
    if _draw_strike(s) is not StrikeKind.MITTEN_ON_TOP:
        return s, [
            f"the Exploding Mitten was not on top of the deck: it is {s.until} deal(s) "
            "away by the countdown"
        ]
    return s, []


def hand_full(ctx: Context, s: ReplayState) -> Branch:
    """A draw struck because the hand was full."""
    problems = []
    strike = _draw_strike(s)
    if strike is StrikeKind.MITTEN_ON_TOP:
        problems.append(
            "the Exploding Mitten was on top of the deck, and that check comes first: "
            "the strike says 'You were going to draw an Exploding Mitten. Strike!'"
        )
    elif strike is not StrikeKind.HAND_FULL:
        problems.append(
            f"the hand held only {len(s.hand)} card(s) ({hand_words(s.hand)}), so it "
            "was not full"
        )
    return s, problems


def discard_blocked(ctx: Context, s: ReplayState, line: int) -> Branch:
    """A discard struck because a card could be played."""
    rules = ruleset(s.table, s.digit)
    assert s.discard is not None
    board = _board(s)
    blocking = board.blocking_slots
    base = s.evolve(stage=Stage.BLOCKING, pending_line=line, listed=0)
    if blocking:
        return base.evolve(blocking=blocking), []
    legal = board.legal_slots
    why = (
        f"the only legal card, {slot_words(s.hand, legal)}, is a Defuse, and a lone "
        "legal Defuse never blocks a discard"
        if legal
        else f"no card in the hand ({hand_words(s.hand)}) is legal"
    )
    return base.evolve(blocking=None), [
        f"discarding was allowed: {why} under {rule_why(rules, s.discard)}"
    ]


def blocking_line(ctx: Context, s: ReplayState, line: modlog.BlockingSlotMessage) -> Branch:
    """One blocking-card line of a blocked discard."""
    slot = line.slot
    problems = []
    if line.exclamation != SLOT_EXCLAIM[slot]:
        problems.append(
            f"the {ORDINAL_WORD[slot]} card's line ends '{SLOT_EXCLAIM[slot]}', "
            f"not '{line.exclamation}'"
        )
    new = s.evolve(listed=s.listed + 1)
    if s.blocking is None:
        return new, problems
    rules = ruleset(s.table, s.digit)
    assert s.discard is not None
    if s.listed < len(s.blocking):
        want = s.blocking[s.listed]
        if slot != want:
            problems.append(
                f"expected '{ordinal_line(want)}': the blocking cards are "
                f"{slot_words(s.hand, s.blocking)} under "
                f"{rule_why(rules, s.discard)}"
            )
    else:
        problems.append(
            f"the blocking cards are only {slot_words(s.hand, s.blocking)} under "
            f"{rule_why(rules, s.discard)}"
        )
    return new, problems


def blocking_end(ctx: Context, s: ReplayState) -> Branch:
    """The ``Strike!`` that closes a blocked discard."""
    problems = []
    if s.blocking is not None and s.listed < len(s.blocking):
        missing = s.blocking[s.listed :]
        problems.append(
            f"the list of blocking cards misses {slot_words(s.hand, missing)} "
            f"(expected '{ordinal_line(missing[0])}' before 'Strike!')"
        )
    return s.evolve(stage=Stage.IDLE, blocking=(), listed=0), problems


def solved(ctx: Context, s: ReplayState, line: int) -> list[Branch]:
    """A Defuse was played with the mitten on top."""
    problems = []
    if s.until is None:
        problems.append(
            "no card has been dealt yet and the first card dealt is never the "
            "Exploding Mitten, so it cannot be on top for the solve"
        )
    elif s.until != 0:
        problems.append(
            f"the Exploding Mitten was not on top of the deck (it is {s.until} deal(s) "
            "away by the countdown), so a Defuse cannot solve the module"
        )
    board = _board(s)
    defuses = [
        c for i, c in enumerate(s.hand, 1)
        if board.verdict(Action.play(i), mitten_on_top=True).effect is Effect.SOLVE
    ]
    if not defuses:
        problems.append(f"there is no Defuse in the hand ({hand_words(s.hand)})")
        return [(s.evolve(solved_line=line), problems)]
    out = []
    for card in dict.fromkeys(defuses):
        for hand in remove(s.hand, card):
            out.append((s.evolve(solved_line=line, hand=hand, discard=card), problems))
    return out

