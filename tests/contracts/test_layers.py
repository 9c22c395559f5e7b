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
from source_helpers import tree_of

ROOT = Path(__file__).resolve().parents[2]

#: The packages whose ``__init__`` is their public surface: names gathered from the
#: package's own modules, as ``from edgework import Card`` reads them.
PACKAGE_SURFACES = frozenset({"edgework/__init__.py"})



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
    tree = tree_of(path)
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
        if p.relative_to(ROOT).as_posix() not in PACKAGE_SURFACES
    ],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_no_module_re_exports_another_modules_names(path: Path) -> None:
    """One home per name: a module's ``__all__`` lists only what it defines."""
    assert _exported_imports(path) == []


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _top_level_names(tree: ast.Module) -> set[str]:
    """The names a module binds itself at its top level (functions, classes, assignments,
    also under a module-level ``if`` or ``try``), not its imports nor a function's locals."""
    names: set[str] = set()
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.If | ast.Try):
            pending += [*node.body, *node.orelse, *getattr(node, "finalbody", [])]
            pending += [s for h in getattr(node, "handlers", []) for s in h.body]
    return names


def test_every_import_names_the_module_that_defines_it() -> None:
    """No name travels through a module that only imports it: library code and tests import
    each name from its home (or a package surface such as ``edgework``)."""
    modules = {_module_name(p): p for p in _library_files()}
    defined = {
        m: _top_level_names(tree_of(p)) for m, p in modules.items()
    }
    surfaces = {_module_name(ROOT / p) for p in PACKAGE_SURFACES}
    wrong = []
    for path in [*_library_files(), *sorted((ROOT / "tests").rglob("*.py"))]:
        for node in ast.walk(tree_of(path)):
            if not isinstance(node, ast.ImportFrom) or node.level or node.module not in modules:
                continue
            if node.module in surfaces:
                continue
            wrong += [
                f"{path.relative_to(ROOT)}: {alias.name} from {node.module}"
                for alias in node.names
                if alias.name not in defined[node.module]
                and f"{node.module}.{alias.name}" not in modules
            ]
    assert wrong == []


def test_test_files_share_helpers_not_each_other() -> None:
    """What several test files need lives in a ``tests/*_helpers.py`` (or another shared
    module at ``tests/``), never in a test file another one imports."""
    test_files = {p.stem for p in (ROOT / "tests").rglob("test_*.py")}
    wrong = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(tree_of(path)):
            if isinstance(node, ast.ImportFrom) and node.module in test_files:
                wrong.append(f"{path.relative_to(ROOT)} imports {node.module}")
            elif isinstance(node, ast.Import):
                wrong += [f"{path.relative_to(ROOT)} imports {a.name}"
                          for a in node.names if a.name in test_files]
    assert wrong == []


def test_one_meaning_per_class_name() -> None:
    """No two library modules define a public class of the same name (a reader who meets
    ``Ended`` or ``Verdict`` knows which one it is)."""
    homes: dict[str, list[str]] = {}
    for path in _library_files():
        for node in tree_of(path).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                homes.setdefault(node.name, []).append(path.relative_to(ROOT).as_posix())
    assert {name: where for name, where in homes.items() if len(where) > 1} == {}
