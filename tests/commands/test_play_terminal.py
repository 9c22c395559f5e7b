"""``mittens play`` at a terminal: the in-place board and the bomb timer that runs out
while nobody types, on an emulated screen and an injected clock (no real waits)."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from defuser.commands import play as play_command
from defuser.engine.game import GameSession
from defuser.engine.simulator import Module
from defuser.terminal.app import Application
from defuser.terminal.drill_clock import TIMED_OUT, ReadResult
from edgework import Edgework

CONTROL = re.compile(r"\x1b\[(\d*)([A-Za-z])")


class Screen:
    """A terminal screen as the game leaves it: text, newlines, cursor up to a line's
    start (``ESC[nF``) and clear to the end (``ESC[J``); it counts every row ever used."""

    def __init__(self) -> None:
        self.rows: list[str] = [""]
        self.row = 0
        self.most = 1

    def write(self, text: str) -> int:
        pos = 0
        for match in CONTROL.finditer(text):
            self._text(text[pos:match.start()])
            count, code = int(match.group(1) or 1), match.group(2)
            if code == "F":
                self.row = max(self.row - count, 0)
                self.rows[self.row] = ""
            elif code == "J":
                del self.rows[self.row + 1:]
                self.rows[self.row] = ""
            pos = match.end()
        self._text(text[pos:])
        return len(text)

    def _text(self, text: str) -> None:
        for i, part in enumerate(text.split("\n")):
            if i:
                self.row += 1
                if self.row == len(self.rows):
                    self.rows.append("")
            self.rows[self.row] += part
        self.most = max(self.most, len(self.rows))

    def flush(self) -> None:
        pass

    @property
    def text(self) -> str:
        return "\n".join(row.rstrip(" ") for row in self.rows)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Player:
    """Lines typed at the screen, each after some seconds; the terminal echoes them."""

    def __init__(self, screen: Screen, clock: Clock, script: list[tuple[float, str]]) -> None:
        self.screen, self.clock, self.script = screen, clock, list(script)
        self.deadlines: list[float | None] = []

    def __call__(self, prompt: str, deadline: float | None) -> ReadResult:
        self.deadlines.append(deadline)
        self.screen.write(prompt)
        if not self.script:
            return None
        wait, line = self.script[0]
        if deadline is not None and self.clock.now + wait >= deadline:
            self.clock.now = deadline + 0.001  # a real clock has moved on when it is seen
            self.screen.write("\n")
            return TIMED_OUT
        self.script.pop(0)
        self.clock.now += wait
        self.screen.write(line + "\n")
        return line


def terminal_game(
    screen: Screen, clock: Clock, *, width: int = 80, time_limit: float | None = None,
    strike_limit: int = 3, reveal: bool = False,
) -> play_command.TerminalGame:
    edge = Edgework.parse("3B 2H // KT4RE7")
    session = GameSession(Module.from_edgework(edge, 2), clock=clock, time_limit=time_limit,
                          strike_limit=strike_limit)
    app = Application()
    console = Console(file=screen, force_terminal=True, color_system=None, width=width)  # type: ignore[arg-type]
    app.out = console
    app.err = console
    return play_command.TerminalGame(session, edge, app, colour=False, json_mode=False,
                                     log_file=None, reveal=reveal, in_place=True)


SEED2 = ["draw", "p1", "play 1", "draw", "draw", "2"]


def test_the_board_is_redrawn_where_it_stands() -> None:
    # Issue 24: every click reprinted the board (a 27-click game was ~190 lines).
    screen, clock = Screen(), Clock()
    game = terminal_game(screen, clock, strike_limit=0)
    clicks = ["draw", "play 3", "discard", "oops", "help", "draw"] * 6 + SEED2
    play_command.run_game(game, 2, Player(screen, clock, [(1.0, c) for c in clicks]))
    assert game.session.over and game.session.clicks >= 27
    # The heading, one click's report and board, an error and the help (11 rows): the
    # screen never held more, where reprinting took some 8 rows a click.
    assert screen.most <= 30, screen.text
    rows = screen.rows
    assert rows[:2] == ["Exploding Mittens · seed 2 (replay with --seed 2)",
                        "Edge:    serial KT4RE7 · 3 batteries in 2 holders (1 AA, 1 D)"]
    assert [row.rstrip(" ") for row in rows[2:]] == [
        "play 2: you played the Defuse YH ♥ yellow heart with the Exploding Mitten on top",
        "of the deck.",
        "Module solved!",
        "30 actions, 26 strikes, 1 card dealt, time 0:42.",
        "",
    ]


def test_a_wrapped_report_and_an_error_are_drawn_over_too() -> None:
    screen, clock = Screen(), Clock()
    game = terminal_game(screen, clock, width=40)
    play_command.run_game(game, 2, Player(screen, clock, [(0.0, "draw"), (0.0, "hello"),
                                                          (0.0, "p1")]))
    text = screen.text
    assert "STRIKE" not in text and "hello" not in text  # the first click's report is gone
    assert text.count("Hand:") == 1
    assert "play 1: you played GH ♥ green heart.\nDiscard: GH ♥ green heart" in text


def test_cards_are_named_by_face_only_unless_revealed() -> None:
    # Issue 24: 'you drew YH ♥ yellow heart, a Defuse card.' and 'That was the Exploding
    # Mitten.' told the defuser what only the manual and the hidden deck know.
    for reveal in (False, True):
        screen, clock = Screen(), Clock()
        game = terminal_game(screen, clock, reveal=reveal, strike_limit=0)
        game.start(2)
        deck = [r for r in screen.rows if r.startswith("Deck:")]
        assert deck == (["Deck:    face down, 0 cards dealt · the mitten is on top after 1 "
                         "more deal"] if reveal else ["Deck:    face down, 0 cards dealt"])
        for line in ["p1", "p1", "draw"]:
            game.command(line)
        drew = [r for r in screen.rows if r.startswith("draw:")]
        assert drew == (["draw: you drew YH ♥ yellow heart, a Defuse card."] if reveal
                        else ["draw: you drew YH ♥ yellow heart."])
        assert ("the mitten is on top" in screen.text) is reveal
        game.command("discard")
        discarded = screen.text[screen.text.index("discard:"):].split("\nDiscard:")[0]
        assert discarded == (
            "discard: you discarded RH ♥ red heart, an Exploding Mitten card. That was the\n"
            "Exploding Mitten." if reveal else "discard: you discarded RH ♥ red heart.")


def test_the_timer_runs_out_while_nobody_types() -> None:
    # Issue 24: 'play --time 30' sat at 'timer 0:22 left' until the next typed command.
    screen, clock = Screen(), Clock()
    game = terminal_game(screen, clock, time_limit=30.0)
    player = Player(screen, clock, [(8.0, "discard"), (500.0, "draw")])
    play_command.run_game(game, 2, player)
    # Seed 2: the discard strikes (a legal card in hand), so the timer runs 1.25x faster.
    assert player.deadlines == [1030.0, 1008.0 + 22.0 / 1.25]
    assert clock.now == pytest.approx(1025.601)
    assert game.session.clicks == 1  # the draw typed too late was never read
    assert screen.rows[-3:] == ["BOOM! The time ran out.",
                                "1 action, 1 strike, 0 cards dealt, time 0:25.", ""]
