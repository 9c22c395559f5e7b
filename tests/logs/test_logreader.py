"""The game-log reader: bombs, edgework lines, module instances, bad bytes, line numbers."""

from __future__ import annotations

from pathlib import PurePosixPath, PureWindowsPath

from gamelog_builder import SAMPLES, BombSpec, game_log, sample_messages, sample_names

from defuser.logs.reader import default_log_path, iter_lines, read_log


def test_every_sample_is_one_module_on_an_implicit_bomb() -> None:
    for name in sample_names():
        data = (SAMPLES / name).read_bytes()
        game = read_log(data)
        assert len(game.bombs) == 1
        bomb = game.bombs[0]
        assert bomb.line is None and bomb.serial is None and bomb.batteries is None
        assert len(game.modules) == 1
        module = game.modules[0]
        assert module.module_id == 1
        assert [ml.number for ml in module.lines] == list(range(1, game.line_count + 1))
        assert [ml.message for ml in module.lines] == sample_messages(name)


def test_bombs_edgework_and_modules_of_a_noisy_log() -> None:
    built = game_log(
        [
            BombSpec("5M3ES3", [2, 1], {1: sample_messages("sample01.log")}, seed=77),
            BombSpec(
                "MG9NE9",
                [],
                {2: sample_messages("sample02.log"), 3: sample_messages("sample03.log")},
            ),
        ]
    )
    game = read_log(built.data)
    assert len(game.bombs) == 2
    first, second = game.bombs
    assert first.seed == "77" and first.serial == "5M3ES3"
    assert first.holders == [2, 1] and first.batteries == 3
    assert first.indicators == ["unlit FRK", "lit CAR"]
    assert first.ports == ["Parallel, Serial", ""]
    # A generated bomb that logged no battery holder has no batteries.
    assert second.holders == [] and second.batteries == 0
    assert [m.module_id for m in first.modules] == [1]
    assert sorted(m.module_id for m in second.modules) == [2, 3]
    for (bomb_index, module_id), numbers in built.numbers.items():
        module = next(m for m in game.bombs[bomb_index].modules if m.module_id == module_id)
        assert [ml.number for ml in module.lines] == numbers
        for ml in module.lines:
            assert built.lines[ml.number - 1].endswith(ml.message)


def test_windows_line_ends_lone_carriage_returns_and_a_byte_order_mark() -> None:
    built = game_log([BombSpec("5M3ES3", [3], {1: sample_messages("sample05.log")})],
                     newline="\r\n")
    game = read_log(b"\xef\xbb\xbf" + built.data)
    assert game.bombs[0].serial == "5M3ES3"
    assert [ml.number for ml in game.modules[0].lines] == built.numbers[(0, 1)]
    assert list(iter_lines([b"a\rb\rc"])) == ["a", "b", "c"]
    assert list(iter_lines([b"a\r\nb\n\nc"])) == ["a", "b", "", "c"]


def test_bytes_that_are_not_utf8_never_stop_the_reader() -> None:
    built = game_log([BombSpec("5M3ES3", [3], {1: sample_messages("sample03.log")})])
    noisy = built.data.replace(b"[State] Enter", b"[State] \xff\xfe\x80 Enter")
    noisy = b"\xc3\x28 garbage \xa0\xa1\n" + noisy + b"\xf0\x28\x8c\x28\n\x00\x00\n"
    game = read_log(noisy)
    assert game.bombs[0].serial == "5M3ES3"
    assert len(game.modules[0].lines) == len(sample_messages("sample03.log"))
    assert game.modules[0].lines[0].number == built.numbers[(0, 1)][0] + 1


def test_module_ids_continue_across_bombs_and_a_new_session_restarts_them() -> None:
    built = game_log(
        [
            BombSpec("AB3CD4", [1], {1: sample_messages("sample03.log")}),
            BombSpec("AB3CD5", [1], {2: sample_messages("sample04.log")}),
            BombSpec("AB3CD6", [1], {1: sample_messages("sample05.log")}),
        ]
    )
    game = read_log(built.data)
    ids = [[m.module_id for m in b.modules] for b in game.bombs]
    assert ids == [[1], [2], [1]]
    assert len(game.bombs[2].modules[0].lines) == len(sample_messages("sample05.log"))


def test_a_repeated_table_line_stays_in_its_game() -> None:
    lines = (SAMPLES / "sample03.log").read_text().splitlines()
    doubled = [lines[0], *lines]
    game = read_log(("\n".join(doubled) + "\n").encode())
    assert len(game.modules) == 1
    assert len(game.modules[0].lines) == len(doubled)


def test_malformed_edgework_lines_are_problems_not_failures() -> None:
    text = (
        "[BombGenerator] Generating bomb with seed 5\n"
        "[BatteryWidget] Randomizing Battery Widget: lots\n"
        "[SerialNumber] Randomizing Serial Number: AB3CD4\n"
        "[Exploding Mittens #x] You should use Table A.\n"
    )
    game = read_log(text.encode())
    assert [p.line for p in game.problems] == [2, 4]
    assert len(game.bombs) == 1
    assert game.bombs[0].serial == "AB3CD4" and game.bombs[0].batteries == 0


def test_edgework_without_generator_lines_still_makes_bombs() -> None:
    # An edited log may lack the [BombGenerator] lines: the widgets still describe a
    # bomb, and a second serial number starts the next one.
    text = (
        "[BatteryWidget] Randomizing Battery Widget: 2\n"
        "[SerialNumber] Randomizing Serial Number: AB3CD4\n"
        "[Exploding Mittens #1] You should use Table B.\n"
        "[SerialNumber] Randomizing Serial Number: XY1ZZ2\n"
        "[Exploding Mittens #2] You should use Table C.\n"
    )
    game = read_log(text.encode())
    assert [(b.serial, b.batteries) for b in game.bombs] == [("AB3CD4", 2), ("XY1ZZ2", 0)]
    assert [[m.module_id for m in b.modules] for b in game.bombs] == [[1], [2]]


def test_default_log_paths() -> None:
    game = "Keep Talking and Nobody Explodes"
    win = default_log_path("win32", {"APPDATA": "C:\\Users\\kim\\AppData\\Roaming"})
    assert win == PureWindowsPath(
        "C:\\Users\\kim\\AppData\\Roaming", "..", "LocalLow", "Steel Crate Games", game,
        "output_log.txt",
    )
    assert default_log_path("darwin", {"HOME": "/Users/kim"}) == PurePosixPath(
        "/Users/kim/Library/Logs/Unity/Player.log"
    )
    assert default_log_path("linux", {"HOME": "/home/kim"}) == PurePosixPath(
        f"/home/kim/.config/unity3d/Steel Crate Games/{game}/Player.log"
    )
