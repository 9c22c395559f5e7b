"""The terminal front end's application object: one per ``mittens`` run.

Contract: :class:`Application` (hatch's ``Application`` is the model) is made by
:func:`defuser.cli.main` and handed to every command through click's context
(:meth:`Application.current`). It owns

- **the consoles**: results to stdout, diagnostics and progress to stderr, colour only
  on a terminal and never with ``NO_COLOR``; nothing printed through it raises on an
  unencodable character, and control characters never reach the terminal;
- **the error boundary** (:meth:`Application.boundary`): a library's bad input
  (:class:`edgework.errors.InputError`, worded by :func:`defuser.terminal.words.error_words`),
  a click usage error or a user path that cannot be used is one line on stderr and exit 2
  (one line whatever a file name holds); stdout is flushed and checked before the exit
  status is chosen, so a full disk is one line and exit 2 whatever the amount of output;
  a fault outside the program (:class:`edgework.errors.FaultError`) is one line and exit 1;
  every such line starts with the running command (``mittens solve: error:``; plain
  ``mittens: error:`` only before a command is known);
  a reader that goes away is exit 0; a misuse (:class:`edgework.errors.MisuseError`) is a
  bug and keeps its traceback;
- **Ctrl-C**, the one place that ends a run on it (:meth:`Application.interrupted`): the
  command's summary first (:meth:`Application.interruptible`), then
  ``mittens: interrupted`` on stderr and exit 130;
- **the clocks** the commands hand to their sessions: :attr:`Application.clock`
  (monotonic seconds, for a game's timer and elapsed time) and :attr:`Application.wall`
  (seconds since the epoch, for what day it is). A test gives an application with fake
  clocks to :func:`defuser.cli.main` instead of patching a module's clock.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final, NoReturn, TextIO

import click

from defuser.streams import (
    EXIT_INTERRUPTED,
    ReaderGone,
    can_encode,
    flush_stdout,
    is_pipe_error,
    one_line,
    os_reason,
    printable,
    silence_stdout,
    stdin_is_terminal,
)
from edgework.errors import FaultError, InputError

if TYPE_CHECKING:
    from rich.console import Console


def colour_enabled(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


#: The characters besides newline that end a line for some readers, as JSON escapes.
_JSON_LINE_ENDS: Final = {0x2028: "\\u2028", 0x2029: "\\u2029"}


def _console(file: TextIO) -> Console:
    """A rich console on ``file`` whose broken pipe is the caller's to handle (the
    boundary exits 0). rich is imported here, on first use: a command that only prints
    JSON (``live --json``) never pays for it at start-up."""
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


class BadInput(click.ClickException):
    """What a command was given cannot be used: one line on stderr, exit 2."""

    exit_code = 2


def _fail(message: str, code: int) -> NoReturn:
    """One line on stderr (whatever the names in ``message`` hold), then exit ``code``."""
    click.echo(one_line(message), err=True)
    sys.exit(code)


class Application:
    """The one object a ``mittens`` run's commands print and end through.

    ``json_mode`` is the running command's ``--json``: results are JSON lines.
    ``clock`` is the monotonic clock the commands' sessions run on (a game's timer),
    ``wall`` the calendar's (seconds since the epoch: the stats' "now").
    """

    def __init__(
        self,
        *,
        json_mode: bool = False,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        """An application printing JSON lines if ``json_mode``, on these clocks."""
        self.json_mode = json_mode
        self.clock = clock
        self.wall = wall
        #: The running command as typed (``mittens solve``): every error line starts
        #: with it, so a failure reads the same whichever part of the run it came from.
        self.command_path = "mittens"

    @classmethod
    def current(cls, *, json_mode: bool = False) -> Application:
        """The run's application, from click's context (a command invoked on its own
        gets one made), set to the command's ``json_mode``."""
        ctx = click.get_current_context(silent=True)
        app = ctx.ensure_object(cls) if ctx is not None else cls()
        app.json_mode = json_mode
        if ctx is not None:
            app.command_path = ctx.command_path
        return app

    # ----------------------------------------------------------------------- output

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
        # Unicode's line and paragraph separators (which only a string can hold) are
        # written as JSON escapes, so the object stays one line for a reader that ends
        # lines there too (Python's splitlines, JavaScript before ES2019).
        text = json.dumps(obj, ensure_ascii=False).translate(_JSON_LINE_ENDS)
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
        if not wrap:
            self.out.print(*(_safe_item(item) for item in items), soft_wrap=True)
            return
        from rich.text import Text

        from defuser.terminal.wrap import wrap_text

        width = self.out.width
        # Text goes through the one wrapping routine (hanging indents, words whole);
        # other renderables (tables, groups) lay themselves out in the width.
        laid = [wrap_text(item, width) if isinstance(item, str | Text) else item
                for item in (_safe_item(item) for item in items)]
        for item in laid:
            self.out.print(item, soft_wrap=isinstance(item, Text))

    def prose(self, *items: Any) -> None:
        """Print text for a person: wrapped on a terminal (:meth:`print` with ``wrap``),
        never when piped."""
        self.print(*items, wrap=self.out.is_terminal)

    def note(self, message: str) -> None:
        """Print a diagnostic to stderr (on a terminal, wrapped at word boundaries)."""
        self.err.print(printable(message), soft_wrap=not self.err.is_terminal)

    # ----------------------------------------------------------------------- Ctrl-C

    def interrupted(self, detail: str = "") -> NoReturn:
        """End the run after Ctrl-C: ``mittens: interrupted`` (then ``detail``, e.g.
        ``; 3 answers saved``) on stderr, exit 130 as a shell expects after SIGINT."""
        if detail:
            self.note(f"mittens: interrupted{detail}")
        else:
            sys.stderr.write("mittens: interrupted\n")
            sys.stderr.flush()
        raise SystemExit(EXIT_INTERRUPTED)

    @contextlib.contextmanager
    def interruptible(
        self, summary: Callable[[], str | None], *, open_prompt: bool = True
    ) -> Iterator[None]:
        """Ctrl-C inside the block prints the command's ``summary``, then ends the run
        (:meth:`interrupted`, with the ``detail`` the summary returns, if any).

        ``open_prompt``: Ctrl-C may come at a prompt whose line is still open on a
        terminal, which is ended first; False for a command that reads no line, or whose
        reader ends the line itself."""
        try:
            yield
        except KeyboardInterrupt:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                if open_prompt and stdin_is_terminal() and sys.stdout.isatty():
                    # Ctrl-C came at a prompt: end its line, so the summary starts on its own.
                    sys.stdout.write("\n")
            detail = summary()
            self.interrupted(detail or "")

    # ----------------------------------------------------------------------- errors

    @contextlib.contextmanager
    def boundary(self) -> Iterator[None]:
        """The one place where a failure of the run becomes an exit status (see the
        module contract); what it does not know (a misuse, a bug) passes through."""
        try:
            try:
                yield
            finally:
                # Output not yet written is checked here, before the exit status is
                # chosen: a full disk is one line and exit 2, never output lost unseen.
                flush_stdout()
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            self._click_failed(exc)
        except click.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):
                self.interrupted()
            _fail("mittens: aborted", 1)
        except KeyboardInterrupt:
            self.interrupted()
        except InputError as exc:
            from defuser.terminal.words import error_words

            _fail(f"{self.command_path}: error: {printable(error_words(exc))}", 2)
        except FaultError as exc:
            from defuser.terminal.words import error_words

            _fail(f"{self.command_path}: error: {printable(error_words(exc))}", 1)
        except ReaderGone:
            silence_stdout()
            sys.exit(0)
        except OSError as exc:
            self._os_failed(exc)

    def _click_failed(self, exc: click.ClickException) -> NoReturn:
        """A click error: a usage error names its command, a path is bad input (exit 2)."""
        if isinstance(exc, click.UsageError):
            where = exc.ctx.command_path if exc.ctx else self.command_path
            _fail(f"{where}: error: {printable(exc.format_message())}", exc.exit_code)
        # A path that cannot be opened is bad input, like any other (exit 2).
        code = 2 if isinstance(exc, click.FileError) else exc.exit_code
        _fail(f"{self.command_path}: error: {printable(exc.format_message())}", code)

    def _os_failed(self, exc: OSError) -> NoReturn:
        """A reader that went away is no failure (exit 0); any other ``OSError`` names
        its file and the reason (exit 2)."""
        if is_pipe_error(exc):
            silence_stdout()
            sys.exit(0)
        where = f" {printable(str(exc.filename))!r}" if exc.filename is not None else ""
        _fail(f"{self.command_path}: error:{where} {os_reason(exc)}", 2)
