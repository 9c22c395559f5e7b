"""``mittens live`` at a terminal: Ctrl-C clears the line and a second one on an empty line
ends the session with its summary; Tab completes verbs, card codes, clicks and slots.

The prompt is driven in this process: the reader is a list of typed lines and Ctrl-Cs,
the readline module a stand-in that records what it was given.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from cli_helpers import run_cli

from defuser.apps.live_words import completions
from defuser.terminal.live_view import CLEARED, TypedLines, install_completion


def _typing(items: list[str | None]) -> Callable[[str], str]:
    """A reader that types ``items`` in turn: ``None`` is a Ctrl-C; then end of input."""
    queue: Iterator[str | None] = iter(items)

    def ask(prompt: str) -> str:
        try:
            item = next(queue)
        except StopIteration:
            raise EOFError from None
        if item is None:
            raise KeyboardInterrupt
        return item

    return ask


def test_ctrl_c_clears_the_line_and_a_second_on_an_empty_line_ends() -> None:
    said: list[str] = []
    buffer = {"text": ""}
    lines = TypedLines(_typing(["drew GS", None, "played 2", None, None]), said.append,
                       pending=lambda: buffer["text"])
    got: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        got.extend(lines)
    assert got == ["drew GS", "played 2"]
    assert said == [CLEARED, CLEARED]


def test_a_second_ctrl_c_with_text_on_the_line_only_clears_it() -> None:
    said: list[str] = []
    # What was on the line at the second and third Ctrl-C (the first always only clears).
    typed = iter(["drew G", ""])
    lines = TypedLines(_typing([None, None, None, "state"]), said.append,
                       pending=lambda: next(typed))
    iterator = iter(lines)
    with pytest.raises(KeyboardInterrupt):
        next(iterator)
    assert said == [CLEARED, CLEARED]  # the second cleared "drew G"; the third ended


def test_the_end_of_input_ends_quietly() -> None:
    assert list(TypedLines(_typing(["state"]), print)) == ["state"]


def test_live_at_a_terminal_keeps_the_module_through_ctrl_c(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("defuser.commands.live.stdin_is_terminal", lambda: True)
    monkeypatch.setattr(builtins, "input",
                        _typing(["start YC YT GT GC", None, "p3", None, None, "state"]))
    run = run_cli(["live", "--serial", "AB3CD4", "--batteries", "3"], monkeypatch)
    assert run.code == 130, run.err
    assert run.out.count(CLEARED) == 2
    assert "play 3 (GC)" in run.out and "discard:" in run.out
    assert "mittens live: 2 line(s) answered; discard GC (rule" in run.err


@pytest.mark.parametrize(
    ("before", "word", "expected"),
    [
        ("", "d", ["drew", "discarded"]),
        ("", "S", ["start", "strike", "solved", "state", "serial"]),
        ("", "tw", ["twitch"]),
        ("drew ", "g", ["GC", "GH", "GS", "GT"]),
        ("d ", "RC", ["RC"]),
        ("start RC BH ", "y", ["YC", "YH", "YS", "YT"]),
        ("strike ", "d", ["draw", "discard"]),
        ("strike play ", "", ["1", "2", "3"]),
        ("played ", "", ["1", "2", "3"]),
        ("drew GS ", "", []),
        ("undo ", "", []),
    ],
)
def test_completions(before: str, word: str, expected: list[str]) -> None:
    assert completions(before, word) == expected


class _Readline:
    """The parts of the readline module that completion uses."""

    __doc__ = "Importing this module enables command line editing using GNU readline."

    def __init__(self, line: str) -> None:
        self.line = line
        self.bound: list[str] = []
        self.completer: Callable[[str, int], str | None] | None = None
        self.delims = ""

    def get_line_buffer(self) -> str:
        return self.line

    def get_begidx(self) -> int:
        return self.line.rfind(" ") + 1

    def set_completer(self, completer: Callable[[str, int], str | None]) -> None:
        self.completer = completer

    def set_completer_delims(self, delims: str) -> None:
        self.delims = delims

    def parse_and_bind(self, text: str) -> None:
        self.bound.append(text)


def _all(readline: _Readline, word: str) -> list[str]:
    assert readline.completer is not None
    found: list[str] = []
    while (item := readline.completer(word, len(found))) is not None:
        found.append(item)
    return found


def test_tab_is_bound_for_gnu_readline_and_libedit() -> None:
    gnu = _Readline("discarded b")
    install_completion(gnu)
    assert gnu.bound == ["tab: complete"] and gnu.delims == " \t"
    assert _all(gnu, "b") == ["BC", "BH", "BS", "BT"]
    libedit: Any = _Readline("str")
    libedit.__doc__ = "Importing this module enables command line editing using libedit readline."
    install_completion(libedit)
    assert libedit.bound == ["bind ^I rl_complete"]
    assert _all(libedit, "str") == ["strike"]


def test_without_readline_the_prompt_still_works(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no readline module: plain lines, and Ctrl-C still only clears."""
    import sys

    monkeypatch.setitem(sys.modules, "readline", None)  # import readline fails
    monkeypatch.setattr("defuser.commands.live.stdin_is_terminal", lambda: True)
    monkeypatch.setattr(builtins, "input", _typing(["start YC YT GT GC", None, "quit"]))
    run = run_cli(["live", "--serial", "AB3CD4", "--batteries", "3"], monkeypatch)
    assert run.code == 0, run.err
    assert CLEARED in run.out and "play 3 (GC)" in run.out
