"""Small renderers the teaching pages (precision-recall, graded, correlation, homework) share
beyond the foundation's editor and settings: the charts' type size for the projector, and a
course preset's printed numbers beside the exact ones. (Widgets kept in the link are drawn by
``rankviz.ui.link.link_widget``, numbers typed as text by ``rankviz.ui.fields``; charts by
``rankviz.ui.cached_charts``.)
"""

from __future__ import annotations

import streamlit as st

from rankviz.formatting import format_number
from rankviz.i18n import _
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
    exact_header = _("exact ({convention})").format(convention=convention) if convention else _("exact")
    header = "| {value} | {printed} | {exact} |".format(value=_("value"), printed=_("the course note prints"),
                                                         exact=exact_header)
    table = "\n".join([header, "|---|---|---|", *rows])
    box.info(_("**Course exercise: {title}**").format(title=_(preset.title))
             + f"\n\n{table}\n\n{_(preset.note)}\n\n*" + _("Source: {source}").format(source=_(preset.source)) + "*",
             icon=":material/school:")

