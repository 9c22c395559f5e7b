"""Helpers for the contract tests that read the library's source as syntax trees."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


def tree_of(path: Path) -> ast.Module:
    """The syntax tree of the source file ``path`` (see :func:`parsed`)."""
    return parsed(path.read_text(encoding="utf-8"))


@functools.cache
def parsed(source: str) -> ast.Module:
    """The syntax tree of ``source``, parsed once per process for each text: a dozen
    contract tests read the whole library and the tests (parsing either takes about
    half a second). The tree is shared: read it, never change it."""
    return ast.parse(source)


def docstring_ids(tree: ast.AST) -> set[int]:
    """The ``id`` of every docstring constant in ``tree`` (module, class and function
    docstrings), so a test can skip the prose and look only at the code's strings."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids
