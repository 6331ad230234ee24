"""Charts of two rankings of the same documents: rank against rank, and Kendall's pair matrix."""

from __future__ import annotations

import json

import altair as alt
import numpy as np

from rankviz._docstrings import fill_docstrings
from rankviz.charts._frames import escape_field, frame_of, require_columns, tooltip_kind
from rankviz.charts._parts import ChartParts, table
from rankviz.charts._style import CHART_WORDS, DEFAULT_FONT_SIZE, DEFAULT_HEIGHT, NEUTRAL_GREY, OKABE_ITO, finish
from rankviz.i18n import N_, _

__all__ = ["rank_scatter_chart", "pair_matrix_chart", "rank_scatter_parts", "pair_matrix_parts"]

VERDICTS = ["concordant", "discordant", "tied"]
LETTERS = {"concordant": "C", "discordant": "D", "tied": "T"}
# Light fills so that black letters keep a contrast above 7:1 on every cell.
VERDICT_FILLS = alt.Scale(domain=VERDICTS, range=[OKABE_ITO["sky blue"], OKABE_ITO["orange"], "#dddddd"])
VERDICT_LINES = alt.Scale(domain=VERDICTS, range=[OKABE_ITO["blue"], OKABE_ITO["vermillion"], NEUTRAL_GREY])
VERDICT_DASHES = alt.Scale(domain=VERDICTS, range=[[1, 0], [8, 4], [2, 3]])
_SPELLINGS = {"c": "concordant", "concordant": "concordant", "d": "discordant", "discordant": "discordant",
              "t": "tied", "tie": "tied", "tied": "tied"}


def _verdict_legend() -> alt.Legend:
    """The verdicts' legend in the language in force (the data keeps the English words the scales map)."""
    expression = " : ".join(f"datum.label === {json.dumps(v)} ? {json.dumps(_(v))}" for v in VERDICTS)
    return alt.Legend(labelExpr=f"{expression} : datum.label")


def _verdict(a_x, a_y, b_x, b_y) -> str:
    """A pair is concordant when both rankings order it the same way, discordant when they disagree."""
    product = np.sign(a_x - a_y) * np.sign(b_x - b_y)
    return "concordant" if product > 0 else "discordant" if product < 0 else "tied"


def rank_scatter_chart(df, *, doc="doc", rank_a="s1", rank_b="s2", name_a="R1", name_b="R2", highlight_pairs=None,
                       title=N_("Rank in one ranking against rank in the other"), font_size=DEFAULT_FONT_SIZE,
                       width="container", height=DEFAULT_HEIGHT):
    r"""Each document's rank in ranking A against its rank in ranking B, labelled, with the diagonal y = x.

    Documents on the diagonal are ranked alike; the farther a point lies from it, the larger
    its d = s1 - s2, the term Spearman's rho squares:

    .. math:: \rho = 1 - \frac{6 \sum_j d_j^2}{K (K^2 - 1)}

    Parameters
    ----------
    df : DataFrame or Breakdown
        One row per document, e.g. ``spearman_rho_breakdown(r1, r2)`` (or its ``table``), with the
        columns named below.
    doc, rank_a, rank_b : str
        Column names of the document id and its rank in each ranking.
    name_a, name_b : str
        Names of the two rankings, for the axis titles.
    highlight_pairs : iterable of (doc, doc), optional
        Pairs to join with a segment, styled by their verdict: concordant (solid), discordant
        (dashed), tied (dotted). Pass the discordant pairs of ``kendall_tau_breakdown`` to show
        every disagreement, or the one pair a student clicked.
    {title, font_size, width, height}

    {Returns a layered chart}

    Notes
    -----
    A segment between two documents rises (slope > 0) exactly when the pair is concordant, so
    discordant pairs are the segments that fall.

    References
    ----------
    Spearman, The proof and measurement of association between two things, Am. J. Psychol. 15 (1904).

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"doc": ["d1", "d2", "d3"], "s1": [1, 2, 3], "s2": [2, 1, 3]})
    >>> spec = rank_scatter_chart(table, highlight_pairs=[("d1", "d2")]).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'line', 'point', 'text']
    """
    return rank_scatter_parts(df, doc=doc, rank_a=rank_a, rank_b=rank_b, name_a=name_a, name_b=name_b,
                              highlight_pairs=highlight_pairs, title=title, font_size=font_size, width=width,
                              height=height).chart()


def rank_scatter_parts(df, *, doc="doc", rank_a="s1", rank_b="s2", name_a="R1", name_b="R2", highlight_pairs=None,
                       title=N_("Rank in one ranking against rank in the other"), font_size=DEFAULT_FONT_SIZE,
                       width="container", height=DEFAULT_HEIGHT) -> ChartParts:
    """:func:`rank_scatter_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`)."""
    func = "rank_scatter_chart"
    df = frame_of(df)
    require_columns(df, {"doc": doc, "rank_a": rank_a, "rank_b": rank_b}, func=func)
    docs = np.array([str(d) for d in df[doc].tolist()], dtype=object)
    ranks_a = df[rank_a].to_numpy(dtype=float)
    ranks_b = df[rank_b].to_numpy(dtype=float)
    both = np.concatenate([ranks_a, ranks_b])
    low = float(np.nanmin(both)) if len(docs) else 1.0
    high = float(np.nanmax(both)) if len(docs) else 1.0
    frames = {"diagonal": table(a=[low - 0.5, high + 0.5], b=[low - 0.5, high + 0.5],
                                line=[_("y = x: same rank in {a} and {b}").format(a=name_a, b=name_b)] * 2)}
    if highlight_pairs is not None:
        position = {name: i for i, name in enumerate(docs.tolist())}
        rows = []
        for pair in highlight_pairs:
            try:
                x, y = (str(d) for d in pair)
            except (TypeError, ValueError):
                raise ValueError(f"The 'highlight_pairs' parameter of {func} must hold (doc, doc) pairs. "
                                 f"Got {pair!r}.") from None
            missing = [d for d in (x, y) if d not in position]
            if missing:
                raise ValueError(f"The 'highlight_pairs' parameter of {func} names {missing[0]!r}, which is not "
                                 f"in the {doc!r} column.")
            i, j = position[x], position[y]
            verdict = _verdict(ranks_a[i], ranks_a[j], ranks_b[i], ranks_b[j])
            for end in (i, j):
                rows.append((f"{x}, {y}", verdict, docs[end], ranks_a[end], ranks_b[end]))
        frames["segments"] = table(**{name: np.array([row[n] for row in rows], dtype=object if n < 3 else float)
                                      for n, name in enumerate(["pair", "pair is", "doc", "a", "b"])})
    frames["points"] = table(doc=docs, a=ranks_a, b=ranks_b, d=ranks_a - ranks_b)
    layout = {"low": low, "high": high, "doc": str(doc), "rank_a": str(rank_a), "rank_b": str(rank_b),
              "name_a": str(name_a), "name_b": str(name_b), "title": title, "font_size": font_size, "width": width,
              "height": height}
    return ChartParts(_draw_rank_scatter, layout, frames)


def _draw_rank_scatter(data, layout: dict):
    low, high, font_size, name_a, name_b = (layout[key] for key in ("low", "high", "font_size", "name_a", "name_b"))
    scale = alt.Scale(domain=[low - 0.5, high + 0.5], nice=False, zero=False)
    x_a = alt.X("a:Q", scale=scale, title=_("rank in {name}").format(name=name_a), axis=alt.Axis(tickMinStep=1))
    y_b = alt.Y("b:Q", scale=scale, title=_("rank in {name}").format(name=name_b), axis=alt.Axis(tickMinStep=1))
    layers = [alt.Chart(data["diagonal"]).mark_line(color=NEUTRAL_GREY, strokeDash=[6, 4], strokeWidth=1.5).encode(
        x_a, y_b, tooltip=[alt.Tooltip("line:N", title=_("diagonal"))])]
    if "segments" in data:
        layers.append(alt.Chart(data["segments"]).mark_line(strokeWidth=3).encode(
            x_a, y_b, detail=alt.Detail("pair:N"),
            color=alt.Color("pair is:N", scale=VERDICT_LINES, title=_("pair is"), legend=_verdict_legend()),
            strokeDash=alt.StrokeDash("pair is:N", scale=VERDICT_DASHES, title=_("pair is"), legend=_verdict_legend()),
            tooltip=[alt.Tooltip("pair:N"), alt.Tooltip("pair is:N")]))
    tooltip = [alt.Tooltip("doc:N", title=layout["doc"]),
               alt.Tooltip("a:Q", title=_("{column} (rank in {name})").format(column=layout["rank_a"], name=name_a)),
               alt.Tooltip("b:Q", title=_("{column} (rank in {name})").format(column=layout["rank_b"], name=name_b)),
               alt.Tooltip("d:Q", title="d = s1 - s2")]
    base = alt.Chart(data["points"]).encode(x_a, y_b, tooltip=tooltip)
    layers.append(base.mark_point(filled=True, size=font_size * 8, color=OKABE_ITO["blue"]))
    layers.append(base.mark_text(align="left", dx=font_size * 0.6, dy=-font_size * 0.5, fontSize=font_size)
                  .encode(text=alt.Text("doc:N")))
    return finish(alt.layer(*layers), func="rank_scatter_chart", title=layout["title"], font_size=font_size,
                  width=layout["width"], height=layout["height"])


def pair_matrix_chart(pairs_df, *, first="i", second="j", verdict="pair", order=None,
                      title=N_("Kendall's pairs: concordant (C), discordant (D), tied (T)"), font_size=DEFAULT_FONT_SIZE,
                      width="container", height=None):
    r"""The matrix of document pairs, each cell lettered C, D or T (and filled to match).

    .. math:: \tau_b = \frac{C - D}{\sqrt{(C + D + T_1)(C + D + T_2)}}

    Parameters
    ----------
    pairs_df : DataFrame or Breakdown
        One row per pair, e.g. ``kendall_tau_breakdown(r1, r2)`` or its ``table`` (the defaults are its column
        names): the two documents and the pair's verdict, written "C"/"D"/"T",
        "concordant"/"discordant"/"tied" or "tied in a"/"tied in b"/"tied in both" (any case).
        Every other column (e.g. "order in a", "order in b") is shown in the tooltip.
    first, second, verdict : str
        Column names of the pair's documents (rows, columns of the matrix) and its verdict.
    order : sequence, optional
        The documents in the order of the matrix's rows and columns (e.g. ranking R1);
        default: the order they first appear in the table.
    title, font_size, width
        As in :func:`rankviz.charts.precision_recall_chart`.
    height : int, optional
        Default: tall enough for every document's label (at least 420 px).

    Returns
    -------
    alt.LayerChart

    Notes
    -----
    The subtitle counts C, D and the ties (in a, in b, in both as the table words them), so
    the chart carries the numbers tau-a and tau-b are computed from. All ties are lettered T.

    References
    ----------
    Kendall, A new measure of rank correlation, Biometrika 30 (1938).

    Examples
    --------
    >>> import pandas as pd
    >>> pairs = pd.DataFrame({"i": ["a", "a", "b"], "j": ["b", "c", "c"],
    ...                       "pair": ["concordant", "discordant", "tied in a"]})
    >>> spec = pair_matrix_chart(pairs).to_dict()
    >>> spec["title"]["subtitle"]
    '1 concordant, 1 discordant, 1 tied in a'
    """
    return pair_matrix_parts(pairs_df, first=first, second=second, verdict=verdict, order=order, title=title,
                             font_size=font_size, width=width, height=height).chart()


def pair_matrix_parts(pairs_df, *, first="i", second="j", verdict="pair", order=None,
                      title=N_("Kendall's pairs: concordant (C), discordant (D), tied (T)"), font_size=DEFAULT_FONT_SIZE,
                      width="container", height=None) -> ChartParts:
    """:func:`pair_matrix_chart` as its frames and layout (see :class:`rankviz.charts.ChartParts`).

    The matrix's row and column order travels in the data (the "row order" and "column order"
    columns the axes sort by), and its counts in the subtitle (``top_level``), so the template
    stays the same whatever the rankings.
    """
    func = "pair_matrix_chart"
    pairs_df = frame_of(pairs_df)
    require_columns(pairs_df, {"first": first, "second": second, "verdict": verdict}, func=func, name="pairs_df")
    kinds, details = [], []
    for position, value in enumerate(pairs_df[verdict].tolist(), start=1):
        text = str(value).strip().lower()
        kind = _SPELLINGS.get(text) or ("tied" if text.startswith("tied") else None)
        if kind is None:
            raise ValueError(f"The {verdict!r} column of pairs_df in {func} must hold C, D or T, or concordant, "
                             f"discordant, tied (or 'tied in a', 'tied in b', 'tied in both'); got {value!r} in "
                             f"row {position}.")
        kinds.append(kind)
        details.append(text if text.startswith("tied") else kind)
    firsts = [str(d) for d in pairs_df[first].tolist()]
    seconds = [str(d) for d in pairs_df[second].tolist()]
    documents = [str(d) for d in order] if order is not None else list(dict.fromkeys(firsts + seconds))
    # Documents missing from `order` come after it, in the order they first appear (as a Vega-Lite sort list does).
    place = {name: i for i, name in enumerate(dict.fromkeys(documents + firsts + seconds))}
    columns = {str(column): pairs_df[column].to_numpy() for column in pairs_df.columns}
    columns[str(first)] = np.array(firsts, dtype=object)
    columns[str(second)] = np.array(seconds, dtype=object)
    columns.update({"pair is": np.array(kinds, dtype=object), "letter": np.array([LETTERS[k] for k in kinds],
                                                                                 dtype=object),
                    "row order": np.array([place[d] for d in firsts], dtype=np.int64),
                    "column order": np.array([place[d] for d in seconds], dtype=np.int64)})
    extra = [(str(c), tooltip_kind(pairs_df, c)) for c in pairs_df.columns if c not in (first, second, verdict)]
    # Ties are counted as the table words them: tau-b needs ties in a and in b apart.
    counts = {word: details.count(word) for word in dict.fromkeys(["concordant", "discordant"] + details)}
    if len(counts) == 2:
        counts["tied"] = 0
    subtitle = ", ".join(_("{n} {pairs}").format(n=n, pairs=_(word)) for word, n in counts.items())
    if height is None:
        # A row per document tall enough for its label, plus title, subtitle, top axis and legend.
        height = max(DEFAULT_HEIGHT, int(len(set(firsts)) * font_size * 2.2 + 14 * font_size))
    layout = {"first": str(first), "second": str(second), "verdict": str(verdict), "extra": extra,
              "font_size": font_size, "width": width, "height": height}
    return ChartParts(_draw_pair_matrix, layout, {"pairs": table(**columns)},
                      top_level={"title": {"text": title, "subtitle": subtitle}})


def _draw_pair_matrix(data, layout: dict):
    first, second, verdict, font_size = layout["first"], layout["second"], layout["verdict"], layout["font_size"]
    tooltip = [alt.Tooltip(f"{escape_field(first)}:N", title=first),
               alt.Tooltip(f"{escape_field(second)}:N", title=second),
               alt.Tooltip(f"{escape_field(verdict)}:N", title=verdict)] + [
        alt.Tooltip(field=escape_field(column), type=kind, title=column) for column, kind in layout["extra"]]
    base = alt.Chart(data["pairs"]).encode(
        alt.X(f"{escape_field(second)}:O", sort=alt.EncodingSortField(field="column order", op="min"), title=second,
              axis=alt.Axis(orient="top", labelAngle=0)),
        alt.Y(f"{escape_field(first)}:O", sort=alt.EncodingSortField(field="row order", op="min"), title=first,
              axis=alt.Axis(titleAngle=0)),
        tooltip=tooltip)
    cells = base.mark_rect(stroke="white", strokeWidth=2).encode(
        color=alt.Color("pair is:N", scale=VERDICT_FILLS, title=_("pair is"), legend=_verdict_legend()))
    letters = base.mark_text(fontSize=font_size * 1.2, fontWeight="bold", color="black").encode(
        text=alt.Text("letter:N"))
    # The title (with the counts in its subtitle) is set by ChartParts: it changes with the data.
    return finish(alt.layer(cells, letters), func="pair_matrix_chart", title=None, font_size=font_size,
                  width=layout["width"], height=layout["height"])


fill_docstrings(globals(), CHART_WORDS)  # the {title, font_size, width, height} lines above
