"""``mittens serve``: the web front end's command (the board and the tables in the browser)."""

from __future__ import annotations

from pathlib import Path

import click

from defuser.web.server import DEFAULT_HOST, DEFAULT_PORT, plan
from defuser.web.server import serve as run_server


@click.command(
    "serve",
    epilog="By default only this machine can connect. With --host 0.0.0.0 (or a LAN "
    "address) a phone or tablet can too: every request then needs the random token in the "
    "printed address, which the browser keeps as a cookie after the first visit.",
)
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="Address to listen on; anything but loopback needs the printed token.")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT,
              show_default=True, help="Port to listen on (0: any free port).")
@click.option("--no-open", is_flag=True, help="Do not open a browser.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Another host name the server answers to (repeatable).")
@click.option("--follow", "follow", metavar="LOG", is_flag=False, flag_value="",
              default=None, help="The log the hands-free board follows (default: the "
              "game's own log where this system keeps it).")
@click.option("--db", "database", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="The stats database the drills and the dashboard use "
              "(default: the one 'mittens drill' uses).")
def serve(host: str, port: int, no_open: bool, allow_hosts: tuple[str, ...],
          follow: str | None, database: Path | None) -> None:
    """Serve the expert's board, the hands-free board, the tables, the drills, the stats
    and the log viewer on a local web page.

    The first line of output is the address to open. Ctrl-C stops the server.
    """
    def announce(url: str) -> None:
        click.echo(url)
        click.echo("Serving; press Ctrl-C to stop.", err=True)

    path = Path(follow) if follow else None
    if path is not None and not path.parent.is_dir():
        raise click.BadParameter(
            f"the folder of {str(path)!r} does not exist, expected a log path in an existing "
            "folder", param_hint="--follow")
    run_server(plan(host, port, allow_hosts), open_browser=not no_open, announce=announce,
               follow=path, database=database)
