"""Render what the package computed: worked tables, formulas with numbers, results, downloads,
and the source of the metric that produced them. Also ``compute``, the guard every page puts
around its rankviz call so bad input shows a message, never a traceback.
"""

from __future__ import annotations

import functools
import inspect

import streamlit as st

from rankviz.display import in_language
from rankviz.i18n import _
from rankviz.formatting import format_number, fraction_columns
from rankviz.metrics.reference import reference_source
from rankviz.teaching.export import to_csv_bytes, to_latex_table
from rankviz.ui.cached_results import arrow_frame
from rankviz.ui.layout import table_height_px

__all__ = ["compute", "render_breakdown", "render_result", "render_source", "number_columns"]

_FAILED = object()


def compute(function, *args, where=None, **kwargs):
    """Call ``function(*args, **kwargs)``; on ``ValueError`` show ``st.error(message)`` and return None.

    Pages wrap their rankviz call in this, so a bad input becomes a message beside the output
    (``where``: a container, default the page) and the rest of the page still draws.
    """
    try:
        return function(*args, **kwargs)
    except ValueError as error:
        (where or st).error(str(error))
        return None


def number_columns(df, digits: int = 3) -> dict:
    """Column config showing the float columns with a non-whole value
    (:func:`~rankviz.formatting.numbers.fraction_columns`) to ``digits`` decimals."""
    return {column: st.column_config.NumberColumn(str(column), format=f"%.{digits}f")
            for column in fraction_columns(df)}


def render_result(label: str, value, *, variant: str = "", where=None) -> None:
    """The final value in large type with the convention it used, e.g. ``nDCG@6 = 0.949 (exponential gain)``."""
    box = where or st
    shown = format_number(value, 3) if value is not None else "—"
    box.markdown(f"### {label} = {shown}" + (f"  \n<small>{variant}</small>" if variant else ""),
                 unsafe_allow_html=True)


@functools.lru_cache(maxsize=256)
def _source(function) -> str:
    """The function's source (read once per process: inspect re-reads and re-tokenizes the file each time)."""
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return f"# source of {getattr(function, '__qualname__', function)} is not available"


def render_source(function, *, label: str | None = None) -> None:
    """An expander with the code of the metric ``function`` computes, as a student can read it: its
    reference implementation (:func:`rankviz.metrics.reference.reference_for`: plain Python with
    the formula visible, tested equal to the package on random inputs), else the function's own
    source. Explanation and code cannot drift either way."""
    label = label if label is not None else _("Show the code")
    name = getattr(function, "__name__", "")
    reference = reference_source(name)
    with st.expander(label):
        if reference is not None:
            st.caption(_("`{reference}`: the formula in plain Python, tested equal to `{function}`, which computes "
                         "it with the package's vectorised kernel.").format(
                reference=f"rankviz.metrics.reference.{name}", function=f"{function.__module__}.{name}"))
            st.code(reference, language="python")
            return
        st.caption(f"`{getattr(function, '__module__', '')}.{name}`")
        st.code(_source(function), language="python")


def render_breakdown(worked, *, key: str, title: str, file_stem: str, variant: str = "", function=None,
                     aside=None, formula: str | None = None) -> None:
    """The worked table of a metric: the formula with this input's numbers, the table, the result,
    CSV and LaTeX downloads, and (given ``function``) the metric's source.

    ``worked`` is what a ``*_breakdown`` returns (a :class:`~rankviz.metrics.breakdown.Breakdown`):
    its ``latex``, ``table`` and ``value`` are shown.
    ``aside`` (a callable) draws extra content under the result, e.g. the other convention.
    ``formula`` (LaTeX, e.g. ``MetricSpec.formula``) is shown above the numbers: definition, then
    this ranking's arithmetic.
    """
    table = in_language(worked.table)  # headers and words in the language in force; downloads too
    formula_col, result_col = st.columns([3, 2], gap="medium", vertical_alignment="center")
    if formula:
        formula_col.latex(formula)
    if worked.latex:
        # A long sum wraps at its + and = (rankviz.ui.layout), never inside a product "0.009 · 0.375".
        formula_col.latex(worked.latex.replace(r"\cdot", r"\cdot\nobreak"))
    render_result(title, worked.value, variant=variant, where=result_col)
    st.dataframe(arrow_frame(table), hide_index=True, width="stretch", column_config=number_columns(table),
                 height=table_height_px(len(table), max_rows=12))
    if aside is not None:
        aside()
    # One row of buttons, not nested columns: every layout block is a message to every browser
    # that opens the page (a class opening one link at once: benchmarks/README.md, issue 25).
    with st.container(horizontal=True, key=f"{key}_downloads"):
        # Files are written when clicked (a callable), not on every rerun of the page.
        st.download_button("CSV", data=lambda: to_csv_bytes(table), file_name=f"{file_stem}.csv",
                           mime="text/csv", key=f"{key}_csv", icon=":material/download:",
                           on_click="ignore", help=_("The worked table as CSV."))
        st.download_button("LaTeX", data=lambda: to_latex_table(table, caption=title).encode("utf-8"),
                           file_name=f"{file_stem}.tex", mime="text/x-tex", key=f"{key}_tex",
                           icon=":material/download:", on_click="ignore",
                           help=_("The worked table as a LaTeX booktabs tabular, for homework write-ups."))
    if function is not None:
        render_source(function)
