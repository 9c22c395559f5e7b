"""defuser.web.report: one report from the board page applied to the board's address."""

from __future__ import annotations

from defuser.web.board import BoardQuery, evaluate, read_edgework, refusal
from defuser.web.report import BoardReport, apply_report

EDGE = BoardQuery(serial="AB3CD4", batteries="3")
START = "start GC RH BH BC"


def reported(query: BoardQuery, *reports: BoardReport) -> BoardQuery:
    for report in reports:
        query = apply_report(query, report)
    return query


def test_a_typed_line_enters_the_modules_history_and_undo_redo_move_it() -> None:
    board = reported(EDGE, BoardReport(0, typed=START), BoardReport(0, typed="p1"))
    assert board.modules == ((START, "played 1"),) and board.rejected is None
    undone = apply_report(board, BoardReport(0, line="undo"))
    assert undone.modules == ((START,),) and undone.undone == (("played 1",),)
    assert apply_report(undone, BoardReport(0, line="redo")) == board
    assert apply_report(undone, BoardReport(0, typed="p2")).undone == ((),)  # a new line ends redo
    assert apply_report(EDGE, BoardReport(0, line="undo")).rejected == (0, "undo")


def test_a_refused_line_comes_back_with_the_board_unchanged() -> None:
    board = apply_report(EDGE, BoardReport(0, typed=START))
    refused = apply_report(board, BoardReport(0, typed="d RC"))  # two cards could be played
    assert refused.modules == board.modules and refused.rejected == (0, "discarded RC")
    assert apply_report(refused, BoardReport(0)).rejected is None  # shown once
    assert apply_report(board, BoardReport(0, typed="help")).rejected == (0, "help")


def test_edgework_lines_set_the_bombs_edgework() -> None:
    board = reported(BoardQuery(), BoardReport(0, typed="serial 'ZZ9ZZ9'"),
                     BoardReport(0, typed="batteries 4"), BoardReport(0, typed="edgework 2B 1H"))
    assert (board.serial, board.batteries, board.edgework) == ("ZZ9ZZ9", "4", "2B 1H")
    assert board.modules == ((),)


def test_clicked_faces_make_the_opening_state_then_draws() -> None:
    faces = [BoardReport(0, verb="start", face=face) for face in ("GC", "RH", "BH")]
    partial = reported(EDGE, *faces)
    assert partial.pending == ("GC RH BH",) and partial.modules == ((),)
    board = reported(partial, BoardReport(0, verb="start", face="blue circle"))
    assert board.modules == ((START,),) and board.pending == ("",)
    played = apply_report(board, BoardReport(0, typed="p1"))
    drawn = apply_report(played, BoardReport(0, verb="juggled", face="RC"))
    assert drawn.modules == ((START, "played 1", "drew RC"),)
    assert apply_report(board, BoardReport(0, verb="drew", face="XX")).rejected == (0, "drew XX")


def test_a_report_for_a_new_module_adds_one_and_twitch_numbers_stick() -> None:
    board = reported(EDGE, BoardReport(5, typed="!7 " + START))
    assert board.modules == ((), (START,))
    assert board.twitch_number(1) == 7
    renumbered = apply_report(board, BoardReport(1, twitch="#12"))
    assert renumbered.twitch_number(1) == 12 and renumbered.modules == board.modules
    assert apply_report(board, BoardReport(1, twitch="1000")).twitch_number(1) is None


def test_undo_and_redo_are_the_sessions_and_refuse_words_after_them() -> None:
    """The board once took 'undo x' and 'redo x' for undo and redo, ignoring the rest;
    the session (and so `mittens live`) refuses such a line, and so does the board now."""
    board = reported(EDGE, BoardReport(0, typed=START), BoardReport(0, typed="p1"))
    for line in ("undo x", "redo x"):
        refused = apply_report(board, BoardReport(0, typed=line))
        assert refused.modules == board.modules and refused.rejected == (0, line)
        assert refusal(read_edgework(refused), refused, 0, line) == {
            "line": line, "error": f"{line[:4]} 'x': {line[:4]} takes nothing after it"}


def test_undo_takes_back_the_last_change_not_a_line_that_changed_nothing() -> None:
    """An address whose module holds a line that changes nothing ('state', written by
    hand) once made undo take back that line alone, so the undo changed nothing; the
    session's undo takes back the last change."""
    board = BoardQuery(serial="AB3CD4", batteries="3", modules=((START, "played 1", "state"),))
    undone = apply_report(board, BoardReport(0, line="undo"))
    assert undone.modules == ((START,),) and undone.undone == (("played 1",),)
    assert undone.rejected is None


def test_a_redone_line_that_no_longer_fits_is_kept_but_not_applied() -> None:
    """After a corrected edgework, redo brings its line back even where it no longer
    fits: the module shows it as the line that no longer fits (as before)."""
    board = BoardQuery(serial="XZ3CD4", batteries="3", modules=((START, "played 1"),),
                       undone=(("discarded RC",),))
    redone = apply_report(board, BoardReport(0, line="redo"))
    assert redone.modules == ((START, "played 1", "discarded RC"),) and redone.undone == ((),)
    module = evaluate(redone)["modules"][0]
    assert module["applied"] == 2 and module["failed"]["line"] == "discarded RC"
    held = apply_report(redone, BoardReport(0, typed="p1"))
    assert held.rejected == (0, "played 1") and held.modules == redone.modules
    assert refusal(read_edgework(held), held, 0, "played 1") == {
        "line": "played 1",
        "error": "line 3 no longer fits; undo back to it or correct the edgework first"}
