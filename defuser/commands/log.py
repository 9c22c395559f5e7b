"""``mittens log analyze``: read KTaNE game logs and check every Exploding Mittens line.

With no file it reads the game's log at its default place for this operating system
(and says which). Human output shows, per bomb, the edgework, then per module the
opening state, the replay action by action with the rule in force, the outcome and the
cycle, the judgement of each decision, every strike explained and every inconsistency
with its line. ``--json`` prints one document (see docs/log.md).

FILE ``-`` is standard input. What cannot be read as a log is refused in one line before
any file is read: a missing file, a directory, a web address (a Logfile Analyzer link:
the log has to be downloaded first); a named pipe that nothing writes to is refused
after a short wait instead of being waited on forever.

Exit status: 0 when every file was read (inconsistencies are findings, not failures);
1 with ``--check`` when some module has an inconsistency; 2 for a missing or unreadable
file or a bad option.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

import click
from rich.text import Text

from defuser.engine.simulator import Outcome
from defuser.logs import analysis as loganalysis
from defuser.logs.analysis import BombAnalysis, EdgeSource, FileAnalysis, ModuleAnalysis
from defuser.logs.check.module import ModuleCheck
from defuser.logs.check.state import Inconsistency
from defuser.logs.check.steps import ReplayStep
from defuser.logs.judge import ClickRating, ModuleJudgement
from defuser.logs.reader import default_log_path
from defuser.streams import os_reason, printable
from defuser.terminal.app import Application
from defuser.terminal.params import BATTERIES, SERIAL
from defuser.terminal.safeio import iter_stdin_bytes, iter_user_bytes
from defuser.terminal.style import card_text
from edgework import Batteries, EdgeworkError, SerialNumber

#: The largest file read as a game log (a long session's log is tens of MiB).
MAX_LOG_BYTES = 1 << 30
#: FILE that stands for standard input, and the name a report gives it.
STDIN = "-"
STDIN_NAME = "<stdin>"
#: A web address (``https://...``), or the Logfile Analyzer's without its scheme.
_WEB_ADDRESS = re.compile(r"(?i)^(?:[a-z][a-z0-9+.-]*://|ktane\.timwi\.de/)")


@click.group("log")
def log() -> None:
    """Read KTaNE game logs: replay and check every Exploding Mittens module."""


@log.command("analyze")
@click.argument("files", nargs=-1, type=click.Path())
@click.option("--json", "json_mode", is_flag=True, help="Print one JSON document.")
@click.option(
    "--serial",
    type=SERIAL,
    default=None,
    help="Serial number for bombs whose edgework is not in the log.",
)
@click.option(
    "--batteries",
    type=BATTERIES,
    default=None,
    help="Battery count for bombs whose edgework is not in the log.",
)
@click.option(
    "--check",
    "check_mode",
    is_flag=True,
    help="Exit 1 when any module has an inconsistency.",
)
@click.option(
    "--brief",
    is_flag=True,
    help="Human output: a summary and the strikes per module, without the replay.",
)
@click.option(
    "--no-judge",
    is_flag=True,
    help="Do not judge the decisions against the optimal policy (faster).",
)
def analyze(
    files: tuple[str, ...],
    json_mode: bool,
    serial: str | None,
    batteries: Batteries | None,
    check_mode: bool,
    brief: bool,
    no_judge: bool,
) -> None:
    """Replay and check every Exploding Mittens module in game logs.

    FILE is a KTaNE log (output_log.txt / Player.log) or a log written by
    'mittens play --log'; '-' reads standard input. Without FILE, the game's log at its
    default place for this operating system is read.
    """
    out = Application.current(json_mode=json_mode)
    if serial is not None:
        try:
            serial = SerialNumber.parse(serial, strict=False).text
        except EdgeworkError as exc:
            raise click.BadParameter(str(exc), param_hint="'--serial'") from exc
    paths = log_paths(files, out)
    count = batteries.count if batteries is not None else None
    # Each file is read as a stream of chunks: linear time, memory for its module lines
    # only, and a clear error for a file (or device) larger than any game log.
    analyses = [
        loganalysis.analyse_bytes(
            _log_bytes(path),
            STDIN_NAME if path == STDIN else path,
            serial=serial,
            batteries=count,
            judge_decisions=not no_judge,
        )
        for path in paths
    ]
    if json_mode:
        out.json(loganalysis.to_json(analyses, judgement_note))
    else:
        for analysis in analyses:
            render_file(out, analysis, brief=brief)
    if check_mode and any(a.inconsistency_count for a in analyses):
        sys.exit(1)


def log_paths(files: tuple[str, ...], out: Application) -> list[str]:
    """The files to read (the game's default log when none is given), each checked to be
    a readable file before any is analysed, so a typo fails at once (exit 2).

    Paths stay as typed (a pasted web address keeps its ``//``); ``-`` is stdin, once.
    """
    paths = list(files)
    if not paths:
        default = Path(default_log_path())
        if not default.is_file():
            raise click.UsageError(
                f"no FILE given and the game's default log {default} does not exist, "
                "expected a log file path"
            )
        out.note(f"reading the game's default log for this system: {default}")
        paths = [str(default)]
    if paths.count(STDIN) > 1:
        raise click.UsageError(
            "FILE '-' (standard input) is given more than once, expected it at most once"
        )
    for path in paths:
        if path != STDIN:
            check_readable(path)
    return paths


def _log_bytes(path: str) -> Iterable[bytes]:
    """The log's bytes in chunks, from the file or (``-``) standard input."""
    if path == STDIN:
        return iter_stdin_bytes(MAX_LOG_BYTES, "log file '-' (standard input)")
    return iter_user_bytes(path, "log file", limit=MAX_LOG_BYTES)


def check_readable(path: str) -> None:
    """A usage error unless ``path`` is a file that can be opened.

    Never blocks: a named pipe is not opened here (reading it waits a bounded time for
    a writer, then refuses it in one line).
    """
    shown = f"log file {printable(path)!r}"
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise click.UsageError(f"{shown} is a directory, expected a file")
        if stat.S_ISFIFO(mode):
            return
        with open(path, "rb"):
            pass
    except FileNotFoundError:
        raise click.UsageError(_missing(path, shown)) from None
    except OSError as exc:
        raise click.UsageError(f"{shown} cannot be read ({os_reason(exc)})") from None


def _missing(path: str, shown: str) -> str:
    """Why ``path`` is not there: a web address needs downloading first."""
    if not _WEB_ADDRESS.match(path):
        return f"{shown} does not exist, expected a KTaNE game log"
    if "ktane.timwi.de/lfa" in path.lower():
        return (f"{shown} is a link to the Logfile Analyzer, not a log file: download the "
                "log first and give the downloaded file")
    return (f"{shown} is a web address, not a log file: download the log first and give "
            "the downloaded file")


# --------------------------------------------------------------------------- human output


def render_file(out: Application, analysis: FileAnalysis, *, brief: bool) -> None:
    """Everything about one file."""
    modules = analysis.modules
    head = Text(f"{analysis.path}", style="bold")
    head.append(
        f"  ({analysis.game.line_count} lines, {len(analysis.bombs)} "
        f"bomb{'s' if len(analysis.bombs) != 1 else ''}, {len(modules)} Exploding Mittens "
        f"module{'s' if len(modules) != 1 else ''})"
    )
    out.prose(head)
    for problem in analysis.problems:
        out.prose(f"  line {problem.line}: could not read: {problem.message}")
    if not modules:
        out.prose("  No Exploding Mittens lines in this file.")
    for number, bomb in enumerate(analysis.bombs, start=1):
        if not bomb.modules:
            continue
        render_bomb(out, number, bomb)
        for module in bomb.modules:
            render_module(out, module, brief=brief)
    total = analysis.inconsistency_count
    out.prose(
        Text(
            f"{total} inconsistenc{'y' if total == 1 else 'ies'} in {analysis.path}",
            style="bold red" if total else "bold green",
        )
    )
    out.prose("")


def render_bomb(out: Application, number: int, bomb: BombAnalysis) -> None:
    """The bomb's edgework as the log (or the options) gave it."""
    where = f"line {bomb.bomb.line}" if bomb.bomb.line is not None else "no bomb lines"
    out.prose(Text(f"Bomb {number} ({where})", style="bold"))
    serial = bomb.serial if bomb.serial is not None else "unknown"
    source = " (given)" if bomb.serial_source is EdgeSource.GIVEN else ""
    parts = [f"serial number {serial}{source}"]
    if bomb.batteries is None:
        parts.append("batteries unknown")
    else:
        holders = bomb.bomb.holders
        text = f"{bomb.batteries} batter{'y' if bomb.batteries == 1 else 'ies'}"
        if bomb.batteries_source is EdgeSource.LOG:
            text += f" in {len(holders)} holder{'' if len(holders) == 1 else 's'}"
        elif bomb.batteries_source is EdgeSource.GIVEN:
            text += " (given)"
        parts.append(text)
    if bomb.bomb.indicators:
        parts.append("indicators " + ", ".join(bomb.bomb.indicators))
    if bomb.bomb.ports:
        parts.append("port plates " + " | ".join(p or "empty" for p in bomb.bomb.ports))
    out.prose("  " + "; ".join(parts))
    for note in bomb.notes:
        out.prose(f"  note: {note}")


def render_module(out: Application, module: ModuleAnalysis, *, brief: bool) -> None:
    """One module: summary, opening, replay with judgements, strikes, inconsistencies."""
    check = module.check
    title = Text(f"  Exploding Mittens #{check.module_id}", style="bold")
    title.append(f" (lines {check.first_line}-{check.last_line})")
    out.prose(title)
    facts = module_facts(check)
    if facts:
        out.prose("    " + ", ".join(facts))
    for note in check.notes:
        out.prose(f"    note: {note}")
    verdict = "solved" if check.solved else "not solved"
    out.prose(
        f"    {verdict}; {check.actions} action{'s' if check.actions != 1 else ''}, "
        f"{check.strikes} strike{'s' if check.strikes != 1 else ''}"
    )
    judged = module.judgement
    if judged is not None and judged.judgements:
        counts = judged.counts
        out.prose(
            f"    decisions against the optimal policy: {counts[ClickRating.BEST]} best, "
            f"{counts[ClickRating.SLOWER]} safe but slower (+{judged.extra_clicks:.1f} "
            f"expected clicks in all), {counts[ClickRating.RISKY]} risky"
        )
    if judged is not None and judged.stopped:
        out.prose(f"    not judged: {judgement_note(judged)}")
    render_opening(out, check)
    marks = loganalysis.marks_by_step(check)
    render_marks(out, marks.get(-1, []))
    if not brief and check.steps:
        out.prose("    replay:")
        for index, step in enumerate(check.steps):
            render_step(out, module, step)
            render_marks(out, marks.get(index, []))
    elif check.strikes:
        out.prose("    strikes:")
        for step in check.steps:
            if step.outcome is Outcome.STRIKE:
                out.prose(f"      line {step.line}: {step.command}: "
                          f"{loganalysis.strike_words(check, step)}")
    if check.inconsistencies:
        count = len(check.inconsistencies)
        out.prose(Text(f"    {count} inconsistenc{'y' if count == 1 else 'ies'}:",
                       style="bold red"))
        for item in check.inconsistencies:
            out.prose(Text(f"      line {item.line}: {item.message}", style="red"))
    else:
        out.prose(Text("    every line agrees with the module's behaviour", style="green"))


def render_marks(out: Application, marks: list[Inconsistency]) -> None:
    """The inconsistencies whose lines belong to the replay row just printed."""
    for item in marks:
        out.prose(Text(f"        ! inconsistency at line {item.line}: {item.message}",
                       style="bold red"))


def module_facts(check: ModuleCheck) -> list[str]:
    """Table, last digit and N as the check settled them (``one of`` when open)."""
    facts = []
    if check.table is not None:
        facts.append(f"Table {check.table}")
    if check.last_digit is not None:
        if len(check.digit_candidates) > 1:
            facts.append("last digit one of " + ", ".join(map(str, check.digit_candidates)))
        else:
            facts.append(f"last digit {check.last_digit}")
    if check.interval is not None:
        facts.append(f"N = {check.interval}")
    elif check.interval_candidates:
        facts.append("N one of " + ", ".join(map(str, check.interval_candidates)))
    return facts


def render_opening(out: Application, check: ModuleCheck) -> None:
    """The opening discard (its type and rule) and hand, when the module was replayed."""
    rules = check.rules
    opening = check.opening
    if opening is None or rules is None:
        return
    discard, hand = opening
    line = Text("    opening: discard ")
    line.append_text(card_text(discard))
    line.append(f" ({rules.type_of(discard).value}), rule {rules.rule(discard)}; hand")
    for slot, card in enumerate(hand, start=1):
        line.append(f" {slot}:")
        line.append_text(card_text(card, words=False))
    out.prose(line)


def judgement_note(judged: ModuleJudgement) -> str:
    """Why a module was not judged, and the option that would let it be."""
    if judged.needs is not None:
        return f"{judged.stopped}; give --{judged.needs} to judge them"
    return judged.stopped


_VERDICT_STYLES = {
    ClickRating.BEST: "green", ClickRating.SLOWER: "yellow", ClickRating.RISKY: "bold red",
}


def render_step(out: Application, module: ModuleAnalysis, step: ReplayStep) -> None:
    """One action: what happened, then the cycle as the player knew it and the verdict."""
    text = loganalysis.step_words(module.check, step)
    style = "bold red" if step.outcome is Outcome.STRIKE else (
        "bold green" if step.outcome is Outcome.SOLVED else ""
    )
    line = Text("      ")
    line.append(text, style=style)
    if step.countdown is not None:
        line.append(f" [log: mitten coming in {step.countdown}]", style="dim")
    out.prose(line)
    judgement = module.judgement_at(step.line)
    if judgement is not None:
        detail = Text(f"        player's view: {judgement.cycle}; ")
        detail.append(judgement.words(), style=_VERDICT_STYLES[judgement.verdict])
        out.prose(detail)
