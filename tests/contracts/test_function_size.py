"""No function is longer than 60 lines (ruff's C901 bounds their complexity).

Checked code is ``edgework/``, ``defuser/`` (the commands included) and ``hardware/``
outside the firmware. A function's length is ``end_lineno - lineno + 1`` of its AST node
(decorators aside, docstring and nested functions included). There are no exceptions.
"""

from __future__ import annotations

import ast
from pathlib import Path

from source_helpers import tree_of

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 60
COMMANDS = ROOT / "defuser" / "commands"


def _library_files() -> list[Path]:
    files = []
    for root in ("defuser", "edgework", "hardware"):
        for path in sorted((ROOT / root).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if "firmware" in parts:
                continue
            files.append(path)
    return files


def long_functions(path: Path, limit: int = MAX_LINES) -> list[str]:
    """``name:line (N lines)`` for every function of ``path`` longer than ``limit`` lines."""
    found = []
    for node in ast.walk(tree_of(path)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            size = node.end_lineno - node.lineno + 1
            if size > limit:
                found.append(f"{node.name}:{node.lineno} ({size} lines)")
    return found


def test_no_function_is_over_60_lines() -> None:
    offenders = {}
    for path in _library_files():
        long = long_functions(path)
        if long:
            offenders[path.relative_to(ROOT).as_posix()] = long
    assert offenders == {}, offenders


def test_the_measure_finds_a_long_function(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    body = "".join(f"    x{i} = {i}\n" for i in range(60))
    sample.write_text(f"def short():\n    return 1\n\n\ndef long():\n{body}")
    assert long_functions(sample) == ["long:5 (61 lines)"]
    assert len(_library_files()) > 50
    assert COMMANDS / "solve.py" in _library_files()
