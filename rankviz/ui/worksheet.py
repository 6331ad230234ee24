"""The homework page's worksheet section: a lecturer picks kinds, a count and a seed, and downloads
the printable sheet and its answer key as LaTeX and as self-contained HTML.

The files are made once per choice and shared by every session (a whole class pressing the same
button costs one build); the printed links open each exercise in the checker on this server, at
the address the browser reached it by (``rankviz.ui.address``: said beside the files when a class
cannot open it).
"""

from __future__ import annotations

import streamlit as st

from rankviz.teaching.homework import KINDS
from rankviz.teaching.homework.worksheets import MAX_SHEET_EXERCISES, make_worksheet, worksheet_html, worksheet_latex
from rankviz.i18n import _, language, ngettext
from rankviz.ui.address import browser_address, loopback_warning
from rankviz.ui.language import with_language

__all__ = ["worksheet_files", "worksheet_section"]

DEFAULT_KINDS = ("precision_recall", "ap", "ndcg", "spearman")


@st.cache_data(max_entries=64, show_spinner=False)
def worksheet_files(kinds: tuple[str, ...], count: int, seed: int, base_url: str,
                    lang: str = "en") -> dict[str, tuple[str, str]]:
    """File name -> (MIME type, text) of the sheet and its answer key, as LaTeX and HTML, in ``lang``
    (the cache's key: a Chinese sheet is another file)."""
    sheet = make_worksheet(list(kinds), count, seed)
    stem = f"worksheet_{seed}"
    return {f"{stem}.tex": ("application/x-tex", worksheet_latex(sheet, base_url=base_url)),
            f"{stem}_answers.tex": ("application/x-tex", worksheet_latex(sheet, answers=True, base_url=base_url)),
            f"{stem}.html": ("text/html", worksheet_html(sheet, base_url=base_url)),
            f"{stem}_answers.html": ("text/html", worksheet_html(sheet, answers=True, base_url=base_url))}


def worksheet_section() -> None:
    """The worksheet maker, in an expander; the files appear once "Make the worksheet" is pressed."""
    with st.expander(_("Worksheet for the class: exercises with blank tables, and the answer key"),
                     icon=":material/print:"):
        with st.form("ws_form", border=False):
            kinds = st.multiselect(_("Kinds of exercise"), list(KINDS), default=[k for k in DEFAULT_KINDS if k in KINDS],
                                   key="ws_kinds", format_func=KINDS.get,
                                   help=_("Exercises cycle through these kinds in this order."))
            count_col, seed_col = st.columns(2)
            count = count_col.number_input(_("Exercises"), min_value=1, max_value=MAX_SHEET_EXERCISES, value=6, step=1,
                                           key="ws_count")
            seed = seed_col.number_input(_("Sheet seed (the same seed always gives the same sheet)"), min_value=0,
                                         max_value=10**9, value=2026, step=1, key="ws_seed")
            made = st.form_submit_button(_("Make the worksheet"), icon=":material/description:", key="ws_make")
        if made:
            st.session_state["ws_choice"] = (tuple(kinds), int(count), int(seed))
        choice = st.session_state.get("ws_choice")
        if not choice:
            st.caption(_("Each exercise prints its own seed and a link that opens it in this checker."))
            return
        if not choice[0]:
            st.error(_("Pick at least one kind of exercise."))
            return
        files = worksheet_files(*choice, with_language(browser_address()), language())
        st.caption(ngettext("{n} exercise from seed {seed}: print the sheet for the class, keep the key.",
                            "{n} exercises from seed {seed}: print the sheet for the class, keep the key.",
                            choice[1]).format(n=choice[1], seed=choice[2]))
        loopback_warning(_("The sheet's links"))
        columns = st.columns(2)  # the sheet on the left, its key on the right
        for i, (name, (mime, text)) in enumerate(files.items()):
            is_key = "answers" in name
            what = ((_("Answer key") if is_key else _("Worksheet")) + " "
                    + ("(LaTeX)" if name.endswith(".tex") else _("(HTML, prints cleanly)")))
            columns[int(is_key)].download_button(what, text, file_name=name, mime=mime, key=f"ws_download_{i}",
                                           icon=":material/download:", width="stretch")
