"""``mittens prop``: play a module on the physical prop (or its simulated twin).

The host keeps the game; the prop shows what it is told and reports presses
(docs/protocol.md). This command reads its options, opens the port (``--port`` URL, or
the one USB board that looks like a prop), runs the handshake, and hands the game to
:class:`hardware.game.PropGame`, whose events it renders until the solve, the
explosion, a script's end or Ctrl-C: what the prop shows and every press, and link
trouble (a lost prop, a restart, lost presses, bad lines) in words on stderr, or as
JSON events with ``--json``. ``--list`` lists the candidate ports; ``--demo`` plays on
a simulated prop that presses winning buttons.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any, Final
from urllib.parse import parse_qs, urlsplit

import click
from rich.text import Text

from defuser.engine.clock import time_text
from defuser.engine.game import GameEnd, GameSession, edge_fields
from defuser.engine.generate import build_edgework, new_seed
from defuser.engine.modlog import LogAppender
from defuser.engine.simulator import Module, Outcome
from defuser.terminal.app import Application, colour_enabled
from defuser.terminal.game_view import Stop, batteries_words, elapsed_words, end_headline
from defuser.terminal.params import edgework_options, game_options, resolve_edgework, seconds
from defuser.terminal.safeio import open_output
from defuser.terminal.style import card_text
from defuser.terminal.words import setting_hint
from edgework import Batteries, Card, Edgework
from hardware.bridge import Bridge, button_for, edge_commands, winning_actions
from hardware.conformance import Actor, CheckStatus, check_prop, passed
from hardware.device import Device
from hardware.display import DisplayState
from hardware.errors import HardwareError
from hardware.game import Over, Pressed, PropGame, PropGameEvent, PropStarted, ScriptRanOut
from hardware.propsim import registry
from hardware.propsim.checking import SimActor, SimClock
from hardware.propsim.twin import PropSim
from hardware.propsim.url import open_url
from hardware.protocol import (
    MAX_TIMER_MS,
    Button,
    GameState,
    ShowGame,
    ShowHand,
    ShowLimit,
    ShowSolved,
    ShowStrikes,
    ShowTimer,
    ShowTop,
)
from hardware.session import Notice, NoticeKind, Timing
from hardware.transport import Link, PortInfo, candidate_ports, discover, system_ports


class PortParam(click.ParamType[str]):
    """A port name or pyserial URL: /dev/ttyACM0, COM3, socket://host:port, propsim://..."""

    name = "url"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        """Keep the text; refuse an empty one."""
        text = str(value).strip()
        if not text:
            self.fail(
                "port is empty, expected a device like /dev/ttyACM0 or a URL like "
                "socket://host:port",
                param,
                ctx,
            )
        return text


PORT = PortParam()


def all_ports() -> list[PortInfo]:
    """System ports plus the simulated props of this process."""
    return system_ports() + registry.sim_ports()


#: Seconds between a demo's presses when a person watches (``--pace`` changes it).
DEMO_PACE: Final = 0.6


class PropView:
    """How ``mittens prop`` shows one game on the prop: link notices, the trace file,
    the log file, and the game's events with what the prop shows."""

    def __init__(
        self,
        out: Application,
        *,
        colour: bool,
        json_mode: bool,
        log_file: IO[str] | None,
        trace_file: IO[str] | None,
    ) -> None:
        self.out = out
        self.colour = colour
        self.json_mode = json_mode
        self.log = LogAppender(log_file)
        self.trace_file = trace_file
        self._trace_lock = threading.Lock()
        #: Why the game stopped, as the summary says it (Ctrl-C or a lost link: stopped).
        self.end: GameEnd | Stop = Stop.STOPPED

    # ------------------------------------------------------------------ callbacks

    def notice(self, notice: Notice) -> None:
        """Link trouble, in words on stderr (or as a JSON event)."""
        hint = ""
        if notice.kind in (NoticeKind.WAITING, NoticeKind.SLOW):
            hint = setting_hint(notice.setting)
        if self.json_mode:
            # The message with its hint, as in words (the hint was missing here).
            self.out.json({"event": "link", **notice.as_dict(), "message": notice.message + hint})
            return
        self.out.note(f"prop: {notice.message}{hint}")

    def trace(self, direction: str, text: str) -> None:
        """Write one protocol line to the trace file (called from two threads)."""
        if self.trace_file is None:
            return
        with self._trace_lock:
            self.trace_file.write(f"{direction} {text}\n")
            self.trace_file.flush()

    # ------------------------------------------------------------------ rendering

    def card(self, card: Card | None, *, words: bool = True) -> Text:
        """A card as the prop shows it, or ``--`` for none."""
        if card is None:
            return Text("--")
        return card_text(card, words=words, colour=self.colour)

    def show_prop(self, shown: DisplayState, *, edge: bool = False) -> None:
        """What the prop shows now: its edge (when ``edge``) and its state, a line each."""
        widgets = shown.widgets() if edge else []
        if widgets:
            self.out.print(Text("Prop:    " + " | ".join(widgets)))
        line = Text("Prop:    ")
        for command in shown.commands():
            if isinstance(command, ShowTop):
                line.append("pile ").append_text(self.card(command.card)).append(" | hand ")
            elif isinstance(command, ShowHand):
                for slot, card in enumerate(command.slots, start=1):
                    line.append(f"{slot}: ").append_text(self.card(card, words=False))
                    line.append("  " if slot < 3 else "")
            elif isinstance(command, ShowStrikes):
                line.append(f" | strikes {command.count}")
            elif isinstance(command, ShowLimit) and command.limit:
                line.append(f" of {command.limit}")
            elif isinstance(command, ShowTimer) and command.ms is not None:
                line.append(f" | timer {time_text(command.ms, game=True)}")
            elif isinstance(command, ShowGame) and command.state in (
                GameState.EXPLODED, GameState.TIMEOUT
            ):
                line.append(f" | {command.state.value}")
            elif isinstance(command, ShowSolved) and command.solved:
                line.append(" | SOLVED", style="bold green" if self.colour else "")
        self.out.print(line)

    def report(self, event: Pressed, module: Module) -> None:
        """Say what one press did."""
        result = event.result
        action = result.action
        head = f"#{event.press.seq} {event.press.button.value} -> {action}: "
        if result.outcome is Outcome.NOTHING:
            self.out.print(Text(head + f"nothing happens ({result.note or 'empty slot'})."))
        elif result.outcome is Outcome.STRIKE:
            assert result.strike is not None
            style = "bold red" if self.colour else ""
            self.out.print(Text(head + f"STRIKE {module.strikes} ({result.strike.value}).", style))
        else:
            assert result.card is not None
            line = Text(head + f"{action.kind.past_tense} ")
            line.append_text(self.card(result.card))
            line.append(f", {module.rules.type_of(result.card).card_words}.")
            if result.outcome is Outcome.SOLVED:
                line.append(" The Exploding Mitten was on top of the deck.")
            self.out.print(line)

    # ------------------------------------------------------------------ the game

    def show(self, event: PropGameEvent, game: PropGame, device: Device, seed: int) -> None:
        """Render one event of ``game`` on ``device``."""
        module = game.game.module
        if isinstance(event, PropStarted):
            self.show_start(device, event.shown, seed, game.bridge.edgework)
        elif isinstance(event, Pressed):
            self.log.flush(module.log, module.log_total)
            if self.json_mode:
                self.out.json(event.as_dict())
            else:
                self.report(event, module)
                self.show_prop(event.shown)
        elif isinstance(event, Over):
            self.end = event.end
            if event.end is GameEnd.TIMED_OUT:
                self.report_timeout(event.shown)
        elif isinstance(event, ScriptRanOut):
            self.end = Stop.SCRIPT_ENDED

    def show_start(self, device: Device, shown: DisplayState, seed: int, edge: Edgework) -> None:
        """The opening: seed, port, edge and what the prop shows."""
        if self.json_mode:
            self.out.json(
                {
                    "event": "start",
                    "seed": seed,
                    "port": device.current_url,
                    "identity": None if device.identity is None else str(device.identity),
                    "firmware": device.firmware,
                    **edge_fields(edge),
                    "prop": shown.as_json(),
                }
            )
            return
        self.out.print(f"Exploding Mittens on the prop · seed {seed} (replay with --seed {seed})")
        where = f" ({device.identity})" if device.identity else ""
        self.out.print(f"Port:    {device.current_url}{where}, firmware {device.firmware}")
        self.out.print(f"Edge:    serial {edge.serial} · {batteries_words(edge.batteries)}")
        self.show_prop(shown, edge=True)

    def report_timeout(self, shown: DisplayState) -> None:
        """Say that the timer ran out (the summary follows)."""
        if self.json_mode:
            self.out.json({"event": "timeout", "prop": shown.as_json()})
        else:
            self.show_prop(shown)

    def finish(
        self, session: GameSession, end: GameEnd | Stop, device: Device, presses: int
    ) -> None:
        """The closing summary."""
        module = session.module
        elapsed = session.elapsed()
        if self.json_mode:
            self.out.json(
                {
                    "event": "end",
                    "reason": end.value,
                    "presses": presses,
                    "strikes": module.strikes,
                    "solved": module.solved,
                    "lost_presses": device.lost_events,
                    "bad_lines": device.bad_lines,
                    "prop_bad_lines": device.prop_bad_lines,
                    "recoveries": device.recoveries,
                    "seconds": round(elapsed, 3),
                }
            )
            return
        headline = end_headline(end, module.strikes)
        self.out.print(Text(headline, style="bold" if self.colour else ""))
        self.out.print(
            f"{presses} press{'' if presses == 1 else 'es'}, {module.strikes} "
            f"strike{'' if module.strikes == 1 else 's'}, {device.lost_events} lost, "
            f"{device.bad_lines} bad line(s) dropped here and {device.prop_bad_lines} on the "
            f"prop, {device.recoveries} reconnection(s), time {elapsed_words(elapsed)}."
        )


def list_ports(out: Application, json_mode: bool) -> None:
    """Print the candidate ports."""
    ports = system_ports()
    candidates = candidate_ports(ports)
    if json_mode:
        out.json(
            {
                "ports": [
                    {**port.as_dict(), "candidate": port in candidates} for port in ports
                ]
            }
        )
        return
    if not ports:
        out.print("No serial ports found. Plug the prop in, or use --demo to try a simulated one.")
        return
    for port in sorted(ports, key=lambda p: (p not in candidates, p.board is None, p.device)):
        usb = "" if port.identity is None else f"  {port.identity}"
        board = f"  [{port.board}]" if port.board else ""
        mark = "*" if port in candidates else " "
        out.print(f"{mark} {port.device}{board}{usb}  {port.description}")
    out.print("* = USB serial port that could be the prop")


@click.group(invoke_without_command=True)
@click.option("--port", type=PORT, help="Port or URL: /dev/ttyACM0, COM3, socket://h:p, ...")
@click.option("--list", "list_only", is_flag=True, help="List candidate ports and exit.")
@click.option("--demo", is_flag=True, help="Play on a simulated prop that presses by itself.")
@click.option(
    "--pace",
    type=seconds(0.0),
    help="With --demo: seconds between its presses (default "
    f"{DEMO_PACE} on a terminal, none when the output is piped or JSON).",
)
@edgework_options(if_missing="random if omitted")
@game_options()
@click.option(
    "--trace",
    "trace_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Write every protocol line (> sent, < received, ! dropped) to this file.",
)
@click.option(
    "--timeout",
    type=seconds(0.01),
    default=0.5,
    show_default=True,
    help="Seconds to wait for each reply.",
)
@click.option(
    "--handshake-timeout",
    type=seconds(0.1),
    default=5.0,
    show_default=True,
    help="Seconds to wait for the prop to answer at all.",
)
@click.option(
    "--reconnect-timeout",
    type=seconds(0.0),
    help="Give up when a lost prop is not back after this many seconds (default: wait).",
)
@click.option("--json", "json_mode", is_flag=True, help="Print one JSON object per event.")
@click.pass_context
def prop(
    ctx: click.Context,
    port: str | None,
    list_only: bool,
    demo: bool,
    pace: float | None,
    serial: str | None,
    batteries: Batteries | None,
    edgework: str | None,
    lenient_serial: bool,
    seed: int | None,
    strike_limit: int,
    log_path: str | None,
    time_limit: float | None,
    trace_path: str | None,
    timeout: float,
    handshake_timeout: float,
    reconnect_timeout: float | None,
    json_mode: bool,
) -> None:
    """Play a module on the physical prop over USB serial (docs/protocol.md).

    The host keeps the game: the prop shows the hand, the discard pile, strikes, the
    solve, the serial number and the batteries, and reports button presses. Without
    --port the one USB board that looks like a prop is used; --list shows the choices.
    For a try without hardware: mittens prop --demo, or python -m hardware.propsim --pty
    in another terminal and --port with the path it prints. mittens prop check PORT
    tests a prop against every requirement of the protocol.
    """
    if ctx.invoked_subcommand is not None:
        return
    out = Application.current(json_mode=json_mode)
    if list_only:
        list_ports(out, json_mode)
        return
    pace = demo_pace(demo, port, pace, out)
    check_time_limit(time_limit)
    given = resolve_edgework(
        serial, batteries, edgework, lenient=lenient_serial, need_serial=False
    )
    if seed is None:
        seed = new_seed()
    edge = build_edgework(given, seed)
    edge_commands(edge)  # edgework the prop cannot show is bad input, before the port opens
    module = Module.from_edgework(edge, seed)
    port = choose_port(port, demo, module)
    timing = Timing(
        reply_timeout=timeout,
        handshake_timeout=handshake_timeout,
        reconnect_timeout=reconnect_timeout,
    )
    files = (log_path, trace_path)
    play_on_port(out, port, timing, module, edge, seed, files, strike_limit, time_limit, pace=pace)


def demo_pace(demo: bool, port: str | None, pace: float | None, out: Application) -> float:
    """The seconds between a demo's presses: as given, else :data:`DEMO_PACE` when a
    person watches (a terminal, not JSON), else none; none without ``--demo``, which
    goes with ``--pace`` and not with ``--port``."""
    if demo and port is not None:
        raise click.UsageError("give --port or --demo, not both")
    if pace is not None and not demo:
        raise click.UsageError("--pace works with --demo")
    if not demo:
        return 0.0
    if pace is not None:
        return pace
    return DEMO_PACE if sys.stdout.isatty() and not out.json_mode else 0.0


def check_time_limit(time_limit: float | None) -> None:
    """Refuse a ``--time`` longer than the prop's timer can carry (``TIMER``'s ``<ms>``)."""
    if time_limit is not None and time_limit * 1000 > MAX_TIMER_MS:
        raise click.BadParameter(
            f"the prop's timer shows at most 99:59.999: give {MAX_TIMER_MS / 1000} s or less",
            param_hint="--time",
        )


def play_on_port(
    out: Application,
    port: str,
    timing: Timing,
    module: Module,
    edge: Edgework,
    seed: int,
    paths: tuple[str | None, str | None],
    strike_limit: int,
    time_limit: float | None,
    *,
    pace: float = 0.0,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Open the log and trace files (``paths``), set up the game on the prop at ``port``
    and play it (``pace``: seconds after each press, waited on ``sleep``).

    A simulated prop in this process that plays a script (``--demo``, a ``propsim://``
    URL with ``script=``) is played on emulated time (:class:`SimClock`) unless a person
    watches it at a ``pace``: its presses come from the script, so a wait (a reply, a
    reconnection, the bomb timer) ends at once instead of on the wall clock."""
    log_path, trace_path = paths
    files: list[IO[str]] = []
    scripted = _scripted_sim(port)
    emulated = None if scripted is None or pace else SimClock(scripted)
    clock = time.monotonic if emulated is None else emulated.now
    try:
        view = PropView(
            out,
            colour=colour_enabled(sys.stdout) and not out.json_mode,
            json_mode=out.json_mode,
            log_file=_open_for_writing(log_path, "log file", files),
            trace_file=_open_for_writing(trace_path, "trace file", files, log_path),
        )
        device = Device(
            port, timing=timing, lister=all_ports, on_notice=view.notice, trace=view.trace,
            clock=clock, sleep=time.sleep if emulated is None else emulated.sleep,
            idle=None if emulated is None else emulated.idle_until,
        )
        session = GameSession(
            module, strike_limit=strike_limit, clock=clock, time_limit=time_limit
        )
        game = PropGame(
            session, Bridge(module, edge, device), device,
            settle=timing.handshake_timeout, pace=pace, sleep=sleep,
            script_done=None if scripted is None else lambda: scripted.script_finished,
        )
        play_on_prop(out, view, game, device, seed)
    finally:
        for file in files:
            file.close()


def choose_port(port: str | None, demo: bool, module: Module) -> str:
    """The port to play on: the one given, a simulated prop that presses the winning
    buttons (``demo``), or the one USB board that looks like a prop.

    A simulated prop given with a script is made now, so that the game knows it plays
    a script (and runs on emulated time, see :func:`play_on_port`)."""
    if demo:
        presses = [button_for(action) for action in winning_actions(module)]
        return registry.url_of(registry.create(script=presses))
    if port is None:
        return discover(system_ports())
    if port.startswith(f"{registry.SCHEME}://") and "script" in parse_qs(urlsplit(port).query):
        return registry.url_of(open_url(port))
    return port


def play_on_prop(
    out: Application, view: PropView, game: PropGame, device: Device, seed: int
) -> None:
    """Connect to the prop, render the game's events and print the summary, after
    Ctrl-C too (the application ends the run). A lost link after the start still prints
    the summary, then fails."""
    module = game.game.module

    def summary() -> None:
        view.finish(game.game, view.end, device, module.clicks)

    try:
        # The prop reads no line: nothing to end before the summary.
        with out.interruptible(summary, open_prompt=False):
            view.log.flush(module.log, module.log_total)
            try:
                device.connect()
                for event in game.play():
                    view.show(event, game, device, seed)
            except HardwareError:
                if device.firmware is not None:
                    # The game had started: its summary is not lost with the link.
                    summary()
                raise
            summary()
    finally:
        device.close()


def _scripted_sim(url: str | None) -> PropSim | None:
    """The simulated prop behind ``url`` when it plays a script, else None."""
    sim = None if url is None else _sim_behind(url)
    return sim if sim is not None and sim.script else None


def _open_for_writing(
    path: str | None, what: str, files: list[IO[str]], other: str | None = None
) -> IO[str] | None:
    if path is None:
        return None
    # A full disk later is one line naming the file, like a path that cannot be opened;
    # never a stats database, nor the --log file already opened (``other``).
    protect = [] if other is None else [(other, f"the log file {other!r}")]
    file = open_output(path, what, protect)
    files.append(file)
    return file


class PromptActor:
    """Asks the person at the prop to press a button or reset it (on stderr)."""

    def __init__(self, out: Application) -> None:
        self.out = out

    def press(self, button: Button) -> None:
        """Ask for one press."""
        self.out.note(f"check: press {button.value} on the prop once")

    def reset(self) -> None:
        """Ask for a reset."""
        self.out.note("check: reset the prop now (its reset button, or power it off and on)")


#: How each check status is coloured.
CHECK_STYLES: dict[CheckStatus, str] = {
    CheckStatus.PASS: "green",
    CheckStatus.FAIL: "bold red",
    CheckStatus.SKIP: "yellow",
}


@prop.command("check")
@click.argument("port_or_url", type=PORT)
@click.option("--json", "json_mode", is_flag=True, help="Print the results as one JSON object.")
@click.option(
    "--timeout",
    type=seconds(0.01),
    default=0.5,
    show_default=True,
    help="Seconds to wait for each answer.",
)
@click.option(
    "--deadline",
    type=seconds(0.001),
    default=0.05,
    show_default=True,
    help="Seconds the prop may take to reply (the protocol asks 0.05).",
)
@click.option(
    "--press-timeout",
    type=seconds(0.1),
    default=30.0,
    show_default=True,
    help="Seconds to wait for each press or reset you are asked for.",
)
@click.option(
    "--no-presses",
    is_flag=True,
    help="Skip the checks that need presses and a reset (they then count as not passed).",
)
def check(
    port_or_url: str,
    json_mode: bool,
    timeout: float,
    deadline: float,
    press_timeout: float,
    no_presses: bool,
) -> None:
    """Check a prop against every requirement of docs/protocol.md.

    Prints one row per requirement (grammar edge cases, every message of every version
    the prop speaks, handshake and version negotiation, event numbering, RESEND, a
    reset), pass or fail with the line that failed. It asks you to press buttons and to
    reset the prop when it needs to (a simulated propsim:// prop does that by itself).
    Exit code 0 only when every requirement passed.
    """
    out = Application.current(json_mode=json_mode)
    link = Link.open(port_or_url)
    try:
        sim = _sim_behind(link.url)
        actor: Actor | None = None
        if not no_presses:
            actor = SimActor(sim) if sim is not None else PromptActor(out)
        wait = press_timeout if sim is None else 2.0
        clock = None if sim is None else SimClock(sim)
        results = check_prop(
            link, actor, wait=timeout, press_wait=wait, deadline=deadline, clock=clock
        )
    finally:
        link.close()
    ok = passed(results)
    if json_mode:
        out.json(
            {
                "port": link.url,
                "passed": ok,
                "results": [result.as_dict() for result in results],
            }
        )
    else:
        for result in results:
            mark = result.status.name
            style = CHECK_STYLES[result.status]
            line = Text(f"{mark}  ", style=style if colour_enabled(sys.stdout) else "")
            line.append(f"§{result.section:<8} {result.name}: {result.requirement}")
            out.print(line)
            if result.detail:
                out.print(Text(f"      {result.detail}"))
        good = sum(result.status is CheckStatus.PASS for result in results)
        out.print(f"{good} of {len(results)} requirements passed on {link.url}.")
    if not ok:
        sys.exit(1)


def _sim_behind(url: str) -> PropSim | None:
    """The simulated prop behind ``url``, if it is one."""
    if not url.startswith(f"{registry.SCHEME}://"):
        return None
    return registry.lookup(url.split("://", 1)[1].split("?", 1)[0])
