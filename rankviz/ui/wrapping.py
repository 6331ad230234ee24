"""What must wrap on a phone: a table of text whose rows stack as cards, and formulas that break
after + and = instead of running past the edge.

A glide grid (``st.dataframe``) keeps each column at a fixed width and scrolls sideways inside
itself: on a 390 px phone the homework checker's "why" column (where the mistake is named) was
off-screen, and at 1280 px it was cut. This table is plain HTML: cells wrap within the page at
any width, and below 640 px each row becomes a card of "column: value" lines, so a verdict and
its reason are read without scrolling. Its type scales with the page (projector mode).

A display formula (``st.latex``) never breaks: a long sum ran past a phone's edge. The same TeX
drawn as inline math in display style breaks after its top-level + and = like running text.
"""

from __future__ import annotations

import html

import streamlit as st

__all__ = ["wrapping_table_html", "show_wrapping_table", "breakable_tex", "show_wrapping_formula"]

# Below Streamlit's own breakpoint for stacking columns (640 px) the rows become cards.
_CSS = """<style>
.rv-wrap-table { width: 100%; border-collapse: collapse; font-size: 0.95rem; line-height: 1.4; }
.rv-wrap-table caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
.rv-wrap-table th, .rv-wrap-table td { text-align: left; vertical-align: top; padding: 0.4rem 0.6rem;
  border-bottom: 1px solid rgba(128, 128, 128, 0.35); overflow-wrap: anywhere; }
.rv-wrap-table th, .rv-wrap-table td:first-child { font-weight: 600; white-space: nowrap; }
@media (max-width: 640px) {
  .rv-wrap-table thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0, 0, 0, 0); }
  .rv-wrap-table tr { display: block; border: 1px solid rgba(128, 128, 128, 0.45); border-radius: 0.5rem;
    margin-bottom: 0.6rem; padding: 0.3rem 0.6rem; }
  .rv-wrap-table td, .rv-wrap-table td:first-child { display: block; border: none; padding: 0.15rem 0;
    white-space: normal; }
  .rv-wrap-table td::before { content: attr(data-label) ": "; font-weight: 600; }
}
</style>"""


def wrapping_table_html(rows: list[dict], *, caption: str = "") -> str:
    """The rows (dicts of column -> text, the first row's keys as columns) as an escaped HTML table.

    Roles are explicit so the table stays a table to a screen reader when a phone stacks it.

    >>> print(wrapping_table_html([{"step": "P@1", "why": "a < b"}]).split("<tbody>")[1].replace("<td", "\\n<td"))
    <tr role="row">
    <td role="cell" data-label="step">P@1</td>
    <td role="cell" data-label="why">a &lt; b</td></tr></tbody></table>
    """
    columns = list(rows[0]) if rows else []
    head = "".join(f'<th role="columnheader" scope="col">{html.escape(column)}</th>' for column in columns)
    body = "".join(
        '<tr role="row">' + "".join(f'<td role="cell" data-label="{html.escape(column, quote=True)}">'
                                    f"{html.escape(str(row.get(column, '')))}</td>" for column in columns) + "</tr>"
        for row in rows)
    title = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return (f'<table class="rv-wrap-table" role="table">{title}<thead><tr role="row">{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def show_wrapping_table(rows: list[dict], *, caption: str = "") -> None:
    """Draw :func:`wrapping_table_html` with its style."""
    st.html(_CSS + wrapping_table_html(rows, caption=caption))


def breakable_tex(tex: str) -> str:
    r"""``tex`` as inline display-style math that may break: ``\left( … \right)`` is one unbreakable
    group, so its parentheses become plain ones (whose terms can break).

    >>> print(breakable_tex(r"\frac{1}{3}\left(1 + 0.667\right) = 0.556"))
    $\displaystyle \frac{1}{3}(1 + 0.667) = 0.556$
    """
    return r"$\displaystyle " + tex.replace(r"\left(", "(").replace(r"\right)", ")") + "$"


def show_wrapping_formula(tex: str) -> None:
    """Draw :func:`breakable_tex` (a formula of a worked step, on any width)."""
    st.markdown(breakable_tex(tex))
