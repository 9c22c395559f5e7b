"""The driver: replay one module's lines through the beam and report what contradicts.

Contract: :func:`check_module` keeps every hypothesis the log allows (a beam of
:class:`~defuser.logs.check.state.ReplayState` values), steps each through every
line, keeps the cheapest ones, and reports the cheapest replay as a
:class:`ModuleCheck`. It never raises on a malformed, tampered or truncated log.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from defuser.engine import modlog
from defuser.engine.rules import HAND_SIZE
from defuser.logs.check.messages import ACTION_STARTS, STRIKE_STARTS, is_cut_short
from defuser.logs.check.replayer import step
from defuser.logs.check.state import Context, Inconsistency, LineRecord, ReplayState, Stage
from defuser.logs.check.steps import ReplayStep, build_steps
from defuser.logs.stream import ModuleLine
from edgework import (
    MAX_INTERVAL,
    MIN_INTERVAL,
    TABLE_LETTERS,
    Card,
    EdgeworkError,
    Ruleset,
    SerialNumber,
    TableLetter,
    interval_for,
)

#: A hypothesis more than this many contradictions behind the best one is dropped.
MARGIN: Final = 3
#: The most hypotheses kept after each line (the cheapest ones).
BEAM: Final = 600

#: What a replay that stops in each stage was still waiting for.
_AWAITED: Final = {
    Stage.START: "the start-up",
    Stage.OPENING_DISCARD: "the start-up",
    Stage.OPENING_RULE: "the start-up",
    Stage.COMING: "the countdown line",
    Stage.RULE_AFTER_PLAY: "the rule line",
    Stage.RULE_AFTER_DISCARD: "the rule line",
    Stage.BLOCKING: "the end of the blocked discard",
}


class TableSource(enum.StrEnum):
    """Where a module's table came from (its value is the JSON ``table_source``)."""

    #: The serial number the bomb's edgework gave.
    SERIAL = "serial"
    #: The module's own 'You should use Table' line (no serial number known).
    LOG = "log"


@dataclass(slots=True)
class ModuleCheck:
    """The replay of one module and what contradicts the spec."""

    module_id: int
    first_line: int
    last_line: int
    serial: str | None
    batteries: int | None
    table: TableLetter | None
    #: Where the table came from.
    table_source: TableSource
    last_digit: int | None
    digit_candidates: tuple[int, ...]
    interval: int | None
    interval_candidates: tuple[int, ...]
    solved: bool
    strikes: int
    actions: int
    inconsistencies: list[Inconsistency]
    notes: list[str] = field(default_factory=list)
    records: list[LineRecord] = field(default_factory=list)
    steps: list[ReplayStep] = field(default_factory=list)
    replayed: bool = True

    @property
    def rules(self) -> Ruleset | None:
        """The rule set of the chosen replay, when it could be replayed."""
        if self.table is None or self.last_digit is None:
            return None
        return Ruleset(self.table, self.last_digit)

    @property
    def opening(self) -> tuple[Card, tuple[Card, ...]] | None:
        """The opening discard top and hand as the start-up lines gave them."""
        state = None
        for record in self.records:
            if type(record.message) in ACTION_STARTS:
                state = record.before
                break
            state = record.after
        if state is None or state.discard is None:
            return None
        return state.discard, state.hand


#: A module line read: the line and its message (``None``: not a message).
_Read = tuple[ModuleLine, modlog.Message | None]


class Trail(NamedTuple):
    """How one beam state was reached: its last line's step and the trail before it.

    Trails are shared between the states that branch from one state. The beam keeps
    only the raw pieces of each step; :meth:`records` makes the
    :class:`~defuser.logs.check.state.LineRecord` values of the one replay reported.
    """

    before: ReplayState
    after: ReplayState
    problems: list[str]
    parent: Trail | None

    def records(self, read: Sequence[_Read]) -> list[LineRecord]:
        """The records in line order; ``read`` are the lines the trail stepped through."""
        links: list[Trail] = []
        link: Trail | None = self
        while link is not None:
            links.append(link)
            link = link.parent
        links.reverse()
        return [
            LineRecord(ml.number, message, t.before, t.after, tuple(t.problems))
            for (ml, message), t in zip(read, links, strict=True)
        ]


#: The beam: each state with its cost (contradictions so far) and its trail.
_Beam = dict[ReplayState, tuple[int, Trail | None]]


def check_module(
    lines: Sequence[ModuleLine],
    *,
    module_id: int = 1,
    serial: str | None = None,
    batteries: int | None = None,
    last_event_line: int | None = None,
    file_last_line: int | None = None,
) -> ModuleCheck:
    """Replay one module's lines and list every contradiction with its line number.

    ``serial``/``batteries`` are the bomb's edgework when the log showed it (``None``
    when unknown: then the table comes from the log, and the last digit and N are
    inferred). ``last_event_line`` is the file's last module or bomb line and
    ``file_last_line`` its last non-blank line: an action cut short after them, or an
    unreadable last line, is the file's truncation and is noted, not reported.
    """
    notes: list[str] = []
    parsed_serial = _parse_serial(serial, notes)
    read, cut_note = _read_lines(lines, file_last_line)
    first = lines[0].number if lines else 0
    last = lines[-1].number if lines else 0
    result = ModuleCheck(
        module_id=module_id, first_line=first, last_line=last,
        serial=parsed_serial.text if parsed_serial else serial, batteries=batteries,
        table=None, table_source=TableSource.SERIAL if parsed_serial else TableSource.LOG,
        last_digit=None,
        digit_candidates=(), interval=interval_for(batteries) if batteries is not None else None,
        interval_candidates=(),
        solved=any(isinstance(message, modlog.SolvedMessage) for _, message in read),
        strikes=sum(1 for _, message in read if type(message) in STRIKE_STARTS),
        actions=sum(1 for _, message in read if type(message) in ACTION_STARTS),
        inconsistencies=[], notes=notes,
    )
    if cut_note:
        result.notes.append(cut_note)
    if not _has_opening(result, read, last_event_line):
        return result
    ctx = Context(parsed_serial, batteries)
    beam = _run_beam(ctx, _initial_beam(parsed_serial, batteries), read)
    best_cost = min(cost for cost, _ in beam.values())
    finals = [(s, t) for s, (c, t) in beam.items() if c == best_cost]
    best_state, best_trail = finals[0]
    result.records = best_trail.records(read) if best_trail is not None else []
    for record in result.records:
        if record.problems:
            result.inconsistencies.append(Inconsistency(record.number, "; ".join(record.problems)))
    _note_the_ending(result, best_state, last_event_line)
    _settle_unknowns(result, [s for s, _ in finals], read, parsed_serial)
    result.steps = build_steps(result.records)
    return result


def _parse_serial(serial: str | None, notes: list[str]) -> SerialNumber | None:
    if serial is None:
        return None
    try:
        return SerialNumber.parse(serial, strict=False)
    except EdgeworkError as exc:
        notes.append(f"the bomb's serial number could not be used ({exc}); the table "
                     "and last digit are inferred from the log")
        return None


def _read_lines(
    lines: Sequence[ModuleLine], file_last_line: int | None
) -> tuple[list[_Read], str]:
    """Every line's message and fields, without a last line the file cut short."""
    read: list[_Read] = [(ml, modlog.parse(ml.message)) for ml in lines]
    if read and read[-1][1] is None and file_last_line is not None:
        last_line = read[-1][0]
        if last_line.number >= file_last_line and is_cut_short(last_line.message):
            # The file ends inside this line: truncation, not a line the module wrote.
            read.pop()
            return read, (f"line {last_line.number} is cut short (the file ends inside "
                          "it); ignored")
    return read, ""


def _has_opening(result: ModuleCheck, read: list[_Read], last_event_line: int | None) -> bool:
    """Whether the lines start with the start-up; if not, say why they cannot be replayed."""
    opening = [type(message) for _, message in read[:2]]
    if modlog.OpeningDiscardMessage in opening:
        return True
    result.replayed = False
    ends_file = result.last_line >= (last_event_line or 0)
    if not read or (opening == [modlog.TableMessage] and ends_file):
        result.notes.append("the log ends inside the start-up; the file looks truncated")
    elif opening[:1] == [modlog.TableMessage]:
        result.inconsistencies.append(Inconsistency(
            read[1][0].number if len(read) > 1 else result.first_line,
            "expected the opening discard line 'The card on the discard pile is a ...' "
            "after the table line; without it the module cannot be replayed",
        ))
    else:
        # The module writes its start-up before anything else, so lines without it
        # are not a game of the module (an altered id, or an excerpt of a log).
        result.inconsistencies.append(Inconsistency(
            result.first_line, "this module's lines begin without its start-up ('You "
            "should use Table X.', the opening discard, the rule and the hand), which the "
            "module always writes first; it cannot be replayed"
        ))
    return False


def _initial_beam(serial: SerialNumber | None, batteries: int | None) -> _Beam:
    """One hypothesis per table and last digit the edgework leaves open."""
    if serial is not None:
        tables, digits = [serial.table], [serial.last_digit]
    else:
        tables, digits = list(TABLE_LETTERS), list(range(10))
    n_known = interval_for(batteries) if batteries is not None else None
    beam: _Beam = {}
    for table in tables:
        for digit in digits:
            state = ReplayState(
                table=table, digit=digit, n=n_known, n_min=MIN_INTERVAL, stage=Stage.START,
                discard=None, hand=(), until=None, first_cycle=True, defuse_line=0,
                coming=0, pending_line=0, blocking=(), listed=0, solved_line=0, deals=0,
            )
            beam[state] = (0, None)
    return beam


def _run_beam(ctx: Context, beam: _Beam, read: list[_Read]) -> _Beam:
    """Step every hypothesis through every line, keeping the cheapest."""
    for ml, message in read:
        new_beam: _Beam = {}
        for state, (cost, trail) in beam.items():
            for after, problems in step(ctx, state, ml.number, message, ml.message):
                entry = (cost + len(problems), Trail(state, after, problems, trail))
                # A state reached twice keeps its first place and its cheapest trail.
                known = new_beam.setdefault(after, entry)
                if known[0] > entry[0]:
                    new_beam[after] = entry
        beam = _prune(new_beam)
    return beam


def _prune(beam: _Beam) -> _Beam:
    """Keep the hypotheses within :data:`MARGIN` of the best, at most :data:`BEAM`."""
    if len(beam) < 2:
        return beam  # most lines leave one hypothesis: nothing to compare
    costs = [cost for cost, _ in beam.values()]
    best = min(costs)
    if max(costs) <= best + MARGIN and len(beam) <= BEAM:
        return beam  # every hypothesis is kept, in the same order
    kept = [(s, v) for s, v in beam.items() if v[0] <= best + MARGIN]
    if len(kept) > BEAM:
        kept.sort(key=lambda item: item[1][0])
        kept = kept[:BEAM]
    return dict(kept)


def _note_the_ending(result: ModuleCheck, best: ReplayState, last_event_line: int | None) -> None:
    """An action or start-up the lines leave unfinished: truncation or a finding."""
    last = result.last_line
    if best.stage not in (Stage.IDLE, Stage.HAND) and not best.solved_line:
        what = _AWAITED.get(best.stage, "more lines")
        if last_event_line is not None and last > 0 and last < last_event_line:
            result.inconsistencies.append(Inconsistency(
                last, f"the action at line {best.pending_line} is incomplete: expected "
                f"{what} after this line"
            ))
        else:
            result.notes.append(
                f"the log ends inside the action at line {best.pending_line} "
                f"(expected {what}); the file looks truncated"
            )
    elif best.stage is Stage.HAND and len(best.hand) < HAND_SIZE:
        result.notes.append("the log ends inside the start-up; the file looks truncated")


def _settle_unknowns(
    result: ModuleCheck, finals: list[ReplayState], read: list[_Read],
    serial: SerialNumber | None,
) -> None:
    """Table, last digit and N from the cheapest replays, with notes on inferred ones."""
    best = finals[0]
    result.table = best.table
    result.last_digit = best.digit
    result.digit_candidates = tuple(sorted({s.digit for s in finals}))
    ns: set[int] = set()
    for s in finals:
        if s.n is not None:
            ns.add(s.n)
        else:
            ns.update(range(s.n_min, MAX_INTERVAL + 1))
    result.interval_candidates = tuple(sorted(ns))
    if result.batteries is None:
        result.interval = result.interval_candidates[0] if len(ns) == 1 else None
    if serial is None:
        claimed = next((m.table for _, m in read[:1] if isinstance(m, modlog.TableMessage)), None)
        source = f"Table {result.table} from the log's 'You should use Table' line"
        if claimed is not None and claimed != result.table:
            source = f"Table {result.table} from the cards' types"
        result.notes.append(
            f"serial number unknown: {source}; last digit "
            f"{_candidates(result.digit_candidates)} from the rule letters (Table E)"
        )
    if result.batteries is None:
        result.notes.append(
            f"batteries unknown: N {_candidates(result.interval_candidates)} from the "
            "countdown lines"
        )


def _candidates(values: Sequence[int]) -> str:
    if len(values) == 1:
        return f"= {values[0]}"
    return "is one of " + ", ".join(str(v) for v in values)
