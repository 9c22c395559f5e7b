"""Libraries never name a command-line option: their errors and notes carry data, and
the front ends (``defuser/commands``, ``defuser/terminal``, ``defuser/web``,
``defuser/cli.py``, and the maintainers' ``defuser/devtools``) word the options that help.
Library code is ``edgework/``, ``defuser/`` outside the command line, and ``hardware/``
outside the firmware.

Scans every string literal of the library code (docstrings aside) for ``--option``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from cli_helpers import run_cli_bytes
from source_helpers import docstring_ids, tree_of

ROOT = Path(__file__).resolve().parents[2]
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")

#: Modules that are command lines of their own, or drive one.
OWN_COMMAND_LINES = {
    # Starts ``mittens live --json`` processes and times them from the outside.
    "defuser/apps/benchmark_live.py",
    # ``python -m hardware.propsim --pty``: the simulated prop; its own argparse command line.
    "hardware/propsim/__main__.py",
}


def _library_files() -> list[Path]:
    files = sorted((ROOT / "edgework").rglob("*.py"))
    for path in sorted((ROOT / "defuser").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        front_end = rel.startswith(
            ("defuser/commands/", "defuser/terminal/", "defuser/web/", "defuser/devtools/")
        )
        if front_end or rel in ("defuser/cli.py", "defuser/__main__.py"):
            continue
        files.append(path)
    for path in sorted((ROOT / "hardware").rglob("*.py")):
        if "firmware" not in path.relative_to(ROOT).parts:
            files.append(path)
    return files


def flags_named(path: Path) -> set[str]:
    """The ``--options`` that string literals of ``path`` name (docstrings aside)."""
    tree = tree_of(path)
    skip = docstring_ids(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            found.update(FLAG.findall(node.value))
    return found


def test_library_code_names_no_command_line_option() -> None:
    offenders = {}
    for path in _library_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel in OWN_COMMAND_LINES:
            continue
        named = flags_named(path)
        if named:
            offenders[rel] = sorted(named)
    assert offenders == {}, offenders


def test_the_scan_finds_an_option(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""Docs may say --json."""\nMESSAGE = f"give --db {1} or else"\n')
    assert flags_named(sample) == {"--db"}


def test_the_command_words_the_table_export_option() -> None:
    """A table file without the export's shape: the library says so, the command adds how."""
    result = run_cli_bytes(["verify", "-"], b"[1]").text
    assert result.code == 2
    assert result.err == (
        "mittens verify: error: <stdin>: expected a JSON object like 'mittens tables --format "
        "json' writes\n"
    )
    result = run_cli_bytes(["verify", "-"], b"A," + b"x" * 140_000 + b"\n").text
    assert result.code == 2
    assert result.err == (
        "mittens verify: error: <stdin> line 1 is not CSV like 'mittens tables --format csv' "
        "writes (field larger than field limit (131072))\n"
    )


def test_the_command_words_the_stats_database_option(tmp_path: Path) -> None:
    """A stats database left untouched: the command adds how to use another one."""
    path = tmp_path / "notes.txt"
    path.write_text("not a database at all, just some text here to fill a page\n")
    result = run_cli_bytes(["stats", "--db", str(path)]).text
    assert result.code == 2
    assert result.err == (
        f"mittens stats: error: stats database {str(path)!r} is not a readable SQLite database "
        "(file is not a database); it was left untouched (move it away or give --db PATH)\n"
    )


def _runs_as_main(tree: ast.Module) -> bool:
    """Whether a module has an ``if __name__ == "__main__":`` block."""
    return any(
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
        for node in tree.body
    )


def test_no_library_module_doubles_as_a_command_line() -> None:
    """A command line is a module of its own: a package's ``__main__``, the CLI, or one of
    the maintainers' ``defuser/devtools``; library modules only define what they run."""
    doubling = [
        path.relative_to(ROOT).as_posix()
        for path in _library_files()
        if path.name != "__main__.py"
        and _runs_as_main(tree_of(path))
    ]
    assert doubling == []
    devtools = sorted((ROOT / "defuser" / "devtools").glob("[!_]*.py"))
    assert devtools and all(_runs_as_main(tree_of(p)) for p in devtools)
