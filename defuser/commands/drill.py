"""``mittens drill``: timed questions on the lookups and the live decisions.

On a terminal it prompts, colours and re-asks an unreadable answer; with answers piped
in it reads one answer per line and prints plain text (no prompts, no colour), grading
an unreadable line as wrong so the answers stay in step with the questions. ``--json``
prints one object per question (question, expected answer, given answer, grade); the
end-of-session summary then goes to stderr. ``--mode game`` plays whole modules.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TextIO

import click
from rich.table import Table
from rich.text import Text

from defuser.commands.common import COLOUR_STYLES, Output, colour_enabled
from defuser.trainer.grading import grade
from defuser.trainer.model import MODES, NOTATION, Answered, Question, Verdict
from defuser.trainer.report import Tally
from defuser.trainer.session import Drill
from defuser.trainer.store import Store, default_db_path
from edgework import ALL_CARDS

#: Questions per drill session, and games per ``--mode game`` session, by default.
DEFAULT_COUNT = 10
DEFAULT_GAMES = 1

QUIT_WORDS = frozenset({"quit", "exit", "q", ":q"})
HELP_WORDS = frozenset({"help", "?", "h"})

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


class Console:
    """The drill's input and output: prompts and colour only on a terminal."""

    def __init__(self, out: Output, stdin: TextIO, *, json_mode: bool) -> None:
        self.out = out
        self.stdin = stdin
        self.json_mode = json_mode
        self.interactive = bool(stdin.isatty())
        self.colour = colour_enabled(sys.stdout) and not json_mode

    def say(self, text: str | Text, style: str = "") -> None:
        """One line of the transcript (stderr in ``--json`` mode, which keeps stdout JSON)."""
        if isinstance(text, str):
            text = Text(text, style=style if self.colour else "")
        if self.json_mode:
            if self.interactive:
                self.out.err.print(text)
        else:
            self.out.print(text)

    def note(self, text: str) -> None:
        """A diagnostic on stderr."""
        self.out.note(text)

    def read(self) -> str | None:
        """One answer line, or ``None`` at the end of input."""
        if self.interactive:
            try:
                console = self.out.err if self.json_mode else self.out.out
                return console.input("> ")
            except EOFError:
                return None
        line = self.stdin.readline()
        if not line:
            return None
        return line.rstrip("\r\n")

    def cards(self, text: str) -> Text:
        """The question text with every card in its colour (on a terminal)."""
        rich = Text(text)
        if self.colour:
            for card in ALL_CARDS:
                rich.highlight_words(
                    [f"{card.words} ({card.code})"], style=COLOUR_STYLES[card.colour]
                )
        return rich


def seconds_words(seconds: float | None) -> str:
    """An answer time: ``1.2 s``."""
    return "-" if seconds is None else f"{seconds:.1f} s"


def verdict_line(answered: Answered, console: Console) -> Text:
    """``RIGHT  L  (1.2 s)`` or ``WRONG  you said K, the answer is L  (3.4 s)``."""
    grade = answered.grade
    verdict = grade.verdict
    text = Text()
    text.append(verdict.value.upper(), style=VERDICT_STYLES[verdict] if console.colour else "")
    if verdict in (Verdict.RIGHT, Verdict.BEST):
        text.append(f"  {grade.expected}")
    elif grade.reading is None:
        text.append(f"  could not read {grade.given!r}; the answer is {grade.expected}")
    else:
        text.append(f"  you said {grade.reading}, the answer is {grade.expected}")
    text.append(f"  ({seconds_words(grade.seconds)})")
    return text


def show_result(answered: Answered, number: int, console: Console) -> None:
    """After an answer: the verdict, the numbers, the reason, the time."""
    if console.json_mode:
        console.out.json(answered.to_json(number))
        if not console.interactive:
            return
    grade = answered.grade
    console.say(Text("  ").append_text(verdict_line(answered, console)))
    if grade.detail:
        console.say(f"  {grade.detail}")
    console.say(f"  {grade.reason}")


def show_question(question: Question, number: int, total: int, console: Console) -> None:
    """The question header and text (and, on a terminal, why it was chosen)."""
    style = "bold" if console.colour else ""
    head = Text(f"[{number}/{total}] {question.kind.value}: ", style=style)
    console.say(head.append_text(console.cards(question.text)))
    if console.interactive:
        console.say(f"  ({NOTATION[question.kind]}; chosen: {question.why})", style="dim")


def summary_table(rows: list[Tally], colour: bool) -> Table:
    """Accuracy and answer times per kind, as a table."""
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0), show_header=True)
    for column, justify in (
        ("kind", "left"),
        ("answers", "right"),
        ("right", "right"),
        ("accuracy", "right"),
        ("median", "right"),
        ("90th pct", "right"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
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


def show_summary(session: Drill, console: Console, *, interrupted: bool = False) -> None:
    """The end of a session: accuracy, median and 90th-percentile time per kind."""
    rows = session.summary()
    target = console.out.err if console.json_mode else console.out.out
    if not rows:
        target.print("No questions answered.")
        return
    answered = len(session.answered)
    right = sum(a.grade.correct for a in session.answered)
    ending = " (interrupted)" if interrupted else ""
    target.print(f"Session{ending}: {right}/{answered} right")
    target.print(summary_table(rows, console.colour))


def run_drill(session: Drill, count: int, console: Console) -> bool:
    """Ask ``count`` questions; returns False when stopped early (quit, end of input)."""
    for number in range(1, count + 1):
        question = session.next_question()
        show_question(question, number, count, console)
        started = time.monotonic()
        while True:
            line = console.read()
            if line is None:
                return False
            word = line.strip().lower()
            if word in QUIT_WORDS:
                return False
            if console.interactive and word in HELP_WORDS:
                console.say(f"  Answer with {NOTATION[question.kind]}; 'quit' stops.")
                continue
            if console.interactive and not word:
                continue
            if not console.interactive and not console.json_mode:
                console.say(f"  answer: {line.strip()}")
            seconds = time.monotonic() - started
            if console.interactive:
                # On a terminal a typo is re-asked rather than graded (the clock runs on).
                trial = grade(question, line, seconds)
                if trial.verdict is Verdict.UNREADABLE:
                    console.say(f"  {trial.detail}. Try again.", style="yellow")
                    continue
            session.answer(question, line, seconds)
            show_result(session.answered[-1], number, console)
            break
    return True


@click.command()
@click.option(
    "--mode",
    type=click.Choice(MODES, case_sensitive=False),
    default="mixed",
    show_default=True,
    help="What to drill: one kind, mixed (weighted towards your weak spots) or game.",
)
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=None,
    help=f"Questions to ask (default {DEFAULT_COUNT}); games to play with --mode game "
    f"(default {DEFAULT_GAMES}).",
)
@click.option("--seed", type=int, default=None, help="Fixed questions: the same seed asks the "
              "same questions in the same order (the schedule is then not used).")
@click.option(
    "--time-limit",
    "time_limit",
    type=click.FloatRange(min=0, min_open=True),
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
@click.option("--json", "json_mode", is_flag=True, help="One JSON object per question.")
def drill(
    mode: str,
    count: int | None,
    seed: int | None,
    time_limit: float | None,
    db: Path | None,
    json_mode: bool,
) -> None:
    """Drill the lookups and decisions, timed and graded; answers are stored for stats.

    Answers use the notation of `mittens live`: a table letter (B), a card type
    (Defuse, dp), a rule letter (L), legal slots then 'discard' if allowed (1 3,
    none discard), an action (draw, discard, play 2, or just 2), a number of deals (4)
    or a probability (1/5, 20%). Type 'quit' to stop early.
    """
    mode = mode.lower()
    out = Output(json_mode=json_mode)
    console = Console(out, sys.stdin, json_mode=json_mode)
    path = db if db is not None else default_db_path()
    store = Store.open(path)
    assert store is not None
    try:
        history = store.answers() if seed is None else []
        session = Drill(mode, store=store, seed=seed, time_limit=time_limit, history=history)
        total = count or DEFAULT_COUNT
        if console.interactive:
            console.note(
                f"Drill: {total} questions, mode {mode}; answers are stored in {path}. "
                "Type 'help' for the notation, 'quit' to stop."
            )
        try:
            run_drill(session, total, console)
        except KeyboardInterrupt:
            # Ctrl-C ends a drill: every answer given is already committed; only the
            # question on screen is lost. Exit 130 as a shell expects after SIGINT.
            show_summary(session, console, interrupted=True)
            console.note(
                f"mittens: interrupted; {len(session.answered)} answers saved in {path}"
            )
            raise SystemExit(130) from None
        session.finish()
        show_summary(session, console)
    finally:
        store.close()
