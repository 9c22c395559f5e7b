"""defuser.web.drillroutes: what an answer form stands for, and its question's number."""

from __future__ import annotations

import pytest
from starlette.datastructures import FormData, UploadFile

from defuser.web.drillroutes import answer_line, question_number


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        ([("choice", "B")], "B"),
        ([("go", "typed"), ("line", "2 3"), ("choice", "B")], "2 3"),
        ([("line", "A")], "A"),
        ([("go", "next"), ("line", "A")], ""),
        ([("go", "help")], "?"),
        ([("go", "quit")], "quit"),
        ([("go", "legal"), ("slot", "1"), ("slot", "3")], "1 3"),
        ([("go", "legal"), ("slot", "2"), ("discard", "on")], "2 discard"),
        ([("go", "legal"), ("slot", "x")], "none"),
        ([("go", "legal")], "none"),
        ([], ""),
    ],
)
def test_each_way_of_answering_is_one_line(
    fields: list[tuple[str, str | UploadFile]], line: str
) -> None:
    assert answer_line(FormData(fields)) == line


@pytest.mark.parametrize(
    ("value", "number"),
    [("7", 7), ("0", 0), ("12345678", 12345678), ("123456789", None), ("-1", None),
     ("٣", None), ("", None), (None, None)],
)
def test_the_question_number_is_a_short_plain_number(value: str | None, number: int | None) -> None:
    fields: list[tuple[str, str | UploadFile]] = [] if value is None else [("q", value)]
    form = FormData(fields)
    assert question_number(form) == number
