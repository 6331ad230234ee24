"""Tables for notebooks and terminals: the cells as the app shows them, as accessible HTML and as text.

The rich-display hooks of :class:`rankviz.teaching.explain.Explanation`, ``EvalResult`` and
``Comparison`` build on these. No math here: a table in, strings out.

Numbers are written as the app's tables show them (the rule of
:func:`rankviz.formatting.numbers.fraction_columns`, which ``rankviz.ui.render.number_columns``
follows too): a float column with a non-whole value shows every value to ``digits`` decimals, a
float column of whole numbers (grades, counts) shows them without decimals; integers as they are, booleans as
``yes``/``no``, a missing value as ``—``.

>>> import pandas as pd
>>> table = pd.DataFrame({"rank": [1, 2], "rel": [3.0, 0.0], "P@i": [1.0, 0.5], "relevant?": [True, False]})
>>> format_cells(table).values.tolist()
[['1', '3', '1.000', 'yes'], ['2', '0', '0.500', 'no']]
>>> print(text_table(table))
rank  rel    P@i  relevant?
   1    3  1.000        yes
   2    0  0.500         no
"""

from __future__ import annotations

import html
import math
import numbers

from rankviz.formatting import fraction_columns
from rankviz.i18n import DEFAULT_LANGUAGE, N_, _, language

__all__ = ["MISSING", "SHOWN_WORDS", "in_language", "format_cells", "html_table", "text_table", "latex_is_balanced"]

#: How a missing cell (NaN, None, pandas' NA) is written.
MISSING = "—"


#: Headers and cell values of tables that other code reads by their English names (the tie rules,
#: the pairs of Kendall's tau and of the top-K distance, AUC's pairs and GAUC's groups, coverage,
#: the gain and discount variants, the per-query tables): :func:`in_language` shows them in the
#: language in force at the moment a page draws the table; the data keeps its English names.
SHOWN_WORDS = (
    # tie rules (rankviz.evaluation.ties)
    N_("rank"), N_("score"), N_("doc"), N_("grade"), N_("input order"), N_("tie-averaged"), N_("measure"),
    N_("method"), N_("rules disagree"), N_("exact"), N_("order-free"), N_("Monte Carlo"), N_("tie-averaged by"),
    N_("queries that differ"), N_("query_id"), N_("input order - trec_eval"), N_("tie-averaged - trec_eval"),
    N_("retrieved"), N_("tied documents"), N_("tie groups"), N_("tie group size"), N_("relevant"),
    N_("P(relevant)"), N_("mean grade"),
    # Kendall's pairs and the top-K distance (rankviz.metrics.correlation)
    N_("order in a"), N_("order in b"), N_("pair"), N_("concordant"), N_("discordant"), N_("tied"),
    N_("tied in a"), N_("tied in b"), N_("tied in both"), N_("rank i in a"), N_("rank j in a"),
    N_("rank i in b"), N_("rank j in b"), N_("case"), N_("penalty"), N_("both in both lists"),
    N_("both in one list, one in the other"), N_("each only in a different list"),
    N_("both only in the same list"),
    # AUC's pairs, GAUC's groups, coverage and novelty (rankviz.metrics.classification, .user)
    N_("group"), N_("positives"), N_("negatives"), N_("auc"), N_("weight"), N_("included"), N_("positive"),
    N_("negative"), N_("positive score"), N_("negative score"), N_("outcome"), N_("credit"),
    N_("positive higher"), N_("negative higher"), N_("tie"), N_("in R (relevant)"), N_("in A (answer)"),
    N_("in K (known)"),
    # variants and per-query tables (rankviz.teaching)
    N_("gain"), N_("discount"), N_("linear"), N_("exponential"), N_("jarvelin"), N_("metric"), N_("query"),
    N_("ranked"), N_("queries"), N_("value"), N_("over"), N_("convention"), N_("run"), N_("position"),
)
_SHOWN = frozenset(SHOWN_WORDS)


def in_language(table):
    """``table`` as a person reads it in the language in force: headers and text cells among
    :data:`SHOWN_WORDS` translated, booleans written ``yes``/``no`` in that language. In English the
    table itself, unchanged (code and tests read the data, not the words).

    >>> import pandas as pd
    >>> from rankviz.i18n import speaking
    >>> table = pd.DataFrame({"pair": ["concordant", "tied"], "doc": ["d1", "d2"], "relevant": [True, False]})
    >>> in_language(table) is table
    True
    >>> with speaking("zh"):
    ...     in_language(table).values.tolist()
    [['一致', 'd1', '是'], ['并列', 'd2', '否']]
    """
    if language() == DEFAULT_LANGUAGE or not hasattr(table, "columns"):
        return table
    shown = table.copy(deep=False)
    for column in shown.columns:
        series = shown[column]
        if series.dtype.kind == "b":
            shown[column] = series.map({True: _("yes"), False: _("no")})
        elif series.dtype.kind == "O":  # object or pandas' str dtype
            words = {value: _(value) for value in series.unique() if isinstance(value, str) and value in _SHOWN}
            if words:
                shown[column] = series.replace(words)
    return shown.rename(columns={c: _(c) for c in shown.columns if isinstance(c, str) and c in _SHOWN})


def _is_missing(value) -> bool:
    if value is None:
        return True
    try:
        import pandas as pd

        return bool(pd.isna(value))
    except (TypeError, ValueError):  # a list or an array in a cell is not "missing"
        return False


def format_cells(table, digits: int = 3):
    """The table with every cell written as text, the way the app's tables show it.

    Parameters
    ----------
    table : pandas.DataFrame
    digits : int, default 3
        Decimals of a float column holding a non-whole value (the app's ``%.3f``).

    Returns
    -------
    pandas.DataFrame
        Same columns and rows, every cell a ``str``.

    Examples
    --------
    A column of whole floats (grades) loses its ``.0``; a column with a fraction shows all its
    values to 3 decimals, as ``st.dataframe`` with ``NumberColumn(format="%.3f")`` does:

    >>> import pandas as pd
    >>> format_cells(pd.DataFrame({"grade": [3.0, 2.0], "gain": [7.0, 1.5]})).values.tolist()
    [['3', '7.000'], ['2', '1.500']]
    """
    import pandas as pd

    cells = {}
    fractional = fraction_columns(table)
    for column in table.columns:
        series = table[column]
        kind = series.dtype.kind
        whole = kind == "f" and column not in fractional
        written = []
        for value in series:
            if _is_missing(value):
                written.append(MISSING)
            elif isinstance(value, (bool,)) or type(value).__name__ == "bool_":
                written.append(_("yes") if value else _("no"))  # the language in force (the CLI's: English)
            elif kind == "f" or (isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral)):
                number = float(value)
                if not math.isfinite(number):
                    written.append("inf" if number > 0 else "-inf")
                elif kind == "f" and whole:
                    written.append(str(int(number)))
                else:
                    written.append(f"{number:.{digits}f}")
            else:
                written.append(str(value))
        cells[column] = written
    return pd.DataFrame(cells, index=range(len(table)), columns=list(table.columns))


def _is_numeric(series) -> bool:
    return series.dtype.kind in "iuf"


def text_table(table, digits: int = 3, *, right: tuple = ()) -> str:
    """The table as plain text for a terminal: a header line, one line per row, numbers (and the
    columns named in ``right``) right-aligned.

    >>> import pandas as pd
    >>> print(text_table(pd.DataFrame({"doc": ["d1", "d22"], "s1": [1.0, 2.5]})))
    doc     s1
    d1   1.000
    d22  2.500
    """
    cells = format_cells(table, digits)
    columns = [str(c) for c in table.columns]
    widths = [max([len(name), *(len(v) for v in cells.iloc[:, i])]) for i, name in enumerate(columns)]
    right = [_is_numeric(table.iloc[:, i]) or table.iloc[:, i].dtype.kind == "b" or table.columns[i] in right
             for i in range(len(columns))]

    def line(values):
        return "  ".join(v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right)).rstrip()

    return "\n".join([line(columns), *(line(list(row)) for row in cells.itertuples(index=False))])


def html_table(table, *, caption: str | None = None, digits: int = 3, row_headers: int = 0,
               right: tuple = (), css_class: str = "rankviz-table") -> str:
    """The table as an accessible HTML ``<table>``: a caption, column headers with ``scope="col"``,
    numbers right-aligned with tabular figures, everything escaped.

    ``row_headers``: how many leading columns name the row (``<th scope="row">``), e.g. the
    measure of a results table. ``right``: columns of text to right-align as numbers are (numbers
    already written as text, e.g. with a significance mark).

    >>> import pandas as pd
    >>> print(html_table(pd.DataFrame({"rank": [1], "P@i": [0.5]}), caption="P < 1"))  # doctest: +NORMALIZE_WHITESPACE
    <table class="rankviz-table" style="border-collapse: collapse; font-variant-numeric: tabular-nums;">
    <caption style="caption-side: top; text-align: left; font-weight: bold;">P &lt; 1</caption>
    <thead><tr><th scope="col" style="text-align: right; padding: 2px 8px; border-bottom: 1px solid;">rank</th><th
    scope="col" style="text-align: right; padding: 2px 8px; border-bottom: 1px solid;">P@i</th></tr></thead>
    <tbody>
    <tr><td style="text-align: right; padding: 2px 8px;">1</td><td style="text-align: right; padding: 2px 8px;">0.500</td></tr>
    </tbody>
    </table>
    """
    cells = format_cells(table, digits)
    align = ["right" if _is_numeric(table.iloc[:, i]) or table.columns[i] in right else "left"
             for i in range(table.shape[1])]
    pad = "padding: 2px 8px;"
    head = "".join(f'<th scope="col" style="text-align: {a}; {pad} border-bottom: 1px solid;">{html.escape(str(c))}</th>'
                   for c, a in zip(table.columns, align))
    rows = []
    for row in cells.itertuples(index=False):
        tds = []
        for i, (value, a) in enumerate(zip(row, align)):
            tag = 'th scope="row"' if i < row_headers else "td"
            tds.append(f'<{tag} style="text-align: {a}; {pad}">{html.escape(value)}</{tag.split()[0]}>')
        rows.append("<tr>" + "".join(tds) + "</tr>")
    parts = [f'<table class="{html.escape(css_class)}" style="border-collapse: collapse; '
             f'font-variant-numeric: tabular-nums;">']
    if caption:
        parts.append(f'<caption style="caption-side: top; text-align: left; font-weight: bold;">'
                     f'{html.escape(caption)}</caption>')
    parts += [f"<thead><tr>{head}</tr></thead>", "<tbody>", *rows, "</tbody>", "</table>"]
    return "\n".join(parts)


def latex_is_balanced(latex: str) -> bool:
    r"""Whether braces, ``\left``/``\right`` and ``\begin``/``\end`` pair up (escaped ``\{`` ``\}`` aside).

    A cheap check that a formula can be handed to KaTeX or MathJax as one piece.

    >>> latex_is_balanced(r"\frac{1}{2} \left( x \right) \{a\}"), latex_is_balanced(r"\frac{1}{2")
    (True, False)
    """
    import re

    depth = 0
    i = 0
    while i < len(latex):
        char = latex[i]
        if char == "\\":
            i += 2  # \{ \} \\ and the first letter of a command are never a group
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return False
        i += 1
    if depth:
        return False
    if len(re.findall(r"\\left(?![a-zA-Z])", latex)) != len(re.findall(r"\\right(?![a-zA-Z])", latex)):
        return False
    environments = []
    for kind, name in re.findall(r"\\(begin|end)\{([^}]*)\}", latex):
        if kind == "begin":
            environments.append(name)
        elif not environments or environments.pop() != name:
            return False
    return not environments
