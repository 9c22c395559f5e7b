"""The options and parameter types the commands share.

Contract: parameter types turn library errors into ``self.fail`` (one line, exit 2), and
:func:`resolve_edgework` names the option at fault; the option decorators give the same
words to the same option in every command.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from defuser.terminal.words import error_words
from edgework import (
    Batteries,
    Card,
    Edgework,
    EdgeworkError,
    SerialNumber,
    parse_hand,
)


class CardParam(click.ParamType[Card]):
    """A card face: ``RC``, ``rc``, ``red circle``, ``circle red``."""

    name = "card"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Card:
        """Parse ``value`` as a card, or fail with the parser's message."""
        if isinstance(value, Card):
            return value
        try:
            return Card.parse(str(value))
        except EdgeworkError as exc:
            self.fail(str(exc), param, ctx)


class HandParam(click.ParamType[tuple[Card, ...]]):
    """Zero or more cards in one argument, separated by spaces or commas."""

    name = "cards"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[Card, ...]:
        """Parse ``value`` as a list of cards."""
        if isinstance(value, tuple):
            return value
        try:
            return parse_hand(str(value))
        except EdgeworkError as exc:
            self.fail(str(exc), param, ctx)


class SerialParam(click.ParamType[str]):
    """A serial number; strict unless ``--lenient-serial`` is given (read at use)."""

    name = "serial"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        """Keep the raw text; strictness is applied by :func:`resolve_edgework`."""
        return str(value)


class BatteriesParam(click.ParamType[Batteries]):
    """A battery count 0-99, or batteries and holders like ``3B 2H``."""

    name = "batteries"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Batteries:
        """Parse ``value`` as batteries."""
        if isinstance(value, Batteries):
            return value
        try:
            return Batteries.parse(str(value))
        except EdgeworkError as exc:
            self.fail(str(exc), param, ctx)


class FiniteFloat(click.FloatRange):
    """A finite number within a range: every numeric option with a fraction takes this
    type, so ``nan``, ``inf`` and ``1e308`` fail naming the option (one line, exit 2)
    instead of passing click's range check (``nan`` compares false with any bound) or
    overflowing later. ``unit`` words the number (``seconds``, ``minutes``)."""

    def __init__(self, *args: Any, unit: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unit = unit
        # The metavar click shows: SECONDS, MINUTES, or a plain FLOAT.
        self.name = unit or "float"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Any:
        """Parse ``value`` as a finite number in range, or fail naming the range."""
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            of_unit = f" of {self.unit}" if self.unit else ""
            self.fail(f"{value!r} is not a finite number{of_unit}", param, ctx)
        return number


#: The longest wait any option accepts: a day.
MAX_SECONDS = 86_400.0


def seconds(minimum: float, *, minimum_open: bool = False) -> FiniteFloat:
    """Seconds from ``minimum`` (excluded with ``minimum_open``) up to
    :data:`MAX_SECONDS`, finite."""
    return FiniteFloat(min=minimum, min_open=minimum_open, max=MAX_SECONDS, unit="seconds")


CARD = CardParam()
HAND = HandParam()
SERIAL = SerialParam()
BATTERIES = BatteriesParam()

F = TypeVar("F", bound=Callable[..., Any])


def _stacked(options: tuple[Callable[[F], F], ...]) -> Callable[[F], F]:
    """One decorator applying ``options`` so they list in the order given."""

    def decorate(command: F) -> F:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def game_options() -> Callable[[F], F]:
    """``--seed``, ``--strikes``, ``--time`` and ``--log``: what every command running a
    module takes."""
    return _stacked(
        (
            click.option(
                "--seed", type=click.IntRange(min=0), help="Seed for the game (random if omitted)."
            ),
            click.option(
                "--strikes",
                "strike_limit",
                type=click.IntRange(min=0),
                default=3,
                show_default=True,
                help="The bomb explodes at this many strikes; 0 means never.",
            ),
            click.option(
                "--time",
                "time_limit",
                type=seconds(1.0),
                help="Start the bomb timer with this many seconds; it runs a quarter faster "
                "with each strike, and the bomb explodes when it runs out (default: no timer).",
            ),
            click.option(
                "--log",
                "log_path",
                type=click.Path(dir_okay=False, writable=True),
                help="Write the module's log lines to this file as the game goes.",
            ),
        )
    )


def edgework_options(*, if_missing: str = "", edgework_name: str = "edgework") -> Callable[[F], F]:
    """The four edgework options every game command takes, with the same words everywhere.

    ``--serial``, ``--batteries``, ``--edgework`` (passed as ``edgework_name``) and
    ``--lenient-serial``; ``if_missing`` says what happens when serial or batteries are
    left out (e.g. ``random if omitted``). Combine them with :func:`resolve_edgework`.
    """
    note = f" ({if_missing})" if if_missing else ""
    options = (
        click.option("--serial", type=SERIAL, help=f"Serial number, e.g. AB3CD4{note}."),
        click.option(
            "--batteries", type=BATTERIES, help=f"Battery count, or '3B 2H' with holders{note}."
        ),
        click.option(
            "--edgework",
            edgework_name,
            help="Twitch Plays edgework instead, e.g. '3B 2H // *FRK // AB3CD4'.",
        ),
        click.option(
            "--lenient-serial", is_flag=True, help="Accept modded (non-vanilla) serials."
        ),
    )

    return _stacked(options)


def resolve_edgework(
    serial: str | None,
    batteries: Batteries | None,
    edgework: str | None,
    *,
    lenient: bool = False,
    need_serial: bool = True,
) -> Edgework:
    """Combine ``--serial``/``--batteries`` and ``--edgework`` into one :class:`Edgework`.

    Raises :class:`click.BadParameter` naming the option at fault.
    """
    result = Edgework()
    if edgework is not None:
        if serial is not None or batteries is not None:
            raise click.BadParameter(
                "give --edgework or --serial/--batteries, not both", param_hint="'--edgework'"
            )
        try:
            result = Edgework.parse(edgework, strict=not lenient)
        except EdgeworkError as exc:
            raise click.BadParameter(error_words(exc), param_hint="'--edgework'") from exc
    else:
        parsed_serial = None
        if serial is not None:
            try:
                parsed_serial = SerialNumber.parse(serial, strict=not lenient)
            except EdgeworkError as exc:
                raise click.BadParameter(error_words(exc), param_hint="'--serial'") from exc
        result = Edgework(serial=parsed_serial, batteries=batteries)
    if need_serial and result.serial is None:
        raise click.BadParameter(
            "a serial number is needed, expected --serial like AB3CD4 or --edgework ending "
            "in one",
            param_hint="'--serial'",
        )
    return result


def cards_arg(values: Sequence[tuple[Card, ...]]) -> tuple[Card, ...]:
    """Flatten a repeated ``--hand`` option into one tuple of cards."""
    return tuple(card for group in values for card in group)
