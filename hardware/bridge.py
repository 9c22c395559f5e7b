"""The bridge between the prop and the simulator: buttons to clicks, state to display.

It knows both vocabularies (buttons and display commands on one side, the
simulator's actions and visible state on the other) and nothing about bytes: it talks
to anything with ``post``, ``sound``, ``ack`` and ``sync`` (a
:class:`~hardware.device.Device`, or a fake in tests). It makes no click: the game
session does (:class:`~hardware.game.PropGame` joins them), and the bridge shows what
the click changed (:meth:`Bridge.show_click`, which also acknowledges the press) and
what the bomb became (:meth:`Bridge.show_bomb`). The game state lives in the
:class:`~defuser.engine.simulator.Module` and the game session; the prop only mirrors
them. Only the display commands whose value changed are posted, and each method returns
what it posted; the device re-sends the full state after any reconnect. Posting never
waits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

from defuser.engine.actions import Action, ActionKind
from defuser.engine.game import BombState, GameEnd
from defuser.engine.simulator import Module, Outcome
from defuser.strategy.belief import Observation
from defuser.strategy.policy import make_policy
from edgework import Batteries, Edgework
from edgework.errors import MisuseError
from hardware.display import DisplayState
from hardware.errors import HostProtocolError, UnshowableEdgeError
from hardware.protocol import (
    MAX_COUNT,
    MAX_RATE,
    MAX_TIMER_MS,
    Button,
    ButtonPressed,
    Cue,
    DisplayCommand,
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

    def post(self, command: DisplayCommand) -> None:
        """Set part of the display, without waiting."""

    def sound(self, cue: Cue) -> None:
        """Play a sound once, without waiting."""

    def ack(self, press: ButtonPressed) -> None:
        """Say a press was applied, without waiting."""

    def sync(self, timeout: float | None = None) -> bool:
        """Wait until everything posted was delivered."""


@dataclass(frozen=True, slots=True)
class BombDisplay:
    """The bomb around the module in the prop's units, as the bridge shows it.

    ``limit`` is the strike limit (0: none); ``timer_ms`` the time left when the bomb
    state was taken and ``rate`` how fast the timer runs in thousandths (None and 0:
    no timer); ``state`` how the game stands.
    """

    limit: int = 0
    timer_ms: int | None = None
    rate: int = 0
    state: GameState = GameState.PLAYING

    @classmethod
    def of(cls, bomb: BombState) -> BombDisplay:
        """The game session's bomb in the prop's units (milliseconds, thousandths)."""
        left = bomb.time_left
        return cls(
            limit=bomb.strike_limit,
            timer_ms=None if left is None else round(left * 1000),
            rate=round(bomb.rate * 1000),
            state=GAME_STATES[bomb.end],
        )


#: How the prop shows each end of the game (None: still playing).
GAME_STATES: Final[dict[GameEnd | None, GameState]] = {
    None: GameState.PLAYING,
    GameEnd.SOLVED: GameState.SOLVED,
    GameEnd.EXPLODED: GameState.EXPLODED,
    GameEnd.TIMED_OUT: GameState.TIMEOUT,
}


def action_for(button: Button) -> Action:
    """The simulator action a button stands for."""
    return ACTIONS[button]


def button_for(action: Action) -> Button:
    """The button that makes ``action`` (every action has one: one that has none, a
    slot beyond the hand, is a caller's :class:`~edgework.errors.MisuseError`)."""
    for button, candidate in ACTIONS.items():
        if candidate == action:
            return button
    raise MisuseError(f"action {action} has no button")


def edge_commands(edgework: Edgework) -> list[DisplayCommand]:
    """The whole edge: serial number, batteries and holders, indicators, port plates.

    No batteries shows 0. Version-2 commands are among them; a session in version 1
    sends only the version-1 ones. Edgework beyond what the protocol carries (a port
    plate with more ports than the prop shows) is bad input:
    :class:`~hardware.errors.UnshowableEdgeError`, naming the value and its limit.
    """
    try:
        return _edge_commands(edgework)
    except HostProtocolError as exc:
        raise UnshowableEdgeError(f"the prop cannot show this edge: {exc}") from None


def _edge_commands(edgework: Edgework) -> list[DisplayCommand]:
    batteries = edgework.batteries or Batteries(0)
    serial = None if edgework.serial is None else str(edgework.serial)
    commands: list[DisplayCommand] = [
        ShowSerial(serial),
        ShowBatteries(batteries.count, batteries.holders),
        ShowHolders(batteries.aa_holders, batteries.d_holders),
        ShowIndicatorCount(len(edgework.indicators)),
    ]
    commands += [
        ShowIndicator(index, indicator.label, indicator.lit)
        for index, indicator in enumerate(edgework.indicators, start=1)
    ]
    commands.append(ShowPlateCount(len(edgework.port_plates)))
    commands += [
        ShowPlate(index, plate.ports) for index, plate in enumerate(edgework.port_plates, start=1)
    ]
    return commands


def state_commands(module: Module, bomb: BombDisplay | None = None) -> list[DisplayCommand]:
    """The module's and the bomb's state: discard top, hand, strikes, limit, timer, game,
    solved. Counts above 99 are sent as 99 (strikes) and 0 (a limit: none shown)."""
    bomb = bomb or BombDisplay()
    return [
        ShowTop(module.discard_top),
        ShowHand.of(module.hand),
        ShowStrikes(min(module.strikes, MAX_COUNT)),
        ShowLimit(bomb.limit if bomb.limit <= MAX_COUNT else 0),
        ShowTimer(
            None if bomb.timer_ms is None else min(bomb.timer_ms, MAX_TIMER_MS),
            min(bomb.rate, MAX_RATE) if bomb.timer_ms is not None else 0,
        ),
        ShowGame(bomb.state),
        ShowSolved(module.solved),
    ]


def display_commands(
    module: Module, edgework: Edgework, bomb: BombDisplay | None = None
) -> list[DisplayCommand]:
    """The full display state in re-send order."""
    return [*edge_commands(edgework), *state_commands(module, bomb)]


class Bridge:
    """Shows ``module`` and its bomb on ``prop``: the whole state at the start, then
    what each click and each change of the bomb changed."""

    def __init__(
        self, module: Module, edgework: Edgework, prop: Prop, bomb: BombDisplay | None = None
    ) -> None:
        self.module = module
        self.edgework = edgework
        self.prop = prop
        self.bomb = bomb or BombDisplay()
        #: The display state posted so far.
        self.shown = DisplayState()

    def start(self, bomb: BombState | None = None) -> list[DisplayCommand]:
        """Show the full state (edge, module, and the game session's ``bomb`` when
        given), wait until the prop has it; return it."""
        if bomb is not None:
            self.bomb = BombDisplay.of(bomb)
        commands = display_commands(self.module, self.edgework, self.bomb)
        for command in commands:
            self._post(command)
        self.prop.sync()
        return commands

    def show_click(self, press: ButtonPressed) -> tuple[DisplayCommand, ...]:
        """The click ``press`` stands for was made on the module: post what it changed,
        then acknowledge the press; return what was posted."""
        changed = tuple(self.refresh())
        self.prop.ack(press)
        return changed

    def show_bomb(self, bomb: BombState, *, struck: bool) -> tuple[DisplayCommand, ...]:
        """The game session's bomb changed: post it with its sound (the solve, the
        explosion, or a strike when ``struck``); return what was posted."""
        if bomb.end is GameEnd.SOLVED:
            cue = Cue.SOLVE
        elif bomb.end is not None:
            cue = Cue.BOOM
        elif struck:
            cue = Cue.STRIKE
        else:
            cue = None
        return tuple(self.set_bomb(BombDisplay.of(bomb), cue))

    def set_bomb(self, bomb: BombDisplay, cue: Cue | None = None) -> list[DisplayCommand]:
        """The bomb changed (a strike, the end): post what changed, play ``cue``."""
        self.bomb = bomb
        changed = self.refresh()
        if cue is not None:
            self.prop.sound(cue)
        return changed

    def refresh(self) -> list[DisplayCommand]:
        """Post the state commands whose value changed; return them."""
        changed = self.shown.diff(DisplayState.of(state_commands(self.module, self.bomb)))
        for command in changed:
            self._post(command)
        return changed

    def _post(self, command: DisplayCommand) -> None:
        self.prop.post(command)
        self.shown = self.shown.apply(command)


def winning_actions(module: Module, limit: int = 1000) -> list[Action]:
    """Actions that solve ``module`` without a strike: the oracle policy's clicks.

    A demonstration and test aid for the simulated prop only: the oracle policy sees the
    deck through :meth:`Module.reveal`, which no player can. ``module`` itself is not
    changed. An action that strikes, or no solve within ``limit`` actions, would be a
    bug of the oracle policy: :class:`~edgework.errors.MisuseError`.
    """
    game = module.copy()
    policy = make_policy("oracle", game.reveal)
    observation = Observation.start(game.rules, game.interval, game.discard_top, game.hand)
    actions: list[Action] = []
    while not game.solved:
        if len(actions) >= limit:
            raise MisuseError(f"no solve found within {limit} actions")
        action = policy.choose(observation)
        result = game.act(action)
        if result.outcome in (Outcome.STRIKE, Outcome.NOTHING):
            raise MisuseError(f"{action} did not work: {result.outcome.value}")
        observation = observation.after(result)
        actions.append(action)
    return actions
