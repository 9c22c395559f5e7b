"""The bridge: buttons to clicks, state to display; a game on the prop, stateful against
the simulated prop with faults injected, and a golden transcript of a whole game."""

from __future__ import annotations

import os
import random
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from hypothesis_sizes import examples
from prop_helpers import (
    FAST,
    FakeProp,
    assert_consistent,
    assert_display,
    make_device,
    next_pressed,
    plug_in_elsewhere,
    prop_game,
    sim_shows,
    simulated_prop,
    unique_name,
    unplug_sim,
)

from defuser.engine.actions import Action, ActionKind
from defuser.engine.game import BombState, GameEnd
from defuser.engine.generate import random_edgework
from defuser.engine.simulator import Module, Outcome
from edgework import Batteries, Card, Edgework
from hardware.bridge import (
    ACTIONS,
    BombDisplay,
    Bridge,
    action_for,
    button_for,
    display_commands,
    winning_actions,
)
from hardware.device import Device
from hardware.propsim import registry
from hardware.protocol import (
    Button,
    ButtonPressed,
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
)
from hardware.session import Notice, NoticeKind, Timing

GOLDEN = Path(__file__).parents[1] / "golden" / "prop" / "full_game.txt"
EDGE = Edgework.parse("3B 2H // AB3CD4")


def test_buttons_and_actions_correspond() -> None:
    assert {str(action_for(b)) for b in Button} == {"draw", "discard", "play 1", "play 2", "play 3"}
    for button in Button:
        assert button_for(action_for(button)) is button
    assert ACTIONS[Button.HAND2] == Action(ActionKind.PLAY, 2)


def test_display_commands_mirror_the_module() -> None:
    edge = Edgework.parse("3B 2H // AB3CD4")
    module = Module.from_edgework(edge, 5)
    commands = display_commands(module, edge)
    assert commands == [
        ShowSerial("AB3CD4"),
        ShowBatteries(3, 2),
        ShowHolders(1, 1),
        ShowIndicatorCount(0),
        ShowPlateCount(0),
        ShowTop(module.discard_top),
        ShowHand.of(module.hand),
        ShowStrikes(0),
        ShowLimit(0),
        ShowTimer(None, 0),
        ShowGame(GameState.PLAYING),
        ShowSolved(False),
    ]
    no_batteries = display_commands(module, Edgework(serial=edge.serial))
    assert no_batteries[1:3] == [ShowBatteries(0, None), ShowHolders(None, None)]
    seven = display_commands(module, Edgework(edge.serial, Batteries(7)))
    assert seven[1] == ShowBatteries(7, None)


def test_everything_the_edgework_notation_says_reaches_the_prop() -> None:
    edge = Edgework.parse("5B 3H // *FRK, CAR, *BOB // [Parallel, Serial] [Empty] [DVI] // AB3CD4")
    module = Module.from_edgework(edge, 5)
    commands = display_commands(module, edge)
    assert commands[:12] == [
        ShowSerial("AB3CD4"),
        ShowBatteries(5, 3),
        ShowHolders(2, 1),
        ShowIndicatorCount(3),
        ShowIndicator(1, "FRK", True),
        ShowIndicator(2, "CAR", False),
        ShowIndicator(3, "BOB", True),
        ShowPlateCount(3),
        ShowPlate(1, ("Parallel", "Serial")),
        ShowPlate(2, ()),
        ShowPlate(3, ("DVI",)),
        ShowTop(module.discard_top),
    ]
    with simulated_prop() as sim:
        device = make_device(registry.url_of(sim))
        device.connect()
        try:
            Bridge(module, edge, device).start()
        finally:
            device.close()
        shown = sim.display.state
        assert shown.edge_text() == "*FRK, CAR, *BOB // [Parallel, Serial] [Empty] [DVI]"
        assert (shown.aa, shown.d, shown.batteries) == (2, 1, 5)


def test_the_bridge_returns_what_it_posted() -> None:
    module = Module.from_edgework(EDGE, 7)
    prop = FakeProp()
    bridge = Bridge(module, EDGE, prop)
    bridge.start(BombState(3, 60.0, 1.0, None))
    prop.wire.clear()
    # Seed 7 with this edge: discarding first is a strike (discard blocked).
    assert module.act(Action.discard()).outcome is Outcome.STRIKE
    assert bridge.show_click(ButtonPressed(1, Button.PILE)) == (ShowStrikes(1),)
    assert bridge.show_bomb(BombState(3, 50.0, 1.25, None), struck=True) == (
        ShowTimer(50_000, 1250),)
    assert bridge.show_bomb(BombState(3, 50.0, 0.0, GameEnd.EXPLODED), struck=False) == (
        ShowTimer(50_000, 0), ShowGame(GameState.EXPLODED))
    assert prop.wire == ["STRIKES", "ACK 1", "TIMER", "SOUND STRIKE", "TIMER", "GAME",
                         "SOUND BOOM"]
    assert bridge.shown == prop.display_state()


def test_winning_actions_solve_without_strikes() -> None:
    rng = random.Random(2024)
    # The oracle's solution takes about a second per configuration to compute, so the
    # 60 games share three edgeworks (each a configuration) and differ in their decks.
    edges = [random_edgework(rng) for _ in range(3)]
    for game in range(60):
        edge = edges[game % 3]
        seed = rng.randrange(10**6)
        module = Module.from_edgework(edge, seed)
        actions = winning_actions(module)
        assert module.history == []  # the module itself was not touched
        for action in actions:
            module.act(action)
        assert module.solved and module.strikes == 0


# ---------------------------------------------------------------------- stateful

buttons = st.sampled_from(list(Button))


class BridgeWithFaults(RuleBasedStateMachine):
    """Presses and faults in any order; after each, nothing is lost and the state holds.

    Faults: lost events, corrupted lines (events or replies), garbage, noise from the
    host's side, a prop restart, an unplug with the prop coming back under another name.
    """

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []
        self.notices: list[Notice] = []
        self.pressed: list[Button] = []
        self.device: Device | None = None

    @initialize(game=st.integers(0, 10**6))
    def start(self, game: int) -> None:
        rng = random.Random(game)
        self.seed = game
        edge = random_edgework(rng)
        self.sim = registry.create(unique_name("sm"))
        self.names.append(self.sim.name)
        self.device = make_device(registry.url_of(self.sim), self.notices)
        self.device.connect()
        self.game = prop_game(Module.from_edgework(edge, game), edge, self.device)
        self.bridge = self.game.bridge
        self.game.start()
        self.applied: list[Button] = []

    def apply_pending(self) -> None:
        # A solve ends the game: the presses after it are never played.
        while len(self.applied) < len(self.pressed) and self.game.game.end is None:
            self.applied.append(next_pressed(self.game, self.device).press.button)
        assert self.device is not None
        assert self.device.sync(5.0), "the display never reached the prop"

    def press(self, button: Button) -> None:
        self.sim.press(button)
        self.pressed.append(button)

    @rule(button=buttons)
    def press_one(self, button: Button) -> None:
        self.press(button)
        self.apply_pending()

    @rule(many=st.lists(buttons, min_size=2, max_size=5))
    def press_quickly(self, many: list[Button]) -> None:
        for button in many:
            self.press(button)
        self.apply_pending()

    @rule(button=buttons, lost=st.integers(1, 3))
    def presses_lost_on_the_wire(self, button: Button, lost: int) -> None:
        self.sim.drop_next(lost)
        for _ in range(lost):
            self.press(button)
        self.apply_pending()

    @rule(button=buttons, lines=st.integers(1, 2))
    def lines_corrupted(self, button: Button, lines: int) -> None:
        self.sim.corrupt_next(lines)
        self.press(button)
        self.apply_pending()

    @rule(button=buttons)
    def garbage_both_ways(self, button: Button) -> None:
        self.sim.send_garbage()
        self.sim.receive(b"\x00\x13noise from the host side\n")
        self.press(button)
        self.apply_pending()

    @rule()
    def prop_restarts(self) -> None:
        assert self.device is not None
        self.sim.restart()
        self.device.heartbeat()
        assert sim_shows(self.sim, self.bridge)

    @rule()
    def unplugged_and_back_elsewhere(self) -> None:
        assert self.device is not None
        name = unique_name("sm")
        self.names.append(name)
        self.sim.unplug()
        self.sim = plug_in_elsewhere(self.sim, name)
        self.device.heartbeat()
        assert self.device.current_url == f"propsim://{name}"
        assert sim_shows(self.sim, self.bridge)

    @invariant()
    def nothing_lost_state_intact(self) -> None:
        if self.device is None:
            return
        self.apply_pending()
        assert_consistent(self.bridge, self.seed, self.pressed[:len(self.applied)],
                          self.applied)
        assert_display(self.device.display_state(), self.bridge)
        assert sim_shows(self.sim, self.bridge)
        assert self.device.lost_events == 0
        assert not [n for n in self.notices if n.kind is NoticeKind.EVENTS_LOST]

    def teardown(self) -> None:
        if self.device is not None:
            self.device.close()
        for name in self.names:
            unplug_sim(name)


BridgeWithFaults.TestCase.settings = settings(
    max_examples=examples(12), stateful_step_count=12, deadline=None
)
TestBridgeWithFaults = BridgeWithFaults.TestCase


# ---------------------------------------------------------------------- golden


def golden_game() -> tuple[list[str], Module]:
    """A whole game: a strike first, then the winning presses; every line recorded."""
    edge = Edgework.parse("3B 2H // AB3CD4")
    seed = 7
    module = Module.from_edgework(edge, seed)
    opening = Action(ActionKind.DISCARD)
    assert module.copy().act(opening).outcome is Outcome.STRIKE
    after = module.copy()
    after.act(opening)
    script = [button_for(opening), *(button_for(a) for a in winning_actions(after))]
    trace: list[str] = []
    # No heartbeat: every line in the transcript follows from the previous ones.
    timing = Timing(reply_timeout=2.0, heartbeat=0.0, handshake_timeout=5.0)
    with simulated_prop(script=script) as sim:
        device = make_device(registry.url_of(sim), trace=trace, timing=timing, session_seed=1)
        device.connect()
        try:
            game = prop_game(module, edge, device, strike_limit=3)
            game.start()
            while not module.solved:
                next_pressed(game, device)
            assert game.over().end is GameEnd.SOLVED
        finally:
            device.close()
        assert sim.display.state.solved and sim.script_finished
    return trace, module


def test_golden_transcript_of_a_full_game() -> None:
    trace, module = golden_game()
    assert module.solved and module.strikes == 1
    text = "\n".join(trace) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, encoding="ascii")
    assert text == GOLDEN.read_text(encoding="ascii")


def test_card_codes_used_on_the_wire_are_the_cards_codes() -> None:
    assert {card.code for card in Card} == {
        c + s for c in "RBGY" for s in "CHTS"
    }
    assert FAST.heartbeat > 0


def test_the_bomb_reaches_the_prop_in_its_units() -> None:
    assert BombDisplay.of(BombState(3, 12.3456, 1.25, None)) == BombDisplay(
        3, 12_346, 1250, GameState.PLAYING)
    assert BombDisplay.of(BombState(0, None, 0.0, GameEnd.SOLVED)) == BombDisplay(
        0, None, 0, GameState.SOLVED)
    assert BombDisplay.of(BombState(2, 1.0, 0.0, GameEnd.EXPLODED)).state is GameState.EXPLODED
