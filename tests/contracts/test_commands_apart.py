"""No command imports another command: what commands share lives below them.

Every ``defuser/commands/X.py`` may import :mod:`defuser.terminal` (the application
object, options, safe files, the screen) and the libraries, never ``defuser.commands.Y``;
imports inside functions count. :data:`PENDING` lists the imports still being moved
out; the list only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

from source_helpers import tree_of

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ROOT / "defuser" / "commands"

#: (importer, imported) command modules still joined while their work moves out.
#: Remove a pair once the import is gone; a pair that no longer imports fails below.
PENDING: frozenset[tuple[str, str]] = frozenset()


def commands_imported(path: Path) -> set[str]:
    """The ``defuser.commands`` modules that ``path`` imports, at any depth."""
    found: set[str] = set()
    for node in ast.walk(tree_of(path)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None and not node.level:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["defuser", "commands"] and len(parts) > 2:
                found.add(parts[2])
    return found


def _imports() -> set[tuple[str, str]]:
    return {
        (path.stem, other)
        for path in sorted(COMMANDS.glob("*.py"))
        for other in commands_imported(path)
        if other != path.stem
    }


def test_no_command_imports_another() -> None:
    assert sorted(_imports() - PENDING) == []


def test_the_pending_imports_are_still_there() -> None:
    assert sorted(PENDING - _imports()) == [], "remove these pairs from PENDING"


def test_the_scan_finds_a_lazy_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from defuser.commands import live\n"
        "def f():\n    from defuser.commands.play import new_seed\n"
        "import defuser.commands.log as log\n"
    )
    assert commands_imported(sample) == {"live", "play", "log"}
