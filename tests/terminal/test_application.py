"""The application object: one error boundary, one way to end on Ctrl-C."""

from __future__ import annotations

import json

import pytest

from defuser.errors import DefuserError
from defuser.terminal.app import Application
from edgework.errors import FaultError, InputError, MisuseError, MittensError
from hardware.errors import HardwareError


def _exit(app: Application, exc: BaseException) -> int:
    with pytest.raises(SystemExit) as done, app.boundary():
        raise exc
    assert isinstance(done.value.code, int)
    return done.value.code


def test_one_root_three_branches() -> None:
    assert issubclass(DefuserError, InputError) and issubclass(InputError, MittensError)
    assert issubclass(HardwareError, FaultError) and issubclass(FaultError, MittensError)
    assert not issubclass(MisuseError, InputError)


def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit(Application(), DefuserError("hand 'X' is not a hand")) == 2
    assert capsys.readouterr().err == "mittens: error: hand 'X' is not a hand\n"


def test_a_fault_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit(Application(), HardwareError("the prop went away")) == 1
    assert capsys.readouterr().err == "mittens: error: the prop went away\n"


def test_json_is_one_line_whatever_its_strings_hold(capsys: pytest.CaptureFixture[str]) -> None:
    # A drill echoes the answer given: U+2028 and U+2029 end a line for Python's
    # splitlines, so they are written as JSON escapes (the same object).
    obj = {"given": "0\u20280\u2029\n", "kind": "äö"}
    Application().json(obj)
    out = capsys.readouterr().out
    assert out == '{"given": "0\\u20280\\u2029\\n", "kind": "äö"}\n'
    assert len(out.splitlines()) == 1 and json.loads(out) == obj


def test_a_misuse_keeps_its_traceback() -> None:
    with pytest.raises(MisuseError), Application().boundary():
        raise MisuseError("the game is over (solved), expected no more clicks")


def test_ctrl_c_prints_the_summary_then_exits_130(capsys: pytest.CaptureFixture[str]) -> None:
    app = Application()
    with pytest.raises(SystemExit) as done, app.interruptible(lambda: app.note("3 solved")):
        raise KeyboardInterrupt
    assert done.value.code == 130
    assert capsys.readouterr().err == "3 solved\nmittens: interrupted\n"
    assert _exit(app, KeyboardInterrupt()) == 130
    with pytest.raises(SystemExit):
        app.interrupted("; 2 answers saved")
    assert capsys.readouterr().err.endswith("mittens: interrupted; 2 answers saved\n")


@pytest.mark.parametrize("open_prompt", [True, False])
def test_ctrl_c_at_a_terminal_ends_an_open_prompt_line_only(
    open_prompt: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from defuser.terminal import app as app_module

    monkeypatch.setattr(app_module, "stdin_is_terminal", lambda: True)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    app = Application()

    def summary() -> str:
        print("Session (interrupted)")
        return "; 2 answers saved"

    with pytest.raises(SystemExit) as done, app.interruptible(summary, open_prompt=open_prompt):
        raise KeyboardInterrupt
    assert done.value.code == 130
    captured = capsys.readouterr()
    # The summary's detail ends the interrupted line; the prompt's line is ended first
    # only when the command left it open.
    assert captured.out == ("\n" if open_prompt else "") + "Session (interrupted)\n"
    assert captured.err == "mittens: interrupted; 2 answers saved\n"


def test_a_prop_fault_names_the_option_that_helps(capsys: pytest.CaptureFixture[str]) -> None:
    from hardware.errors import NoAnswerError, PortNotFoundError, Setting

    slow = NoAnswerError("no answer from 'x' in 2 s", setting=Setting.REPLY_TIMEOUT)
    assert _exit(Application(), slow) == 1
    assert capsys.readouterr().err == (
        "mittens: error: no answer from 'x' in 2 s (a slow prop works better with a longer "
        "--timeout)\n"
    )
    assert _exit(Application(), PortNotFoundError("no prop found")) == 1
    assert capsys.readouterr().err == (
        "mittens: error: no prop found: plug the prop in, or give --port (see mittens prop "
        "--list)\n"
    )
