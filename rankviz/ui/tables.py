"""The one-ranking page's table of every metric, and the "other convention" box.

Dispatch and labelling only: every number comes from the metric functions of the registry.
"""

from __future__ import annotations

import streamlit as st

from rankviz.registry import get_spec, ranking_metric_table
from rankviz.teaching.export import format_number
from rankviz.teaching.labels import at_k_label, variant_text
from rankviz.ui.settings import DISCOUNT_LABELS, GAIN_LABELS, VARIANT_EXPLANATIONS, other_option

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


def metric_table_config() -> dict:
    return {
        "metric": st.column_config.TextColumn("metric", width=195, pinned=True),
        "value": st.column_config.NumberColumn("value", format="%.3f", width=60),
        "variant": st.column_config.TextColumn("variant", width=220, help="The conventions this value uses."),
        "definition": st.column_config.TextColumn(
            "definition", width="large",
            help="One-line definition; choose the metric below for its formula and worked table."),
    }


def render_other_convention(spec, rels, used: dict, n_ranked: int) -> None:
    """For a metric with a gain or discount switch: its value under the other convention, and why it differs.

    Variants are never silent: each switch gets a box, side by side.
    """
    switches = [name for name in ("gain", "discount") if name in used]
    if not switches:
        return
    labels = {"gain": GAIN_LABELS, "discount": DISCOUNT_LABELS}
    label = at_k_label(spec, {"k": used.get("k")}, n_ranked)
    for column, name in zip(st.columns(len(switches)), switches):
        other = other_option(name, used[name])
        try:
            value = format_number(spec.function(rels, **{**used, name: other}), 3)
        except ValueError as error:
            column.caption(f"With {other} {name}: {error}")
            continue
        column.info(f"**With {other} {name}** ({labels[name][other]}): {label} = **{value}**  \n"
                    f"{VARIANT_EXPLANATIONS[name]}", icon=":material/swap_horiz:")
