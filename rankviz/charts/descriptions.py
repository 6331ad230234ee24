"""What each chart shows, in words: the text alternative a screen reader reads for it (WCAG 1.1.1).

Vega draws a chart as an SVG or canvas with no label of its own; the app puts
:func:`chart_description` in a visually hidden paragraph beside each chart. No Altair here.

>>> chart_description("err_chart")[:40]
'Chart: ERR down the ranking. Bars: the c'
"""

from __future__ import annotations

from rankviz.i18n import N_, _

__all__ = ["CHART_DESCRIPTIONS", "chart_description"]

CHART_DESCRIPTIONS = {
    "precision_recall_chart": N_("Precision-recall curve: precision (vertical, 0 to 1) against recall (horizontal, "
                              "0 to 1), the raw point at each rank and the interpolated precision as steps."),
    "precision_recall_at_rank_chart": N_("Precision and recall down the ranking: P@i and R@i (vertical, 0 to 1) at each "
                                      "rank i (horizontal), relevant ranks marked."),
    "roc_chart": N_("ROC curve: true-positive rate (vertical) against false-positive rate (horizontal), one curve per "
                 "group, with the diagonal of a random ranking; the area under it is the AUC."),
    "gain_contribution_chart": N_("What each rank adds to DCG: a bar per rank for the ranking and for the ideal ranking "
                               "(labelled with the grade), and the running DCG and IDCG as lines."),
    "err_chart": N_("ERR down the ranking. Bars: the chance the user stops at each rank; lines: the chance of reaching "
                 "the rank and the running ERR."),
    "rank_scatter_chart": N_("Rank in R1 (horizontal) against rank in R2 (vertical), one point per document; the "
                          "diagonal is perfect agreement, segments join discordant pairs."),
    "pair_matrix_chart": N_("Every pair of documents as a cell, coloured and lettered by whether the two rankings order "
                         "it the same way (concordant), differently (discordant) or tie it."),
    "metric_vs_position_chart": N_("Each metric's value (vertical) as one relevant document moves down the ranking "
                                "(horizontal: its rank), one line per metric, labelled at its end."),
    "metric_scatter_chart": N_("One metric against another over many rankings, one point per ranking."),
    "per_query_chart": N_("A measure's value per query, one bar per query and run."),
    "delta_chart": N_("Per query, the difference of a measure between two runs (or two tie rules): bars above zero where "
                   "the first is better, below where it is worse."),
    "distribution_chart": N_("The spread of a measure over the queries, per run: quartiles as a box, whiskers, and the "
                          "mean marked."),
}


def chart_description(builder: str, *, title: str = "") -> str:
    """``Chart: <title>. <what it shows>`` for the chart ``builder`` draws (the builder's name when unknown),
    in the language in force (a builder's default title translated too).

    >>> chart_description("roc_chart", title="ROC of the click log").split(". ")[0]
    'Chart: ROC of the click log'
    """
    what = _(CHART_DESCRIPTIONS[builder]) if builder in CHART_DESCRIPTIONS else builder.replace("_", " ") + "."
    if title:
        return _("Chart: {title}. {what}").format(title=_(title).rstrip("."), what=what)
    return _("Chart: {what}").format(what=what)
