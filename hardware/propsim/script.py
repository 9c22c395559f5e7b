"""Scripts for a simulated prop: button presses and fault steps, as words.

A script is a sequence of steps, written as words separated by commas or spaces (the
``script=`` URL option of :mod:`hardware.propsim.url`): buttons (``DECK``, ``PILE``,
``HAND1``-``HAND3``, ``1``-``3``, ``draw``, ``discard``) and faults (``reset``,
``corrupt``, ``drop``, ``garbage``); a word that is none of these is bad input
(:class:`hardware.errors.PortURLError`). :class:`SimError` is the fault a simulated prop
raises when its cable is out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from hardware.errors import HardwareError, PortURLError
from hardware.protocol import Button

#: The garbage a ``garbage`` step puts on the wire.
GARBAGE: Final = b"\x07#garbage\x80\xfe"

#: Script words for buttons, beyond the protocol names.
BUTTON_WORDS: Final[dict[str, Button]] = {
    **{button.value.lower(): button for button in Button},
    "1": Button.HAND1,
    "2": Button.HAND2,
    "3": Button.HAND3,
    "draw": Button.DECK,
    "discard": Button.PILE,
}
FAULT_STEPS: Final = frozenset({"reset", "corrupt", "drop", "garbage"})


class SimError(HardwareError):
    """A simulated prop's cable is out: its port cannot be opened or has gone (a fault,
    as a vanished USB device is)."""


ScriptStep = Button | str


def parse_script(text: str | Iterable[str]) -> tuple[ScriptStep, ...]:
    """Read a script: buttons and fault steps separated by commas or spaces."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    steps: list[ScriptStep] = []
    for word in words:
        key = word.strip().lower()
        if key in BUTTON_WORDS:
            steps.append(BUTTON_WORDS[key])
        elif key in FAULT_STEPS:
            steps.append(key)
        else:
            raise PortURLError(
                f"script step {word!r} is not known, expected a button (DECK, PILE, HAND1-"
                f"HAND3, 1-3) or a fault ({', '.join(sorted(FAULT_STEPS))})"
            )
    return tuple(steps)


def script_text(steps: Iterable[ScriptStep]) -> str:
    """The comma-separated form of a script, as the URL option takes it."""
    return ",".join(step.value if isinstance(step, Button) else step for step in steps)
