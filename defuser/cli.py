"""The ``mittens`` command line: a group whose commands load on first use.

Each command lives in its own module under :mod:`defuser.commands` and is imported only
when it runs, so ``mittens --help`` stays fast. What the commands share (the
application object, options, safe files, the expert's screen) is :mod:`defuser.terminal`;
no command imports another. Every user-input error, from click or from the library,
ends at the application's one boundary as one line on stderr and exit code 2; no
traceback.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import click

from defuser import __version__
from defuser.streams import ReaderGone, is_pipe_error, setup_streams
from defuser.terminal.app import Application
from defuser.terminal.startup import release_interrupts


def _solve() -> click.Command:
    from defuser.commands.solve import solve

    return solve


def _tables() -> click.Command:
    from defuser.commands.tables import tables

    return tables


def _verify() -> click.Command:
    from defuser.commands.verify import verify

    return verify


def _play() -> click.Command:
    from defuser.commands.play import play

    return play


def _prop() -> click.Command:
    from defuser.commands.prop import prop

    return prop


def _drill() -> click.Command:
    from defuser.commands.drill import drill

    return drill


def _stats() -> click.Command:
    from defuser.commands.stats import stats

    return stats


def _log() -> click.Command:
    from defuser.commands.log import log

    return log


def _live() -> click.Command:
    from defuser.commands.live import live

    return live


def _bench() -> click.Command:
    from defuser.commands.bench import bench

    return bench


def _serve() -> click.Command:
    from defuser.web.command import serve

    return serve


@dataclass(frozen=True)
class CommandEntry:
    """A command of ``mittens``: how to load it, and the line ``mittens --help`` shows.

    ``load`` imports the command's module and returns its click command; it is a typed
    function (checked by mypy like any import), called only when the command is used, so
    ``mittens --help`` imports no command.
    """

    load: Callable[[], click.Command]
    summary: str


#: command name -> its entry.
COMMANDS: Final[dict[str, CommandEntry]] = {
    "solve": CommandEntry(_solve, "Answer a live module: legal plays and what to do."),
    "tables": CommandEntry(_tables, "Print Tables A-F (text, markdown, JSON, CSV)."),
    "verify": CommandEntry(_verify, "Check the built-in tables or a transcription."),
    "play": CommandEntry(_play, "Play the module in the terminal, Twitch Plays style."),
    "prop": CommandEntry(_prop, "Play a module on the physical prop over USB serial."),
    "drill": CommandEntry(_drill, "Timed drills: lookups, decisions, whole games."),
    "stats": CommandEntry(_stats, "Drill progress: accuracy, speed, weak spots."),
    "log": CommandEntry(_log, "Read KTaNE game logs: replay and check every line."),
    "live": CommandEntry(_live, "Follow a module live: the optimal safe next move."),
    "bench": CommandEntry(_bench, "Benchmark the policies on simulated modules."),
    "serve": CommandEntry(_serve, "The board and the tables in the browser."),
}


def did_you_mean(name: str) -> str:
    """`` Did you mean 'solve'?`` for a mistyped command name, from the names nearest
    to it (nothing if none is near); ``help`` points at ``--help``."""
    if name.lower() == "help":
        return " Did you mean 'mittens --help'?"
    near = difflib.get_close_matches(name.lower(), COMMANDS, n=3, cutoff=0.6)
    if not near:
        return ""
    return " Did you mean " + " or ".join(repr(n) for n in near) + "?"


class LazyGroup(click.Group):
    """A click group that imports a command's module only when that command is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """All command names, sorted."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Import and return the command called ``cmd_name``; the run's errors name it
        from now on."""
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        ctx.ensure_object(Application).command_path = f"{ctx.command_path} {cmd_name}"
        return entry.load()

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command ``args`` names; a name that is none fails with the nearest names."""
        name = args[0]
        if name not in COMMANDS and not name.startswith("-") and not ctx.resilient_parsing:
            ctx.fail(f"No such command {name!r}.{did_you_mean(name)}")
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a closed stdout pipe becomes :class:`ReaderGone`."""
        try:
            return super().invoke(ctx)
        except OSError as exc:
            if is_pipe_error(exc):
                raise ReaderGone from None
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List commands from the registry's summaries without importing them."""
        rows = [(name, COMMANDS[name].summary) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(
    cls=LazyGroup,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, "--version", prog_name="mittens")
def cli() -> None:
    """Exploding Mittens: solve, practise, check logs and drive a prop for the KTaNE module."""


def main(argv: list[str] | None = None, app: Application | None = None) -> Any:
    """Run ``mittens`` under its :class:`~defuser.terminal.app.Application` (``app``, or
    one on the real clocks), whose error boundary turns every failure into an exit status.

    Input errors (from click, the library or a user path) print one line on stderr and
    exit 2; Ctrl-C exits 130 (interactive commands print their summary first); a
    reader that goes away (``mittens ... | head -1``) exits 0; bare ``mittens`` prints
    the help and exits 0.
    """
    setup_streams()
    app = Application() if app is None else app
    with app.boundary():
        release_interrupts()
        try:
            return cli.main(args=argv, prog_name="mittens", standalone_mode=False, obj=app)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else cli.get_help(click.Context(cli)))
            sys.exit(0)
