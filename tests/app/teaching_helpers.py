"""Helpers of the teaching pages' AppTest tests (precision-recall, graded, correlation, homework).

Imported as ``from teaching_helpers import ...`` (pytest puts this folder on sys.path).
"""

from __future__ import annotations

import re
from pathlib import Path

from rankviz.formatting import format_number
from rankviz.ui.pages import PAGES


def page_path(stem: str) -> str:
    """The page file whose name is ``stem``.py, as rankviz/ui/pages.py lists it (the folder may be renamed)."""
    return next(page.path for page in PAGES if Path(page.path).stem == stem)


def results(at) -> dict[str, str]:
    """The result lines the page shows ("### nDCG@6 = 0.949"), as {"nDCG@6": "0.949"}."""
    shown = {}
    for markdown in at.markdown:
        match = re.match(r"### (.+) = (\S+)", markdown.value)
        if match:
            shown[match.group(1)] = match.group(2)
    return shown


def shown(value) -> str:
    """A value as the pages print it (three decimals, trailing zeros dropped)."""
    return format_number(value, 3)


def errors(at) -> list[str]:
    return [element.value for element in at.error]


def chart_frames(at, index: int = 0) -> list:
    """The datasets (DataFrames) of the index-th chart on the page, inline in its spec or sent as Arrow."""
    import json

    import pandas as pd
    import pyarrow as pa

    chart = at.get("vega_lite_chart")[index]
    inline = json.loads(chart.proto.spec).get("datasets", {})
    return ([pd.DataFrame(rows) for rows in inline.values()] +
            [pa.ipc.open_stream(dataset.data.data).read_all().to_pandas() for dataset in chart.proto.datasets])


def open_reveal(at, key: str = "step"):
    """Open the step-by-step reveal of ``key`` (a lazy expander: closed, it builds nothing), as a click on it does."""
    at.session_state[f"{key}_open"] = True
    at.run()
    assert not at.exception, at.exception
    return at


def homework_marks(at):
    """The homework page's marks table (an HTML table, rankviz.ui.wrapping) as a DataFrame; None before checking."""
    import html

    import pandas as pd

    tables = [element.proto.body for element in at.get("html") if "rv-wrap-table" in element.proto.body]
    if not tables:
        return None
    rows = [[html.unescape(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", tables[0])]
    return pd.DataFrame(rows[1:], columns=rows[0])
