"""Read a whole KTaNE game log into its bombs and Exploding Mittens module instances.

Contract: :func:`read_log` takes the log's raw bytes (or an iterable of byte chunks,
read as a stream) and never fails. It decodes the lines (:func:`iter_lines`), feeds
them to the one incremental reader (:class:`defuser.logs.stream.LogReader`, which says
what each line means and which bomb it belongs to) and keeps what its events describe:
the bombs in file order (over every session of the file), each with its module
instances and their lines. It reads in one pass, in time linear in the file's size,
keeping only the lines it needs, and never more than :data:`MAX_MODULE_LINES` module
lines and the reader's own bounds: what lies past one is counted in one
:class:`~defuser.logs.stream.Problem`, so any file is read in bounded memory. Bytes that
are not UTF-8 are replaced; a UTF-16 log (with or without a byte-order mark, as some
Windows tools save it) is decoded as such; Windows, Unix and old Mac line ends are all
accepted; lines are numbered from 1 as an editor numbers them; a line longer than
:data:`MAX_LINE_CHARS` is cut; control characters become U+FFFD, so no text from a log
can drive the terminal it is shown on.

A log that holds only this module's lines (as the module's own log viewer shows them)
gives one implicit bomb whose edgework is unknown. A bomb whose generator line or serial
number is in the log but that logged no battery holder has 0 batteries.
"""

from __future__ import annotations

import codecs
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import Final

from defuser.logs.stream import (
    BombStarted,
    Instance,
    LineProblem,
    LogEvent,
    LoggedBomb,
    LogReader,
    ModuleLineRead,
    ModuleLog,
    ModuleStarted,
    Problem,
)
from defuser.streams import printable
from edgework import Edgework

#: The longest line kept whole (characters); Unity's lines are far shorter.
MAX_LINE_CHARS: Final = 64 * 1024

#: The most module lines one log may make the reader keep. A real game stays far below
#: (a module logs a few hundred lines); past it the rest is counted in one problem.
MAX_MODULE_LINES: Final = 100_000


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


def read_log(data: bytes | Iterable[bytes]) -> GameLog:
    """Read a game log (its bytes, or byte chunks) into bombs and module instances; never
    raises."""
    chunks: Iterable[bytes] = [data] if isinstance(data, bytes | bytearray) else data
    collector = _Collector()
    count = 0
    for count, text in enumerate(iter_lines(chunks), start=1):
        collector.take(collector.reader.feed(count, text))
    collector.take(collector.reader.finish())
    for bomb in collector.bombs:
        bomb.modules.sort(key=lambda m: m.first_line)
    return GameLog(collector.bombs, collector.problems, count, collector.reader.last_event)


class _Collector:
    """Keeps what the reader's events describe: bombs, instances and their lines."""

    def __init__(self) -> None:
        self.reader = LogReader(module_line_limit=MAX_MODULE_LINES)
        self.bombs: list[LoggedBomb] = []
        self.problems: list[Problem] = []
        #: id(bomb) -> its index in :attr:`bombs` (a bomb is kept as long as the log).
        self.index: dict[int, int] = {}
        self.logs: dict[Instance, ModuleLog] = {}
        #: The bombs of the latest mission as indexes (shared by its instances).
        self._choices: tuple[tuple[LoggedBomb, ...], tuple[int, ...]] | None = None

    def take(self, events: list[LogEvent]) -> None:
        """Keep what ``events`` describe."""
        for event in events:
            if isinstance(event, BombStarted):
                self.index[id(event.bomb)] = len(self.bombs)
                self.bombs.append(event.bomb)
            elif isinstance(event, ModuleStarted):
                instance = event.instance
                log = ModuleLog(instance.module_id, bomb_choices=self._indexes(instance))
                instance.bomb.modules.append(log)
                self.logs[instance] = log
            elif isinstance(event, ModuleLineRead):
                self.logs[event.instance].lines.append(event.line)
            elif isinstance(event, LineProblem):
                self.problems.append(event.problem)


    def _indexes(self, instance: Instance) -> tuple[int, ...]:
        """The indexes of an instance's bombs: one tuple for every instance of a mission
        (a mission of many bombs and many modules stays linear)."""
        if self._choices is None or self._choices[0] is not instance.choices:
            choices = instance.choices
            self._choices = (choices, tuple(self.index[id(b)] for b in choices))
        return self._choices[1]


def bomb_lines(seed: int | str, edge: Edgework) -> list[str]:
    """The lines the game writes when it generates a bomb with this edgework, in its
    order: the generator line, one battery widget per holder (AA holders first), the
    indicators, the port plates, the serial number. :class:`LogReader` reads them back.

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
