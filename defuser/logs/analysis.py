"""Analyse whole game logs: every bomb, every Exploding Mittens module, as data.

Contract: :func:`analyse_bytes` reads one file's bytes (never raising on its content),
checks every module instance with :func:`defuser.logs.check.check_module` using its
bomb's edgework, judges its decisions with :func:`defuser.logs.judge.judge` (unless told
not to), and returns a :class:`FileAnalysis`; :func:`to_json` turns analyses into the
documented ``mittens log analyze --json`` document, :func:`step_words` and
:func:`strike_words` put the replay into plain words, and :func:`mark_rows` says on which
step of the replay each inconsistency is marked. Edgework given by the caller
(``serial``/``batteries``) fills in what the log does not show; the log's own edgework
lines always win.
"""

from __future__ import annotations

import bisect
import enum
import heapq
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from defuser.engine import modlog
from defuser.engine.actions import ActionKind, StrikeKind
from defuser.engine.board import Board
from defuser.engine.simulator import Outcome
from defuser.logs.check.module import ModuleCheck, check_module
from defuser.logs.check.state import Inconsistency
from defuser.logs.check.steps import ReplayStep
from defuser.logs.judge import ClickJudgement, ModuleJudgement, judge
from defuser.logs.reader import GameLog, read_log
from defuser.logs.stream import (
    EdgeworkKey,
    LoggedBomb,
    ModuleLine,
    ModuleLog,
    Problem,
    agrees,
    edgework_key,
)
from defuser.strategy import explain
from edgework import MITTEN_RULES, RULE_TEXTS, Card, EdgeworkError, SerialNumber, interval_for

#: Version of the JSON document's shape (keys are only ever added).
JSON_VERSION = 1


class EdgeSource(enum.StrEnum):
    """Where a bomb's serial number or battery count used for checking came from (its
    value is the JSON ``serial_source`` and ``batteries_source``)."""

    #: The bomb's own edgework lines.
    LOG = "log"
    #: The caller (the command's options, the web form): the log does not show it.
    GIVEN = "given"
    #: Neither: the log does not show it and none was given.
    UNKNOWN = "unknown"

    @classmethod
    def of(cls, logged: object, given: object) -> EdgeSource:
        """Where a fact comes from when the log shows ``logged`` (``None``: it does
        not) and the caller gave ``given``."""
        if logged is not None:
            return cls.LOG
        return cls.GIVEN if given is not None else cls.UNKNOWN


@dataclass(slots=True)
class ModuleAnalysis:
    """One module: the check of its lines and the judgement of its decisions."""

    check: ModuleCheck
    judgement: ModuleJudgement | None = None
    #: How many bombs of its mission the module's lines agree with (1: certain).
    bomb_candidates: int = 1

    def judgement_at(self, line: int) -> ClickJudgement | None:
        """The judgement of the action starting at ``line``, if it was judged."""
        if self.judgement is None:
            return None
        return self.judgement.judgements.get(line)


@dataclass(slots=True)
class BombAnalysis:
    """One bomb: its edgework as used for checking, and its modules."""

    bomb: LoggedBomb
    serial: str | None
    batteries: int | None
    #: Where the edgework came from.
    serial_source: EdgeSource
    batteries_source: EdgeSource
    modules: list[ModuleAnalysis] = field(default_factory=list)
    #: What the caller gave that the log overrules, in words (one entry per option).
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class FileAnalysis:
    """One log file: its bombs and what could not be read."""

    path: str
    game: GameLog
    bombs: list[BombAnalysis]

    @property
    def problems(self) -> list[Problem]:
        """Lines outside the modules that could not be read."""
        return self.game.problems

    @property
    def modules(self) -> list[ModuleCheck]:
        """Every module check of the file, in file order."""
        found = [m.check for b in self.bombs for m in b.modules]
        return sorted(found, key=lambda m: m.first_line)

    @property
    def inconsistency_count(self) -> int:
        """How many contradicting lines the file's modules have, in all."""
        return sum(len(m.inconsistencies) for m in self.modules)


def analyse_bytes(
    data: bytes | Iterable[bytes],
    path: str = "-",
    *,
    serial: str | None = None,
    batteries: int | None = None,
    judge_decisions: bool = True,
) -> FileAnalysis:
    """Read, check and (unless ``judge_decisions`` is false) judge one log file.

    ``serial`` and ``batteries`` stand in for edgework that a bomb's lines do not show
    (for a log that holds only the module's lines).
    """
    game = read_log(data)
    bombs: list[BombAnalysis] = []
    for bomb in game.bombs:
        bomb_serial = bomb.serial if bomb.serial is not None else serial
        bomb_batteries = bomb.batteries if bomb.batteries is not None else batteries
        analysis = BombAnalysis(bomb, bomb_serial, bomb_batteries,
                                EdgeSource.of(bomb.serial, serial),
                                EdgeSource.of(bomb.batteries, batteries))
        analysis.notes = _overruled(bomb, serial, batteries)
        bombs.append(analysis)
    groups: dict[int, dict[EdgeworkKey, list[int]]] = {}
    for bomb in game.bombs:
        for module in bomb.modules:
            choices = module.bomb_choices or (game.bombs.index(bomb),)
            # One table per mission (its instances share one tuple of bombs): the bombs
            # by what the module reads of them, so a mission of many bombs costs each
            # module one check per distinct edgework, not one per bomb.
            by_key = groups.get(id(choices))
            if by_key is None:
                by_key = groups[id(choices)] = _by_edgework(choices, bombs)
            chosen, check, agreeing = _place(module, by_key, bombs, game)
            check = _without_contradicting_edgework(
                check, module.lines, bombs[chosen], game.last_event_line, game.line_count
            )
            count = sum(len(indexes) for indexes in agreeing)
            if count > 1:
                check.notes.append(_uncertain_words(agreeing, count, bombs))
            bombs[chosen].modules.append(
                ModuleAnalysis(check, judge(check) if judge_decisions else None,
                               bomb_candidates=count)
            )
    for analysis in bombs:
        analysis.modules.sort(key=lambda m: m.check.first_line)
    return FileAnalysis(path, game, bombs)


def _by_edgework(
    choices: tuple[int, ...], bombs: list[BombAnalysis]
) -> dict[EdgeworkKey, list[int]]:
    """The bombs a module may be on, by what the module reads of them (file order)."""
    by_key: dict[EdgeworkKey, list[int]] = {}
    for index in choices:
        key = edgework_key(bombs[index].serial, bombs[index].batteries)
        by_key.setdefault(key, []).append(index)
    return by_key


def _opening_of(lines: list[ModuleLine]) -> tuple[str | None, Card | None, str | None]:
    """A module's table, opening discard and rule, from its start-up lines."""
    table = rule = None
    discard = None
    for line in lines[:3]:
        message = modlog.parse(line.message)
        if isinstance(message, modlog.TableMessage):
            table = message.table
        elif isinstance(message, modlog.OpeningDiscardMessage):
            discard = message.card
        elif isinstance(message, modlog.RuleMessage):
            rule = message.rule
    return table, discard, rule


def _place(
    module: ModuleLog, by_key: dict[EdgeworkKey, list[int]], bombs: list[BombAnalysis],
    game: GameLog,
) -> tuple[int, ModuleCheck, list[list[int]]]:
    """The bomb a module is listed under, its check there, and the bombs of its mission
    whose edgework its lines agree with as well (the fewest contradictions; the latest
    bomb on a tie; lists shared with ``by_key``). Bombs whose serial number its
    start-up contradicts are passed over without a replay, unless none is left."""
    table, discard, rule = _opening_of(module.lines)
    keys = [key for key in by_key
            if agrees(key, table, discard, rule)]
    best: tuple[int, list[list[int]], int, ModuleCheck] | None = None
    for key in keys or list(by_key):
        latest = by_key[key][-1]
        target = bombs[latest]
        check = check_module(
            module.lines,
            module_id=module.module_id,
            serial=target.serial,
            batteries=target.batteries,
            last_event_line=game.last_event_line,
            file_last_line=game.line_count,
        )
        cost = len(check.inconsistencies)
        if best is None or cost < best[0]:
            best = (cost, [by_key[key]], latest, check)
        elif cost == best[0]:
            best[1].append(by_key[key])
            if latest > best[2]:
                best = (cost, best[1], latest, check)
    assert best is not None
    _, agreeing, chosen, check = best
    return chosen, check, agreeing


#: How many bombs a note about an uncertain bomb names (the rest are counted).
_NAMED_BOMBS = 5


def _uncertain_words(agreeing: list[list[int]], count: int, bombs: list[BombAnalysis]) -> str:
    """The note of a module whose lines agree with several bombs of its mission."""
    first = itertools.islice(heapq.merge(*agreeing), _NAMED_BOMBS)
    named = ", ".join(str(bombs[i].bomb.number) for i in first)
    if count > _NAMED_BOMBS:
        named += f" and {count - _NAMED_BOMBS:,} more"
    return (
        f"bomb not certain: its lines agree with {count:,} bombs of its mission "
        f"(bombs {named}); it is listed under the latest"
    )


def _overruled(bomb: LoggedBomb, serial: str | None, batteries: int | None) -> list[str]:
    """The given edgework that this bomb's own lines contradict (the log wins)."""
    notes = []
    if serial is not None and bomb.serial is not None and not _same_serial(serial, bomb.serial):
        notes.append(
            f"the serial number given ({serial}) is not used for this bomb: the log shows "
            f"its serial number, {bomb.serial}"
        )
    if batteries is not None and bomb.batteries is not None and batteries != bomb.batteries:
        notes.append(
            f"the battery count given ({batteries}) is not used for this bomb: the log "
            f"shows its {bomb.batteries} batter{'y' if bomb.batteries == 1 else 'ies'}"
        )
    return notes


def _same_serial(a: str, b: str) -> bool:
    return a.strip().upper() == b.strip().upper()


def _without_contradicting_edgework(
    check: ModuleCheck, lines: list[ModuleLine], bomb: BombAnalysis, last_event: int,
    line_count: int,
) -> ModuleCheck:
    """When the serial or batteries given by the caller (not the log) contradict the
    module's lines, one finding says so and the module is checked with what its lines
    show, instead of blaming every line that the wrong edgework makes look wrong."""
    if not check.inconsistencies:
        return check
    given_serial = bomb.serial_source is EdgeSource.GIVEN
    given_batteries = bomb.batteries_source is EdgeSource.GIVEN
    trials = []
    if given_serial:
        trials.append((True, False))
    if given_batteries:
        trials.append((False, True))
    if given_serial and given_batteries:
        trials.append((True, True))
    best: tuple[int, bool, bool, ModuleCheck] | None = None
    for drop_serial, drop_batteries in trials:
        other = check_module(
            lines,
            module_id=check.module_id,
            serial=None if drop_serial else bomb.serial,
            batteries=None if drop_batteries else bomb.batteries,
            last_event_line=last_event,
            file_last_line=line_count,
        )
        # One finding replaces the line-level ones only when it explains more than one.
        if len(other.inconsistencies) + 1 < len(check.inconsistencies) and (
            best is None or len(other.inconsistencies) < best[0]
        ):
            best = (len(other.inconsistencies), drop_serial, drop_batteries, other)
    if best is None:
        return check
    _, drop_serial, drop_batteries, other = best
    words = []
    if drop_serial and bomb.serial is not None:
        words.append(_serial_words(bomb.serial, other))
    if drop_batteries and bomb.batteries is not None:
        n = interval_for(bomb.batteries)
        found = ", ".join(str(v) for v in other.interval_candidates) or "unknown"
        words.append(
            f"the batteries given ({bomb.batteries}, so N = {n}) do not fit this module: "
            f"its countdown lines allow N = {found}"
        )
    message = "; ".join(words) + (
        f" (with them, {len(check.inconsistencies)} lines would contradict the module); "
        "the module is checked with what its own lines show"
    )
    other.inconsistencies.insert(0, Inconsistency(other.first_line, message))
    return other


def _serial_words(serial: str, check: ModuleCheck) -> str:
    try:
        parsed = SerialNumber.parse(serial, strict=False)
    except EdgeworkError:
        return f"the serial number given ({serial}) cannot be read"
    digits = ", ".join(str(d) for d in check.digit_candidates) or "unknown"
    return (
        f"the serial number given ({serial}) does not belong to this module: it selects "
        f"Table {parsed.table} and last digit {parsed.last_digit}, but the module's lines "
        f"follow Table {check.table} with last digit {digits}"
    )


# --------------------------------------------------------------------------- JSON


def _card(card: Card | None) -> str | None:
    return card.code if card is not None else None


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


def judgement_json(j: ClickJudgement) -> dict[str, Any]:
    """One decision's judgement as JSON."""
    return {
        "verdict": j.verdict,
        "expected_clicks": _round(j.expected_clicks),
        "best": j.best_command,
        "best_clicks": _round(j.best_clicks),
        "extra_clicks": round(j.extra_clicks, 3),
        "strike_probability": float(j.strike_probability),
        "mitten_on_top": float(j.mitten_on_top),
        "deals_until_on_top": j.deals_until_on_top,
        "cycle": j.cycle,
        "best_reason": j.best_reason,
    }


def step_json(
    check: ModuleCheck, step: ReplayStep, judgement: ClickJudgement | None
) -> dict[str, Any]:
    """One replayed action as JSON, with its judgement when there is one."""
    before = step.before
    rules = check.rules
    return {
        "line": step.line,
        "action": step.kind.value,
        "slot": step.slot,
        "command": step.command,
        "card": _card(step.card),
        "outcome": step.outcome.value,
        "strike": None if step.strike is None else step.strike.value,
        "strike_reason": strike_words(check, step) if step.strike is not None else None,
        "discard": _card(before.discard),
        "rule": rules.rule(before.discard) if rules and before.discard is not None else None,
        "hand": [c.code for c in before.hand],
        "countdown": step.countdown,
        "blocking": list(step.blocking_listed),
        "judgement": None if judgement is None else judgement_json(judgement),
    }


#: Words why a module was not judged (a front end adds what to give to judge it).
NoteWords = Callable[[ModuleJudgement], str]


def _stopped(judged: ModuleJudgement) -> str:
    return judged.stopped


def module_json(module: ModuleAnalysis, note_words: NoteWords = _stopped) -> dict[str, Any]:
    """One module's entry of the JSON document."""
    check = module.check
    opening = check.opening
    judged = module.judgement
    return {
        "id": check.module_id,
        "bomb_certain": module.bomb_candidates == 1,
        "bomb_candidates": module.bomb_candidates,
        "table": check.table,
        "interval": check.interval,
        "solved": check.solved,
        "strikes": check.strikes,
        "actions": check.actions,
        "inconsistencies": [{"line": i.line, "message": i.message}
                            for i in check.inconsistencies],
        "first_line": check.first_line,
        "last_line": check.last_line,
        "table_source": check.table_source,
        "last_digit": check.last_digit,
        "last_digit_candidates": list(check.digit_candidates),
        "interval_candidates": list(check.interval_candidates),
        "replayed": check.replayed,
        "opening": None if opening is None else {
            "discard": opening[0].code,
            "hand": [c.code for c in opening[1]],
        },
        "notes": list(check.notes),
        "judged": judged is not None and not judged.stopped,
        "judgement_note": note_words(judged) if judged is not None else "not judged",
        "verdicts": judged.counts if judged is not None else None,
        "extra_clicks": round(judged.extra_clicks, 3) if judged is not None else None,
        "replay": [step_json(check, s, module.judgement_at(s.line)) for s in check.steps],
    }


def bomb_json(bomb: BombAnalysis, note_words: NoteWords = _stopped) -> dict[str, Any]:
    """One bomb's entry of the JSON document."""
    return {
        "serial": bomb.serial,
        "batteries": bomb.batteries,
        "serial_source": bomb.serial_source,
        "batteries_source": bomb.batteries_source,
        "line": bomb.bomb.line,
        "seed": bomb.bomb.seed,
        "notes": list(bomb.notes),
        "battery_holders": list(bomb.bomb.holders),
        "indicators": list(bomb.bomb.indicators),
        "ports": list(bomb.bomb.ports),
        "modules": [module_json(m, note_words) for m in bomb.modules],
    }


def file_json(analysis: FileAnalysis, note_words: NoteWords = _stopped) -> dict[str, Any]:
    """One file's entry of the JSON document."""
    return {
        "path": analysis.path,
        "lines": analysis.game.line_count,
        "problems": [{"line": p.line, "message": p.message} for p in analysis.problems],
        "bombs": [bomb_json(b, note_words) for b in analysis.bombs],
    }


def to_json(analyses: list[FileAnalysis], note_words: NoteWords = _stopped) -> dict[str, Any]:
    """The whole ``mittens log analyze --json`` document; ``note_words`` words why a
    module was not judged."""
    return {"version": JSON_VERSION, "files": [file_json(a, note_words) for a in analyses]}


def mark_rows(step_lines: Sequence[int], bad_lines: Sequence[int]) -> list[int]:
    """Which replay step each inconsistency belongs to: the last step (click) starting at
    or before its line; ``-1`` for a line before every click (the module's opening)."""
    return [bisect.bisect_right(step_lines, line) - 1 for line in bad_lines]


def marks_by_step(check: ModuleCheck) -> dict[int, list[Inconsistency]]:
    """The inconsistencies of a module by the index of the step they are marked on
    (``-1``: the opening), as the replay shows them (see :func:`mark_rows`)."""
    rows = mark_rows([s.line for s in check.steps], [i.line for i in check.inconsistencies])
    marks: dict[int, list[Inconsistency]] = {}
    for item, row in zip(check.inconsistencies, rows, strict=True):
        marks.setdefault(row, []).append(item)
    return marks


# --------------------------------------------------------------------------- plain words


def rule_words(check: ModuleCheck, step: ReplayStep) -> str:
    """The rule in force before ``step``, with its text: ``rule C (Its shape ...)``."""
    rules = check.rules
    discard = step.before.discard
    if rules is None or discard is None:
        return "an unknown rule"
    letter = rules.rule(discard)
    text = f"rule {letter} ({RULE_TEXTS[letter].rstrip('.')}"
    if letter in MITTEN_RULES:
        text += f"; the mitten face is {rules.mitten.words}"
    return text + ")"


def strike_words(check: ModuleCheck, step: ReplayStep) -> str:
    """Why a strike happened, from the state before it (a strike moves nothing)."""
    rules = check.rules
    before = step.before
    if rules is None or before.discard is None:
        return "the module's rules are unknown here"
    hand = before.hand
    if step.strike is StrikeKind.MITTEN_ON_TOP:
        return "the Exploding Mitten was on top of the deck, and it can never be drawn"
    if step.strike is StrikeKind.HAND_FULL:
        return f"the hand already held 3 cards ({', '.join(c.words for c in hand)})"
    board = Board(rules, before.discard, tuple(hand))
    legal = board.legal_slots
    if step.strike is StrikeKind.DISCARD_BLOCKED:
        blocking = board.blocking_slots
        if not blocking:
            return "the log says the discard was blocked, but no card could be played"
        return (
            f"a discard is allowed only when no card can be played, and "
            f"{explain.slot_list(hand, blocking)} could be played under "
            f"{rule_words(check, step)}"
        )
    if step.strike is StrikeKind.INVALID_PLAY and step.card is not None:
        where = (
            f"legal were {explain.slot_list(hand, legal)}"
            if legal
            else "nothing in the hand was legal, so a discard was the move"
        )
        return f"{step.card.words} is not legal under {rule_words(check, step)}; {where}"
    return ""


def step_words(check: ModuleCheck, step: ReplayStep) -> str:
    """One replayed action in one line: the click, the rule in force, the outcome."""
    rules = check.rules
    card = step.card
    discard = step.before.discard
    letter = rules.rule(discard) if rules is not None and discard is not None else "?"
    text = f"line {step.line}: {step.command}"
    if step.kind is ActionKind.PLAY and card is not None:
        text += f" ({card.code} {card.words})"
    text += f" under rule {letter}: "
    ok = step.outcome is Outcome.OK
    if ok and step.kind is ActionKind.DRAW and card is not None:
        text += f"drew {card.code} {card.words}"
    elif ok and step.kind is ActionKind.DISCARD and card is not None and rules is not None:
        text += f"{card.code} {card.words} went onto the pile, rule now {rules.rule(card)}"
    elif ok and step.kind is ActionKind.PLAY and card is not None and rules is not None:
        text += f"played, rule now {rules.rule(card)}"
    elif step.outcome is Outcome.SOLVED:
        text += "SOLVED, a Defuse played with the mitten on top"
    else:
        text += f"STRIKE, {strike_words(check, step)}"
    return text
