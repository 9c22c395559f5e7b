"""A simulated prop behind a real pseudo-terminal, driven from a terminal.

:class:`PtyTwin` puts a :class:`~hardware.propsim.twin.PropSim` behind a pty (with an
optional stable symlink) and pumps bytes both ways; :func:`serve` runs one, reading
presses and faults as words on stdin (see :data:`PTY_HELP`), and echoes on stderr each
press typed and, once the host's commands for it have arrived, what the display shows
after every change (:meth:`PtyTwin.news`).
"""

from __future__ import annotations

import os
import select
import sys

from hardware.propsim.script import BUTTON_WORDS
from hardware.propsim.twin import PropSim

PTY_HELP = """\
Type a line and Enter: deck, pile, 1, 2, 3 (press a button), reset, corrupt, drop,
garbage (faults), unplug (the pty goes away; plug brings a new one), show, quit."""


class PtyTwin:
    """A :class:`PropSim` behind a real pseudo-terminal, with an optional stable symlink."""

    def __init__(self, sim: PropSim, link: str | None = None) -> None:
        self.sim = sim
        self.link = link
        self.master = -1
        self.slave = -1
        self.path = ""
        #: The display and the number of sounds last echoed (see :meth:`news`).
        self._echoed = (sim.display.render(), len(sim.display.sounds))

    def plug(self) -> str:
        """Create a new pty (a new device name) and point the symlink at it."""
        import tty

        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        if self.link:
            tmp = f"{self.link}.tmp"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self.path, tmp)
            os.replace(tmp, self.link)
        self.sim.plug()
        return self.path

    def unplug(self) -> None:
        """Close the pty: the host's reads fail, as when a cable is pulled."""
        self.sim.unplug()
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1

    def news(self) -> list[str]:
        """What changed on the display since the last call, as lines to echo: each new
        sound, then the whole display when it looks different."""
        display = self.sim.display
        shown, heard = self._echoed
        lines = [f"sound {cue.value}" for cue in display.sounds[heard:]]
        now = display.render()
        if now != shown:
            lines.append(f"display: {now}")
        self._echoed = (now, len(display.sounds))
        return lines

    def pump(self, data: bytes | None = None) -> None:
        """Feed bytes from the host (if any) and write out what the prop sends."""
        if data:
            self.sim.receive(data)
        out = self.sim.take_output()
        if out and self.master >= 0:
            os.write(self.master, out)


def serve(twin: PtyTwin, *, read_stdin: bool = True) -> int:
    """Serve ``twin`` until ``quit`` (or end of input with ``read_stdin`` False: forever):
    pump the pty and act on the words typed on stdin."""
    stdin_open = read_stdin
    while True:
        watched = [twin.master] if twin.master >= 0 else []
        if stdin_open:
            watched.append(sys.stdin.fileno())
        readable, _, _ = select.select(watched, [], [], 0.2)
        if twin.master >= 0 and twin.master in readable:
            try:
                data = os.read(twin.master, 4096)
            except OSError:
                data = b""
            twin.pump(data)
        if stdin_open and sys.stdin.fileno() in readable:
            line = sys.stdin.readline()
            if not line:
                stdin_open = False
                continue
            word = line.strip().lower()
            if word in ("quit", "exit"):
                return 0
            if word:
                typed(twin, word)
        twin.pump()
        if not readable:
            # A quiet moment: the host has finished the burst of commands a press brings,
            # so the display is echoed once per change, not once per command.
            for line in twin.news():
                print(line, file=sys.stderr, flush=True)


def typed(twin: PtyTwin, word: str) -> None:
    """Act on one word typed at the pty runner (see :data:`PTY_HELP`)."""
    sim = twin.sim
    if word == "unplug":
        twin.unplug()
        print("unplugged; type plug to come back on a new pty", file=sys.stderr)
    elif word == "plug":
        print(twin.plug(), flush=True)
    elif word == "show":
        print(sim.display.render(), file=sys.stderr, flush=True)
    elif word in BUTTON_WORDS:
        press = sim.press(BUTTON_WORDS[word])
        print(f"pressed {press.button.value} (event {press.seq})", file=sys.stderr, flush=True)
    elif word == "reset":
        sim.restart()
    elif word == "corrupt":
        sim.corrupt_next()
    elif word == "drop":
        sim.drop_next()
    elif word == "garbage":
        sim.send_garbage()
    else:
        print(f"unknown input {word!r}\n{PTY_HELP}", file=sys.stderr, flush=True)
