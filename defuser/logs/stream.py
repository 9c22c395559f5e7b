"""The one incremental reader of KTaNE game logs: feed a line, get typed log events.

Contract: :class:`LogReader` takes a log's lines one at a time (``feed(number, text)``)
and returns the :data:`LogEvent` values each line makes, in order; it never raises.
``mittens log analyze`` (:func:`defuser.logs.reader.read_log`) feeds a whole file and
collects the events into bombs and module instances; ``mittens live --follow``
(:mod:`defuser.apps.follow`) feeds lines as the game writes them and advises on the
events. Both read bombs and instances through this module only, so a fix to how a log
is read is made here, once.

What the lines mean:

- ``Initialize engine version`` (the game starting again and writing to the same file),
  after the first line, starts a new session: :class:`SessionStarted`, and every bomb
  and module instance before it is closed.
- ``[BombGenerator] Generating bomb with seed <n>`` starts a bomb; the edgework lines
  (``[SerialNumber]``, ``[BatteryWidget]`` once per holder, ``[IndicatorWidget]``,
  ``[PortWidget]``) describe a bomb. Which bomb each line and each module instance
  belongs to is decided by :class:`BombAttribution` alone (the part to replace for
  other mission layouts).
- ``[Exploding Mittens #<id>] <message>`` lines are this module's; the message is read
  once into its class (:func:`defuser.engine.modlog.parse`). Ids count modules across a
  session; a ``You should use Table`` line of an id that has begun is held until the
  id's next line: followed by the opening discard it starts a new instance
  (:class:`ModuleStarted`), else it is a line of the running one. So every event comes
  at the latest one line of that id late.
- Everything else (Unity's blank and ``(Filename: ... Line: N)`` lines, other modules,
  ``[Bomb]`` strikes) makes no event. A module line that cannot be read is a
  :class:`LineProblem`.

Bounds: the reader keeps the open instances (at most :data:`MAX_OPEN`: past it the one
quiet the longest is closed, a :class:`ModuleClosed`), the held table lines, the bombs
of the current round (at most :data:`MAX_BOMBS`, and, unless told otherwise, as many
over the whole log, each with at most :data:`MAX_WIDGETS` widget lines) and, when given
``module_line_limit``, reads at most that many module lines; it keeps no list of past
bombs (their readers keep what they need). Past a bound the rest is counted in
:attr:`LogReader.over`, and :meth:`LogReader.finish` names each count in one problem.
At most :data:`MAX_PROBLEMS` problems are reported.

Only some lines change what the reader knows (a module line, a bomb's, a round's or an
edgework line, read or past a bound); :attr:`LogReader.took_line` says whether the last
line fed was one, so a caller that rebuilds a session (the follower's ``from_state``)
keeps those lines alone.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Final

from defuser.engine import modlog
from edgework import Card, EdgeworkError, Ruleset, SerialNumber, TableLetter, interval_for

#: The line Unity writes first when the game starts: a new session in the same file.
SESSION_START: Final = "Initialize engine version"

_BOMB = re.compile(r"\[BombGenerator\] Generating bomb with seed (?P<seed>\S+)")
_SERIAL = re.compile(r"\[SerialNumber\] Randomizing Serial Number: ?(?P<serial>.*)")
_BATTERY = re.compile(r"\[BatteryWidget\] Randomizing Battery Widget: ?(?P<count>.*)")
_INDICATOR = re.compile(r"\[IndicatorWidget\] Randomizing Indicator Widget: ?(?P<text>.*)")
_PORT = re.compile(r"\[PortWidget\] Randomizing Port Widget: ?(?P<text>.*)")
#: The game entering or leaving a round (its bombs are generated after the first).
_ROUND = re.compile(r"\[State\] (?:Enter GameplayState|OnRoundEnd\(\))")
_MODULE_TAG: Final = "[Exploding Mittens #"
#: Unity writes every message a second time as this trailer; it never carries data.
_UNITY_TRAILER = re.compile(r"\(Filename: .* Line: -?\d+\)")

#: The most digits a module id or a battery count may have (anything longer is garbage).
_MAX_ID_DIGITS: Final = 9

#: What one log may make the reader keep (a real game stays far below each); past a
#: bound the rest is counted and named in one problem, not kept.
MAX_BOMBS: Final = 10_000
MAX_WIDGETS: Final = 100
MAX_PROBLEMS: Final = 1_000
#: The most module instances read at once (a bomb holds at most a few dozen modules).
MAX_OPEN: Final = 1_000


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in the file that could not be read as it should be, with its line."""

    line: int
    message: str


@dataclass(frozen=True, slots=True)
class ModuleLine:
    """One ``[Exploding Mittens #<id>]`` line: its 1-based number and its message."""

    number: int
    message: str


class EdgeFact(enum.StrEnum):
    """A fact of a bomb's edgework that a log may not show and a module's replay or
    advice needs (a front end says how to give it; its value is the option's name)."""

    SERIAL = "serial"
    BATTERIES = "batteries"


@dataclass(slots=True)
class LoggedBomb:
    """One bomb of the log: its edgework as logged (filled in as its lines come).

    ``line`` is the ``[BombGenerator]`` line, ``None`` for a bomb the log shows only by
    its edgework or its modules (an edited log, or a log of module lines only).
    ``modules`` is filled by readers that keep the module instances
    (:func:`defuser.logs.reader.read_log`).
    """

    #: The bomb's place in its session, from 1.
    number: int = 1
    line: int | None = None
    seed: str | None = None
    serial: str | None = None
    holders: list[int] = field(default_factory=list)
    indicators: list[str] = field(default_factory=list)
    ports: list[str] = field(default_factory=list)
    modules: list[ModuleLog] = field(default_factory=list)

    @property
    def batteries(self) -> int | None:
        """The bomb's battery count: the sum over holders, 0 when a generated bomb has
        none, ``None`` when the log never showed this bomb's widgets."""
        if self.holders:
            return sum(self.holders)
        return 0 if self.edgework_known else None

    @property
    def edgework_known(self) -> bool:
        """Whether the log showed this bomb's widgets being made: its generator line, or
        at least its serial number (widgets are logged together)."""
        return self.line is not None or self.serial is not None


@dataclass(slots=True)
class ModuleLog:
    """The lines of one Exploding Mittens module instance, in file order."""

    module_id: int
    lines: list[ModuleLine] = field(default_factory=list)
    #: Indexes (in :attr:`defuser.logs.reader.GameLog.bombs`) of the bombs this instance
    #: may belong to (see :attr:`Instance.choices`), latest last. The instance is listed
    #: under the latest; the checker may pick another.
    bomb_choices: tuple[int, ...] = ()

    @property
    def first_line(self) -> int:
        """The number of the instance's first line (0 when it has none)."""
        return self.lines[0].number if self.lines else 0

    @property
    def last_line(self) -> int:
        """The number of the instance's last line (0 when it has none)."""
        return self.lines[-1].number if self.lines else 0


@dataclass(eq=False, slots=True)
class Instance:
    """One instance of the module: its id, its bomb and the bombs it may belong to.

    Instances compare by identity: the same id may start several in one session.
    """

    module_id: int
    #: The bomb the instance is listed under (the latest of ``choices``).
    bomb: LoggedBomb
    #: The bombs it may belong to: those generated one after another with no module
    #: line between them (a mission with several bombs generates them all before any
    #: module writes), latest last.
    choices: tuple[LoggedBomb, ...]
    #: How many of its lines were read, and whether the first was a table line.
    lines: int = 0
    table_first: bool = False

    @property
    def has_begun(self) -> bool:
        """Whether the instance holds more than a lone table line (a repeated table line
        right at the start is a line of the same game)."""
        return self.lines > 1 or (self.lines == 1 and not self.table_first)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class SessionStarted:
    """The game started again in the same file: everything before is closed."""

    line: int


@dataclass(frozen=True, slots=True)
class BombStarted:
    """A bomb appeared: its generator line, or edgework or module lines without one."""

    bomb: LoggedBomb


class EdgeworkLine(enum.StrEnum):
    """Which edgework line the game wrote: a bomb's serial number, or one of its
    widgets (a battery holder, an indicator, a port plate)."""

    SERIAL = "serial"
    BATTERY = "battery"
    INDICATOR = "indicator"
    PORT = "port"


@dataclass(frozen=True, slots=True)
class EdgeworkRead:
    """An edgework line of ``kind`` was added to ``bomb``."""

    line: int
    bomb: LoggedBomb
    kind: EdgeworkLine


@dataclass(frozen=True, slots=True)
class ModuleStarted:
    """A module instance begins (its first line follows as a :class:`ModuleLineRead`)."""

    instance: Instance


@dataclass(frozen=True, slots=True)
class ModuleLineRead:
    """One line of a module instance, with its message read (``None``: not one the
    module writes)."""

    instance: Instance
    line: ModuleLine
    message: modlog.Message | None


@dataclass(frozen=True, slots=True)
class ModuleClosed:
    """An instance is no longer read: more than :data:`MAX_OPEN` were open at once and
    it had been quiet the longest (a later line of its id starts a new instance)."""

    instance: Instance


@dataclass(frozen=True, slots=True)
class LineProblem:
    """A line that could not be read as it should be."""

    problem: Problem


LogEvent = (
    SessionStarted | BombStarted | EdgeworkRead | ModuleStarted | ModuleLineRead
    | ModuleClosed | LineProblem
)


# --------------------------------------------------------------------------- bombs


class BombAttribution:
    """Which bomb each edgework line and each module instance belongs to.

    The game's order, for every mission layout (the community's Logfile Analyzer reads
    the same facts): a round (``[State] Enter GameplayState``) generates its bombs
    one after another, each ``[BombGenerator]`` line followed by that bomb's widgets
    (battery holders, indicators, port plates), which therefore belong to the latest
    bomb. The serial numbers follow: one bomb alone writes its serial number after its
    widgets, but a mission with several bombs at once (the MultipleBombs mod) writes
    every serial number after the last bomb's widgets, in the order the bombs were
    generated. So a serial number belongs to the round's first bomb still without one,
    whatever the layout. Module lines come after the whole round is generated: a
    module instance may be on any bomb of its round (its ``choices``), and the lines
    alone never say which; it is listed under the latest. A round ends at the next
    round's marker (``Enter GameplayState``, ``OnRoundEnd()``) or at the first module
    line after its bombs (a log without markers: one bomb after another).

    Edited logs still read: edgework without a generator line makes a bomb (a serial
    number when every bomb of the round has one starts the next), and a module line
    before any bomb makes an implicit bomb whose edgework is unknown. This class is
    the one place that decides it.
    """

    def __init__(self, *, bounded: bool = True) -> None:
        """An attribution; ``bounded``: at most :data:`MAX_BOMBS` bombs over the whole
        log (else no such bound, for a follower that keeps no bomb past its round and
        its modules; a round still holds at most that many)."""
        self.bounded = bounded
        #: How many bombs the session has made (their numbers).
        self.count = 0
        #: Bombs made since the caller last took them (:meth:`take_started`).
        self.started: list[LoggedBomb] = []
        #: Every bomb made in the log (all sessions), for the bound.
        self.total = 0
        self.full = False
        #: A generator line past a bound was passed over: its widget lines go with it.
        self._skipping = False
        #: The current round's bombs, in the order they were generated.
        self.round: list[LoggedBomb] = []
        #: How many of the round's bombs have their serial number.
        self._serials = 0
        #: The next generator line starts a new round.
        self._closed = False
        self._choices: tuple[LoggedBomb, ...] | None = None

    def new_session(self) -> None:
        """A new session: the bombs so far are closed."""
        self.count = 0
        self._new_round()
        self._closed = False

    def _new_round(self) -> None:
        self.round, self._serials, self._choices = [], 0, None

    def take_started(self) -> list[LoggedBomb]:
        """The bombs made since the last call."""
        started, self.started = self.started, []
        return started

    def _new_bomb(self, line: int | None = None, seed: str | None = None) -> LoggedBomb:
        if self._closed:
            self._new_round()
            self._closed = False
        self.count += 1
        bomb = LoggedBomb(self.count, line, seed)
        self.round.append(bomb)
        self._choices = None
        self.started.append(bomb)
        self.total += 1
        return bomb

    def generated(self, line: int, seed: str) -> bool:
        """A generator line; false when it is past a bound (not kept): :data:`MAX_BOMBS`
        in the log (when bounded) or in one round."""
        if self.bounded and self.total >= MAX_BOMBS:
            self.full = True
        crowded = not self._closed and len(self.round) >= MAX_BOMBS
        self._skipping = self.full or crowded
        if self._skipping:
            return False
        self._new_bomb(line, seed)
        return True

    def round_marker(self) -> None:
        """The game entered or left a round: the next bomb starts a new one."""
        self._closed = True

    def edgework_bomb(self, kind: EdgeworkLine) -> LoggedBomb | None:
        """The bomb an edgework line of ``kind`` describes; ``None`` past a bound."""
        serial = kind is EdgeworkLine.SERIAL
        if serial and not self._closed and self._serials < len(self.round):
            # The round's first bomb without a serial number (all of them follow the
            # last bomb's widgets in a mission with several bombs at once).
            self._serials += 1
            return self.round[self._serials - 1]
        if self.full or self._skipping:
            # Past the last bomb kept, its own edgework lines are passed over with it.
            return None
        if serial or not self.round:
            # Edgework without a generator line (an edited log) still makes a bomb; a
            # serial number when every bomb of the round has one starts the next.
            bomb = self._new_bomb()
            self._serials = len(self.round) if serial else self._serials
            return bomb
        return self.round[-1]

    def module_line(self) -> None:
        """A module line was read: the round's bombs are all generated."""
        self._closed = True

    def place(self) -> tuple[LoggedBomb, tuple[LoggedBomb, ...]]:
        """The bomb a new module instance is listed under, and the bombs it may be on
        (one tuple shared by every instance of the round)."""
        if not self.round:
            self._new_bomb()
        if self._choices is None:
            self._choices = tuple(self.round)
        return self.round[-1], self._choices


# --------------------------------------------------------------------------- the reader


@dataclass(slots=True)
class _Held:
    """A table line of a running instance, waiting for the id's next line."""

    line: ModuleLine
    message: modlog.Message | None
    bomb: LoggedBomb
    choices: tuple[LoggedBomb, ...]


class LogReader:
    """The incremental reader: one line in, its events out (see the module's contract)."""

    def __init__(
        self, *, module_line_limit: int | None = None, bounded_bombs: bool = True
    ) -> None:
        """A reader; ``module_line_limit`` bounds the module lines read (``None``: no
        bound), and ``bounded_bombs`` the bombs over the whole log: a follower, which
        keeps no line and no bomb past what its open modules need, sets neither."""
        self.module_line_limit = module_line_limit
        self.bombs = BombAttribution(bounded=bounded_bombs)
        self.open: dict[int, Instance] = {}
        self.held: dict[int, _Held] = {}
        #: The last module line or bomb start (0 when there is none).
        self.last_event = 0
        self.kept = 0
        self.problems = 0
        self.over: dict[str, tuple[int, int]] = {}
        #: Whether a line was fed since the reader began or was reset (a session-start
        #: line after one starts a new session).
        self.fed = False
        #: Whether the last line fed was one this reader reads (a module line, a bomb's,
        #: a round's or an edgework line, kept or past a bound): what a session is
        #: rebuilt from, the other lines changing nothing here.
        self.took_line = False

    def reset(self) -> list[LogEvent]:
        """The file started over or the game restarted: close everything open."""
        out = self._release_held()
        self.bombs.new_session()
        self.open.clear()
        self.fed = False
        return out

    def feed(self, number: int, text: str) -> list[LogEvent]:
        """Read line ``number`` (from 1); the events it makes, in order."""
        self.took_line = False
        if text.startswith(SESSION_START) and self.fed:
            out = self.reset()
            self.fed = True
            return [*out, SessionStarted(number)]
        self.fed = True
        if "[" not in text:
            return []
        tag = text.find(_MODULE_TAG)
        if tag >= 0:
            self.took_line = True
            return self._module_line(number, text, tag)
        if _UNITY_TRAILER.search(text):
            return []
        return self._bomb_line(number, text)

    def finish(self) -> list[LogEvent]:
        """The end of the log: held lines go to their running instances, and each count
        past a bound is named in one problem."""
        out = self._release_held()
        for what, (first, count) in self.over.items():
            out.append(LineProblem(Problem(
                first, f"{what}: {count:,}, the first on this line "
                "(a bound on what one log may hold)"
            )))
        self.over = {}
        return out

    def _release_held(self) -> list[LogEvent]:
        # No later line of these ids: each held table line stays in its running instance.
        out: list[LogEvent] = []
        for module_id, held in self.held.items():
            out.append(self._read(self.open[module_id], held.line, held.message))
        self.held.clear()
        return out

    def _problem(self, number: int, message: str) -> list[LogEvent]:
        if self.problems >= MAX_PROBLEMS:
            self._passed_over(number, f"problems past the first {MAX_PROBLEMS:,} not read")
            return []
        self.problems += 1
        return [LineProblem(Problem(number, message))]

    def _bombs_over(self) -> str:
        if self.bombs.full:
            return f"lines of bombs past the first {MAX_BOMBS:,} not read"
        return f"lines of bombs past {MAX_BOMBS:,} in one round not read"

    def _passed_over(self, number: int, what: str) -> None:
        first, count = self.over.get(what, (number, 0))
        self.over[what] = (first, count + 1)

    def _started(self) -> list[LogEvent]:
        return [BombStarted(bomb) for bomb in self.bombs.take_started()]

    def _bomb_line(self, number: int, text: str) -> list[LogEvent]:
        bomb_match = _BOMB.search(text)
        if bomb_match is not None:
            self.took_line = True
            if not self.bombs.generated(number, bomb_match.group("seed")):
                self._passed_over(number, self._bombs_over())
                return []
            self.last_event = number
            return self._started()
        if _ROUND.search(text):
            self.took_line = True
            self.bombs.round_marker()
            return []
        kind, value = _edgework_line(text)
        if kind is None:
            return []
        self.took_line = True
        bomb = self.bombs.edgework_bomb(kind)
        if bomb is None:
            self._passed_over(number, self._bombs_over())
            return []
        out = self._started()
        if len(bomb.holders) + len(bomb.indicators) + len(bomb.ports) >= MAX_WIDGETS:
            self._passed_over(number, f"widget lines past {MAX_WIDGETS} on one bomb not read")
            return out
        problem = _add_edgework(bomb, kind, value)
        if problem:
            return out + self._problem(number, problem)
        return [*out, EdgeworkRead(number, bomb, kind)]

    def _module_line(self, number: int, text: str, tag: int) -> list[LogEvent]:
        match = modlog.LINE_PATTERN.match(text, tag)
        if match is None or len(match.group("id")) > _MAX_ID_DIGITS:
            return self._problem(number, f"could not read the module line {text.strip()[:200]!r}")
        limit = self.module_line_limit
        if limit is not None and self.kept >= limit:
            self._passed_over(number, f"Exploding Mittens lines past the first {limit:,} not read")
            return []
        self.kept += 1
        self.last_event = number
        module_id = int(match.group("id"))
        line = ModuleLine(number, match.group("message").rstrip())
        message = modlog.parse(line.message)
        out: list[LogEvent] = []
        instance = self.open.pop(module_id, None)
        if instance is not None:
            # The most recently active instance last: the first is the one to close.
            self.open[module_id] = instance
        held = self.held.pop(module_id, None)
        if held is not None:
            assert instance is not None
            if isinstance(message, modlog.OpeningDiscardMessage):
                instance = self._start(module_id, held.bomb, held.choices, out)
            out.append(self._read(instance, held.line, held.message))
        self.bombs.module_line()
        if instance is None:
            out += self._make_room(number)
            bomb, choices = self.bombs.place()
            out += self._started()
            instance = self._start(module_id, bomb, choices, out)
        elif instance.has_begun and isinstance(message, modlog.TableMessage):
            bomb, choices = self.bombs.place()
            self.held[module_id] = _Held(line, message, bomb, choices)
            return out
        out.append(self._read(instance, line, message))
        return out

    def _make_room(self, number: int) -> list[LogEvent]:
        """Close the instance quiet the longest when :data:`MAX_OPEN` are open."""
        if len(self.open) < MAX_OPEN:
            return []
        module_id, instance = next(iter(self.open.items()))
        out: list[LogEvent] = []
        held = self.held.pop(module_id, None)
        if held is not None:
            out.append(self._read(instance, held.line, held.message))
        del self.open[module_id]
        self._passed_over(
            number, f"module instances no longer read, more than {MAX_OPEN:,} open at once"
        )
        out.append(ModuleClosed(instance))
        return out

    def _start(
        self, module_id: int, bomb: LoggedBomb, choices: tuple[LoggedBomb, ...],
        out: list[LogEvent],
    ) -> Instance:
        instance = Instance(module_id, bomb, choices)
        self.open[module_id] = instance
        out.append(ModuleStarted(instance))
        return instance

    @staticmethod
    def _read(
        instance: Instance, line: ModuleLine, message: modlog.Message | None
    ) -> ModuleLineRead:
        if instance.lines == 0:
            instance.table_first = isinstance(message, modlog.TableMessage)
        instance.lines += 1
        return ModuleLineRead(instance, line, message)


@dataclass(frozen=True, slots=True)
class SerialRead:
    """A bomb whose serial number was read: its table and last digit (Table E's column),
    and N from its battery count (``None``: the battery count is not known)."""

    table: TableLetter
    digit: int
    interval: int | None


@dataclass(frozen=True, slots=True)
class NoSerial:
    """A bomb whose serial number is not known (never logged, none given); N from its
    battery count (``None``: not known either)."""

    interval: int | None


@dataclass(frozen=True, slots=True)
class SerialUnread:
    """A bomb whose logged serial number cannot be read: the text as logged and the
    battery count (``None``: not known)."""

    serial: str
    batteries: int | None


#: What of a bomb's edgework the module reads: its table, the serial's last digit and N
#: (:class:`SerialRead`, :class:`NoSerial`), or the raw values when the serial number
#: cannot be read (:class:`SerialUnread`). Bombs with equal keys are the same to this
#: module.
EdgeworkKey = SerialRead | NoSerial | SerialUnread


def edgework_key(serial: SerialNumber | str | None, batteries: int | None) -> EdgeworkKey:
    """The :data:`EdgeworkKey` of a serial number (parsed or as logged) and a battery
    count (``None``: not known)."""
    if isinstance(serial, str):
        logged = serial
        try:
            serial = SerialNumber.parse(logged, strict=False)
        except EdgeworkError:
            return SerialUnread(logged, batteries)
    interval = None if batteries is None else interval_for(batteries)
    if serial is None:
        return NoSerial(interval)
    return SerialRead(serial.table, serial.last_digit, interval)


def agrees(key: EdgeworkKey, table: str | None, discard: Card | None, rule: str | None) -> bool:
    """Whether a module's start-up (its table line, opening discard and rule line) can
    come from a bomb of this :data:`EdgeworkKey` (an unknown serial: anything can)."""
    if not isinstance(key, SerialRead):
        return True
    if table is not None and table != key.table:
        return False
    return discard is None or rule is None or Ruleset(key.table, key.digit).rule(discard) == rule


def _edgework_line(text: str) -> tuple[EdgeworkLine | None, str]:
    """Which edgework line ``text`` is and its value."""
    for pattern, kind in (
        (_SERIAL, EdgeworkLine.SERIAL),
        (_BATTERY, EdgeworkLine.BATTERY),
        (_INDICATOR, EdgeworkLine.INDICATOR),
        (_PORT, EdgeworkLine.PORT),
    ):
        match = pattern.search(text)
        if match is not None:
            return kind, match.group(1).strip()
    return None, ""


def _add_edgework(bomb: LoggedBomb, kind: EdgeworkLine, value: str) -> str:
    """Add one edgework line's value to ``bomb``; what is wrong when it cannot be read."""
    if kind is EdgeworkLine.SERIAL:
        bomb.serial = value
    elif kind is EdgeworkLine.BATTERY:
        if value.isascii() and value.isdigit() and len(value) <= _MAX_ID_DIGITS:
            bomb.holders.append(int(value))
        else:
            return f"battery holder {value[:40]!r} is not a battery count, ignored"
    elif kind is EdgeworkLine.INDICATOR:
        bomb.indicators.append(value)
    else:
        bomb.ports.append(value)
    return ""
