"""``mittens drill``: timed questions on the lookups and the live decisions.

On a terminal it prompts, colours and re-asks an unreadable answer; with answers piped
in it reads one answer per line and prints plain text (no prompts, no colour), grading
an unreadable line as wrong so the answers stay in step with the questions. ``--json``
prints one object per question (question, expected answer, given answer, grade); the
end-of-session summary then goes to stderr. ``--mode game`` plays whole modules.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final, TextIO

import click
from rich.table import Table
from rich.text import Text

from defuser.dashboard.drill_words import (
    caught_up_words,
    cycle_words,
    daily_words,
    edge_words,
    head_words,
    outlook_words,
    place_words,
    plan_words,
)
from defuser.engine.clock import time_text
from defuser.streams import input_lines, stdin_is_terminal
from defuser.terminal.app import Application, colour_enabled
from defuser.terminal.drill_clock import TIMED_OUT, ReadResult, TerminalReader, clock_words
from defuser.terminal.game_view import end_headline
from defuser.terminal.params import FiniteFloat, seconds
from defuser.terminal.style import COLOUR_STYLES
from defuser.trainer.drill_session import (
    DEFAULT_COUNT,
    DEFAULT_GAMES,
    Asked,
    BombTimerRanOut,
    CaughtUp,
    DrillEnded,
    DrillOptions,
    DrillSession,
    DrillStarted,
    Event,
    GameEnded,
    GameStarted,
    Graded,
    HelpShown,
    LineTaken,
    Paused,
    Rejected,
    open_session,
)
from defuser.trainer.explaining import best_vs_next, option_rows
from defuser.trainer.facts import DecideFacts, LegalFacts
from defuser.trainer.kinds import spec_of
from defuser.trainer.location import default_db_path
from defuser.trainer.model import MODES, Answered, DrillMode, Question, Verdict
from defuser.trainer.report import Tally
from defuser.trainer.scheduler import RETENTION_RANGE
from defuser.trainer.session import CaughtUpReason
from defuser.trainer.skills import SKILL_TABLES, Kind, skill_table
from defuser.trainer.store import Store
from edgework import ALL_CARDS, RULE_LETTERS, SHAPE_GLYPHS, Card, Colour, RuleLetter

#: Seeds are stored as SQLite integers (64-bit signed).
SEED_LIMIT = 2**63 - 1

VERDICT_STYLES = {
    Verdict.RIGHT: "bold green",
    Verdict.BEST: "bold green",
    Verdict.GOOD: "green",
    Verdict.INACCURACY: "yellow",
    Verdict.MISTAKE: "bold yellow",
    Verdict.BLUNDER: "bold red",
    Verdict.WRONG: "bold red",
    Verdict.SLOW: "bold red",
    Verdict.UNREADABLE: "bold red",
}


class DrillIO:
    """The drill's input and output: prompts, colour and the live clock only on a
    terminal."""

    def __init__(self, out: Application, stdin: TextIO | None, *, json_mode: bool) -> None:
        self.out = out
        self.stdin = stdin
        self.json_mode = json_mode
        self.interactive = stdin_is_terminal()
        self._lines = input_lines(stdin)
        self.colour = colour_enabled(sys.stdout) and not json_mode
        screen = out.err if json_mode else out.out
        self.reader = TerminalReader(
            stdin or sys.stdin, screen.file,
            live=colour_enabled(sys.stderr if json_mode else sys.stdout),
            width=lambda: screen.width, clock=out.clock,
        ) if self.interactive else None
        #: The drill session's clock: the run's (the terminal reader's deadlines are on it).
        self.clock = out.clock
        #: The calendar's clock: what day it is for the daily goal and the schedule.
        self.wall = out.wall

    def say(self, text: str | Text, style: str = "") -> None:
        """One line of the transcript (stderr in ``--json`` mode, which keeps stdout JSON)."""
        if isinstance(text, str):
            text = Text(text, style=style if self.colour else "")
        # On a terminal, long lines break at word boundaries; piped, never.
        if self.json_mode:
            if self.interactive:
                self.out.err.print(text, soft_wrap=not self.out.err.is_terminal)
        else:
            self.out.print(text, wrap=self.out.out.is_terminal)

    def say_renderable(self, renderable: Table) -> None:
        """A table in the transcript, where :meth:`say` would print."""
        if self.json_mode:
            if self.interactive:
                self.out.err.print(renderable)
        else:
            self.out.print(renderable)

    def note(self, text: str) -> None:
        """A diagnostic on stderr."""
        self.out.note(text)

    def read(self, session: DrillSession) -> ReadResult:
        """One line for the session: ``None`` at the end of input, :data:`TIMED_OUT`
        when the bomb's timer ran out first (on a terminal, whose prompt line shows the
        running answer clock)."""
        if self.reader is None:
            return next(self._lines, None)
        words = (lambda: clock_words(session)) if session.clock_running() else None
        return self.reader.read("> ", words=words, deadline=session.deadline())

    def cards(self, text: str) -> Text:
        """The question text with every card in its colour (on a terminal)."""
        rich = Text(text)
        if self.colour:
            for card in ALL_CARDS:
                rich.highlight_words(
                    [f"{card.words} ({card.code})"], style=COLOUR_STYLES[card.colour]
                )
        return rich


#: How a card looks in the module view: its shape glyph on its colour.
CARD_FACE_STYLES: Final = {
    Colour.RED: "bold white on red3",
    Colour.BLUE: "bold white on blue3",
    Colour.GREEN: "bold black on green3",
    Colour.YELLOW: "bold black on yellow3",
}


def card_face(card: Card, colour: bool) -> Text:
    """One card drawn as a coloured tile with its shape: `` ▲ ``."""
    style = CARD_FACE_STYLES[card.colour] if colour else ""
    return Text(f" {SHAPE_GLYPHS[card.shape]} ", style=style)


def module_view(
    question: Question,
    colour: bool,
    *,
    strikes: int | None = None,
    limit: int = 0,
    time_left: float | None = None,
) -> Text | None:
    """The module as the player sees it: the discard pile and the hand as coloured
    tiles, the strikes, and the bomb timer (``None`` when the question has no hand)."""
    facts = question.facts
    if not isinstance(facts, LegalFacts | DecideFacts):
        return None
    view = Text("  pile ")
    view.append_text(card_face(facts.discard, colour))
    view.append("   hand")
    for slot, card in enumerate(facts.hand, start=1):
        view.append(f"  {slot} ")
        view.append_text(card_face(card, colour))
    if strikes is not None and limit:
        view.append("   strikes ")
        marks = "X" * strikes + "." * max(limit - strikes, 0)
        view.append(marks, style="bold red" if colour and strikes else "")
        if strikes == limit - 1:
            view.append("  one more strike explodes the bomb", style="red" if colour else "")
    if time_left is not None:
        left = max(time_left, 0.0)
        view.append(f"   bomb {time_text(int(left) * 1000)}",
                    style="bold yellow" if colour else "")
    return view


def seconds_words(seconds: float | None) -> str:
    """An answer time: ``1.2 s``."""
    return "-" if seconds is None else f"{seconds:.1f} s"


def verdict_line(answered: Answered, term: DrillIO) -> Text:
    """``RIGHT  L  (1.2 s)``, ``WRONG  you said K, the answer is L  (3.4 s)`` or
    ``TOO SLOW  L, right but past the time limit  (6.1 s)``."""
    grade = answered.grade
    verdict = grade.verdict
    text = Text()
    text.append(verdict.value.upper(), style=VERDICT_STYLES[verdict] if term.colour else "")
    answer = "the best is" if answered.question.kind is Kind.DECIDE else "the answer is"
    if verdict is Verdict.BEST and grade.reading != grade.expected:
        text.append(f"  {grade.reading} (as good as {grade.expected})")
    elif verdict in (Verdict.RIGHT, Verdict.BEST):
        text.append(f"  {grade.reading}")
    elif grade.late_right:
        text.append(f"  {grade.reading}, right but past the time limit")
    elif grade.reading is None:
        text.append(f"  could not read {grade.given!r}; {answer} {grade.expected}")
    else:
        text.append(f"  you said {grade.reading}, {answer} {grade.expected}")
    timing = seconds_words(grade.seconds)
    if answered.slow and answered.target is not None:
        timing += f", slow: target {answered.target:.1f} s"
    elif term.interactive and answered.target is not None:
        timing += f" of {answered.target:.1f} s"
    text.append(f"  ({timing})")
    if answered.slow:
        text.append("  SLOW", style="bold yellow" if term.colour else "")
    return text


def show_graded(event: Graded, term: DrillIO) -> None:
    """After an answer: the verdict, the numbers, the reason, the time; in a game,
    what the click did.

    ``--json`` prints the event's object; the text leaves the reason out in a game
    unless the click was not the best.
    """
    if term.json_mode:
        term.out.json(event.to_json())
        if not term.interactive:
            return
    answered = event.answered
    grade = answered.grade
    term.say(Text("  ").append_text(verdict_line(answered, term)))
    if grade.detail:
        term.say(f"  {grade.detail}")
    if event.reason:
        term.say(f"  {grade.reason}")
        if answered.question.options:
            show_options(answered.question, term)
    if event.click is not None:
        term.say(f"  {event.click.words}")


def show_options(question: Question, term: DrillIO) -> None:
    """A decision's explanation: every option with its expected clicks, strike risk and
    loss; why the best beats the next best; where the mitten cycle stands."""
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0))
    for name, justify in (("  option", "left"), ("expected clicks", "right"),
                          ("strike risk", "right"), ("loss", "right"), ("", "left")):
        table.add_column(name, justify=justify, no_wrap=name != "")  # type: ignore[arg-type]
    for row in option_rows(question):
        clicks = "-" if row.expected_clicks is None else f"{row.expected_clicks:.2f}"
        risk = f"{row.strike_risk:.0%}" if row.strike_risk else "-"
        note = "best" if row.best else row.note
        style = "green" if row.best and term.colour else (
            "red" if row.strike_risk and term.colour else ""
        )
        table.add_row(
            Text(f"  {row.action}", style=style), clicks, risk, f"{row.loss:.2f}", Text(note)
        )
    term.say_renderable(table)
    term.say(f"  Why: {best_vs_next(question)}")
    if question.cycle:
        term.say(f"  Cycle: {question.cycle}")


def show_asked(event: Asked, term: DrillIO) -> None:
    """The question (and, on a terminal, the module as the player sees it, the notation
    and why it was chosen)."""
    question = event.question
    style = "bold" if term.colour else ""
    term.say(Text(f"{head_words(event)} ", style=style).append_text(term.cards(question.text)))
    if not term.interactive:
        return
    view = module_view(question, term.colour, strikes=event.strikes,
                       limit=event.strike_limit, time_left=event.bomb_left)
    if view is not None:
        term.say(view)
    if event.hint:
        chosen = f"; chosen: {question.why}" if question.why != "game" else ""
        term.say(f"  ({spec_of(question.kind).notation}{chosen})", style="dim")


def summary_table(rows: list[Tally], colour: bool) -> Table:
    """Accuracy and answer times per kind, as a table."""
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0), show_header=True)
    table.add_column("kind")
    for column in ("answers", "right", "accuracy", "median", "90th pct"):
        table.add_column(column, justify="right")
    for row in rows:
        accuracy = "-" if row.accuracy is None else f"{row.accuracy:.0%}"
        label = row.label
        if row.mean_loss is not None:
            label += f" (mean loss {row.mean_loss:.2f} clicks)"
        table.add_row(
            label,
            str(row.answers),
            str(row.right),
            accuracy,
            seconds_words(row.median_seconds),
            seconds_words(row.p90_seconds),
        )
    return table


def show_ended(event: DrillEnded, term: DrillIO) -> None:
    """The end of a session: accuracy, median and 90th-percentile time per kind, and the
    daily goal's progress."""
    target = term.out.err if term.json_mode else term.out.out
    if not event.tallies:
        target.print("No questions answered.")
    else:
        ending = " (interrupted)" if event.interrupted else ""
        target.print(f"Session{ending}: {event.right}/{event.answered} right")
        target.print(summary_table(event.tallies, term.colour))
    if event.daily is not None:
        term.note(daily_words(event.daily))


def show_game_end(event: GameEnded, term: DrillIO) -> None:
    """How a game ended: solved or exploded, clicks against the optimum, the grades."""
    target = term.out.err if term.json_mode else term.out.out
    summary = event.summary
    if event.timed_out:
        head = "BOOM! The bomb's timer ran out."
    elif event.end is not None:
        head = end_headline(event.end, summary.strikes)
    else:
        cycle = "" if event.belief is None else cycle_words(event.belief)
        head = f"Game stopped; {cycle}."
    grades = ", ".join(
        f"{summary.verdicts[v.value]} {v.value}"
        for v in (Verdict.BEST, Verdict.GOOD, Verdict.INACCURACY, Verdict.MISTAKE,
                  Verdict.BLUNDER, Verdict.SLOW)
        if summary.verdicts.get(v.value)
    )
    target.print(head)
    target.print(
        f"{summary.clicks} click{'s' if summary.clicks != 1 else ''} "
        f"(the optimal policy averages {summary.expected_at_start:.1f} from the start), "
        f"{summary.strikes} strike{'s' if summary.strikes != 1 else ''}, "
        f"expected clicks lost {summary.total_loss:.2f}; {grades or 'no clicks'}."
    )


def show_event(event: Event, term: DrillIO) -> None:
    """Render one event of the drill session."""
    target = term.out.err if term.json_mode else term.out.out
    if isinstance(event, Asked):
        show_asked(event, term)
    elif isinstance(event, Graded):
        show_graded(event, term)
    elif isinstance(event, HelpShown):
        term.say(f"  Answer with {event.notation}; 'quit' stops.")
    elif isinstance(event, LineTaken):
        if not term.interactive and not term.json_mode:
            term.say(f"  answer: {event.line}")
    elif isinstance(event, Rejected):
        term.say(f"  {event.detail}. {'Try again.' if event.again else 'Line skipped.'}",
                 style="yellow")
    elif isinstance(event, GameStarted):
        target.print(
            f"Game {place_words(event.place)}: {edge_words(event.edge)} "
            f"(module seed {event.seed}). "
            f"The optimal policy needs {event.expected_at_start:.1f} clicks on average "
            "from here."
        )
    elif isinstance(event, Paused):
        term.say(f"  Press Enter for the next {event.what.value}.", style="dim")
    elif isinstance(event, CaughtUp):
        hint = (" 'mittens drill --practice' practises more without changing the schedule."
                if event.why.reason is CaughtUpReason.SCHEDULE_DONE else "")
        why = caught_up_words(event.why)
        term.note(f"{why[0].upper()}{why[1:]}.{hint}")
    elif isinstance(event, BombTimerRanOut):
        late = f"; {event.late!r} came too late and was not played" if event.late else ""
        term.say(f"  The bomb's timer ran out before the click{late}.")
    elif isinstance(event, GameEnded):
        show_game_end(event, term)
    elif isinstance(event, DrillEnded):
        show_ended(event, term)


def run(session: DrillSession, term: DrillIO, path: Path) -> None:
    """Read answers and feed them to the session until it ends; Ctrl-C shows the
    summary so far and exits 130 (every answer given is already stored)."""

    def summary() -> str:
        # Only the question on screen is lost; the application ends the run (exit 130).
        for event in session.interrupt():
            show_event(event, term)
        saved = len(session.drill.answered)
        return f"; {saved} answer{'' if saved == 1 else 's'} saved in {path}"

    # The terminal's reader ends its prompt's line itself on Ctrl-C.
    with term.out.interruptible(summary, open_prompt=False):
        for event in session.start():
            if isinstance(event, DrillStarted):
                show_start(event, term, path)
            else:
                show_event(event, term)
        while session.asking:
            line = term.read(session)
            if line is TIMED_OUT:
                events = session.tick()
            else:
                events = session.stop() if line is None else session.answer(line)
            for event in events:
                show_event(event, term)


def show_start(event: DrillStarted, term: DrillIO, path: Path) -> None:
    """The header a terminal shows: the plan, where answers go, the daily goal."""
    if not term.interactive:
        return
    term.note(
        f"Drill: {plan_words(event.plan)}; answers are stored in {path}. "
        "Type 'help' for the notation, 'quit' to stop."
    )
    if event.outlook is not None:
        term.note(f"Today: {outlook_words(event.outlook)}.")
    if event.daily is not None:
        term.note(daily_words(event.daily))



@click.command()
@click.option(
    "--mode",
    type=click.Choice(MODES, case_sensitive=False),
    default="mixed",
    show_default=True,
    help="What to drill: one kind, mixed (every kind, as the schedule says) or game.",
)
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=None,
    help=f"Questions to ask at most (default {DEFAULT_COUNT}; a session stops sooner when "
    f"caught up); games to play with --mode game (default {DEFAULT_GAMES}).",
)
@click.option(
    "--seed",
    type=click.IntRange(-SEED_LIMIT, SEED_LIMIT),
    default=None,
    help="Fixed questions: the same seed asks the same questions in the same order (the "
    "schedule is then not used).",
)
@click.option(
    "--time-limit",
    "time_limit",
    type=seconds(0, minimum_open=True),
    default=None,
    metavar="SECONDS",
    help="An answer taking longer than this counts as wrong (too slow).",
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The stats database (default: the user data directory).",
)
@click.option(
    "--retention",
    type=FiniteFloat(*RETENTION_RANGE),
    default=None,
    help="Desired chance of recall when a review falls due (default 0.9; saved).",
)
@click.option(
    "--new-per-session",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="At most N new skills per session (default 10; saved).",
)
@click.option(
    "--new-per-day",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="At most N new skills per day (default 30; saved).",
)
@click.option(
    "--table",
    "tables",
    multiple=True,
    type=click.Choice(SKILL_TABLES, case_sensitive=False),
    help="Only this table: A-D (its serial skill and cells) or E (Table E's cells). "
    "Repeatable.",
)
@click.option(
    "--rule",
    "rules",
    multiple=True,
    type=click.Choice(RULE_LETTERS, case_sensitive=False),
    help="Only this rule letter (applying it, and the Table E cells that give it). "
    "Repeatable.",
)
@click.option(
    "--weakest",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Only your N weakest skills (of the focus, if any).",
)
@click.option(
    "--minutes",
    # Finite and at most a day: inf or 1e308 minutes was an OverflowError.
    type=FiniteFloat(min=0, min_open=True, max=24 * 60, unit="minutes"),
    metavar="MINUTES",
    default=None,
    help="Stop after this many minutes (asks until then unless --count is given).",
)
@click.option(
    "--daily-goal",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Answers to give per day; progress is shown (0: no goal; saved).",
)
@click.option(
    "--bomb-timer",
    type=seconds(0, minimum_open=True),
    default=None,
    metavar="SECONDS",
    help="--mode game: the bomb's timer; it runs while a click is asked (not while you "
    "read the feedback), a quarter faster per strike, and at 0 the bomb explodes.",
)
@click.option(
    "--practice",
    is_flag=True,
    help="Extra practice of your weak spots once caught up; kept out of the schedule.",
)
@click.option(
    "--day-start",
    type=click.IntRange(0, 23),
    default=None,
    metavar="HOUR",
    help="The hour (local time) your day starts at, for what is due today (default 4; "
    "saved).",
)
@click.option("--json", "json_mode", is_flag=True, help="One JSON object per question.")
def drill(
    mode: str,
    count: int | None,
    seed: int | None,
    time_limit: float | None,
    db: Path | None,
    retention: float | None,
    new_per_session: int | None,
    new_per_day: int | None,
    tables: tuple[str, ...],
    rules: tuple[str, ...],
    weakest: int | None,
    minutes: float | None,
    daily_goal: int | None,
    bomb_timer: float | None,
    practice: bool,
    day_start: int | None,
    json_mode: bool,
) -> None:
    """Drill the lookups and decisions, timed and graded; answers are stored for stats.

    Answers use the notation of `mittens live`: a table letter (B), a card type
    (Defuse, dp), a rule letter (L), legal slots then 'discard' if allowed (1 3,
    none discard), an action (draw, discard, play 2, or just 2), a number of deals (4)
    or a probability (1/5, 20%). Type 'quit' to stop early.
    """
    drill_mode = DrillMode(mode.lower())  # click.Choice let only a mode's word through
    if bomb_timer is not None and drill_mode is not DrillMode.GAME:
        raise click.BadParameter(
            f"a bomb timer needs --mode game, got --mode {drill_mode}",
            param_hint="'--bomb-timer'",
        )
    options = DrillOptions(
        count=count, minutes=minutes, seed=seed, time_limit=time_limit,
        # The letters become the trainer's types here, at the command line.
        tables=tuple(map(skill_table, tables)), rules=tuple(map(RuleLetter, rules)),
        weakest=weakest, bomb_timer=bomb_timer, practice=practice,
        settings={"retention": retention, "new_per_session": new_per_session,
                  "new_per_day": new_per_day, "daily_goal": daily_goal,
                  "day_start": day_start},
    )
    term = DrillIO(Application.current(json_mode=json_mode), sys.stdin, json_mode=json_mode)
    path = db if db is not None else default_db_path()
    # Only the default place gets its folders made; a --db in a missing folder is a typo.
    store = Store.open(path, make_parents=db is None)
    assert store is not None
    with store:
        session = open_session(store, drill_mode, options, interactive=term.interactive,
                               clock=term.clock, wall=term.wall)
        run(session, term, path)
