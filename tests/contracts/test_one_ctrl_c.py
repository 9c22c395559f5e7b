"""One place ends a run on Ctrl-C: :meth:`defuser.terminal.app.Application.interrupted`.

No other module of the toolkit exits with :data:`defuser.streams.EXIT_INTERRUPTED` (or a
literal 130) or writes ``mittens: interrupted``; and no module outside
``defuser/terminal`` catches Ctrl-C (``KeyboardInterrupt``, or a bare ``except`` or
``except BaseException`` that does not raise again): a command that prints a summary on
Ctrl-C hands it to :meth:`~defuser.terminal.app.Application.interruptible`. Code only:
docstrings and comments may say what happens.
"""

from __future__ import annotations

import ast
from pathlib import Path

from source_helpers import docstring_ids, tree_of

ROOT = Path(__file__).resolve().parents[2]
THE_PLACE = "defuser/terminal/app.py"
#: Where the exit status is defined.
DEFINED = "defuser/streams.py"
#: What the terminal commands share, Ctrl-C included (the application, the line readers).
TERMINAL = "defuser/terminal/"
#: The modules outside ``defuser/terminal`` that may catch Ctrl-C, and why.
MAY_CATCH = {
    "hardware/propsim/__main__.py": "a program of its own, not mittens: Ctrl-C is how a "
    "simulated prop on a pty is stopped, and it exits 0",
}


def ctrl_c_endings(path: Path) -> list[str]:
    """What in ``path`` ends a run on Ctrl-C by itself, as ``line: what``."""
    tree = tree_of(path)
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


def _catches(handler: ast.ExceptHandler) -> bool:
    """Whether ``handler`` catches Ctrl-C and keeps it (a cleanup that raises again
    does not)."""
    names = []
    if handler.type is not None:
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        names = [kind.id if isinstance(kind, ast.Name) else getattr(kind, "attr", "")
                 for kind in kinds]
    if "KeyboardInterrupt" in names:
        return True
    if handler.type is not None and "BaseException" not in names:
        return False
    return not any(isinstance(node, ast.Raise) and node.exc is None
                   for node in ast.walk(handler))


def ctrl_c_catchers(path: Path) -> list[int]:
    """The lines of ``path`` where an ``except`` catches Ctrl-C."""
    tree = tree_of(path)
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.ExceptHandler) and _catches(node)]


def test_only_the_terminal_catches_ctrl_c() -> None:
    offenders = {}
    allowed = set()
    for package in ("defuser", "edgework", "hardware"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(TERMINAL) or "firmware" in path.parts:
                continue
            found = ctrl_c_catchers(path)
            if found and rel in MAY_CATCH:
                allowed.add(rel)
            elif found:
                offenders[rel] = found
    assert offenders == {}
    assert allowed == set(MAY_CATCH)  # each exception is still needed


def test_the_catcher_scan_finds_each_way(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "try:\n    pass\nexcept KeyboardInterrupt:\n    pass\n"
        "try:\n    pass\nexcept (OSError, builtins.KeyboardInterrupt):\n    pass\n"
        "try:\n    pass\nexcept BaseException:\n    pass\n"
        "try:\n    pass\nexcept:\n    pass\n"
        "try:\n    pass\nexcept BaseException:\n    print()\n    raise\n"
        "try:\n    pass\nexcept Exception:\n    pass\n"
    )
    assert ctrl_c_catchers(sample) == [3, 7, 11, 15]
    assert ctrl_c_catchers(ROOT / THE_PLACE)


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
