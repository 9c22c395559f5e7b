"""Keep the generated blocks of ``docs/*.md`` and ``README.md`` true to the code.

A block starts with ``<!-- BEGIN mittens ARGS -->`` (or ``<!-- BEGIN raw mittens ARGS -->``
for output that is itself Markdown) and ends with ``<!-- END -->``; between them stands
what ``mittens ARGS`` prints, with colour off and 100 columns. ``test_docs.py`` fails
when a block is stale; ``python tests/docs_sync.py`` rewrites them.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout, suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(
    r"(<!-- BEGIN (?P<raw>raw )?mittens (?P<args>[^\n]*?) -->\n)(?P<body>.*?)(<!-- END -->)",
    re.DOTALL,
)


def run_mittens(args: list[str]) -> str:
    """What ``mittens ARGS`` prints on stdout, run in this process without colour."""
    from defuser.cli import main

    out = io.StringIO()
    saved_stdout = sys.stdout
    try:
        with (
            _environment(NO_COLOR="1", COLUMNS="100"),
            redirect_stdout(out),
            redirect_stderr(io.StringIO()),
            suppress(SystemExit),
        ):
            main(args)
    finally:
        sys.stdout = saved_stdout
    return out.getvalue()


@contextmanager
def _environment(**values: str) -> Iterator[None]:
    """Set environment variables for the block only, restoring them afterwards (the
    caller's own output, e.g. pytest's, keeps its width and colour)."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old


def render_block(args: str, raw: bool) -> str:
    """The body a block should have."""
    text = run_mittens(shlex.split(args))
    if raw:
        return text
    return "```text\n" + text + "```\n"


def sync(text: str) -> str:
    """``text`` with every generated block brought up to date."""

    def replace(m: re.Match[str]) -> str:
        body = render_block(m.group("args"), bool(m.group("raw")))
        return m.group(1) + body + m.group(5)

    return BLOCK.sub(replace, text)


def documents() -> list[Path]:
    """The files that may hold generated blocks."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def main() -> None:
    """Rewrite every stale block and name the files changed."""
    for path in documents():
        old = path.read_text(encoding="utf-8")
        new = sync(old)
        if new != old:
            path.write_text(new, encoding="utf-8")
            print(f"updated {path.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
