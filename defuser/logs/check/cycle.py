"""The replay's deck: every deal checked against the mitten cycle, and the countdown.

Contract: :func:`deal` moves the deck of a state by one card and says what in that card
contradicts the cycle (:mod:`defuser.engine.deck` states the cycle and says what a
deal at its place cannot be, :func:`~defuser.engine.deck.deal_breach`; the rulebook
:class:`~defuser.engine.board.Board` the faces a deal can bring), in the replay's words;
:func:`coming_line` checks the countdown line that follows a deal.
"""

from __future__ import annotations

from defuser.engine import deck
from defuser.engine.board import Board
from defuser.engine.deck import CycleBreach, DealKind, deal_kind
from defuser.logs.check.state import Branch, Context, ReplayState, Stage, faces, ruleset
from edgework import MAX_INTERVAL, Card


def deal(ctx: Context, s: ReplayState, line: int, card: Card, via_draw: bool) -> list[Branch]:
    """The deck's top card is dealt: check it against the cycle and move the deck.

    Returns states with ``until``, ``first_cycle``, ``defuse_line``, ``coming`` and
    ``deals`` updated (the hand and discard are the caller's).
    """
    if s.until is None:
        # The first deal: the mitten is the k-th card dealt, k in 2..N-1, so it is
        # u0 = k-1 deals away at the start. Every u0 the log allows is kept.
        out: list[Branch] = []
        for u0 in deck.first_mitten_distances(s.n if s.n is not None else MAX_INTERVAL):
            n_min = max(s.n_min, u0 + 2)
            out += deal(ctx, s.evolve(until=u0, n_min=n_min), line, card, via_draw)
        return out
    if s.until == 0:
        return _mitten_dealt(s, card)
    return [_card_dealt(s, s.until, line, card, via_draw)]


def _mitten_dealt(s: ReplayState, card: Card) -> list[Branch]:
    """The mitten was on top (only a discard reaches here: a draw strikes): one new
    cycle per N the log still allows."""
    rules = ruleset(s.table, s.digit)
    problems: list[str] = []
    ns = [s.n] if s.n is not None else list(range(s.n_min, MAX_INTERVAL + 1))
    assert s.discard is not None
    if card not in Board(rules, s.discard, s.hand).deal_faces(DealKind.MITTEN, draw=False):
        problems.append(
            f"the Exploding Mitten ({rules.mitten.words}) was on top of the deck, so "
            f"the discard must reveal it, not {card.words}"
        )
    return [
        (
            s.evolve(n=interval, until=deck.cycle_length(interval), first_cycle=False,
                       defuse_line=0, coming=0, deals=s.deals + 1),
            list(problems),
        )
        for interval in ns
    ]


def _card_dealt(s: ReplayState, until: int, line: int, card: Card, via_draw: bool) -> Branch:
    """A card other than a due mitten was dealt, ``until`` deals before the mitten."""
    new = s.evolve(until=until - 1, coming=until, deals=s.deals + 1)
    problem, defuse_dealt = _cycle_problem(s, until, card)
    if defuse_dealt:
        new = new.evolve(defuse_line=line)
    problems = [problem] if problem else []
    if via_draw:
        problems += _guaranteed_legal_problem(s, card)
    return new, problems


def _cycle_problem(s: ReplayState, until: int, card: Card) -> tuple[str, bool]:
    """What contradicts the cycle (:func:`defuser.engine.deck.deal_breach`) in dealing
    ``card`` now, and whether it was this cycle's Defuse (counted as dealt)."""
    rules = ruleset(s.table, s.digit)
    kind = deal_kind(rules, card)
    breach = deck.deal_breach(kind, until, defuse_dealt=bool(s.defuse_line),
                              full_cycle=not s.first_cycle, interval=s.n)
    if breach is None:
        return "", kind is DealKind.DEFUSE
    return _breach_words(breach, s, until, card), False


def _breach_words(breach: CycleBreach, s: ReplayState, until: int, card: Card) -> str:
    """The problem a breach of the cycle is, in the replay's words."""
    match breach:
        case CycleBreach.MITTEN_EARLY:
            return (
                f"the Exploding Mitten ({card.words}) cannot be dealt here: it is "
                f"{until} deal(s) away (it is dealt only when the countdown has said 1)"
            )
        case CycleBreach.SECOND_DEFUSE:
            return (
                f"a second Defuse in one cycle: this cycle's Defuse was dealt at line "
                f"{s.defuse_line}, and each cycle holds exactly one"
            )
        case CycleBreach.DEFUSE_FIRST:
            return (
                "a Defuse is never the first card dealt after a mitten (its place in a "
                "full cycle is the 2nd to the (N-1)-th deal)"
            )
        case CycleBreach.DEFUSE_DUE:
            rules = ruleset(s.table, s.digit)
            return (
                f"this is the last deal before the mitten and this cycle's Defuse has not "
                f"come yet, so it must be a Defuse ({faces(rules.defuse_faces)}), "
                f"not {card.words}"
            )


def _guaranteed_legal_problem(s: ReplayState, card: Card) -> list[str]:
    """A draw into two unplayable cards always deals a playable plain card."""
    rules = ruleset(s.table, s.digit)
    discard = s.discard
    if discard is None or deal_kind(rules, card) is DealKind.DEFUSE:
        return []
    board = Board(rules, discard, s.hand)
    if not board.guaranteed_legal_draw:
        return []
    legal_plain = board.deal_faces(DealKind.PLAIN, draw=True)
    if card not in legal_plain:
        return [
            f"a draw into two unplayable cards always gives a playable card "
            f"({faces(legal_plain)} under rule {rules.rule(discard)}), not {card.words}"
        ]
    return []


def coming_line(ctx: Context, s: ReplayState, k: int) -> Branch:
    """Check the countdown line that follows a deal."""
    if k == s.coming:
        return s.evolve(stage=Stage.IDLE), []
    if s.coming == 0:
        why = "right after the Exploding Mitten is discarded the module writes 0"
    elif not s.first_cycle and s.n is not None and s.coming == s.n - 1:
        why = (
            f"the first deal after a mitten leaves it {s.n - 2} deals away, so the line "
            f"says N-1 ({ctx.n_reason(s.n)})"
        )
    elif s.first_cycle:
        why = "the first mitten's place, fixed by the other countdown lines, gives this"
    else:
        why = "the previous countdown, less one deal, gives this"
    return s.evolve(stage=Stage.IDLE), [
        f"the line says the mitten is coming in {k} draws, expected {s.coming}: {why}"
    ]

