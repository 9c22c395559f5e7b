"""``mittens play``: the module in the terminal, typed with Twitch Plays commands.

On a terminal it prompts and colours; with commands piped in it reads them line by line
without prompts or colour and stops at the end of input, at the solve or when the bomb
explodes (exit 0 in all three cases). ``--log`` writes the module's own log lines as
they happen; ``--json`` prints one JSON object per command for scripts.
"""

from __future__ import annotations

import math
import sys
from typing import IO, Any

import click
from rich.text import Text

from defuser.engine.actions import Action, ActionKind, StrikeKind
from defuser.engine.game import (
    Clicked,
    GameEnd,
    GameEvent,
    GameSession,
    click_fields,
    edge_fields,
    visible_state,
)
from defuser.engine.generate import build_edgework, new_seed
from defuser.engine.modlog import LogAppender
from defuser.engine.simulator import Module, Outcome, Result
from defuser.errors import DefuserError
from defuser.logs.reader import bomb_lines
from defuser.strategy import explain
from defuser.streams import input_lines, stdin_is_terminal
from defuser.terminal.app import Application, colour_enabled
from defuser.terminal.drill_clock import TIMED_OUT
from defuser.terminal.game_view import (
    PROMPT,
    BoardRegion,
    Reader,
    Stop,
    batteries_words,
    elapsed_words,
    end_headline,
    mitten_words,
    readline_reader,
    timed_reader,
)
from defuser.terminal.params import edgework_options, game_options, resolve_edgework
from defuser.terminal.safeio import open_output
from defuser.terminal.style import card_text
from defuser.terminal.wrap import wrap_text
from defuser.trainer.answers import read_action
from edgework import Batteries, Card, Edgework

HELP_TEXT = """\
Commands (Twitch Plays style, any case, optional '!1 ' prefix):
  draw          click the deck: take its top card into the first empty slot
  discard       click the discard pile: the deck's top card goes onto the pile (only
                allowed when no card in your hand is legal; a Defuse that is the only
                legal card does not count, so you may still discard)
  play <1-3>    click a hand slot: play that card onto the discard pile (also p1, 1,
                play1, as in mittens drill)
  help          show this help
  quit          stop the game
Goal: draw a Defuse and play it while the Exploding Mitten is on top of the deck.
Every N-th card dealt is the mitten, N = (batteries mod 5) + 9."""

QUIT_WORDS = frozenset({"quit", "exit"})


def result_json(command: str, result: Result, module: Module) -> dict[str, Any]:
    """One command's JSON object: what it did and the state it left."""
    return {
        "command": command,
        **click_fields(result),
        "note": result.note or None,
        "log": list(result.log),
        "state": visible_state(module),
    }


def read_click(text: str) -> Action:
    """A click as typed: the Twitch Plays command, or the short forms ``mittens drill``
    reads (``p2``, ``2``, ``play2``, ``dr``, ``disc``), so one syntax works everywhere a
    click is typed. A line neither reads raises the Twitch Plays parser's error."""
    try:
        return Action.parse(text)
    except DefuserError:
        try:
            return read_action(text)
        except DefuserError:
            pass
        raise


class TerminalGame:
    """One game in the terminal: the game session's events, rendered, and its log file."""

    def __init__(
        self,
        session: GameSession,
        edge: Edgework,
        out: Application,
        *,
        colour: bool,
        json_mode: bool,
        log_file: IO[str] | None,
        reveal: bool = False,
        in_place: bool = False,
    ) -> None:
        """Render ``session``; its module's start-up log lines go to ``log_file`` at once.
        ``reveal`` names each card's type and where the mitten is (what the defuser
        cannot see); ``in_place`` redraws the board where it stands (a terminal)."""
        self.session = session
        self.reveal = reveal
        #: On a terminal, what was printed since the last click's report, to be redrawn.
        self.region: BoardRegion | None = BoardRegion(out.out) if in_place else None
        self.module = session.module
        self.edge = edge
        self.out = out
        self.colour = colour
        self.json_mode = json_mode
        #: A person's terminal: long lines break at word boundaries, never mid-word.
        self.wrap = colour or in_place or (sys.stdout.isatty() and not json_mode)
        self.log = LogAppender(log_file)
        self.log.flush(self.module.log, self.module.log_total)

    # --------------------------------------------------------------- rendering

    def card(self, card: Card) -> Text:
        """A card: code and shape glyph in its colour, then its words."""
        return card_text(card, colour=self.colour)

    def say(self, text: str | Text, style: str = "") -> None:
        """Print one line, styled only when colour is on; on a person's terminal laid
        out by the one wrapping routine (an explanation keeps its indent)."""
        if isinstance(text, str):
            text = Text(text, style=style if self.colour else "")
        if self.wrap:
            text = wrap_text(text, self.out.out.width)
        if self.region is not None:
            self.region.count(text)
        self.out.print(text)

    def show_edge(self) -> None:
        """The bomb's edge: serial number, batteries as holders, other widgets."""
        edge = self.edge
        parts = [f"serial {edge.serial}", batteries_words(edge.batteries)]
        if edge.indicators:
            parts.append("indicators " + ", ".join(str(i) for i in edge.indicators))
        if edge.port_plates:
            parts.append("ports " + " ".join(str(p) for p in edge.port_plates))
        self.say("Edge:    " + " · ".join(parts))

    def show_state(self) -> None:
        """Discard top, hand with slots, deck, strikes and time."""
        m = self.module
        self.say(Text("Discard: ").append_text(self.card(m.discard_top)))
        hand = Text("Hand:    ")
        if not m.hand:
            hand.append("(empty)")
        for slot, card in enumerate(m.hand, start=1):
            if slot > 1:
                hand.append("   ")
            hand.append(f"{slot}: ").append_text(self.card(card))
        self.say(hand)
        deck = f"Deck:    face down, {m.deals} card{'' if m.deals == 1 else 's'} dealt"
        if self.reveal and not m.solved:
            deck += " · " + mitten_words(m.reveal().deals_until_mitten)
        self.say(deck)
        session = self.session
        limit = f"/{session.strike_limit}" if session.strike_limit else ""
        left = session.time_left()
        timer = ""
        if left is not None:
            timer = f" · timer {elapsed_words(math.ceil(left))} left"
            if session.rate > 1.0:
                timer += f" (running {session.rate:g}x)"
        self.say(
            f"Strikes: {m.strikes}{limit} · time {elapsed_words(session.elapsed())}{timer}"
        )

    # --------------------------------------------------------------- the game

    def typed(self, line: str) -> None:
        """A line was typed at the prompt (its echo is on the board's terminal)."""
        if self.region is not None:
            self.region.typed(line)

    def start(self, seed: int) -> None:
        """Print the opening: seed, edge and state."""
        if self.json_mode:
            session = self.session
            self.out.json(
                {
                    "event": "start",
                    "seed": seed,
                    **edge_fields(self.edge),
                    "strike_limit": session.strike_limit,
                    **({} if session.time_limit is None else {"time_limit": session.time_limit}),
                    "state": visible_state(self.module),
                }
            )
            return
        self.say(f"Exploding Mittens · seed {seed} (replay with --seed {seed})", "bold")
        self.show_edge()
        if self.region is not None:
            self.region.rows = 0  # the heading stays; the board is redrawn
        self.show_state()

    def command(self, text: str) -> bool:
        """Run one command line; return False when the game is over."""
        text = text.strip()
        words = text.lower()
        if not words:
            return True
        if words in QUIT_WORDS:
            self.finish(Stop.QUIT)
            return False
        if words == "help":
            if self.json_mode:
                self.out.json({"command": text, "help": HELP_TEXT})
            else:
                self.say(HELP_TEXT)
            return True
        try:
            action = read_click(text)
        except DefuserError as exc:
            if self.json_mode:
                self.out.json({"command": text, "error": str(exc)})
            else:
                message = f"error: {exc} (type help for the commands)"
                if self.region is not None:
                    self.region.count_note(message, self.out.err)
                self.out.note(message)
            return True
        self.show(text, self.session.click(action))
        return not self.session.over

    def show(self, text: str, events: list[GameEvent]) -> None:
        """Render what the command ``text`` did: the click, then the end or the state.
        In place, the last click's report and board are drawn over first."""
        if self.region is not None:
            self.region.rewind()
        for event in events:
            if isinstance(event, Clicked):
                self.log.flush(self.module.log, self.module.log_total)
                if self.json_mode:
                    self.out.json(result_json(text, event.result, self.module))
                else:
                    self.report(event.result)
            else:
                self.finish(event.end)
        if not self.session.over and not self.json_mode:
            self.show_state()

    def report(self, result: Result) -> None:
        """Say what an action did, and on a strike which rule was in force and why."""
        m = self.module
        action = str(result.action)
        if result.outcome is Outcome.NOTHING:
            self.say(f"{action}: nothing happens, {result.note}.")
        elif result.outcome is Outcome.SOLVED:
            assert result.card is not None
            self.say(
                Text(f"{action}: you played the Defuse ")
                .append_text(self.card(result.card))
                .append(" with the Exploding Mitten on top of the deck.")
            )
        elif result.outcome is Outcome.OK:
            assert result.card is not None
            kind = result.action.kind
            line = Text(f"{action}: you {kind.past_tense} ").append_text(self.card(result.card))
            if self.reveal:
                line.append(f", {m.rules.type_of(result.card).card_words}.")
                if result.card == m.rules.mitten and kind is ActionKind.DISCARD:
                    line.append(" That was the Exploding Mitten.")
            else:
                line.append(".")
            self.say(line)
        else:
            self.report_strike(result)

    def report_strike(self, result: Result) -> None:
        """A strike: the count and kind, why, and the rule in force."""
        m = self.module
        assert result.strike is not None
        self.say(f"{result.action}: STRIKE {m.strikes} ({result.strike.value}).", "bold red")
        self.say(
            "  Why: " + explain.strike_reason(m.rules, m.discard_top, m.hand, result) + "."
        )
        self.say("  Rule: " + explain.rule_in_force(m.rules, m.discard_top))
        if result.strike is StrikeKind.MITTEN_ON_TOP:
            self.say("  The strike showed you where the mitten is; the deck did not move.")

    def finish(self, end: GameEnd | Stop) -> None:
        """The closing summary: how the game ended, actions, strikes and time."""
        m = self.module
        actions = self.session.clicks
        elapsed = self.session.elapsed()
        if self.json_mode:
            self.out.json(
                {
                    "event": "end",
                    "reason": end.value,
                    "actions": actions,
                    "strikes": m.strikes,
                    "deals": m.deals,
                    "solved": m.solved,
                    "seconds": round(elapsed, 3),
                }
            )
            return
        headline = end_headline(end, m.strikes)
        self.say(headline, "bold green" if end is GameEnd.SOLVED else "bold")
        self.say(
            f"{actions} action{'' if actions == 1 else 's'}, "
            f"{m.strikes} strike{'' if m.strikes == 1 else 's'}, "
            f"{m.deals} card{'' if m.deals == 1 else 's'} dealt, "
            f"time {elapsed_words(elapsed)}."
        )


def terminal_reader(session: GameSession, out: Application) -> Reader:
    """How a terminal's lines are read: giving up at the bomb's deadline when the game
    has a timer (the timer runs out on its own), with readline's editing otherwise."""
    if session.time_limit is None:
        return readline_reader()
    return timed_reader(session.clock, lambda: out.out.width)


def run_game(game: TerminalGame, seed: int, read: Reader | None) -> None:
    """Play the commands as they come, until the game is over or the input ends: typed
    at a terminal through ``read`` (the bomb explodes when its deadline comes first), or
    piped line by line (``read`` None)."""
    game.start(seed)
    with game.out.interruptible(lambda: game.finish(Stop.STOPPED)):
        if read is None:
            for line in input_lines():
                if not game.command(line):
                    return
        elif not play_typed(game, read):
            return
    if read is not None:
        game.say("")
    game.finish(Stop.END_OF_INPUT)


def play_typed(game: TerminalGame, read: Reader) -> bool:
    """Lines typed at a terminal until the game ends (False) or the input does (True)."""
    game.say("Type help for the commands.")
    session = game.session
    while True:
        line = read(PROMPT, session.deadline())
        if line is None:
            return True
        game.typed("" if line is TIMED_OUT else line)
        if line is TIMED_OUT:
            events = session.tick()
            if events:
                game.show("", events)
        elif not game.command(line):
            return False
        if session.over:
            return False


@click.command()
@edgework_options(if_missing="random if omitted")
@game_options()
@click.option(
    "--reveal",
    is_flag=True,
    help="Name each card's type and say where the mitten is (what the defuser cannot see).",
)
@click.option("--json", "json_mode", is_flag=True, help="Print one JSON object per command.")
def play(
    serial: str | None,
    batteries: Batteries | None,
    edgework: str | None,
    lenient_serial: bool,
    seed: int | None,
    log_path: str | None,
    strike_limit: int,
    time_limit: float | None,
    reveal: bool,
    json_mode: bool,
) -> None:
    """Play the module in the terminal with Twitch Plays commands.

    Commands: draw, discard, play <1-3> (any case, optional '!1 ' prefix), help,
    quit. On a terminal it prompts; with commands piped in it plays them line by line
    without prompts or colour and stops at the end of input, the solve or the
    explosion (exit 0 in each case). It always prints the seed: --seed replays a game.
    A serial number or battery count not given is chosen at random.

    \b
    Example:
      printf 'draw\\nplay 1\\n' | mittens play --seed 7 --log game.log
    """
    given = resolve_edgework(
        serial, batteries, edgework, lenient=lenient_serial, need_serial=False
    )
    if seed is None:
        seed = new_seed()
    edge = build_edgework(given, seed)
    module = Module.from_edgework(edge, seed)
    interactive = stdin_is_terminal() and not json_mode
    log_file: IO[str] | None = open_output(log_path, "log file") if log_path else None
    if log_file is not None:
        # The bomb's edgework lines first, as the game writes them, so 'mittens log
        # analyze' knows the serial number and batteries without being told.
        log_file.write("".join(line + "\n" for line in bomb_lines(seed, edge)))
        log_file.flush()
    app = Application.current(json_mode=json_mode)
    try:
        session = GameSession(
            module,
            strike_limit=strike_limit,
            clock=app.clock,
            time_limit=time_limit,
        )
        game = TerminalGame(
            session,
            edge,
            app,
            colour=interactive and colour_enabled(sys.stdout),
            json_mode=json_mode,
            log_file=log_file,
            reveal=reveal,
            in_place=interactive and sys.stdout.isatty() and colour_enabled(sys.stdout),
        )
        run_game(game, seed, terminal_reader(session, game.out) if interactive else None)
    finally:
        if log_file is not None:
            log_file.close()
