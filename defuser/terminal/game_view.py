"""How the game commands (``play``, ``prop``, ``drill --mode game``) word a game.

Contract: the words and the front ends' own reasons to stop live here, not in the game
session (:mod:`defuser.engine.game`): the session knows how a game ends (solved,
exploded, timed out); :class:`Stop` is why a front end stopped playing before that.
Both are worded by :func:`end_headline`, and their values are the JSON ``reason``.
"""

from __future__ import annotations

import enum

from defuser.engine.clock import time_text
from defuser.engine.game import GameEnd
from edgework import Batteries


class Stop(enum.Enum):
    """Why a front end stopped a game that had not ended. The value is the JSON
    ``reason`` of the ``end`` event."""

    #: The player typed quit.
    QUIT = "quit"
    #: The commands ran out (end of piped input).
    END_OF_INPUT = "end"
    #: Interrupted (Ctrl-C) or stopped from outside (the prop's link was lost).
    STOPPED = "stopped"
    #: A simulated prop made all its scripted presses.
    SCRIPT_ENDED = "script-ended"


def end_headline(end: GameEnd | Stop, strikes: int) -> str:
    """The one line that announces how a game ended, as every game mode prints it."""
    if end is GameEnd.SOLVED:
        return "Module solved!"
    if end is GameEnd.EXPLODED:
        return f"BOOM! The bomb exploded at {strikes} strike{'' if strikes == 1 else 's'}."
    if end is GameEnd.TIMED_OUT:
        return "BOOM! The time ran out."
    if end is Stop.END_OF_INPUT:
        return "End of input; game stopped."
    if end is Stop.SCRIPT_ENDED:
        return "The simulated prop's script ended before the game did."
    return "Game stopped."


def batteries_words(batteries: Batteries | None) -> str:
    """``3 batteries in 2 holders (1 AA, 1 D)`` or just ``3 batteries``."""
    if batteries is None:
        return "0 batteries"
    count = batteries.count
    text = f"{count} batter{'y' if count == 1 else 'ies'}"
    if batteries.holders:
        holders = batteries.holders
        text += f" in {holders} holder{'' if holders == 1 else 's'}"
        text += f" ({batteries.aa_holders} AA, {batteries.d_holders} D)"
    return text


def elapsed_words(seconds: float) -> str:
    """Elapsed time as ``m:ss``."""
    return time_text(int(seconds) * 1000)
