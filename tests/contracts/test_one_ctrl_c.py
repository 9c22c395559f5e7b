"""One place ends a run on Ctrl-C: :meth:`defuser.terminal.app.Application.interrupted`.

No other module of the toolkit exits with :data:`defuser.streams.EXIT_INTERRUPTED` (or a
literal 130) or writes ``mittens: interrupted``; a command that catches Ctrl-C to print
its summary then ends through the application. Code only: docstrings and comments may
say what happens.
"""

from __future__ import annotations

import ast
from pathlib import Path

from source_helpers import docstring_ids

ROOT = Path(__file__).resolve().parents[2]
THE_PLACE = "defuser/terminal/app.py"
#: Where the exit status is defined.
DEFINED = "defuser/streams.py"


def ctrl_c_endings(path: Path) -> list[str]:
    """What in ``path`` ends a run on Ctrl-C by itself, as ``line: what``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstring_ids(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if any(alias.name == "EXIT_INTERRUPTED" for alias in node.names):
                found.append(f"{node.lineno}: EXIT_INTERRUPTED")
        elif isinstance(node, ast.Attribute) and node.attr == "EXIT_INTERRUPTED":
            found.append(f"{node.lineno}: EXIT_INTERRUPTED")
        elif isinstance(node, ast.Constant) and id(node) not in skip:
            if node.value == 130 and not isinstance(node.value, bool):
                found.append(f"{node.lineno}: 130")
            elif isinstance(node.value, str) and "mittens: interrupted" in node.value:
                found.append(f"{node.lineno}: {node.value!r}")
    return found


def test_only_the_application_ends_a_run_on_ctrl_c() -> None:
    offenders = {}
    for package in ("defuser", "edgework", "hardware"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in (THE_PLACE, DEFINED) or "firmware" in path.parts:
                continue
            found = ctrl_c_endings(path)
            if found:
                offenders[rel] = found
    assert offenders == {}


def test_the_scan_finds_each_way(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Ctrl-C exits 130 with mittens: interrupted."""\n'
        "from defuser.streams import EXIT_INTERRUPTED\n"
        "def f():\n"
        "    print('mittens: interrupted')\n"
        "    raise SystemExit(130)\n"
    )
    assert sorted(ctrl_c_endings(sample)) == [
        "2: EXIT_INTERRUPTED", "4: 'mittens: interrupted'", "5: 130"
    ]
    assert (ROOT / THE_PLACE).exists() and ctrl_c_endings(ROOT / THE_PLACE)
