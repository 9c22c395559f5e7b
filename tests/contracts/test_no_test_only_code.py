"""The library keeps no code that only tests use: every public top-level function, class
and constant of a library module, and every public method and property of a public
class, is used by the library itself.

A top-level name counts as used when a library module imports it (``from m import
name``), reads it through its module (``m.name``), gives it whole as a registry target
(a string ``"m:name"``), or its own module uses it outside its definition. A docstring
or a comment that mentions a name is no use of it (``:func:`m.name``` once kept a
test-only function alive). A decorated function counts as used (its decorator registers
it, as a click subcommand is), and so do the entry points found by name from outside
(:data:`ENTRY_POINTS`).

A method counts as used when library code reads an attribute of that name on anything
(``x.name``, or ``getattr(x, "name")``) outside the method's own body: without types
this cannot tell two classes' methods of one name apart, so it finds a method no
library code calls by any object, which is cheap and never wrong the other way. A
method that overrides one of a base class outside the library (click's, pyserial's,
rich's, the standard library's) is called by that library, and so counts as used.
Library code is ``edgework/``, ``defuser/`` and ``hardware/`` outside the firmware.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from source_helpers import tree_of

ROOT = Path(__file__).resolve().parents[2]
#: Names that something outside Python's imports finds by name.
ENTRY_POINTS = {
    # pyserial finds the propsim:// handler as protocol_propsim.Serial.
    ("hardware.protocol_propsim", "Serial"),
}
#: Methods that something outside Python's imports calls by name, with the reason.
EXTERNAL_METHODS = {
    ("hardware.protocol_propsim", "Serial", "reset_output_buffer"):
        "pyserial's port interface (serial.Serial has it; SerialBase does not declare it)",
}
#: A whole string ``module:name`` (a lazy registry's target).
TARGET = re.compile(r"([a-z_][a-z0-9_.]*):([A-Za-z_]\w*)")
#: The top-level packages of the library.
LIBRARY = ("edgework", "defuser", "hardware")


def library_files() -> list[Path]:
    files = [p for d in ("edgework", "defuser", "hardware") for p in (ROOT / d).rglob("*.py")]
    return sorted(p for p in files if "firmware" not in p.relative_to(ROOT).parts)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _aliases(tree: ast.Module) -> dict[str, str]:
    """What each imported name stands for (``np`` -> ``numpy``, ``check`` ->
    ``defuser.logs.check``)."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})
        elif isinstance(node, ast.Import):
            for a in node.names:
                top = a.name.split(".")[0]
                names[a.asname or top] = a.name if a.asname else top
    return names


def _attribute_uses(node: ast.Attribute, aliases: dict[str, str]) -> Iterator[tuple[str, str]]:
    chain: list[str] = []
    value: ast.expr = node
    while isinstance(value, ast.Attribute):
        chain.append(value.attr)
        value = value.value
    if isinstance(value, ast.Name) and value.id in aliases:
        full = aliases[value.id].split(".") + chain[::-1]
        for i in range(1, len(full)):
            yield ".".join(full[:i]), full[i]


def docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of a module and its classes and functions."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = node.body[0] if node.body else None
            if (isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
                    and isinstance(doc.value.value, str)):
                found.add(id(doc.value))
    return found


def uses(tree: ast.Module) -> set[tuple[str, str]]:
    """The ``(module, name)`` pairs a module uses by import, attribute or registry string
    (never by a docstring)."""
    aliases = _aliases(tree)
    skip = docstrings(tree)
    found: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.update((node.module, a.name) for a in node.names)
        elif isinstance(node, ast.Attribute):
            found.update(_attribute_uses(node, aliases))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in skip and (target := TARGET.fullmatch(node.value))):
            found.add((target[1], target[2]))
    return found


def _defined(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return [] if node.decorator_list else [node.name]
    if isinstance(node, ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def unused_names(tree: ast.Module, module: str, used: set[tuple[str, str]]) -> list[str]:
    """The public top-level names of ``module`` (its syntax ``tree``) that neither the
    library (``used``) nor the module itself, outside the name's own definition, uses."""
    owner = {name: node for node in tree.body for name in _defined(node)}
    local = {
        n.id
        for top in tree.body
        for n in ast.walk(top)
        if isinstance(n, ast.Name) and n.id in owner and owner[n.id] is not top
    }
    return [
        name for name in owner
        if not name.startswith("_") and name not in local
        and (module, name) not in used and (module, name) not in ENTRY_POINTS
    ]


def attribute_readers(trees: Iterable[ast.Module]) -> dict[str, list[ast.AST]]:
    """Each attribute name the modules read (``x.name``, ``getattr(x, "name")``), with
    the nodes that read it."""
    found: dict[str, list[ast.AST]] = {}
    for tree in trees:
        skip = docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                found.setdefault(node.attr, []).append(node)
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and node.value.isidentifier() and id(node) not in skip):
                found.setdefault(node.value, []).append(node)
    return found


def _overrides_outside(module: str, cls: str, method: str) -> bool:
    """Whether ``method`` of class ``cls`` overrides one of a base class from outside
    the library (which calls it); a class the module does not define at run time has none."""
    obj = getattr(importlib.import_module(module), cls, object)
    return any(
        base is not object and base.__module__.split(".")[0] not in LIBRARY
        and hasattr(base, method)
        for base in obj.__mro__[1:]
    )


def unused_methods(
    tree: ast.Module, module: str, read: dict[str, list[ast.AST]]
) -> list[str]:
    """``Class.method`` for each public method or property of a public class of
    ``module`` (its syntax ``tree``) whose name library code (``read``: each attribute
    name with the nodes that read it) never reads outside the method's own body."""
    unused = []
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or cls.name.startswith("_"):
            continue
        for method in cls.body:
            if (not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef)
                    or method.name.startswith("_")):
                continue
            own = {id(node) for node in ast.walk(method)}
            readers = [n for n in read.get(method.name, ()) if id(n) not in own]
            if readers or (module, cls.name, method.name) in EXTERNAL_METHODS:
                continue
            if not _overrides_outside(module, cls.name, method.name):
                unused.append(f"{cls.name}.{method.name}")
    return unused


@functools.cache
def library_trees() -> dict[Path, ast.Module]:
    """The syntax tree of every library file (parsed once for the tests here)."""
    return {p: tree_of(p) for p in library_files()}


def test_every_public_method_of_the_library_is_used_by_the_library() -> None:
    trees = library_trees()
    read = attribute_readers(trees.values())
    unused = [
        f"{p.relative_to(ROOT)}: {name}"
        for p, tree in trees.items()
        for name in unused_methods(tree, module_name(p), read)
    ]
    assert not unused, "called by no library code (remove it, or its tests are all it has):\n" + (
        "\n".join(unused))


def test_a_method_only_tests_call_is_found() -> None:
    source = (
        "import json\n"
        "class Prop:\n"
        '    """Its :meth:`Prop.stored` is mentioned here, and that is no use."""\n'
        "    def stored(self) -> int: return 1\n"
        "    def called(self) -> int: return 2\n"
        "    def recursive(self) -> int: return self.recursive()\n"
        "    def by_name(self) -> int: return 3\n"
        "    def _private(self) -> int: return 4\n"
        "def use(prop: Prop) -> object:\n"
        "    return prop.called(), getattr(prop, 'by_name')\n"
    )
    tree = ast.parse(source)
    read = attribute_readers([tree])
    # (A name Python's json module has no class of: nothing overrides one outside.)
    assert unused_methods(tree, "json", read) == ["Prop.stored", "Prop.recursive"]


def test_every_public_name_of_the_library_is_used_by_the_library() -> None:
    trees = library_trees()
    used = set().union(*map(uses, trees.values()))
    unused = [
        f"{p.relative_to(ROOT)}: {name}"
        for p, tree in trees.items()
        for name in unused_names(tree, module_name(p), used)
    ]
    assert not unused, "used by no library code (remove it, or its tests are all it has):\n" + (
        "\n".join(unused))


def test_a_name_only_tests_use_is_found() -> None:
    source = (
        "import click\n"
        "def only_tests_call_this() -> None: ...\n"
        "def used_here() -> int: return 1\n"
        "LIMIT = used_here()\n"
        "@click.command()\ndef registered() -> None: ...\n"
        "class Imported: ...\n"
        "class Registered: ...\n"
        "def _private() -> None: ...\n"
    )
    tree = ast.parse(source)
    used = {("m", "Imported"), ("m", "Registered"), ("m", "LIMIT")}
    assert unused_names(tree, "m", used) == ["only_tests_call_this"]
    assert unused_names(tree, "m", used - {("m", "LIMIT")}) == ["only_tests_call_this", "LIMIT"]
    assert ("defuser.engine.rules", "HAND_SIZE") in uses(ast.parse(
        "from defuser.engine import rules\nsize = rules.HAND_SIZE\n"))
    assert ("defuser.commands.solve", "solve") in uses(ast.parse(
        'TARGET = "defuser.commands.solve:solve"\n'))
    # A docstring naming a function is no use of it, nor is a sentence in a string.
    assert uses(ast.parse(
        '"""Put it back with :func:`hardware.propsim.registry.plug_in`."""\n'
        'NOTE = "see hardware.propsim.registry:plug_in for how"\n')) == set()
