"""Every error the library raises on purpose is under the one root, ``MittensError``.

Its branch says whose fault it is (``edgework.errors``): bad input is an ``InputError``,
a broken precondition or an invariant that does not hold a ``MisuseError``, a failure
outside the program a ``FaultError``. So library code (``edgework/``, ``defuser/`` with
its front ends, ``hardware/`` outside the firmware):

- raises no built-in exception class (``raise ValueError(...)``, ``RuntimeError``,
  ``Exception``, ...), except where a protocol of Python or of another library asks
  for that very class (:data:`PROTOCOL_RAISES`, each with its reason). A dataclass's
  ``__post_init__`` needs no exception: ``InputError`` and ``MisuseError`` are also
  ``ValueError``\\ s, so a caller that catches ``ValueError`` still sees both. Control
  flow that is no error (``SystemExit``, ``KeyboardInterrupt``: no ``Exception``) and a
  re-raise (``raise``, ``raise exc``) are not counted;
- defines no public exception class outside the root, except the ones
  :data:`OUTSIDE_ROOT` names with their reason (a private one, ``_Name``, is a signal
  that never leaves its module).
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: ``(file, built-in class)`` raises a protocol asks for, with the reason.
PROTOCOL_RAISES = {
    ("defuser/streams.py", "OSError"):
        "a closed stdout reports, on the last flush, the error the OS gives for writing "
        "to a closed descriptor (EBADF), so the boundary's one handling of a failed write "
        "words it",
    ("defuser/terminal/drill_clock.py", "EOFError"):
        "the end of input as input() reports it: the line reader it stands in for",
    ("defuser/terminal/app.py", "BrokenPipeError"):
        "rich's Console.on_broken_pipe hook: the broken pipe goes on to the boundary, "
        "which ends the run with exit 0 as for any reader that went away",
}
#: ``(file, class)`` of the public exception classes outside the root, with the reason.
OUTSIDE_ROOT = {
    ("defuser/streams.py", "ReaderGone"):
        "no error: the reader of stdout went away, and the run ends with exit 0",
    ("defuser/terminal/app.py", "BadInput"):
        "click's own exception (ClickException) for a command that cannot go on: click "
        "and the boundary give it its exit status, 2",
    ("defuser/terminal/safeio.py", "PathError"):
        "a BadInput (click's exception) for a user path that cannot be used",
    ("defuser/web/security.py", "BodyTooLarge"):
        "raised inside the server's receive callable, through the web framework's body "
        "readers, to the app's handler: as an InputError (a ValueError) a reader that "
        "catches ValueError for bad JSON or form data would take it for one",
}
#: The built-in classes of errors (``Exception`` and below).
BUILTIN_ERRORS = frozenset(
    name for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, Exception)
)


@functools.cache
def library_trees() -> dict[str, ast.Module]:
    """Each library file (its path from the root) and its syntax tree."""
    files = [p for d in ("edgework", "defuser", "hardware") for p in (ROOT / d).rglob("*.py")]
    return {
        p.relative_to(ROOT).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
        for p in sorted(files) if "firmware" not in p.relative_to(ROOT).parts
    }


def builtin_raises(tree: ast.Module) -> list[tuple[int, str]]:
    """``(line, class)`` for each ``raise`` of a built-in error class in ``tree`` (a name
    the module binds itself, by an import or a definition, is not the built-in)."""
    bound = {
        alias.asname or alias.name.split(".")[0]
        for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    } | {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise) or node.exc is None:
            continue
        target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if isinstance(target, ast.Name) and target.id in BUILTIN_ERRORS - bound:
            found.append((node.lineno, target.id))
        elif (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
              and target.value.id == "builtins" and target.attr in BUILTIN_ERRORS):
            found.append((node.lineno, target.attr))
    return found


def test_the_library_raises_no_builtin_error_class() -> None:
    raised = [
        (path, line, name)
        for path, tree in library_trees().items()
        for line, name in builtin_raises(tree)
    ]
    found = [f"{path}:{line}: raise {name}" for path, line, name in raised
             if (path, name) not in PROTOCOL_RAISES]
    assert not found, (
        "a built-in error class raised on purpose (raise InputError, MisuseError or "
        "FaultError, or a subclass):\n" + "\n".join(found))
    # Every raise allowed is still there (an allowance outlives no code).
    assert set(PROTOCOL_RAISES) <= {(path, name) for path, _, name in raised}


def test_a_builtin_raise_is_found() -> None:
    source = (
        "import builtins\n"
        "from serial import SerialException\n"
        "class StoreError(Exception): ...\n"
        "def f(x: int) -> None:\n"
        "    if x == 1: raise ValueError(f'{x} is not 2')\n"
        "    if x == 2: raise RuntimeError\n"
        "    if x == 3: raise builtins.Exception('boom')\n"
        "    if x == 4: raise SerialException('a protocol')\n"
        "    if x == 5: raise StoreError('our own')\n"
        "    if x == 6: raise SystemExit(2)\n"
        "    try: pass\n"
        "    except OSError as exc: raise exc\n"
        "    raise\n"
    )
    assert builtin_raises(ast.parse(source)) == [
        (5, "ValueError"), (6, "RuntimeError"), (7, "Exception")]


def test_every_public_error_class_is_under_the_root() -> None:
    from edgework.errors import MittensError

    outside = []
    for path, tree in library_trees().items():
        classes = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.bases]
        if not classes or path.endswith("__main__.py"):
            continue
        module = importlib.import_module(
            path.removesuffix(".py").removesuffix("/__init__").replace("/", "."))
        for node in classes:
            cls = getattr(module, node.name, None)
            if (isinstance(cls, type) and issubclass(cls, Exception)
                    and not issubclass(cls, MittensError) and not node.name.startswith("_")
                    and (path, node.name) not in OUTSIDE_ROOT):
                outside.append(f"{path}: {node.name}")
    assert not outside, "an error class outside MittensError:\n" + "\n".join(outside)
