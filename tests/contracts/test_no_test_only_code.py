"""The library keeps no code that only tests use: every public top-level function, class
and constant of a library module is used by the library itself.

A name counts as used when a library module imports it (``from m import name``), reads
it through its module (``m.name``), names it in a registry string (``"m:name"``, as the
command line's lazy registry does), or its own module uses it outside its definition.
A decorated function counts as used (its decorator registers it, as a click subcommand
is), and so do the entry points found by name from outside (:data:`ENTRY_POINTS`).
Library code is ``edgework/``, ``defuser/`` and ``hardware/`` outside the firmware.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Names that something outside Python's imports finds by name.
ENTRY_POINTS = {
    # pyserial finds the propsim:// handler as protocol_propsim.Serial.
    ("hardware.protocol_propsim", "Serial"),
}
#: ``module:name`` or ``module.name`` in a string (a lazy registry's target).
DOTTED = re.compile(r"([a-z_][a-z0-9_.]*)[:.]([A-Za-z_]\w*)")


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


def uses(tree: ast.Module) -> set[tuple[str, str]]:
    """The ``(module, name)`` pairs a module uses by import, attribute or registry string."""
    aliases = _aliases(tree)
    found: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.update((node.module, a.name) for a in node.names)
        elif isinstance(node, ast.Attribute):
            found.update(_attribute_uses(node, aliases))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.update(DOTTED.findall(node.value))
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


def test_every_public_name_of_the_library_is_used_by_the_library() -> None:
    trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in library_files()}
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
    assert DOTTED.findall("defuser.commands.solve:solve") == [("defuser.commands.solve", "solve")]
