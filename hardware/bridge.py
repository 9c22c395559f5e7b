"""The bridge between the prop and the simulator: presses to actions, state to display.

It knows both vocabularies (buttons and display commands on one side, the
simulator's actions and visible state on the other) and nothing about bytes: it talks
to anything with ``show``, ``ack`` and ``next_press`` (a :class:`~hardware.device.Device`,
or a fake in tests). The game state lives in the :class:`~defuser.engine.simulator.Module`;
the prop only mirrors it. After each press the bridge sends only the display commands
whose value changed; the device re-sends the full state after any reconnect.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

from defuser.engine.simulator import Action, ActionKind, Module, Outcome, Result
from edgework import Batteries, CardType, Edgework
from hardware.protocol import (
    MAX_COUNT,
    Button,
    ButtonPressed,
    DisplayCommand,
    ShowBatteries,
    ShowHand,
    ShowSerial,
    ShowSolved,
    ShowStrikes,
    ShowTop,
)

#: Which click each button is.
ACTIONS: Final[dict[Button, Action]] = {
    Button.DECK: Action(ActionKind.DRAW),
    Button.PILE: Action(ActionKind.DISCARD),
    Button.HAND1: Action(ActionKind.PLAY, 1),
    Button.HAND2: Action(ActionKind.PLAY, 2),
    Button.HAND3: Action(ActionKind.PLAY, 3),
}


class Prop(Protocol):
    """What the bridge needs from a prop."""

    def show(self, command: DisplayCommand) -> None:
        """Set part of the display."""

    def ack(self, press: ButtonPressed) -> None:
        """Say a press was applied."""

    def next_press(self, timeout: float | None) -> ButtonPressed | None:
        """The next press, or None after ``timeout`` seconds."""


def action_for(button: Button) -> Action:
    """The simulator action a button stands for."""
    return ACTIONS[button]


def button_for(action: Action) -> Button:
    """The button that makes ``action``."""
    for button, candidate in ACTIONS.items():
        if candidate == action:
            return button
    raise ValueError(f"action {action} has no button")


def edge_commands(edgework: Edgework) -> list[DisplayCommand]:
    """The edge widgets: serial number and batteries (no batteries shows 0)."""
    batteries = edgework.batteries or Batteries(0)
    serial = None if edgework.serial is None else str(edgework.serial)
    return [
        ShowSerial(serial),
        ShowBatteries(min(batteries.count, MAX_COUNT), batteries.holders),
    ]


def state_commands(module: Module) -> list[DisplayCommand]:
    """The module's visible state: discard top, hand, strikes, solved."""
    return [
        ShowTop(module.discard_top),
        ShowHand.of(module.hand),
        ShowStrikes(min(module.strikes, MAX_COUNT)),
        ShowSolved(module.solved),
    ]


def display_commands(module: Module, edgework: Edgework) -> list[DisplayCommand]:
    """The full display state in re-send order."""
    return [*edge_commands(edgework), *state_commands(module)]


@dataclass(frozen=True, slots=True)
class Step:
    """One press and what it did."""

    press: ButtonPressed
    action: Action
    result: Result
    shown: tuple[DisplayCommand, ...]


class Bridge:
    """Plays ``module`` on ``prop``: shows its state, applies presses, mirrors changes."""

    def __init__(self, module: Module, edgework: Edgework, prop: Prop) -> None:
        self.module = module
        self.edgework = edgework
        self.prop = prop
        self._shown: dict[type, DisplayCommand] = {}
        #: Every step so far.
        self.steps: list[Step] = []

    def start(self) -> list[DisplayCommand]:
        """Show the full state (edge widgets and module); return what was sent."""
        commands = display_commands(self.module, self.edgework)
        for command in commands:
            self._show(command)
        return commands

    def apply(self, press: ButtonPressed) -> Step:
        """Apply one press to the module, update the display, acknowledge the press."""
        action = action_for(press.button)
        result = self.module.act(action)
        sent = tuple(self.refresh())
        self.prop.ack(press)
        step = Step(press, action, result, sent)
        self.steps.append(step)
        return step

    def refresh(self) -> list[DisplayCommand]:
        """Send the state commands whose value changed; return them."""
        changed = [
            command
            for command in state_commands(self.module)
            if self._shown.get(type(command)) != command
        ]
        for command in changed:
            self._show(command)
        return changed

    def step(self, timeout: float | None) -> Step | None:
        """Wait up to ``timeout`` for a press and apply it; None if none came."""
        press = self.prop.next_press(timeout)
        if press is None:
            return None
        return self.apply(press)

    @property
    def solved(self) -> bool:
        """Whether the module is solved."""
        return self.module.solved

    def _show(self, command: DisplayCommand) -> None:
        self.prop.show(command)
        self._shown[type(command)] = command


def winning_actions(module: Module, limit: int = 1000) -> list[Action]:
    """Actions that solve ``module`` without a strike, found by peeking at the deck.

    A demonstration and test aid for the simulated prop only: it calls
    :meth:`Module.reveal`, which no policy may do. ``module`` itself is not changed.
    Raises :class:`RuntimeError` if no solve is found within ``limit`` actions.
    """
    game = module.copy()
    actions: list[Action] = []
    while not game.solved:
        if len(actions) >= limit:
            raise RuntimeError(f"no solve found within {limit} actions")
        action = _next_winning_action(game)
        result = game.act(action)
        if result.outcome in (Outcome.STRIKE, Outcome.NOTHING):
            raise RuntimeError(f"{action} did not work: {result.outcome.value}")
        actions.append(action)
    return actions


def _next_winning_action(game: Module) -> Action:
    hidden = game.reveal()
    hand = game.hand
    defuses = [i for i, c in enumerate(hand, 1) if game.rules.type_of(c) is CardType.DEFUSE]
    legal_plain = [i for i in game.legal_slots if i not in defuses]
    preferences: list[Action] = []
    if hidden.deals_until_mitten == 0 and defuses:
        preferences.append(Action(ActionKind.PLAY, defuses[0]))
    if hidden.defuse_in == 0 and not defuses:
        preferences.append(Action(ActionKind.DRAW))
        preferences.extend(Action(ActionKind.PLAY, slot) for slot in legal_plain)
    preferences.append(Action(ActionKind.DISCARD))
    preferences.extend(Action(ActionKind.PLAY, slot) for slot in legal_plain)
    if hidden.deals_until_mitten != 0:
        preferences.append(Action(ActionKind.DRAW))
    preferences.extend(Action(ActionKind.PLAY, slot) for slot in game.legal_slots)
    for action in preferences:
        if hidden.defuse_in == 0 and not defuses and action.kind is ActionKind.DISCARD and (
            len(hand) < 3 or legal_plain
        ):
            # Discarding now would throw away this cycle's Defuse.
            continue
        trial = game.copy()
        if trial.act(action).outcome in (Outcome.OK, Outcome.SOLVED):
            return action
    raise RuntimeError(f"no safe action in hand {[c.code for c in hand]}")
