"""Where the stats database and the cache go on each system (defuser.paths).

platformdirs is asked as it would answer on Windows, macOS and Linux: the system is
passed in, the environment (HOME, LOCALAPPDATA's override, XDG_*) is patched, and the
home is a temporary folder, so nothing is written to the real home (nothing is created at
all: the functions only choose).
"""

from __future__ import annotations

from pathlib import Path, PureWindowsPath

import pytest

from defuser import paths
from defuser.strategy import cache
from defuser.trainer.location import default_db_path

LOCAL_APPDATA = "C:\\Users\\ann\\AppData\\Local"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home with no XDG variables, and Windows' local app-data folder named."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("WIN_PD_OVERRIDE_LOCAL_APPDATA", LOCAL_APPDATA)
    return tmp_path


@pytest.mark.parametrize(
    ("system", "data", "cached"),
    [
        ("win32", f"{LOCAL_APPDATA}\\exploding-mittens",
         f"{LOCAL_APPDATA}\\exploding-mittens\\Cache"),
        ("darwin", "Library/Application Support/exploding-mittens",
         "Library/Caches/exploding-mittens"),
        ("linux", ".local/share/exploding-mittens", ".cache/exploding-mittens"),
    ],
)
def test_each_system_gets_its_own_place(home: Path, system: str, data: str, cached: str) -> None:
    # Windows' folders are compared as Windows paths (platformdirs joins with this
    # system's separator when it runs elsewhere).
    same = (lambda p: PureWindowsPath(str(p))) if system == "win32" else (lambda p: p)
    expect_data = PureWindowsPath(data) if system == "win32" else home / data
    expect_cache = PureWindowsPath(cached) if system == "win32" else home / cached
    assert same(paths.data_dir(system)) == expect_data
    assert same(default_db_path(system)) == expect_data / "stats.sqlite3"
    assert same(paths.cache_dir(system)) == expect_cache
    assert not any(home.iterdir())  # nothing created


@pytest.mark.parametrize("system", ["win32", "darwin", "linux"])
def test_an_existing_database_in_the_old_place_is_kept(home: Path, system: str) -> None:
    old = home / ".local" / "share" / "exploding-mittens"
    old.mkdir(parents=True)
    assert paths.data_dir(system) != old or system == "linux"  # an empty folder is no data
    (old / "stats.sqlite3").write_bytes(b"")
    assert default_db_path(system) == old / "stats.sqlite3"


@pytest.mark.parametrize("system", ["win32", "darwin", "linux"])
def test_an_existing_cache_in_the_old_place_is_kept(home: Path, system: str) -> None:
    old = home / ".cache" / "exploding-mittens"
    old.mkdir(parents=True)
    assert paths.cache_dir(system) == old


@pytest.mark.parametrize("system", ["win32", "darwin", "linux"])
def test_xdg_variables_win_on_every_system(
    home: Path, system: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "d"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "c"))
    assert default_db_path(system) == home / "d" / "exploding-mittens" / "stats.sqlite3"
    assert paths.cache_dir(system) == home / "c" / "exploding-mittens"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")  # XDG wants an absolute path
    assert paths.data_dir(system) != Path("relative/dir/exploding-mittens")


def test_the_user_cache_follows_the_environment(home: Path) -> None:
    assert cache.default_cache().directory == paths.cache_dir()
    (home / ".cache" / "exploding-mittens").mkdir(parents=True)
    assert cache.default_directory() == home / ".cache" / "exploding-mittens"


def test_windows_without_its_folder_has_no_place(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WIN_PD_OVERRIDE_LOCAL_APPDATA", "not\\absolute")
    monkeypatch.setattr("platformdirs.windows._RESOLVE_WIN_FOLDER", lambda name: "")
    assert paths.data_dir("win32") is None
    assert paths.cache_dir("win32") is None
