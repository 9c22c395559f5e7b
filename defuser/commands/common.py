"""What every command shares: parameter types, the output object, card rendering.

Parameter types turn library errors into ``self.fail`` (one line, exit 2). The
:class:`Output` owns the rich consoles: results to stdout, diagnostics to stderr,
colour only on a terminal and never with ``NO_COLOR``.
"""

from __future__ import annotations

import errno
import functools
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

import click

from defuser.streams import can_encode, printable
from edgework import (
    SHAPE_GLYPHS,
    Batteries,
    Card,
    Colour,
    Edgework,
    EdgeworkError,
    InvalidSerialError,
    InvalidTableError,
    SerialNumber,
    parse_hand,
)

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

#: How the command line tells a player to read a serial number leniently.
LENIENT_SERIAL_HINT = "(use --lenient-serial for modded bombs)"


def error_words(exc: BaseException) -> str:
    """A library error as the command line words it.

    Libraries never name options; their errors carry what a front end needs (that a
    serial number only fails the vanilla shape, that a table file lacks the export's
    shape, that a stats database was left untouched), and this adds the option to give.
    """
    from defuser.trainer.store import StatsDatabaseError  # sqlite3 only when an error shows

    text = str(exc)
    if isinstance(exc, InvalidSerialError) and exc.vanilla_only:
        return f"{text} {LENIENT_SERIAL_HINT}"
    if isinstance(exc, InvalidTableError) and exc.export_format is not None:
        return f"{exc.head} 'mittens tables --format {exc.export_format}' writes{exc.tail}"
    if isinstance(exc, StatsDatabaseError) and exc.untouched:
        return f"{text} (move it away or give --db PATH)"
    return text

#: rich styles for the four colours (yellow is bold so it reads on light terminals too).
COLOUR_STYLES: dict[Colour, str] = {
    Colour.RED: "bold red",
    Colour.BLUE: "bold blue",
    Colour.GREEN: "bold green",
    Colour.YELLOW: "bold yellow",
}


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


class SecondsParam(click.FloatRange):
    """A finite number of seconds within a range (``inf``, ``nan`` and ``1e308`` fail)."""

    name = "seconds"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Any:
        """Parse ``value`` as seconds in range, or fail naming the range."""
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return seconds


#: The longest wait any option accepts: a day.
MAX_SECONDS = 86_400.0


def seconds(minimum: float) -> SecondsParam:
    """Seconds from ``minimum`` up to :data:`MAX_SECONDS`, finite."""
    return SecondsParam(min=minimum, max=MAX_SECONDS)


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


def colour_enabled(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _console(file: TextIO) -> Console:
    """A rich console on ``file`` whose broken pipe is the caller's to handle (``main``
    exits 0). rich is imported here, on first use: a command that only prints JSON
    (``live --json``) never pays for it at start-up."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            """Raise instead of rich's own exit 1 (the reader went away: not a failure)."""
            self.quiet = True
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    return _Console(
        file=file,
        markup=False,
        emoji=False,
        highlight=False,
        no_color=not colour_enabled(file),
        soft_wrap=True,
    )


def _safe_item(item: Any) -> Any:
    """A printed item with control characters made visible (text from files or stdin
    must never drive the terminal); other renderables pass unchanged."""
    if isinstance(item, str):
        return printable(item)
    rich_text = sys.modules.get("rich.text")  # a Text item means rich is loaded already
    if rich_text is not None and isinstance(item, rich_text.Text):
        plain = item.plain
        cleaned = printable(plain)
        if cleaned != plain:
            item = item.copy()
            item.plain = cleaned
    return item


class Output:
    """The one owner of the rich consoles for a command run.

    Nothing printed through it raises on an unencodable character (see
    :mod:`defuser.commands.safeio`), and control characters never reach the terminal.
    """

    def __init__(self, *, json_mode: bool = False) -> None:
        self.json_mode = json_mode

    @functools.cached_property
    def out(self) -> Console:
        """The console for results (stdout), made on first use."""
        return _console(sys.stdout)

    @functools.cached_property
    def err(self) -> Console:
        """The console for diagnostics (stderr), made on first use."""
        return _console(sys.stderr)

    def json(self, obj: object) -> None:
        """Print ``obj`` as one line of JSON on stdout."""
        text = json.dumps(obj, ensure_ascii=False)
        if not can_encode(text, sys.stdout):
            # A stdout that cannot encode a character (an ASCII or legacy code page
            # pipe, or a lone surrogate) gets JSON's own \u escapes: the same object,
            # valid in any encoding, and no crash on input that echoes back text.
            text = json.dumps(obj)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def print(self, *items: Any, wrap: bool = False) -> None:
        """Print a result to stdout. With ``wrap`` (a person's terminal) long lines break
        at word boundaries to the terminal's width; otherwise a line is never broken."""
        self.out.print(*(_safe_item(item) for item in items), soft_wrap=not wrap)

    def note(self, message: str) -> None:
        """Print a diagnostic to stderr (on a terminal, wrapped at word boundaries)."""
        self.err.print(printable(message), soft_wrap=not self.err.is_terminal)


def card_text(card: Card, *, words: bool = True, colour: bool = True) -> Text:
    """A card as rich text: code and shape glyph (in its colour), then the words."""
    from rich.text import Text

    text = Text()
    style = COLOUR_STYLES[card.colour] if colour else ""
    text.append(f"{card.code} {SHAPE_GLYPHS[card.shape]}", style=style)
    if words:
        text.append(f" {card.words}")
    return text


def cards_arg(values: Sequence[tuple[Card, ...]]) -> tuple[Card, ...]:
    """Flatten a repeated ``--hand`` option into one tuple of cards."""
    return tuple(card for group in values for card in group)
