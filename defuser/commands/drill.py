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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

import click
from rich.table import Table
from rich.text import Text

from defuser.commands.common import COLOUR_STYLES, Output, SecondsParam, colour_enabled
from defuser.commands.drill_clock import LiveClock, clock_text
from defuser.commands.game_view import end_headline
from defuser.engine.game import outcome_fields
from defuser.engine.simulator import Result
from defuser.streams import input_lines, prompt_line, stdin_is_terminal
from defuser.trainer.explaining import best_vs_next, option_rows
from defuser.trainer.focus import answers_today
from defuser.trainer.grading import grade
from defuser.trainer.kinds import spec_of
from defuser.trainer.location import default_db_path
from defuser.trainer.model import MODES, Answered, Grade, Kind, Question, Verdict
from defuser.trainer.report import Tally
from defuser.trainer.scheduler import RETENTION_RANGE
from defuser.trainer.session import Drill
from defuser.trainer.settings import load_settings
from defuser.trainer.store import Store
from edgework import ALL_CARDS, RULE_LETTERS, SHAPE_GLYPHS, Card, Colour

if TYPE_CHECKING:  # the game mode's module (the policy, the simulator) loads with a game
    from defuser.trainer.game import Game

#: Questions per drill session, and games per ``--mode game`` session, by default.
DEFAULT_COUNT = 10
DEFAULT_GAMES = 1

#: Seeds are stored as SQLite integers (64-bit signed).
SEED_LIMIT = 2**63 - 1

QUIT_WORDS = frozenset({"quit", "exit", "q", ":q"})
HELP_WORDS = frozenset({"help", "?"})  # not "h": H is a rule letter

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
    """The drill's input and output: prompts and colour only on a terminal."""

    def __init__(self, out: Output, stdin: TextIO | None, *, json_mode: bool) -> None:
        self.out = out
        self.stdin = stdin
        self.json_mode = json_mode
        self.interactive = stdin_is_terminal()
        self._lines = input_lines(stdin)
        self.colour = colour_enabled(sys.stdout) and not json_mode

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

    def read(self) -> str | None:
        """One answer line, or ``None`` at the end of input."""
        if self.interactive:
            term = self.out.err if self.json_mode else self.out.out
            return prompt_line("> ", term.input)
        return next(self._lines, None)

    def live_clock(
        self, target: float, limit: float | None, bomb_left: float | None, bomb_rate: float
    ) -> LiveClock | None:
        """A started live clock for the next answer, on a terminal that takes colour."""
        if not (self.interactive and self.colour):
            return None
        screen = self.out.err if self.json_mode else self.out.out
        return LiveClock(
            screen.file,
            lambda elapsed: clock_text(
                elapsed, target, limit=limit, bomb_left=bomb_left, bomb_rate=bomb_rate
            ),
            width=screen.width,
        ).start()

    def cards(self, text: str) -> Text:
        """The question text with every card in its colour (on a terminal)."""
        rich = Text(text)
        if self.colour:
            for card in ALL_CARDS:
                rich.highlight_words(
                    [f"{card.words} ({card.code})"], style=COLOUR_STYLES[card.colour]
                )
        return rich


@dataclass(frozen=True, slots=True)
class Goal:
    """How long a session runs and the day's goal: ``count`` questions (or games),
    until the ``deadline`` (monotonic seconds), whichever comes first; ``daily``
    answers per day, of which ``before`` were given earlier today."""

    count: int | None
    deadline: float | None
    daily: int
    before: int

    def more(self, done: int) -> bool:
        """Whether to ask another after ``done``."""
        if self.count is not None and done >= self.count:
            return False
        return self.deadline is None or time.monotonic() < self.deadline

    def progress(self, number: int) -> str:
        """``3/10``, or ``3, 4:10 left`` in a timed session."""
        if self.deadline is None:
            return f"{number}/{self.count}"
        left = max(self.deadline - time.monotonic(), 0.0)
        head = f"{number}/{self.count}" if self.count is not None else str(number)
        return f"{head}, {int(left) // 60}:{int(left) % 60:02d} left"

    def plan_words(self, unit: str) -> str:
        """``10 questions``, ``5 minutes`` or both."""
        parts = []
        if self.count is not None:
            parts.append(f"{self.count} {unit}{'s' if self.count != 1 else ''}")
        if self.deadline is not None:
            minutes = (self.deadline - time.monotonic()) / 60
            parts.append(f"{round(minutes, 1):g} minute{'s' if round(minutes, 1) != 1 else ''}")
        return " or ".join(parts)

    def daily_words(self, answered: int) -> str:
        """``Daily goal: 34/50 answers today`` (or reached)."""
        today = self.before + answered
        state = "reached!" if today >= self.daily else f"{self.daily - today} to go"
        return f"Daily goal: {today}/{self.daily} answers today, {state}"


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
    if "hand" not in question.facts or "discard" not in question.facts:
        return None
    view = Text("  pile ")
    view.append_text(card_face(Card.parse(question.facts["discard"]), colour))
    view.append("   hand")
    for slot, code in enumerate(question.facts["hand"], start=1):
        view.append(f"  {slot} ")
        view.append_text(card_face(Card.parse(code), colour))
    if strikes is not None and limit:
        view.append("   strikes ")
        marks = "X" * strikes + "." * max(limit - strikes, 0)
        view.append(marks, style="bold red" if colour and strikes else "")
        if strikes == limit - 1:
            view.append("  one more strike explodes the bomb", style="red" if colour else "")
    if time_left is not None:
        left = max(time_left, 0.0)
        view.append(f"   bomb {int(left) // 60}:{int(left) % 60:02d}",
                    style="bold yellow" if colour else "")
    return view


def seconds_words(seconds: float | None) -> str:
    """An answer time: ``1.2 s``."""
    return "-" if seconds is None else f"{seconds:.1f} s"


def verdict_line(answered: Answered, term: DrillIO) -> Text:
    """``RIGHT  L  (1.2 s)`` or ``WRONG  you said K, the answer is L  (3.4 s)``."""
    grade = answered.grade
    verdict = grade.verdict
    text = Text()
    text.append(verdict.value.upper(), style=VERDICT_STYLES[verdict] if term.colour else "")
    answer = "the best is" if answered.question.kind is Kind.DECIDE else "the answer is"
    if verdict is Verdict.BEST and grade.reading != grade.expected:
        text.append(f"  {grade.reading} (as good as {grade.expected})")
    elif verdict in (Verdict.RIGHT, Verdict.BEST):
        text.append(f"  {grade.reading}")
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


def show_result(
    answered: Answered,
    number: int,
    term: DrillIO,
    *,
    extra: dict[str, Any] | None = None,
    reason: bool = True,
) -> None:
    """After an answer: the verdict, the numbers, the reason, the time.

    ``extra`` adds keys to the JSON object (a game's outcome); ``reason=False`` leaves
    the reason out of the text (a game shows it only when the click was not the best).
    """
    if term.json_mode:
        term.out.json({**answered.to_json(number), **(extra or {})})
        if not term.interactive:
            return
    grade = answered.grade
    term.say(Text("  ").append_text(verdict_line(answered, term)))
    if grade.detail:
        term.say(f"  {grade.detail}")
    if reason:
        term.say(f"  {grade.reason}")
        if answered.question.options:
            show_options(answered.question, term)


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


def show_question(
    question: Question,
    head: str,
    term: DrillIO,
    *,
    hint: bool = True,
    view: Text | None = None,
) -> None:
    """The question (and, on a terminal, the module ``view``, the notation and why it
    was chosen)."""
    style = "bold" if term.colour else ""
    term.say(Text(f"{head} ", style=style).append_text(term.cards(question.text)))
    if term.interactive and view is not None:
        term.say(view)
    if term.interactive and hint:
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


def show_summary(session: Drill, term: DrillIO, *, interrupted: bool = False) -> None:
    """The end of a session: accuracy, median and 90th-percentile time per kind."""
    rows = session.summary()
    target = term.out.err if term.json_mode else term.out.out
    if not rows:
        target.print("No questions answered.")
        return
    answered = len(session.answered)
    right = sum(a.grade.correct for a in session.answered)
    ending = " (interrupted)" if interrupted else ""
    target.print(f"Session{ending}: {right}/{answered} right")
    target.print(summary_table(rows, term.colour))


def read_answer(
    question: Question,
    term: DrillIO,
    time_limit: float | None,
    *,
    game: bool,
    target: float,
    bomb_left: float | None = None,
    bomb_rate: float = 1.0,
) -> Grade | None:
    """Read and grade one answer; ``None`` when the player stops (quit, end of input).

    On a terminal, help and blank lines are not answers and an unreadable line is asked
    again. From a pipe, an unreadable line is graded as such, which keeps the answers in
    step with the questions; in a game it is skipped instead, as ``mittens play`` does,
    since a click that cannot be read cannot be played.

    The answer time runs from the question (or from the end of a help text) to the
    first line that is an answer; retyping an unreadable answer adds nothing to it. On
    a terminal a live clock shows it against the skill's ``target``.
    """
    started = time.monotonic()
    seconds: float | None = None
    while True:
        clock = (
            term.live_clock(target, time_limit, bomb_left, bomb_rate)
            if seconds is None else None
        )
        try:
            line = term.read()
        finally:
            if clock is not None:
                clock.stop()
        if line is None:
            return None
        word = line.strip().lower()
        if word in QUIT_WORDS:
            return None
        if term.interactive and word in HELP_WORDS:
            term.say(f"  Answer with {spec_of(question.kind).notation}; 'quit' stops.")
            if seconds is None:
                started = time.monotonic()
            continue
        if term.interactive and not word:
            continue
        if not term.interactive and not term.json_mode:
            term.say(f"  answer: {line.strip()}")
        if seconds is None:
            seconds = time.monotonic() - started
        result = grade(question, line, seconds, time_limit=time_limit)
        # A click that cannot be read cannot be played, however long it took.
        unreadable = result.verdict is Verdict.UNREADABLE or (game and result.reading is None)
        if unreadable and (term.interactive or game):
            again = "Try again." if term.interactive else "Line skipped."
            term.say(f"  {result.detail}. {again}", style="yellow")
            continue
        return result


def run_drill(session: Drill, goal: Goal, term: DrillIO) -> bool:
    """Ask questions until the goal's count or minutes; returns False when stopped early
    (quit, end of input)."""
    number = 0
    while goal.more(number):
        number += 1
        question = session.next_question()
        show_question(
            question,
            f"[{goal.progress(number)}] {question.kind.value}:",
            term,
            view=module_view(question, term.colour),
        )
        result = read_answer(
            question, term, session.time_limit, game=False, target=session.target(question)
        )
        if result is None:
            return False
        session.record(question, result)
        show_result(session.answered[-1], number, term)
    return True


def game_outcome(result: Result, game: Game) -> dict[str, Any]:
    """The JSON keys a game adds to a decision: what the click did."""
    module = game.walk.module
    return {
        **outcome_fields(result),
        "state": {
            "discard": module.discard_top.code,
            "hand": [c.code for c in module.hand],
            "strikes": module.strikes,
            "solved": module.solved,
        },
    }


def run_games(
    session: Drill, goal: Goal, term: DrillIO, bomb_timer: float | None = None
) -> bool:
    """Play games until the goal's count or minutes; returns False when stopped early
    (quit, end of input)."""
    from defuser.trainer.game import Game

    target = term.out.err if term.json_mode else term.out.out
    number = 0
    index = 0
    while goal.more(index):
        index += 1
        game = Game.new(session.rng, timer=bomb_timer)
        target.print(
            f"Game {goal.progress(index)}: {game.edge_words()} (module seed {game.seed}). "
            f"The optimal policy needs {game.expected_at_start:.1f} clicks on average "
            "from here."
        )
        while not game.over:
            question = game.question()
            show_question(
                question,
                f"[click {game.clicks + 1}]",
                term,
                hint=game.clicks == 0,
                view=module_view(
                    question,
                    term.colour,
                    strikes=game.walk.module.strikes,
                    limit=game.strike_limit,
                    time_left=game.time_left,
                ),
            )
            result = read_answer(
                question,
                term,
                session.time_limit,
                game=True,
                target=session.target(question),
                bomb_left=game.time_left,
                bomb_rate=game.timer_rate(),
            )
            if result is None:
                show_game_end(game, term)
                return False
            session.record(question, result)
            if game.spend(result.seconds):
                number += 1
                show_result(session.answered[-1], number, term, extra={"game": index},
                            reason=False)
                term.say("  The bomb's timer ran out before the click.")
                break
            outcome = game.play(result)
            number += 1
            show_result(
                session.answered[-1],
                number,
                term,
                extra={"game": index, **game_outcome(outcome, game)},
                reason=result.verdict is not Verdict.BEST,
            )
            term.say(f"  {game.outcome_words(outcome)}")
        show_game_end(game, term)
    return True


def show_game_end(game: Game, term: DrillIO) -> None:
    """How a game ended: solved or exploded, clicks against the optimum, the grades."""
    target = term.out.err if term.json_mode else term.out.out
    summary = game.summary()
    if game.timed_out:
        head = "BOOM! The bomb's timer ran out."
    elif game.end is not None:
        head = end_headline(game.end, summary.strikes)
    else:
        head = f"Game stopped; {game.belief_words()}."
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
@click.option(
    "--retention",
    type=click.FloatRange(*RETENTION_RANGE),
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
    type=click.Choice(("A", "B", "C", "D", "E"), case_sensitive=False),
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
    type=SecondsParam(min=0, min_open=True, max=24 * 60),
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
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="--mode game: the bomb's timer; your answer times run it down, a quarter "
    "faster per strike, and at 0 the bomb explodes.",
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
    json_mode: bool,
) -> None:
    """Drill the lookups and decisions, timed and graded; answers are stored for stats.

    Answers use the notation of `mittens live`: a table letter (B), a card type
    (Defuse, dp), a rule letter (L), legal slots then 'discard' if allowed (1 3,
    none discard), an action (draw, discard, play 2, or just 2), a number of deals (4)
    or a probability (1/5, 20%). Type 'quit' to stop early.
    """
    mode = mode.lower()
    if bomb_timer is not None and mode != "game":
        raise click.BadParameter(
            f"a bomb timer needs --mode game, got --mode {mode}", param_hint="'--bomb-timer'"
        )
    out = Output(json_mode=json_mode)
    term = DrillIO(out, sys.stdin, json_mode=json_mode)
    path = db if db is not None else default_db_path()
    # Only the default place gets its folders made; a --db in a missing folder is a typo.
    store = Store.open(path, make_parents=db is None)
    assert store is not None
    try:
        history = store.answers()
        settings = load_settings(store.settings())
        changed = settings.with_values(
            retention=retention,
            new_per_session=new_per_session,
            new_per_day=new_per_day,
            daily_goal=daily_goal,
        )
        for key, value in changed.items().items():
            if settings.items()[key] != value:
                store.save_setting(key, value)
        settings = changed
        session = Drill(
            mode,
            store=store,
            seed=seed,
            time_limit=time_limit,
            history=history,
            settings=settings,
            tables=tables,
            rules=rules,
            weakest=weakest,
        )
        games = mode == "game"
        goal = Goal(
            count or (None if minutes is not None else DEFAULT_GAMES if games else DEFAULT_COUNT),
            None if minutes is None else time.monotonic() + 60 * minutes,
            settings.daily_goal,
            answers_today((r.at for r in history), time.time()),
        )
        if term.interactive:
            what = goal.plan_words("game" if games else "question")
            if not games:
                what += f", mode {mode}"
            if not session.focus.empty:
                what += f", only {session.focus.words()}"
            if time_limit is not None:
                what += f", {time_limit:g} s per answer"
            term.note(
                f"Drill: {what}; answers are stored in {path}. "
                "Type 'help' for the notation, 'quit' to stop."
            )
            if goal.daily:
                term.note(goal.daily_words(0))
        try:
            if games:
                run_games(session, goal, term, bomb_timer)
            else:
                run_drill(session, goal, term)
        except KeyboardInterrupt:
            # Ctrl-C ends a drill: every answer given is already committed; only the
            # question on screen is lost. Exit 130 as a shell expects after SIGINT.
            show_summary(session, term, interrupted=True)
            saved = len(session.answered)
            term.note(
                f"mittens: interrupted; {saved} answer{'' if saved == 1 else 's'} saved in "
                f"{path}"
            )
            raise SystemExit(130) from None
        session.finish()
        show_summary(session, term)
        if goal.daily:
            term.note(goal.daily_words(len(session.answered)))
    finally:
        store.close()
