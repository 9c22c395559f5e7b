"""Read a whole KTaNE game log and sort out its bombs and Exploding Mittens modules.

Contract: :func:`read_log` takes the log's raw bytes (or an iterable of byte chunks,
read as a stream) and never fails. It reads in one pass, in time linear in the file's
size, keeping only the lines it needs, and never more than the bounds
:data:`MAX_MODULE_LINES`, :data:`MAX_BOMBS`, :data:`MAX_WIDGETS` and
:data:`MAX_PROBLEMS`: what lies past one is counted in one :class:`Problem`, so any file
is read in bounded memory. Bytes that are not UTF-8 are replaced; a UTF-16 log (with or
without a byte-order mark, as some Windows tools save it) is decoded as such; Windows,
Unix and old Mac line ends are all accepted; lines are numbered from 1 as an editor
numbers them; a line longer than :data:`MAX_LINE_CHARS` is cut; control characters
become U+FFFD, so no text from a log can drive the terminal it is shown on. The reader
keeps only what the log checker needs:

- ``[BombGenerator] Generating bomb with seed <n>`` starts a bomb; the edgework lines
  that follow (``[SerialNumber]``, ``[BatteryWidget]`` once per holder,
  ``[IndicatorWidget]``, ``[PortWidget]``) belong to it.
- ``[Exploding Mittens #<id>] <message>`` lines are this module's; each module instance
  belongs to the bomb being generated when its first line appears. Ids count modules
  across the whole session, and a ``You should use Table`` line that is followed by the
  opening discard starts a new instance (a log may hold several sessions).
- Everything else (Unity's blank and ``(Filename: ... Line: N)`` lines, other modules,
  ``[Bomb]`` strikes) is skipped.

A log that holds only this module's lines (as the module's own log viewer shows them)
gives one implicit bomb whose edgework is unknown. A bomb whose generator line or serial
number is in the log but that logged no battery holder has 0 batteries. Edgework lines
without a generator line (an edited log) still make a bomb, and a second serial number
starts the next one.
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import Final

from defuser.engine import modlog
from defuser.streams import printable
from edgework import Edgework

_BOMB = re.compile(r"\[BombGenerator\] Generating bomb with seed (?P<seed>\S+)")
_SERIAL = re.compile(r"\[SerialNumber\] Randomizing Serial Number: ?(?P<serial>.*)")
_BATTERY = re.compile(r"\[BatteryWidget\] Randomizing Battery Widget: ?(?P<count>.*)")
_INDICATOR = re.compile(r"\[IndicatorWidget\] Randomizing Indicator Widget: ?(?P<text>.*)")
_PORT = re.compile(r"\[PortWidget\] Randomizing Port Widget: ?(?P<text>.*)")
_MODULE_TAG: Final = "[Exploding Mittens #"

#: The longest line kept whole (characters); Unity's lines are far shorter.
MAX_LINE_CHARS: Final = 64 * 1024
#: The most digits a module id or a battery count may have (anything longer is garbage).
_MAX_ID_DIGITS: Final = 9

#: What one log may make the reader keep, so that any file is read in bounded memory.
#: A real game stays far below each (a module logs a few hundred lines, a bomb a few
#: widgets); past a bound the rest is counted and named in one problem, not kept.
MAX_MODULE_LINES: Final = 100_000
MAX_BOMBS: Final = 10_000
MAX_WIDGETS: Final = 100
MAX_PROBLEMS: Final = 1_000

#: Unity writes every message a second time as this trailer; it never carries data.
_UNITY_TRAILER = re.compile(r"\(Filename: .* Line: -?\d+\)")


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


@dataclass(slots=True)
class ModuleLog:
    """The lines of one Exploding Mittens module instance, in file order."""

    module_id: int
    lines: list[ModuleLine] = field(default_factory=list)
    #: Indexes (in :attr:`GameLog.bombs`) of the bombs this instance may belong to: the
    #: bombs generated one after another with no module line between them (a mission
    #: with several bombs generates them all before any module writes), latest last.
    #: The instance is listed under the latest; the checker may pick another.
    bomb_choices: tuple[int, ...] = ()

    @property
    def first_line(self) -> int:
        """The number of the instance's first line (0 when it has none)."""
        return self.lines[0].number if self.lines else 0

    @property
    def last_line(self) -> int:
        """The number of the instance's last line (0 when it has none)."""
        return self.lines[-1].number if self.lines else 0


@dataclass(slots=True)
class LoggedBomb:
    """One bomb of the session: its edgework as logged and its mittens modules.

    ``line`` is the ``[BombGenerator]`` line, ``None`` for the implicit bomb of a log
    that starts with module lines.
    """

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
class GameLog:
    """Everything :func:`read_log` found in one file."""

    bombs: list[LoggedBomb]
    problems: list[Problem]
    line_count: int
    #: The last line that was a module line or a bomb start (0 when there is none): a
    #: module whose last action is cut short before this line was not cut by truncation.
    last_event_line: int

    @property
    def modules(self) -> list[ModuleLog]:
        """Every module instance in file order of their first lines."""
        found = [m for b in self.bombs for m in b.modules]
        return sorted(found, key=lambda m: m.first_line)


def _encoding(head: bytes) -> tuple[str, int]:
    """The file's encoding from its first bytes, and how many bytes of mark to skip.

    UTF-16 is recognised by its shape (text of the ASCII range has a zero in every
    other byte), after a byte-order mark or without one; anything else is UTF-8.
    """
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8", 3
    skip = 2 if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) else 0
    sample = head[skip : skip + 4096]
    if len(sample) >= 4:
        even, odd = sample[0::2], sample[1::2]
        if odd.count(0) > 0.9 * len(odd) and even.count(0) < 0.1 * len(even):
            return "utf-16-le", skip
        if even.count(0) > 0.9 * len(even) and odd.count(0) < 0.1 * len(odd):
            return "utf-16-be", skip
    return "utf-8", 0


def iter_lines(chunks: Iterable[bytes]) -> Iterator[str]:
    """The lines of a file given as byte chunks, decoded and cleaned (see the contract).

    Lines are split at ``\\n`` (``\\r\\n`` counts once); a file whose first chunk has
    a ``\\r`` but no ``\\n`` is split at ``\\r``.
    """
    decoder: codecs.IncrementalDecoder | None = None
    separator = ""
    pending = ""
    cut = False
    for chunk in chunks:
        if decoder is None:
            encoding, skip = _encoding(chunk)
            decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
            chunk = chunk[skip:]
        text = decoder.decode(chunk)
        if not separator:
            if "\n" in text:
                separator = "\n"
            elif "\r" in text:
                separator = "\r"
            else:
                pending, cut = _grow(pending, text, cut)
                continue
        parts = text.split(separator)
        for part in parts[:-1]:
            line, _ = _grow(pending, part, cut)
            yield _clean(line)
            pending, cut = "", False
        pending, cut = _grow(pending, parts[-1], cut)
    if decoder is not None:
        pending, cut = _grow(pending, decoder.decode(b"", final=True), cut)
    if pending:
        yield _clean(pending)


def _grow(pending: str, more: str, cut: bool) -> tuple[str, bool]:
    """Add ``more`` to the line being read, keeping at most :data:`MAX_LINE_CHARS`."""
    if cut:
        return pending, True
    line = pending + more
    if len(line) > MAX_LINE_CHARS:
        return line[:MAX_LINE_CHARS], True
    return line, False


def _clean(line: str) -> str:
    """A line without its ``\\r`` end and with control characters made harmless."""
    return printable(line.removesuffix("\r"))


@dataclass(slots=True)
class _Pending:
    """A ``You should use Table`` line of a running instance, waiting for the next line
    of the same id to tell whether it starts a new instance (the opening discard follows)
    or belongs to the running one."""

    line: ModuleLine
    bomb: LoggedBomb
    choices: tuple[int, ...]


def read_log(data: bytes | Iterable[bytes]) -> GameLog:
    """Read a game log (its bytes, or byte chunks) into bombs and module instances; never
    raises."""
    chunks: Iterable[bytes] = [data] if isinstance(data, bytes | bytearray) else data
    reader = _LogReader()
    for number, text in enumerate(iter_lines(chunks), start=1):
        reader.line(number, text)
    return reader.finish()


class _LogReader:
    """The state of :func:`read_log` between lines."""

    def __init__(self) -> None:
        self.bombs: list[LoggedBomb] = []
        self.problems: list[Problem] = []
        self.current: LoggedBomb | None = None
        #: module id -> its instance that is still receiving lines.
        self.open_modules: dict[int, ModuleLog] = {}
        #: module id -> a table line whose instance is decided by the id's next line.
        self.waiting: dict[int, _Pending] = {}
        self.last_event = 0
        self.count = 0
        # The bombs from group_start on were generated with no module line between them.
        self.group_start = 0
        self.modules_since_bomb = False
        #: Module lines kept so far, and what was passed over past the bounds.
        self.kept = 0
        self.bombs_full = False
        self.over: dict[str, tuple[int, int]] = {}

    def line(self, number: int, text: str) -> None:
        """Read one line of the log."""
        self.count = number
        if "[" not in text:
            return
        tag = text.find(_MODULE_TAG)
        if tag >= 0:
            self._module_line(number, text, tag)
            return
        if _UNITY_TRAILER.search(text):
            return
        bomb_match = _BOMB.search(text)
        if bomb_match is not None and len(self.bombs) >= MAX_BOMBS:
            self.bombs_full = True
        if self.bombs_full and (bomb_match is not None or _edgework_line(text)[0] is not None):
            # Past the last bomb kept, its own edgework lines are passed over with it.
            self._passed_over(number, f"lines of bombs past the first {MAX_BOMBS:,}")
            return
        if bomb_match is not None:
            self.current = LoggedBomb(line=number, seed=bomb_match.group("seed"))
            self._add_bomb(self.current)
            self.last_event = number
            return
        kind, value = _edgework_line(text)
        if kind is None:
            return
        if self.current is None or (kind == "serial" and self.current.serial is not None):
            # Edgework without a generator line (an edited log): it still describes a
            # bomb; a second serial number can only belong to the next one.
            self.current = LoggedBomb()
            self._add_bomb(self.current)
        if len(self.current.holders) + len(self.current.indicators) + len(
            self.current.ports
        ) >= MAX_WIDGETS:
            self._passed_over(number, f"widget lines past {MAX_WIDGETS} on one bomb")
            return
        problem = _add_edgework(self.current, kind, value, number)
        if problem is not None:
            self.problem(problem)

    def problem(self, problem: Problem) -> None:
        """Note a problem (past :data:`MAX_PROBLEMS`, only counted)."""
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        else:
            self._passed_over(problem.line, f"problems past the first {MAX_PROBLEMS:,}")

    def _passed_over(self, number: int, what: str) -> None:
        first, count = self.over.get(what, (number, 0))
        self.over[what] = (first, count + 1)

    def _add_bomb(self, bomb: LoggedBomb) -> None:
        self.bombs.append(bomb)
        if self.modules_since_bomb:
            self.group_start, self.modules_since_bomb = len(self.bombs) - 1, False

    def _choices(self) -> tuple[int, ...]:
        return tuple(range(self.group_start, len(self.bombs)))

    def _module_line(self, number: int, text: str, tag: int) -> None:
        match = modlog.LINE_PATTERN.match(text, tag)
        if match is None or len(match.group("id")) > _MAX_ID_DIGITS:
            shown = text.strip()[:200]
            self.problem(Problem(number, f"could not read the module line {shown!r}"))
            return
        if self.kept >= MAX_MODULE_LINES:
            self._passed_over(
                number, f"Exploding Mittens lines past the first {MAX_MODULE_LINES:,}"
            )
            return
        self.kept += 1
        module_id = int(match.group("id"))
        message = match.group("message").rstrip()
        self.last_event = number
        instance = self.open_modules.get(module_id)
        held = self.waiting.pop(module_id, None)
        if held is not None:
            assert instance is not None
            if _OPENING.fullmatch(message) is not None:
                instance = ModuleLog(module_id, bomb_choices=held.choices)
                held.bomb.modules.append(instance)
                self.open_modules[module_id] = instance
            instance.lines.append(held.line)
        self.modules_since_bomb = True
        if instance is None:
            if self.current is None:
                self.current = LoggedBomb()
                self.bombs.append(self.current)
                self.group_start = len(self.bombs) - 1
            instance = ModuleLog(module_id, bomb_choices=self._choices())
            self.current.modules.append(instance)
            self.open_modules[module_id] = instance
        elif _has_begun(instance) and _TABLE.fullmatch(message) is not None:
            if self.current is None:  # pragma: no cover - an instance implies a bomb
                self.current = LoggedBomb()
                self.bombs.append(self.current)
            self.waiting[module_id] = _Pending(
                ModuleLine(number, message), self.current, self._choices()
            )
            return
        instance.lines.append(ModuleLine(number, message))

    def finish(self) -> GameLog:
        """The log read so far."""
        for module_id, held in self.waiting.items():
            # No later line of this id: the table line stays in the running instance.
            self.open_modules[module_id].lines.append(held.line)
        for bomb in self.bombs:
            bomb.modules.sort(key=lambda m: m.first_line)
        for what, (first, count) in self.over.items():
            self.problems.append(
                Problem(first, f"{what} not read: {count:,}, the first on this line "
                        "(a bound on what one log may hold)")
            )
        return GameLog(self.bombs, self.problems, self.count, self.last_event)


_TABLE: Final = modlog.MESSAGE_PATTERNS["table"]
_OPENING: Final = modlog.MESSAGE_PATTERNS["initial_discard"]


def _has_begun(instance: ModuleLog) -> bool:
    """Whether the instance holds more than a lone table line (a repeated table line
    right at the start is a line of the same game, checked as such)."""
    if not instance.lines:
        return False
    if len(instance.lines) > 1:
        return True
    return modlog.MESSAGE_PATTERNS["table"].fullmatch(instance.lines[0].message) is None


def _edgework_line(text: str) -> tuple[str | None, str]:
    """Which edgework line ``text`` is (serial, battery, indicator, port) and its value."""
    for pattern, kind in (
        (_SERIAL, "serial"),
        (_BATTERY, "battery"),
        (_INDICATOR, "indicator"),
        (_PORT, "port"),
    ):
        match = pattern.search(text)
        if match is not None:
            return kind, match.group(1).strip()
    return None, ""


def game_line(text: str) -> tuple[str | None, str]:
    """Which bomb line ``text`` is: ``("bomb", seed)`` for the generator's line,
    ``(kind, value)`` for an edgework line (as :func:`read_log` reads them), else
    ``(None, "")``. For readers that take a log one line at a time."""
    match = _BOMB.search(text)
    if match is not None:
        return "bomb", match.group("seed")
    return _edgework_line(text)


def bomb_lines(seed: int | str, edge: Edgework) -> list[str]:
    """The lines the game writes when it generates a bomb with this edgework, in its
    order: the generator line, one battery widget per holder (AA holders first), the
    indicators, the port plates, the serial number. :func:`read_log` reads them back.

    A battery count without holders is laid out as AA holders plus one D holder for an
    odd count (the count is what the log's readers use).
    """
    lines = [f"[BombGenerator] Generating bomb with seed {seed}"]
    batteries = edge.batteries
    if batteries is not None:
        aa, d = batteries.aa_holders, batteries.d_holders
        if aa is None or d is None:
            aa, d = divmod(batteries.count, 2)
        for holder in [2] * aa + [1] * d:
            lines.append(f"[BatteryWidget] Randomizing Battery Widget: {holder}")
    for indicator in edge.indicators:
        state = "lit" if indicator.lit else "unlit"
        lines.append(f"[IndicatorWidget] Randomizing Indicator Widget: {state} {indicator.label}")
    for plate in edge.port_plates:
        lines.append(f"[PortWidget] Randomizing Port Widget: {', '.join(plate.ports)}")
    if edge.serial is not None:
        lines.append(f"[SerialNumber] Randomizing Serial Number: {edge.serial}")
    return lines


def _add_edgework(bomb: LoggedBomb, kind: str, value: str, number: int) -> Problem | None:
    """Add one edgework line's value to ``bomb``; the problem when it cannot be read."""
    if kind == "serial":
        bomb.serial = value
    elif kind == "battery":
        if value.isascii() and value.isdigit() and len(value) <= _MAX_ID_DIGITS:
            bomb.holders.append(int(value))
        else:
            return Problem(
                number, f"battery holder {value[:40]!r} is not a battery count, ignored"
            )
    elif kind == "indicator":
        bomb.indicators.append(value)
    else:
        bomb.ports.append(value)
    return None


def default_log_path(platform: str | None = None, env: dict[str, str] | None = None) -> PurePath:
    """Where KTaNE writes its log on this operating system (or on ``platform``).

    Windows: ``%APPDATA%\\..\\LocalLow\\Steel Crate Games\\Keep Talking and Nobody
    Explodes\\output_log.txt``; macOS: ``~/Library/Logs/Unity/Player.log``; Linux and
    others: ``~/.config/unity3d/Steel Crate Games/Keep Talking and Nobody
    Explodes/Player.log``. ``env`` stands in for the environment (tests).
    """
    system = platform if platform is not None else sys.platform
    environ = env if env is not None else dict(os.environ)
    game = "Keep Talking and Nobody Explodes"
    if system.startswith("win"):
        appdata = environ.get("APPDATA") or str(PureWindowsPath(Path.home(), "AppData", "Roaming"))
        return PureWindowsPath(
            appdata, "..", "LocalLow", "Steel Crate Games", game, "output_log.txt"
        )
    home = PurePosixPath(environ.get("HOME") or str(Path.home()))
    if system == "darwin":
        return home / "Library" / "Logs" / "Unity" / "Player.log"
    return home / ".config" / "unity3d" / "Steel Crate Games" / game / "Player.log"
