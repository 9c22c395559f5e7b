"""Replay states for the log checker's unit tests (``tests/logs/check``).

:func:`state` is one hypothesis at the start of the player's next click, on the first
sample's bomb (serial 5M3ES3, 3 batteries: Table A, last digit 3, N = 12) after its
start-up: a green circle on the pile (rule J: circles, hearts and triangles are legal,
squares are not; the mitten is the blue square; the Defuses are the yellow circle, the
yellow heart and the green square) and a red heart, a blue heart and a blue circle in
hand. Keyword arguments change its fields. :func:`line` parses one module message.
:func:`simulated_check` is the check of a whole simulated module on that bomb, played by
the policy or at random.
"""

from __future__ import annotations

import random
from typing import Any

from gamelog_builder import simulated_messages, simulated_module

from defuser.engine import modlog
from defuser.engine.actions import Action
from defuser.logs.check.module import ModuleCheck, check_module
from defuser.logs.check.state import Context, ReplayState, Stage
from defuser.logs.reader import read_log
from edgework import MIN_INTERVAL, Card, SerialNumber, TableLetter


def cards(*words: str) -> tuple[Card, ...]:
    """The cards named, in order (``"red heart"``)."""
    return tuple(Card.parse(w) for w in words)


def context(*, serial: str | None = "5M3ES3", batteries: int | None = 3) -> Context:
    """What the log's bomb tells the checker (the first sample's, by default)."""
    return Context(SerialNumber.parse(serial) if serial else None, batteries)


def state(**changes: Any) -> ReplayState:
    """The replay state described in the module docstring, with ``changes``."""
    base = ReplayState(
        table=TableLetter.A, digit=3, n=12, n_min=MIN_INTERVAL, stage=Stage.IDLE,
        discard=Card.GREEN_CIRCLE, hand=cards("red heart", "blue heart", "blue circle"),
        until=5, first_cycle=False, defuse_line=0, coming=0, pending_line=0, blocking=(),
        listed=0, solved_line=0, deals=3,
    )
    return base._replace(**changes)


def line(text: str) -> modlog.Message:
    """The module message ``text`` (without the ``[Exploding Mittens #1]`` prefix)."""
    message = modlog.parse(text)
    assert message is not None, text
    return message


def simulated_check(
    seed: int, *, player: str = "policy", lines: int | None = None, edgework: bool = True
) -> ModuleCheck:
    """The check of a simulated module on the first sample's bomb (its first ``lines``
    lines), played by the ``"policy"`` or by a ``"random"`` clicker (it strikes often;
    seed 1 solves in 71 clicks); with ``edgework`` the checker is told the serial and
    the batteries."""
    if player == "policy":
        messages = simulated_messages("5M3ES3", [1, 2], seed, blunders=0.0)
    else:
        module, rng = simulated_module("5M3ES3", [1, 2], seed), random.Random(seed)
        while not module.solved:
            plays = [Action.play(slot) for slot in range(1, len(module.hand) + 1)]
            module.act(rng.choice([Action.draw(), Action.discard(), *plays]))
        messages = [modlog.LINE_PATTERN.match(text)["message"]  # type: ignore[index]
                    for text in module.log]
    return checked(messages[:lines], edgework=edgework)


def checked(messages: list[str], *, edgework: bool = True) -> ModuleCheck:
    """The check of one module's ``messages`` on the first sample's bomb (told the serial
    and the batteries with ``edgework``)."""
    game = read_log(("\n".join(modlog.line(1, m) for m in messages) + "\n").encode())
    [module_lines] = [m.lines for m in game.modules]
    if not edgework:
        return check_module(module_lines)
    return check_module(module_lines, serial="5M3ES3", batteries=3)
