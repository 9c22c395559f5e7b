"""One check of a visible hand (issue 24, item 6): every hand a module shows passes it,
the hands no module shows fail it with one line naming the hand and what was expected,
and ``solve`` (options and ``--batch``) and ``live`` refuse the same hands with it."""

from __future__ import annotations

import random

import pytest
from cli_helpers import run_cli

from defuser.apps.live_session import LiveSession
from defuser.engine import deck
from defuser.engine.actions import Action
from defuser.engine.board import Board
from defuser.engine.simulator import Module
from defuser.errors import InvalidHandError
from edgework import Batteries, Card, Ruleset, SerialNumber, TableLetter

TABLE_B = Ruleset(TableLetter.B, 4)  # Table B's mitten is RH


@pytest.mark.parametrize("table", list(TableLetter))
def test_every_opening_hand_passes(table: TableLetter) -> None:
    rules = Ruleset(table, 3)
    for discard, hand in deck.opening_distribution(rules):
        assert Board.visible(rules, discard, hand).hand == hand


def test_every_hand_of_simulated_games_passes() -> None:
    """The states ``mittens play`` shows come from the simulator: all pass the check."""
    rng = random.Random(24)
    clicks = [Action.draw(), Action.discard(), *(Action.play(s) for s in (1, 2, 3))]
    mittens_held = 0
    for seed in range(400):
        rules = Ruleset(list(TableLetter)[seed % 4], seed % 10)
        module = Module(rules, 9 + seed % 5, random.Random(seed))
        for _ in range(40):
            Board.visible(rules, module.discard_top, module.hand)
            mittens_held += rules.mitten in module.hand
            if module.solved:
                break
            module.act(rng.choice(clicks))
    assert mittens_held  # some openings hold the mitten face, and pass


@pytest.mark.parametrize(
    ("hand", "where"),
    [("RH RH RH", "3 times"), ("RH RH", "2 times"), ("BC GS RH", "in slot 3")],
)
def test_hands_no_module_shows_fail(hand: str, where: str) -> None:
    cards = [Card.parse(c) for c in hand.split()]
    with pytest.raises(InvalidHandError) as failed:
        Board.visible(TABLE_B, Card.RED_CIRCLE, cards)
    assert str(failed.value) == (
        f"hand '{hand}' holds RH, table B's Exploding Mitten, {where}, expected it at most "
        "once and only in slot 1 or 2 (only the opening deal puts it in a hand)"
    )
    # RH alone, in slot 1, passes.
    assert Board.visible(TABLE_B, Card.RED_CIRCLE, cards[:1]).hand == tuple(cards[:1])


def test_solve_refuses_the_hand_live_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = (
        "hand 'RH RH RH' holds RH, table B's Exploding Mitten, 3 times, expected it at most "
        "once and only in slot 1 or 2 (only the opening deal puts it in a hand)"
    )
    args = ["solve", "--serial", "AE3CD4", "--batteries", "2", "--discard", "RC"]
    run = run_cli([*args, "--hand", "RH RH RH"], monkeypatch)
    assert (run.code, run.out) == (2, "")
    assert run.err == f"mittens solve: error: Invalid value for '--hand': {expected}\n"
    batch = run_cli(["solve", "--batch"], monkeypatch, "AE3CD4 2 RC RH RH RH\n")
    assert batch.code == 1
    assert batch.err.splitlines()[0] == f"line 1: {expected}"
    session = LiveSession(SerialNumber.parse("AE3CD4"), Batteries.parse("2"))
    reply = session.handle("start RC RH RH RH")
    assert not reply.ok and reply.error == expected
    slot_3 = session.handle("start RC GS BH RH")
    assert not slot_3.ok and (slot_3.error or "").startswith("hand 'GS BH RH' holds RH")
    assert session.handle("start RC RH BH GS").ok  # a rare opening: slot 1 re-rolled to RH
