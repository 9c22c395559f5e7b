"""``--follow`` on missions with several bombs, uncertain hand orders and lost lines.

The defuser here clicks what the follower advises, on simulated modules written into
real-format logs: every mission layout gives each module its own bomb, advice never
rests on a guess that could strike (a bomb the lines cannot tell, two equal cards in
the hand), and a line that does not follow is got over.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from gamelog_builder import BombSpec, game_log, simulated_messages, simulated_module

from defuser.apps.follow.advice import Advice, FollowEvent, LostTrack, Moved
from defuser.apps.follow.follower import Follower
from defuser.apps.follow.following import poll_log
from defuser.apps.tracking import ClickKind, LoggedClick, Tracked, View, combine
from defuser.dashboard.follow_words import advice_json
from defuser.engine import modlog
from defuser.engine.actions import Action
from defuser.engine.board import Board
from defuser.engine.deck import DealKind
from defuser.engine.simulator import Module, Outcome
from defuser.logs.stream import LoggedBomb, edgework_key
from defuser.strategy.belief import CycleBelief, Observation
from defuser.strategy.values import recommend
from edgework import Card, CardType, Ruleset, SerialNumber, TableLetter

LAYOUTS = {
    "in sequence": {},
    "mission": {"mission": True},
    "MultipleBombs": {"multiple_bombs": True},
    "MultipleBombs, no round lines": {"multiple_bombs": True, "rounds": False},
}

BOMBS = (("AB3CD4", [2, 2, 1]), ("KZ5LG7", [1]), ("EU2TT5", [2]))


def _mission(seed: int) -> list[BombSpec]:
    specs = []
    for index, (serial, holders) in enumerate(BOMBS):
        module_id = index + 1
        specs.append(BombSpec(serial, holders, {
            module_id: simulated_messages(serial, holders, seed + module_id, module_id),
        }, seed=seed + index))
    return specs


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_gives_each_module_its_bomb_for_certain(layout: str) -> None:
    for seed in range(3):
        built = game_log(_mission(seed), seed=seed, **LAYOUTS[layout])  # type: ignore[arg-type]
        advice = Follower().feed_all(built.data.decode().splitlines())
        assert advice and all(a.reply.ok for a in advice)
        assert not any(isinstance(a.event, LostTrack) for a in advice)
        for a in advice:
            obj = a.to_json()
            assert obj["bomb"]["serial"] == BOMBS[a.module_id - 1][0]
            assert obj["bomb"]["certain"] is True and obj["bomb"]["candidates"] == 1
            assert obj["bomb"]["batteries"] == sum(BOMBS[a.module_id - 1][1])
        for module_id in (1, 2, 3):
            assert [a.solved for a in advice if a.module_id == module_id][-1]


def test_multiple_bombs_layout_in_crlf_written_in_two_parts(tmp_path: Path) -> None:
    built = game_log(_mission(7), seed=7, multiple_bombs=True, newline="\r\n")
    path = tmp_path / "output_log.txt"
    path.write_bytes(b"")
    pieces = []
    rng = random.Random(7)
    data = built.data
    while data:
        cut = rng.randrange(1, 400)
        pieces.append(data[:cut])
        data = data[cut:]
    seen: list[Advice] = []

    def write_next(_: float) -> None:
        with path.open("ab") as handle:
            handle.write(pieces.pop(0))

    poll_log(path, seen.append, poll=0, stop=lambda: not pieces, sleep=write_next)
    assert seen and all(a.reply.ok and a.bomb_certain for a in seen)
    assert {(a.module_id, a.serial) for a in seen} == {
        (1, "AB3CD4"), (2, "KZ5LG7"), (3, "EU2TT5")}


def _closed_loop(module: Module, follower: Follower, other_lines: list[str]) -> list[Advice]:
    """The defuser clicks what the follower advises; where it names a card without a
    command, the defuser plays the slot that holds it (the defuser sees the hand);
    where it gives no click, the defuser plays the best click it can see."""
    advice = follower.feed_all(other_lines)
    seen = Observation.start(module.rules, module.interval, module.discard_top, module.hand)
    written = 0
    for _ in range(400):
        new = module.log[written:]
        written = len(module.log)
        for line in new:
            advice += follower.feed(line)
        if module.solved:
            break
        reply = advice[-1].reply
        action = reply.recommendation.action
        if action is None and reply.play_card is not None:
            action = Action.play(module.hand.index(reply.play_card) + 1)
            assert reply.to_json()["recommendation"]["command"] is None
        advised = action is not None
        if action is None:
            action = recommend(seen).action
            assert action is not None
        result = module.act(action)
        assert not (advised and result.outcome is Outcome.STRIKE), advice[-1]
        seen = seen.after(result)
    assert module.solved
    return advice


def test_two_bombs_the_lines_cannot_tell_apart_get_advice_safe_on_both() -> None:
    # Same table and last digit, N = 9 and N = 13: the lines never say which bomb.
    header = game_log([BombSpec("AB3CD4", [2, 2, 1], {}), BombSpec("EF5GH4", [2, 2], {})],
                      multiple_bombs=True).lines
    uncertain = 0
    for seed in range(6):
        module = simulated_module("AB3CD4", [2, 2, 1], 40 + seed)
        advice = _closed_loop(module, Follower(), header)
        assert all(a.reply.ok for a in advice)
        assert not advice[0].bomb_certain and advice[0].candidates == 2
        # What the defuser saw (where the mitten landed) may rule a bomb out later.
        assert all(a.candidates == 2 or a.serial == "AB3CD4" for a in advice)
        uncertain += sum("not certain" in a.reply.recommendation.reason
                         or "serial number" in a.reply.recommendation.reason for a in advice)
    assert uncertain


def _duplicate_seeds() -> list[int]:
    """Seeds whose opening hand holds two equal cards."""
    found = []
    for seed in range(400):
        hand = simulated_module("KZ5LG7", [1], seed).hand
        if len(set(hand)) < len(hand):
            found.append(seed)
    return found[:8]


def test_two_equal_cards_never_make_an_advised_click_strike() -> None:
    header = game_log([BombSpec("KZ5LG7", [1], {})]).lines
    seeds = _duplicate_seeds()
    assert seeds
    for seed in seeds:
        _closed_loop(simulated_module("KZ5LG7", [1], seed), Follower(), header)


def test_two_equal_cards_the_advice_names_the_card_and_gives_no_command() -> None:
    # Hand YC RC YC on a red circle (Table D, digit 7): playing a yellow circle leaves
    # RC YC or YC RC, and the best click is the other yellow circle: slot 1 or 2.
    rules = Ruleset(TableLetter.D, 7)
    opening = [
        modlog.table(rules.table),
        modlog.initial_discard(Card.RED_CIRCLE, rules.type_of(Card.RED_CIRCLE)),
        modlog.rule(rules.rule(Card.RED_CIRCLE)),
        *(modlog.hand_card(n, c, rules.type_of(c)) for n, c in
          enumerate((Card.YELLOW_CIRCLE, Card.RED_CIRCLE, Card.YELLOW_CIRCLE), 1)),
        modlog.played(Card.YELLOW_CIRCLE, rules.type_of(Card.YELLOW_CIRCLE)),
        modlog.rule(rules.rule(Card.YELLOW_CIRCLE)),
    ]
    header = game_log([BombSpec("KZ5LG7", [1], {})]).lines
    advice = Follower().feed_all(header + [modlog.line(1, m) for m in opening])
    last = advice[-1]
    assert last.event == Moved(LoggedClick(ClickKind.PLAYED, Card.YELLOW_CIRCLE, (1, 3)))
    assert advice_json(last)["event"] == "played 1 or 3 (YC)"
    assert last.reply.play_card is Card.YELLOW_CIRCLE
    rec = last.reply.to_json()["recommendation"]
    assert rec["action"] == "play" and rec["slot"] is None and rec["command"] is None
    assert "slot 1 or 2" in rec["reason"] and "check which slot" in rec["reason"]
    assert last.reply.lines() == [last.reply.recommendation.reason]


def _picked_up(event: FollowEvent) -> bool:
    return isinstance(event, Moved) and event.picked_up


def test_a_blocked_discard_tells_the_hand_order_apart() -> None:
    rules = Ruleset(TableLetter.D, 7)
    discard = next(d for d in Card if d is not rules.mitten
                   and rules.is_legal(Card.RED_CIRCLE, d)
                   and not rules.is_legal(Card.GREEN_TRIANGLE, d))
    key = edgework_key(SerialNumber.parse("KZ5LG7"), 1)
    bomb = LoggedBomb(1, 3, "1", "KZ5LG7", [1])
    tracked = Tracked([
        View(key, (bomb,), Observation(rules, 10, CycleBelief.initial(10), discard, hand))
        for hand in ((Card.RED_CIRCLE, Card.GREEN_TRIANGLE),
                     (Card.GREEN_TRIANGLE, Card.RED_CIRCLE))
    ])
    assert combine(tracked).play_card is Card.RED_CIRCLE
    assert tracked.act(modlog.DiscardBlockedMessage(), 10) == LoggedClick(ClickKind.STRIKE_DISCARD)
    assert not tracked.narrow(modlog.BlockingSlotMessage(2, "Wow"))
    assert tracked.narrow(modlog.StrikeMessage())
    (view,) = tracked.views
    assert view.obs.hand == (Card.GREEN_TRIANGLE, Card.RED_CIRCLE)
    advice = combine(tracked)
    assert advice.play_card is None and advice.recommendation.action == Action.play(2)


def test_a_lost_line_is_got_over_and_the_module_picked_up_again() -> None:
    # One click's lines deleted (a draw, a discard or a play) at several places of
    # several games: the follower says when a line does not follow, never advises a
    # blind draw until the cycle is known again, and follows the module to its solve.
    header = game_log([BombSpec("AB3CD4", [2, 2, 1], {})]).lines
    picked_up = lost = 0
    for seed in range(4):
        messages = simulated_messages("AB3CD4", [2, 2, 1], 60 + seed, 1, blunders=0.0)
        clicks = [i for i, m in enumerate(messages)
                  if m.startswith(("You drew", "You discarded", "You played a "))]
        for cut in clicks[2:-1:3]:
            end = cut + 1
            while end < len(messages) and not messages[end].startswith("You"):
                end += 1
            kept = messages[:cut] + messages[end:]
            advice = Follower().feed_all(header + [modlog.line(1, m) for m in kept])
            events = [a.event for a in advice]
            assert advice[-1].solved
            if LostTrack() not in events:
                continue
            lost += 1
            start = events.index(LostTrack())
            again = next((i for i in range(start, len(events))
                          if _picked_up(events[i])), len(events))
            picked_up += again < len(events)
            for a in advice[start:again]:
                action = a.reply.recommendation.action
                assert action is None or str(action) != "draw"
    assert lost and picked_up



def _two_blue_circles() -> tuple[Board, Tracked]:
    """Table A, digit 3: a hand of two blue circles on a red circle, neither legal, so
    a plain card drawn next must be legal (the red circle, the one legal plain face)."""
    rules = Ruleset(TableLetter.A, 3)
    board = Board(rules, Card.RED_CIRCLE, (Card.BLUE_CIRCLE, Card.BLUE_CIRCLE))
    assert board.deal_faces(DealKind.PLAIN, draw=True) == (Card.RED_CIRCLE,)
    key = edgework_key(SerialNumber.parse("AB3CD3"), 1)
    bomb = LoggedBomb(1, 3, "1", "AB3CD3", [1])
    obs = Observation(rules, 10, CycleBelief.initial(10), board.discard, board.hand)
    return board, Tracked([View(key, (bomb,), obs)])


def test_picking_up_again_keeps_no_draw_the_rulebook_rules_out() -> None:
    # The module showed the two blue circles, then "drew BC": the line does not
    # follow, and among the states the module is picked up from, that very hand
    # drawing BC cannot be (the guaranteed-legal draw).
    board, tracked = _two_blue_circles()
    drew = modlog.DrewMessage(Card.BLUE_CIRCLE, board.rules.type_of(Card.BLUE_CIRCLE))
    assert tracked.act(drew, 9) is None
    assert tracked.resync is not None and tracked.resync.states
    shown = {(s.discard, s.hand) for s in tracked.resync.states}
    assert (Card.RED_CIRCLE, (Card.BLUE_CIRCLE,) * 3) not in shown


def test_a_draw_lost_before_a_line_brings_only_what_the_rulebook_deals() -> None:
    # The two blue circles, then "hand full": the hand had room, so a draw's line was
    # lost. The card it brought is one the rulebook deals into two illegal cards: the
    # legal plain face or a Defuse, nothing else.
    board, tracked = _two_blue_circles()
    assert tracked.act(modlog.HandFullStrikeMessage(), 9) is None
    assert tracked.resync is not None
    drawn = {s.hand[-1] for s in tracked.resync.states
             if s.discard is Card.RED_CIRCLE and s.hand[:2] == board.hand and len(s.hand) == 3}
    dealt = {*board.deal_faces(DealKind.PLAIN, draw=True),
             *board.deal_faces(DealKind.DEFUSE, draw=True)}
    assert drawn == dealt


def _cut_click(messages: list[str], cut: int) -> list[str]:
    """``messages`` without the click whose first line is ``cut`` (and its other lines)."""
    end = cut + 1
    while end < len(messages) and not messages[end].startswith("You"):
        end += 1
    return messages[:cut] + messages[end:]


def test_a_module_picked_up_again_and_solved_shows_its_defuse_on_the_pile() -> None:
    # A Defuse that solves is played: it leaves the hand for the discard pile, whether
    # the module was followed all along or picked up again after a lost line (the
    # follower kept the Defuse in the hand and the old discard top on the pile).
    header = game_log([BombSpec("AB3CD4", [2, 2, 1], {})]).lines
    seen = 0
    for seed in range(6):
        messages = simulated_messages("AB3CD4", [2, 2, 1], 60 + seed, 1, blunders=0.0)
        clicks = [i for i, m in enumerate(messages)
                  if m.startswith(("You drew", "You discarded", "You played a "))]
        for cut in clicks[-4:-1]:
            advice = Follower().feed_all(
                header + [modlog.line(1, m) for m in _cut_click(messages, cut)])
            obs = advice[-1].reply.observation
            if LostTrack() not in [a.event for a in advice] or obs is None:
                continue
            seen += 1
            assert obs.solved and obs.discard is not None
            assert obs.rules.type_of(obs.discard) is CardType.DEFUSE
    assert seen
    # One such game, exactly: the last play before the solve is lost, and the module
    # is picked up again on the solve itself.
    messages = simulated_messages("AB3CD4", [2, 2, 1], 60, 1, blunders=0.0)
    full = Follower().feed_all(header + [modlog.line(1, m) for m in messages])
    lost = Follower().feed_all(header + [modlog.line(1, m) for m in _cut_click(messages, 43)])
    assert lost[-1].event == Moved(LoggedClick(ClickKind.SOLVED))
    (before, after) = (a[-1].reply.observation for a in (full, lost))
    assert before is not None and after is not None
    assert (after.discard, after.hand) == (before.discard, before.hand)
