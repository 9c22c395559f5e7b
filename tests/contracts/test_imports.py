"""The layering rules hold: what each package imports, checked from outside.

``edgework`` uses only the standard library and nothing else from the project; the
defuser's engine (everything outside ``defuser/cli.py``, ``defuser/commands/`` and
``defuser/terminal/``) never loads click, rich or pyserial; ``mittens --help`` loads
neither rich nor pyserial. Each import runs in a fresh interpreter, because this test
process has long since imported everything (click's ``test_light_imports`` is the model).
"""

from __future__ import annotations

import ast
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Run, run_process
from source_helpers import tree_of

from defuser.apps.benchmark_live import event_line
from defuser.cli import COMMANDS
from defuser.engine.simulator import Module
from defuser.strategy.belief import Observation
from defuser.strategy.values import recommend
from edgework import Batteries, Ruleset, SerialNumber

ROOT = Path(__file__).resolve().parents[2]
CLI_LIBRARIES = frozenset({"click", "rich", "serial"})
PROJECT_PACKAGES = frozenset({"edgework", "defuser", "hardware"})


def module_name(path: Path) -> str:
    """The dotted module name of a source file under the repository root."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(package: str) -> list[Path]:
    """Every Python source file of ``package``, sorted."""
    return sorted((ROOT / package).rglob("*.py"))


def is_cli_layer(path: Path) -> bool:
    """Whether a defuser file belongs to the command-line layer (may use click and rich):
    the commands, and the web front end's own command (``mittens serve``)."""
    rel = path.relative_to(ROOT / "defuser")
    return rel.parts[0] in ("cli.py", "__main__.py", "commands", "terminal") or (
        rel.as_posix() == "web/command.py"
    )


EDGEWORK_MODULES = [module_name(p) for p in sources("edgework")]
ENGINE_MODULES = [module_name(p) for p in sources("defuser") if not is_cli_layer(p)]


def json_from_python(script: str) -> Any:
    """The JSON that a fresh interpreter running ``script`` prints last (it must succeed)."""
    done = run_process([], script=script, cwd=ROOT).text
    assert done.code == 0, done.err
    return json.loads(done.out.splitlines()[-1])


def loaded_after(code: str) -> set[str]:
    """Top-level names of the modules a fresh interpreter holds after running ``code``."""
    names: list[str] = json_from_python(
        f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    )
    return {name.partition(".")[0] for name in names}


def test_the_module_lists_are_not_empty() -> None:
    """Discovery found the modules the parametrised tests below are about."""
    assert {"edgework", "edgework.cards", "edgework.tables", "edgework.widgets"} <= set(
        EDGEWORK_MODULES
    )
    assert {"defuser.engine.rules", "defuser.errors"} <= set(ENGINE_MODULES)
    assert "defuser.cli" not in ENGINE_MODULES
    assert not any(m.startswith("defuser.commands") for m in ENGINE_MODULES)


def test_edgework_loads_no_cli_library_and_no_other_package() -> None:
    """Importing every edgework module leaves click, rich, pyserial and the rest out."""
    loaded = loaded_after("\n".join(f"import {m}" for m in EDGEWORK_MODULES))
    assert "edgework" in loaded
    assert not loaded & CLI_LIBRARIES
    assert not loaded & (PROJECT_PACKAGES - {"edgework"})


def test_defuser_engine_loads_no_cli_library() -> None:
    """Each engine module (rules, errors, simulator, ...) imports without click/rich/pyserial.

    One fresh interpreter imports them all in turn and looks after each: a module that
    loaded a CLI library is named as the first whose import brought it in.
    """
    script = (
        "import importlib, json, sys\n"
        f"cli = {sorted(CLI_LIBRARIES)!r}\n"
        "found = {}\n"
        f"for module in {ENGINE_MODULES!r}:\n"
        "    importlib.import_module(module)\n"
        "    for name in cli:\n"
        "        if name in sys.modules and name not in found:\n"
        "            found[name] = module\n"
        "print(json.dumps([len(sys.modules), found]))\n"
    )
    count, found = json_from_python(script)
    assert count > 100  # the record is real: the engine modules were imported
    assert not found, f"modules that load a CLI library: {found}"


def run_cli_recording_modules(
    tmp_path: Path, argv: list[str], stdin: str = "", prelude: str = ""
) -> tuple[Run, list[str]]:
    """Run ``mittens ARGV`` in a fresh interpreter; its result and the modules it held.

    The cache home is under ``tmp_path``, so nothing cached by earlier tests is used.
    ``prelude`` is Python run first, in the same interpreter.
    """
    record = tmp_path / "modules.json"
    script = (
        "import json, runpy, sys\n"
        f"{prelude}"
        f"sys.argv = {['mittens', *argv]!r}\n"
        "try:\n"
        "    runpy.run_module('defuser', run_name='__main__', alter_sys=True)\n"
        "finally:\n"
        f"    open({str(record)!r}, 'w').write(json.dumps(sorted(sys.modules)))\n"
    )
    done = run_process(
        [], stdin.encode(), script=script, cwd=ROOT,
        env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "NO_COLOR": None,
             "PYTHONIOENCODING": None},
    ).text
    modules: list[str] = json.loads(record.read_text())
    return done, modules


def test_help_loads_neither_rich_nor_pyserial(tmp_path: Path) -> None:
    """``python -m defuser --help`` lists the commands without loading rich or pyserial."""
    done, modules = run_cli_recording_modules(tmp_path, ["--help"])
    assert done.code == 0, done.err
    assert done.out.startswith("Usage: mittens")
    for name in COMMANDS:
        assert name in done.out
    loaded = {name.partition(".")[0] for name in modules}
    assert "click" in loaded  # the record is real: the CLI itself ran
    assert not loaded & {"rich", "serial", "hardware"}
    assert not {m for m in modules if m.startswith("defuser.commands.")}


def _game_into_a_later_cycle() -> list[str]:
    """The lines of the first seeded game for AB3CD4 with 3 batteries, played by the
    policy, that is solved after the first mitten was dealt (in a later cycle)."""
    serial = SerialNumber.parse("AB3CD4")
    rules, interval = Ruleset(serial.table, serial.last_digit), Batteries(3).interval
    for seed in range(100):  # pragma: no branch - one of the first does
        module = Module(rules, interval, random.Random(seed))
        obs = Observation.start(rules, interval, module.discard_top, module.hand)
        lines = ["start " + " ".join(c.code for c in (module.discard_top, *module.hand))]
        rec = recommend(obs)
        while rec.action is not None:
            result = module.act(rec.action)
            obs = obs.after(result)
            lines.append(event_line(result))
            rec = recommend(obs)
        if not obs.belief.first_cycle:
            return lines
    raise AssertionError("no game reached a later cycle")


def test_live_json_answers_a_whole_game_without_loading_rich_or_numpy(tmp_path: Path) -> None:
    """``live --json`` answers without rich (it never draws) or numpy: the first cycle's
    values from the shipped solution on demand, a later cycle's from the values shipped
    for it (numpy's import alone costs about what the process start does, and a later
    cycle can begin a few answers into a game)."""
    lines = _game_into_a_later_cycle()
    done, modules = run_cli_recording_modules(
        tmp_path,
        ["live", "--json", "--serial", "AB3CD4", "--batteries", "3"],
        stdin="".join(f"{line}\n" for line in lines),
    )
    assert done.code == 0, done.err
    answers = [json.loads(line) for line in done.out.splitlines()]
    assert len(answers) == len(lines) and all(answer["ok"] for answer in answers)
    assert answers[-1]["recommendation"]["action"] == "none"  # solved
    loaded = {name.partition(".")[0] for name in modules}
    assert "defuser" in loaded and "click" in loaded  # the record is real
    assert not loaded & {"rich", "numpy"}


def test_live_first_answer_defines_no_event_class(tmp_path: Path) -> None:
    """The answer to ``start`` reads no event, so the event classes (frozen dataclasses,
    about 3.5 M instructions each to define) stay undefined until a line reports one:
    every dataclass the process defines is recorded."""
    defined = tmp_path / "dataclasses.json"
    prelude = (
        "import atexit, dataclasses\n"
        "_made, _dataclass = [], dataclasses.dataclass\n"
        "def _record(cls=None, /, **options):\n"
        "    def wrap(cls):\n"
        "        _made.append(cls.__module__ + '.' + cls.__qualname__)\n"
        "        return _dataclass(cls, **options)\n"
        "    return wrap if cls is None else wrap(cls)\n"
        "dataclasses.dataclass = _record\n"
        f"atexit.register(lambda: open({str(defined)!r}, 'w').write(json.dumps(_made)))\n"
    )
    done, _ = run_cli_recording_modules(
        tmp_path,
        ["live", "--json", "--serial", "AB3CD4", "--batteries", "3"],
        stdin="start RC BH GS YT\n", prelude=prelude,
    )
    assert done.code == 0, done.err
    assert json.loads(done.out)["recommendation"]["command"] == "play 1"
    made = set(json.loads(defined.read_text()))
    assert "defuser.strategy.values.Recommendation" in made  # the record is real
    events = {"Drew", "Discarded", "Played", "Solved", "Struck"}
    assert not {name for name in made if name.rpartition(".")[2] in events}


def test_stats_and_a_table_drill_load_no_strategy(tmp_path: Path) -> None:
    """``stats`` and a table drill never ask a decision question: the registry names the
    generators, so the policy, the DP and the simulator stay out of both processes (and
    ``stats --json`` draws nothing, so rich stays out too)."""
    db = str(tmp_path / "stats.db")
    strategy = {"defuser.strategy.policy", "defuser.strategy.dp", "defuser.trainer.situations"}
    done, modules = run_cli_recording_modules(tmp_path, ["stats", "--json", "--db", db])
    assert done.code == 0, done.err
    assert not strategy & set(modules)
    assert "rich" not in modules  # --json draws nothing
    done, modules = run_cli_recording_modules(
        tmp_path, ["drill", "--mode", "table", "--count", "1", "--seed", "1", "--db", db], "A\n"
    )
    assert done.code == 0, done.err
    assert "defuser.trainer.lookups" in modules
    assert not {"defuser.strategy.dp", "defuser.trainer.situations"} & set(modules)


def test_python_m_defuser_help_runs() -> None:
    """The documented ``python -m defuser`` entry point works as a real process."""
    done = run_process(["--help"], cwd=ROOT, env={"NO_COLOR": None}).text
    assert done.code == 0, done.err
    assert "Usage: mittens" in done.out and "solve" in done.out
    assert done.err == ""


def imported_names(path: Path) -> set[str]:
    """Top-level names of every absolute import in a source file, lazy ones included."""
    names: set[str] = set()
    for node in ast.walk(tree_of(path)):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


@pytest.mark.parametrize("path", sources("edgework"), ids=lambda p: p.name)
def test_edgework_source_imports_only_stdlib_and_itself(path: Path) -> None:
    """Every import statement in edgework names the standard library or edgework."""
    foreign = {
        name
        for name in imported_names(path)
        if name != "edgework" and name not in sys.stdlib_module_names
    }
    assert not foreign, f"{path.name} imports {sorted(foreign)}"


def test_engine_sources_never_import_cli_libraries() -> None:
    """No engine file mentions click, rich or pyserial in any import, even a lazy one."""
    offenders = {
        module_name(p): sorted(imported_names(p) & CLI_LIBRARIES)
        for p in sources("defuser")
        if not is_cli_layer(p) and imported_names(p) & CLI_LIBRARIES
    }
    assert not offenders


def test_only_hardware_imports_pyserial_and_no_module_is_named_serial() -> None:
    """pyserial stays inside hardware/, and no project module shadows it."""
    for package in ("edgework", "defuser"):
        for path in sources(package):
            assert "serial" not in imported_names(path), path
    for package in sorted(PROJECT_PACKAGES):
        assert not list((ROOT / package).rglob("serial.py")), package
