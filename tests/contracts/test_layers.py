"""The layering holds: import-linter's contracts in ``pyproject.toml`` are kept, and no
library module re-exports names from another.

The contracts (layers edgework < engine < strategy < applications < front ends, every
part of ``defuser`` placed, the applications independent, no import cycle with imports
inside functions counted) are checked by ``lint-imports``, which ``.ci/run`` runs too;
here it runs in a fresh interpreter from the repository root, as CI runs it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: The packages whose ``__init__`` is their public surface: names gathered from the
#: package's own modules, as ``from edgework import Card`` reads them.
PACKAGE_SURFACES = frozenset({"edgework/__init__.py"})

#: Re-exports still to remove, each with the work that removes it (issue 20). A module
#: leaves this list when its importers import from the real home.
PENDING_RE_EXPORTS = {
    # The logs + live helper: the log checker's parts are imported through the package.
    "defuser/logs/check/__init__.py",
    # The hardware helper: Notice, NoticeKind and Timing are re-exported from their homes.
    "hardware/device.py",
}


def test_the_import_contracts_are_kept() -> None:
    script = (
        "import sys\n"
        "from importlinter.cli import lint_imports\n"
        "sys.exit(lint_imports(no_cache=True, no_logo=True))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "BROKEN" not in done.stdout


def _library_files() -> list[Path]:
    files = [*sorted((ROOT / "edgework").rglob("*.py")), *sorted((ROOT / "defuser").rglob("*.py"))]
    files += [p for p in sorted((ROOT / "hardware").rglob("*.py")) if "firmware" not in p.parts]
    return files


def _exported_imports(path: Path) -> list[str]:
    """The names in ``path``'s ``__all__`` that it imports rather than defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported: set[str] = set()
    listed: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom | ast.Import):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            value = node.value
            if isinstance(value, ast.List | ast.Tuple):
                listed = [str(e.value) for e in value.elts if isinstance(e, ast.Constant)]
    return [name for name in listed if name in imported]


@pytest.mark.parametrize(
    "path",
    [
        p
        for p in _library_files()
        if p.relative_to(ROOT).as_posix() not in PACKAGE_SURFACES | PENDING_RE_EXPORTS
    ],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_no_module_re_exports_another_modules_names(path: Path) -> None:
    """One home per name: a module's ``__all__`` lists only what it defines."""
    assert _exported_imports(path) == []


@pytest.mark.parametrize("rel", sorted(PENDING_RE_EXPORTS))
def test_each_pending_re_export_is_still_there(rel: str) -> None:
    """A pending entry leaves the list when its module stops re-exporting."""
    assert _exported_imports(ROOT / rel), f"{rel} re-exports nothing now: drop it from the list"
