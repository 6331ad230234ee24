"""rankviz.formatting: the one LaTeX escaping and the one rule for which columns show decimals."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankviz.display import format_cells, latex_is_balanced
from rankviz.evaluation.comparison import compare_per_query
from rankviz.formatting import format_number, fraction_columns, latex_escape
from rankviz.teaching.export import to_latex_table


@pytest.mark.parametrize("char, written", [
    ("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"), ("_", r"\_"),
    ("{", r"\{"), ("}", r"\}"), ("~", r"\textasciitilde{}"), ("^", r"\textasciicircum{}"),
    ("<", r"\textless{}"), (">", r"\textgreater{}"), ("|", r"\textbar{}"),
])
def test_each_latex_special_is_written_as_latex_prints_it(char, written):
    assert latex_escape(f"a{char}b") == f"a{written}b"


def _outside_math(latex: str) -> str:
    """``latex`` without its ``\\ensuremath{...}`` groups and its commands."""
    out, i = [], 0
    while i < len(latex):
        if latex.startswith("\\ensuremath{", i):
            i, depth = i + len("\\ensuremath{"), 1
            while depth:
                depth += {"{": 1, "}": -1}.get(latex[i], 0) if latex[i - 1] != "\\" else 0
                i += 1
            continue
        out.append(latex[i])
        i += 1
    return re.sub(r"\\(?:[A-Za-z]+|.)", "", "".join(out))


@given(st.text(max_size=40))
def test_escaped_text_is_ascii_and_leaves_no_special_bare(text):
    # pdflatex reads it whatever the text holds: ASCII only, every brace paired, and none of
    # & % $ # _ ^ outside a command or a math group (a bare one would end a table cell, start a
    # comment or math mode); ¹ and ° are written in math mode, as ^{1} and ^\circ.
    latex = latex_escape(text)
    assert latex.isascii()
    assert latex_is_balanced(latex)
    assert not set(_outside_math(latex)) & set("&%$#_^")


def test_the_exports_and_the_comparison_escape_alike():
    # One table: a run name and a caption with LaTeX specials and Unicode read the same in the
    # worked table's export and in the comparison's LaTeX table.
    name = "run_1 & ρ≥½"
    assert latex_escape(name) == r"run\_1 \& \ensuremath{\rho}\ensuremath{\geq}\ensuremath{\tfrac{1}{2}}"
    assert latex_escape(name) in to_latex_table(pd.DataFrame({name: [1]}))
    queries = pd.Index(["q1", "q2", "q3"], name="query_id")
    per_query = {name: pd.DataFrame({"AP": [0.5, 0.7, 0.2]}, index=queries),
                 "base": pd.DataFrame({"AP": [0.4, 0.6, 0.3]}, index=queries)}
    assert latex_escape(name) in compare_per_query(per_query, baseline="base").to_latex()


def test_fraction_columns_are_float_columns_with_a_non_whole_value():
    table = pd.DataFrame({
        "rank": [1, 2, 3],                                     # int: never
        "grade": [3.0, 0.0, np.nan],                           # whole floats (NaN ignored): no decimals
        "P@i": [1.0, 0.5, 1 / 3],                              # one fraction: the whole column
        "gain": pd.array([7.0, None, 1.5], dtype="Float64"),   # pandas' nullable floats too
        "bound": [1.0, np.inf, 2.0],                           # inf is not a whole number
        "doc": ["a", "b", "c"],
    })
    assert fraction_columns(table) == ["P@i", "gain", "bound"]
    # display (notebooks, terminals) follows the same rule as the app's column config.
    assert format_cells(table).values.tolist()[1] == ["2", "0", "0.500", "—", "inf", "b"]


def test_format_number_at_full_precision_keeps_every_digit():
    assert format_number(1 / 3, None) == repr(1 / 3)
    assert format_number(7.0, None) == "7"
