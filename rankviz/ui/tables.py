"""The one-ranking page's table of every metric, and the "other convention" box.

Dispatch and labelling only: every number comes from the metric functions of the registry.
"""

from __future__ import annotations

import streamlit as st

from rankviz.i18n import _
from rankviz.registry import get_spec, ranking_metric_table
from rankviz.formatting import format_number
from rankviz.teaching.labels import at_k_label, variant_text
from rankviz.ui.layout import grid_text_px

__all__ = ["FAMILIES", "variant_text", "at_k_label", "every_metric_table", "metric_table_config",
           "render_other_convention"]

FAMILIES = ("binary", "graded")


def every_metric_table(rels, settings: dict, n_ranked: int):
    """One row per binary and graded ranking metric: label, value, variant, definition.

    The values are :func:`rankviz.registry.ranking_metric_table`'s; this only labels them (k
    filled in, the variant in words). A metric that rejects the settings gets NaN and its
    message in ``errors``; returns ``(DataFrame, errors)`` so one bad setting never hides the
    other metrics.
    """
    import pandas as pd

    computed = ranking_metric_table(rels, families=FAMILIES, errors="collect", **settings)
    specs = [get_spec(name) for name in computed["metric"]]
    table = pd.DataFrame({
        "metric": [at_k_label(spec, settings, n_ranked) for spec in specs],
        "value": computed["value"],
        "variant": [variant_text(spec.applicable(settings), spec) for spec in specs],
        "definition": computed["definition"],
    })
    errors = list(dict.fromkeys(message for message in computed["error"] if message))
    return table, errors


def metric_table_config(table) -> dict:
    """Column settings of :func:`every_metric_table`'s table: the metric names and values whole, at
    the type size in force (projector mode's is larger), and the variants; the definitions scroll."""
    return {
        "metric": st.column_config.TextColumn(_("metric"), width=grid_text_px(table["metric"]), pinned=True),
        "value": st.column_config.NumberColumn(_("value"), format="%.3f", width=grid_text_px(["00.000"])),
        "variant": st.column_config.TextColumn(_("variant"), width=grid_text_px(table["variant"]),
                                               help=_("The conventions this value uses.")),
        "definition": st.column_config.TextColumn(
            _("definition"), width="large",
            help=_("One-line definition; choose the metric below for its formula and worked table.")),
    }


def render_other_convention(spec, rels, used: dict, n_ranked: int) -> None:
    """For a metric with a gain or discount switch: its value under the other convention, and why it differs.

    Variants are never silent: one box, a paragraph per switch (one element, not a column each:
    every layout block is a message to each browser opening the page, issue 25).
    """
    switches = [p for p in spec.params if len(p.choices) == 2 and p.name in used]
    if not switches:
        return
    label = at_k_label(spec, {"k": used.get("k")}, n_ranked)
    paragraphs = []
    for param in switches:
        other = param.choice(param.other(used[param.name]))
        try:
            value = format_number(spec.function(rels, **{**used, param.name: other.value}), 3)
        except ValueError as error:
            paragraphs.append(_("With the {choice}: {error}").format(choice=other.label, error=error))
            continue
        paragraphs.append(_("**With the {choice}**: {label} = **{value}**").format(choice=other.label, label=label,
                                                                             value=value) + f"  \n{other.description}")
    st.info("\n\n".join(paragraphs), icon=":material/swap_horiz:")
