"""The README's install steps: every system's way in, and the activation it names exists.

The README's table names, per system and shell, the command that makes the virtual
environment and the script that activates it; the one for this system is carried out here
(without pip, which only the real install needs) and its activation script must be there.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _install_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text[text.index("## Install") : text.index("## Two commands")]


def test_the_install_section_covers_every_system() -> None:
    section = _install_section()
    for needed in (
        "git clone",
        "cd exploding-mittens",
        "Windows, PowerShell",
        "Windows, cmd",
        "macOS, Debian, Ubuntu",
        "externally-managed-environment",
        "python3-venv",
        "pipx install .",
        "&&",  # PowerShell 5's missing `&&` is said
    ):
        assert needed in section, needed


def test_the_activation_script_named_for_this_system_exists(tmp_path: Path) -> None:
    rows = dict(
        re.findall(r"^\| ([^|]+?) \| `[^`]+` \| `([^`]+)` \|$", _install_section(), re.M)
    )
    if sys.platform == "win32":
        script = rows["Windows, cmd"].replace("\\", "/")
    else:
        script = rows["macOS, Debian, Ubuntu (bash, zsh)"].removeprefix("source ")
    assert script.startswith(".venv/")
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(tmp_path / ".venv")], check=True
    )
    assert (tmp_path / script).is_file()
