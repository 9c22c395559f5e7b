"""Tests use the library's public names only, so the library can change what it hides.

A test file (every ``.py`` under ``tests/``, helpers included) may not:

- import a private name or module of the library (``from defuser.x import _name``,
  ``import defuser._x``);
- read or write a private attribute of another object (``store._db``), by attribute or by
  ``getattr``/``setattr``/``monkeypatch.setattr`` with its name or dotted path;
- subclass a library class and override or call its private methods (``super()._answer``,
  ``self._emit`` in a subclass of :class:`hardware.propsim.twin.PropSim`).

A test's own classes keep their private attributes (``self._port`` of a test double that
derives from nothing of the library). The namedtuple API (``_replace``, ``_fields``, ...)
is public despite its underscore.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from source_helpers import parsed

TESTS = Path(__file__).resolve().parents[1]
LIBRARIES = ("defuser", "edgework", "hardware")
#: The public API of ``collections.namedtuple`` (underscored to keep field names free).
NAMEDTUPLE_API = frozenset({"_asdict", "_field_defaults", "_fields", "_make", "_replace"})
#: ``defuser.x._name``: a private name of a library module, spelt as a dotted path.
DOTTED = re.compile("^(?:" + "|".join(LIBRARIES) + r")(?:\.\w+)*\._[A-Za-z0-9]\w*$")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in NAMEDTUPLE_API


def _library_module(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in LIBRARIES


def _library_names(tree: ast.Module) -> set[str]:
    """The names ``tree`` binds by importing from the library (classes, modules)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _library_module(node.module):
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names
                         if _library_module(a.name))
    return names


def _derives_from_library(node: ast.ClassDef, library: set[str]) -> bool:
    for base in node.bases:
        root = base
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in library:
            return True
    return False


def _import_reaches(node: ast.AST) -> list[str]:
    if isinstance(node, ast.ImportFrom) and _library_module(node.module):
        assert node.module is not None
        return [f"from {node.module} import {a.name}" for a in node.names
                if _private(a.name) or any(map(_private, node.module.split(".")))]
    if isinstance(node, ast.Import):
        return [f"import {a.name}" for a in node.names
                if _library_module(a.name) and any(map(_private, a.name.split(".")))]
    return []


def _own(attribute: ast.Attribute, in_library_subclass: bool) -> bool:
    """Whether ``attribute`` is a test class's own (``self._x``, ``cls._x``), which is
    fine unless the class derives from a library class."""
    value = attribute.value
    is_self = isinstance(value, ast.Name) and value.id in ("self", "cls")
    return is_self and not in_library_subclass


def _name_reaches(node: ast.AST, in_library_subclass: bool) -> list[str]:
    if isinstance(node, ast.Attribute) and _private(node.attr):
        return [] if _own(node, in_library_subclass) else [ast.unparse(node)]
    if in_library_subclass and isinstance(node, ast.FunctionDef) and _private(node.name):
        return [f"def {node.name} (overrides a library class's private method)"]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
        called = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        name = node.args[1] if len(node.args) > 1 else None  # (object, name, ...)
        if called in ("getattr", "setattr", "hasattr", "delattr") and isinstance(
            name, ast.Constant
        ) and isinstance(name.value, str) and _private(name.value):
            return [ast.unparse(node)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and DOTTED.match(node.value):
        return [repr(node.value)]
    return []


def private_reaches(source: str) -> list[str]:
    """Where ``source`` (a test file) reaches into a private name of the library."""
    tree = parsed(source)
    library = _library_names(tree)
    in_subclass: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and _derives_from_library(node, library):
            in_subclass.update(id(inner) for inner in ast.walk(node) if inner is not node)
    found: list[str] = []
    for node in ast.walk(tree):
        where = getattr(node, "lineno", 0)
        for reach in [*_import_reaches(node), *_name_reaches(node, id(node) in in_subclass)]:
            found.append(f"line {where}: {reach}")
    return found


@pytest.mark.parametrize(
    "path", sorted(TESTS.rglob("*.py")), ids=lambda p: p.relative_to(TESTS).as_posix()
)
def test_no_test_reaches_into_a_private_name(path: Path) -> None:
    reaches = private_reaches(path.read_text(encoding="utf-8"))
    assert not reaches, "\n".join(reaches)


@pytest.mark.parametrize(
    "source",
    [
        "from defuser.trainer.store import _fail",
        "from defuser.trainer import _hidden",
        "import defuser._hidden.store",
        "from hardware._wire import Line",
        "store = Store.open(p)\nstore._db.execute('PRAGMA synchronous = OFF')",
        "getattr(store, '_db')",
        "monkeypatch.setattr(store, '_db', None)",
        "monkeypatch.setattr('defuser.trainer.store._connect', None)",
        "from hardware.propsim.twin import PropSim\n"
        "class Broken(PropSim):\n    def receive(self, data):\n        self._emit('OK 1')",
        "from hardware.propsim import twin\n"
        "class Broken(twin.PropSim):\n    def _answer(self, tag, command):\n        return 'OK'",
        "from hardware.propsim.twin import PropSim\n"
        "class Broken(PropSim):\n    def answer(self):\n        return super()._answer(1, 2)",
    ],
)
def test_each_kind_of_reach_is_found(source: str) -> None:
    assert private_reaches(source)


@pytest.mark.parametrize(
    "source",
    [
        "class Double:\n    def __init__(self):\n        self._port = 1\n"
        "    def read(self):\n        return self._port",
        "state = ReplayState(1, 2)\nstate._replace(a=1)\nReplayState._fields",
        "from hardware.propsim import __main__",
        "obj.__class__.__name__",
        "from defuser.trainer.store import Store\nstore = Store.open(p)\nstore.answers()",
    ],
)
def test_public_names_and_a_tests_own_are_fine(source: str) -> None:
    assert not private_reaches(source)
