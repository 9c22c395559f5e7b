"""``mittens solve``: the expert's one-shot answer for what the defuser sees."""

from __future__ import annotations

import sys

import click
from rich.text import Text

from defuser.errors import InvalidHandError
from defuser.strategy.answer import SolveReport, analyse, solve_batch_line
from defuser.streams import input_lines
from defuser.terminal.app import Application
from defuser.terminal.params import CARD, HAND, cards_arg, edgework_options, resolve_edgework
from defuser.terminal.style import card_text
from defuser.terminal.words import error_words
from edgework import Batteries, Card
from edgework.errors import InputError


def render(report: SolveReport, out: Application) -> None:
    """Print a report for a human: the table and why, the rule, the hand, the answer."""
    serial = report.serial
    head = Text(f"Serial {serial.text}")
    if report.batteries is not None:
        b = report.batteries.count
        head.append(
            f" · {b} batter{'y' if b == 1 else 'ies'} · N = {report.interval} "
            f"(every {report.interval}th card dealt is the Exploding Mitten)"
        )
    else:
        head.append(" · batteries unknown, so N is unknown")
    out.print(head)
    out.print(f"Table {report.rules.table}: {report.table_reason}.")
    out.print(Text("Exploding Mitten face: ").append_text(card_text(report.rules.mitten)))
    out.print(
        Text("Discard top: ")
        .append_text(card_text(report.discard))
        .append(f", {report.discard_type.card_words}")
    )
    out.print(f"Rule {report.rule_letter} ({report.rule_reason}):")
    out.print(f"  {report.rule_text}")
    if report.hand:
        rows = [("Slot", Text("Card"), "Type", "Legal", "Command")] + [
            (
                str(h.slot),
                card_text(h.card),
                h.type.value,
                "legal" if h.legal else "not legal",
                f"play {h.slot}" if h.legal else "-",
            )
            for h in report.hand
        ]
        widths = [max(len(str(row[i])) for row in rows) for i in range(4)]
        for slot, card, kind, legal, command in rows:
            line = Text(slot.ljust(widths[0] + 2))
            line.append_text(card)
            line.append(" " * (widths[1] - len(card) + 2))
            line.append(f"{kind.ljust(widths[2])}  {legal.ljust(widths[3])}  {command}")
            out.print(line)
    else:
        out.print("Hand: empty")
    if report.discard_allowed:
        out.print("Discard: allowed")
    else:
        slots = ", ".join(str(s) for s in report.blocking_slots)
        out.print(f"Discard: not allowed, it would strike (slot {slots} can be played)")
    out.print(
        "Draw: the hand has room (it strikes only if the mitten is on top)"
        if report.draw_allowed
        else "Draw: not allowed, the hand is full"
    )
    out.print(f"Answer: {report.answer}")


def summary_line(report: SolveReport) -> str:
    """One plain line for ``--batch`` without ``--json``."""
    legal = " ".join(str(s) for s in report.legal_slots) or "none"
    return (
        f"{report.serial.text}: table {report.rules.table}, rule {report.rule_letter}, "
        f"legal slots {legal}, discard {'allowed' if report.discard_allowed else 'blocked'}, "
        f"draw {'has room' if report.draw_allowed else 'hand full'}"
    )


def run_batch(out: Application, *, json_mode: bool, strict: bool) -> int:
    """Solve one state per stdin line; return the number of lines that failed.

    Ctrl-C stops at the line being read: the answers so far are already printed, a
    summary goes to stderr and the exit status is 130.
    """
    failures = solved = 0

    def summary() -> None:
        out.note(f"mittens solve: {solved} line(s) solved, {failures} failed before Ctrl-C")

    with out.interruptible(summary):
        for number, line in enumerate(input_lines(), start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            try:
                report = solve_batch_line(text, strict=strict)
            except InputError as exc:
                failures += 1
                if json_mode:
                    out.json({"line": number, "input": text, "error": error_words(exc)})
                else:
                    out.note(f"line {number}: {error_words(exc)}")
                continue
            solved += 1
            if json_mode:
                out.json(report.to_json())
            else:
                sys.stdout.write(summary_line(report) + "\n")
                sys.stdout.flush()  # each answer goes out as it is computed
    return failures


@click.command()
@edgework_options()
@click.option("--discard", type=CARD, help="The card on top of the discard pile, e.g. RC.")
@click.option(
    "--hand",
    type=HAND,
    multiple=True,
    help="Hand cards in slot order: 'BH GS YT', 'BH,GS', or the option repeated.",
)
@click.option("--json", "json_mode", is_flag=True, help="Print one JSON object.")
@click.option(
    "--batch",
    is_flag=True,
    help="Read 'SERIAL BATTERIES DISCARD [HAND...]' lines from stdin, one result per line.",
)
def solve(
    serial: str | None,
    batteries: Batteries | None,
    edgework: str | None,
    lenient_serial: bool,
    discard: Card | None,
    hand: tuple[tuple[Card, ...], ...],
    json_mode: bool,
    batch: bool,
) -> None:
    """Which hand cards are legal, whether to discard, and what to do now.

    Example: mittens solve --serial AB3CD4 --batteries 3 --discard RC --hand "BH GS YT"
    """
    out = Application.current(json_mode=json_mode)
    if batch:
        if serial or batteries is not None or edgework or discard or hand:
            raise click.UsageError("--batch reads every state from stdin; give no state options")
        failed = run_batch(out, json_mode=json_mode, strict=not lenient_serial)
        if failed:
            out.note(f"mittens solve: {failed} line(s) could not be solved")
            sys.exit(1)
        return
    edge = resolve_edgework(serial, batteries, edgework, lenient=lenient_serial)
    if discard is None:
        raise click.BadParameter(
            "the discard top is needed, expected a card like RC or 'red circle'",
            param_hint="'--discard'",
        )
    try:
        # The engine's one check of a visible hand (the same as live's and --batch's).
        report = analyse(edge, discard, cards_arg(hand))
    except InvalidHandError as exc:
        raise click.BadParameter(error_words(exc), param_hint="'--hand'") from exc
    if json_mode:
        out.json(report.to_json())
    else:
        render(report, out)
