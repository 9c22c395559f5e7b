"""The web stack (Starlette, uvicorn, Jinja2) is loaded only by ``mittens serve``."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from cli_helpers import run_process
from source_helpers import parsed

ROOT = Path(__file__).resolve().parents[2]
WEB_LIBRARIES = frozenset({"starlette", "uvicorn", "jinja2", "httpx", "httpx2", "anyio"})

PROBE = """
import json, sys
from defuser.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})), file=sys.stderr)
"""


def loaded_by(*args: str) -> set[str]:
    """The top-level modules loaded by ``mittens ARGS`` in a fresh interpreter."""
    result = run_process(list(args), script=PROBE, cwd=ROOT, timeout=120).text
    return set(json.loads(result.err.strip().splitlines()[-1]))


def test_help_and_solve_load_no_web_library() -> None:
    assert not loaded_by("--help") & WEB_LIBRARIES
    solve = loaded_by("solve", "--serial", "AB3CD4", "--batteries", "3", "--discard", "RC",
                      "--hand", "BH GS YT")
    assert "defuser" in solve and not solve & WEB_LIBRARIES
    assert not loaded_by("serve", "--help") & WEB_LIBRARIES


def _names_any(text: str) -> bool:
    return any(library in text for library in WEB_LIBRARIES)


def test_only_the_web_package_imports_the_web_stack() -> None:
    for package in ("edgework", "defuser", "hardware"):
        for path in sorted((ROOT / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if "web" in path.relative_to(ROOT).parts or not _names_any(text):
                continue  # a file that never spells a library's name cannot import it
            for node in ast.walk(parsed(text)):
                names = (
                    [a.name for a in node.names] if isinstance(node, ast.Import)
                    else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                )
                assert not {n.split(".")[0] for n in names} & WEB_LIBRARIES, path
