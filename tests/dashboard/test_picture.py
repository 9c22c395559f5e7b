"""defuser.dashboard.picture: the dashboard's SVG, laid out from the top, text escaped."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET

from defuser.dashboard.picture import LINE_CHARS, MARGIN, WIDTH, Canvas, svg_document
from defuser.trainer.progress import dashboard_data

SVG = "{http://www.w3.org/2000/svg}"


def test_text_is_escaped_wrapped_and_stacked() -> None:
    canvas = Canvas()
    canvas.text("<b> & " + "word " * 100, size=14, gap=6)
    lines = [ET.fromstring(part) for part in canvas.parts]
    assert len(lines) == 4 and all(len(line.text or "") <= LINE_CHARS for line in lines)
    assert (lines[0].text or "").startswith("<b> & word")
    assert canvas.parts[0].count("&lt;b&gt; &amp;") == 1
    assert [float(line.get("y", "")) for line in lines] == [18.0, 36.0, 54.0, 72.0]
    assert canvas.y == 78.0 and all(line.get("x") == str(MARGIN) for line in lines)
    canvas.text("", size=28, gap=0)  # an empty line still takes its height
    assert canvas.y == 78.0 + 32


def test_an_empty_database_gives_a_valid_picture_that_says_so() -> None:
    now = dt.datetime(2026, 11, 26, 12).timestamp()
    svg = svg_document(dashboard_data([], now), dt.date(2026, 11, 26), "today & now")
    root = ET.fromstring(svg.split("\n", 1)[1])
    assert root.tag == f"{SVG}svg" and root.get("width") == str(WIDTH)
    assert root.get("viewBox") == f"0 0 {WIDTH} {root.get('height')}"
    words = [t.text for t in root.iter(f"{SVG}text")]
    assert words == ["Exploding Mittens drill stats", "Made today & now by mittens stats.",
                     "No answers yet: drill first, and this picture fills in."]
    assert root.find(f"{SVG}style") is not None
