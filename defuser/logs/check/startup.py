"""The replay's start-up lines: the table, the opening discard, the rule, the hand.

Contract: each function takes a state and one start-up line's message and returns the
successor state(s) with the contradictions the line costs under that state.
"""

from __future__ import annotations

from defuser.engine import deck, modlog
from defuser.engine.rules import HAND_SIZE
from defuser.logs.check.state import (
    Branch,
    Context,
    ReplayState,
    Stage,
    rule_why,
    ruleset,
    type_problem,
)


def table_line(ctx: Context, s: ReplayState, claimed: str) -> Branch:
    """The start-up's table line."""
    problems = []
    if claimed != s.table:
        problems.append(
            f"the line says Table {claimed}, expected Table {s.table}: "
            f"{ctx.table_reason(s.table)}"
        )
    return s.evolve(stage=Stage.OPENING_DISCARD), problems


def initial_discard(
    ctx: Context, s: ReplayState, line: modlog.OpeningDiscardMessage
) -> list[Branch]:
    """The start-up's opening discard line."""
    rules = ruleset(s.table, s.digit)
    card = line.card
    problems = []
    bad_type = type_problem(rules, card, line.kind)
    if bad_type:
        problems.append(bad_type)
    if card not in deck.opening_discards(rules):
        problems.append(
            f"the opening discard is never the Exploding Mitten ({card.words} in "
            f"Table {s.table})"
        )
    return [(s.evolve(stage=Stage.OPENING_RULE, discard=card), problems)]


def rule_line(
    ctx: Context, s: ReplayState, line: modlog.RuleMessage | modlog.RuleNowMessage
) -> Branch:
    """A rule line: after the opening discard, a play or a discard."""
    letter = line.rule
    problems = []
    rules = ruleset(s.table, s.digit)
    assert s.discard is not None
    expected = rules.rule(s.discard)
    wording_now = s.stage == Stage.COMING  # a discard just happened
    if wording_now and isinstance(line, modlog.RuleMessage):
        problems.append(
            "after a discard the module writes 'The rule used now is X.', not "
            "'The rule used is X.'"
        )
    elif not wording_now and isinstance(line, modlog.RuleNowMessage):
        problems.append(
            "'The rule used now is X.' follows only a discard; here the module writes "
            "'The rule used is X.'"
        )
    if letter != expected:
        kind = rules.type_of(s.discard)
        problems.append(
            f"the line says rule {letter}, expected rule {expected}: Table E gives "
            f"{expected} for {kind.card_words} ({s.discard.words}) on the discard "
            f"pile with {ctx.digit_reason(s.digit)}"
        )
    return s, problems


def hand_card(
    ctx: Context, s: ReplayState, number: int, line: modlog.HandCardMessage
) -> list[Branch]:
    """One start-up hand card line (line ``number``)."""
    rules = ruleset(s.table, s.digit)
    card = line.card
    problems = []
    if line.n != len(s.hand) + 1:
        problems.append(f"the line says Card #{line.n}, expected Card #{len(s.hand) + 1}")
    bad_type = type_problem(rules, card, line.kind)
    if bad_type:
        problems.append(bad_type)
    if len(s.hand) >= HAND_SIZE:
        problems.append(f"the start-up hand has only {HAND_SIZE} cards")
        return [(s.evolve(stage=Stage.IDLE), problems)]
    hand = (*s.hand, card)
    if len(hand) == HAND_SIZE:
        assert s.discard is not None
        if HAND_SIZE not in deck.REROLL_SLOTS and not rules.type_of(card).is_plain:
            problems.append(
                f"card #3 is never re-rolled at start-up, so it is always a plain card, "
                f"not {rules.type_of(card).card_words}"
            )
        elif not deck.opening_has_legal_plain(rules, s.discard, hand):
            problems.append(
                "the opening hand has no legal plain card, but the module re-rolls until "
                f"it has one ({rule_why(rules, s.discard)})"
            )
    return [(s.evolve(hand=hand, stage=Stage.HAND if len(hand) < HAND_SIZE else Stage.IDLE),
             problems)]

