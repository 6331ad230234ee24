"""Small renderers the teaching pages (precision-recall, graded, correlation, homework) share
beyond the foundation's editor and settings: the charts' type size for the projector, and a
course preset's printed numbers beside the exact ones. (Widgets kept in the link are drawn by
``rankviz.ui.link.link_widget``, numbers typed as text by ``rankviz.ui.fields``; charts by
``rankviz.ui.cached_charts``.)
"""

from __future__ import annotations

import streamlit as st

from rankviz.formatting import format_number
from rankviz.ui.layout import projector_on

__all__ = ["chart_font_size", "printed_vs_exact"]


def chart_font_size() -> int:
    """Axis and label type: 22 px in projector mode, 16 px otherwise."""
    return 22 if projector_on() else 16


def printed_vs_exact(preset, exact: dict, *, convention: str = "", where=None) -> None:
    """The numbers a course note prints beside the exact ones, and the note saying why they differ.

    ``exact`` maps a key of ``preset.printed`` to ``(label, exact value)``, the value computed by the
    page's rankviz call under the preset's convention (named by ``convention``).
    """
    box = where or st
    rows = [f"| {label} | {preset.printed[name]} | {format_number(value, 3)} |"
            for name, (label, value) in exact.items() if name in preset.printed]
    if not rows:
        return
    exact_header = f"exact ({convention})" if convention else "exact"
    table = "\n".join([f"| value | the course note prints | {exact_header} |", "|---|---|---|", *rows])
    box.info(f"**Course exercise: {preset.title}**\n\n{table}\n\n{preset.note}\n\n*Source: {preset.source}*",
             icon=":material/school:")
