"""No home directory (``HOME`` unset, a uid with no password entry): the cache is
skipped, the stats database asks for a place, and no command shows a traceback.

The commands run as real processes started without a home (this one found its home long
ago, and its cache with it); the library's own answers are checked here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run_process

from defuser.strategy import cache
from defuser.strategy.cache import DiskCache
from defuser.strategy.solutions import SolutionStore
from edgework import Ruleset, TableLetter

#: Runs ``mittens`` as a user the system does not know: ``pwd`` has no entry for it.
_UNKNOWN_USER = """
import pwd, runpy, sys
def _unknown(uid):
    raise KeyError(f"getpwuid(): uid not found: {uid}")
pwd.getpwuid = _unknown
sys.argv[0] = "mittens"
runpy.run_module("defuser", run_name="__main__", alter_sys=True)
"""

LOG = """\
00:00:01.000 [BombGenerator] Generating bomb with seed 1
00:00:01.100 [BombGenerator] Generator settings: Time: 300, NumStrikes: 3
00:00:02.000 [Exploding Mittens #1] You should use Table A.
"""


@pytest.mark.parametrize(
    ("args", "stdin", "code"),
    [
        (["live", "--json", "--serial", "AE5BX4", "--batteries", "3", "--lenient-serial"],
         "start GT BH YS GH\n", 0),
        (["log", "analyze", "game.log"], "", 0),
        (["stats"], "", 2),
        (["drill", "--mode", "table", "--count", "1", "--seed", "1"], "A\n", 2),
    ],
    ids=["live", "log", "stats", "drill"],
)
def test_commands_work_or_say_why_without_a_home(
    tmp_path: Path, args: list[str], stdin: str, code: int
) -> None:
    (tmp_path / "game.log").write_text(LOG, encoding="utf-8")
    no_home = {"HOME": None, "XDG_CACHE_HOME": None, "XDG_DATA_HOME": None}
    run = run_process(args, stdin.encode(), env=no_home, cwd=tmp_path, script=_UNKNOWN_USER).text
    assert "Traceback" not in run.err, run.err
    assert run.code == code, run.err
    if code:
        assert len(run.err.strip().splitlines()) == 1
        assert "home directory" in run.err
    else:
        assert run.out.strip()


def test_the_cache_is_skipped_without_a_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("HOME", raising=False)

    def unknown(uid: int) -> object:
        raise KeyError(uid)

    monkeypatch.setattr("pwd.getpwuid", unknown)
    assert cache.default_directory() is None
    assert cache.default_cache().write_json("x.json", {"a": 1}) is False
    assert cache.default_cache().read_json("x.json") is None
    store = SolutionStore(cache.default_cache(), shipped=False)
    assert store.solution(Ruleset(TableLetter.B, 7), 9).cycle_value  # solved, not saved
    assert DiskCache(None).write_json("x.json", 1) is False
