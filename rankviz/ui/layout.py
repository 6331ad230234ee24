"""Page chrome shared by every page: the projector-mode toggle and its CSS, and page headers."""

from __future__ import annotations

import streamlit as st

from rankviz.ui.link import current_value, link_widget

__all__ = ["PALETTE", "PROJECTOR_FONT_PX", "projector_on", "row_height_px", "table_height_px", "projector_toggle",
           "page_header"]

# Okabe-Ito: distinguishable with every common colour-vision deficiency. Charts and highlights use
# these; relevance is always written as a number or label too, never shown by colour alone.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")

PROJECTOR_FONT_PX = 20
_DEFAULT_FONT_PX = 16
_ROW_PX = 35  # a grid row at the default 16 px root font; rows scale with the font


def projector_on() -> bool:
    """True in projector mode (the sidebar switch, URL parameter ``projector``)."""
    return bool(current_value("projector"))


def row_height_px() -> float:
    """Height of one grid row now (grids scale their rows with the root font size)."""
    return _ROW_PX * (PROJECTOR_FONT_PX / _DEFAULT_FONT_PX if projector_on() else 1)


def table_height_px(rows: int, *, max_rows: int | None = None) -> int:
    """A height that shows ``rows`` rows plus the header (at most ``max_rows``) without a scrollbar."""
    shown = rows if max_rows is None else min(rows, max_rows)
    return int(row_height_px() * (shown + 1) + 3)


# Larger type, no header/toolbar/decoration, tighter margins: readable from the back of a lecture
# hall on a 1280x720 projector without horizontal scrolling.
_PROJECTOR_CSS = """
<style>
html { font-size: FONT_PXpx; }
[data-testid="stMainMenu"], [data-testid="stDecoration"], footer { display: none !important; }
[data-testid="stMainBlockContainer"] { padding: 3.5rem 1rem 2rem 1rem; max-width: 100%; }
.stMarkdown p, .stMarkdown li, [data-testid="stCaptionContainer"] { font-size: 1.05rem; }
[data-testid="stDataFrame"] { font-size: 1.1rem; }
.katex { font-size: 1.3em; }
</style>
"""

# Always on: long formulas wrap their own scroll box instead of widening the page; code in a caption
# takes the caption's colour (Streamlit's green code on the caption's grey fails WCAG AA contrast, 3.0:1).
_BASE_CSS = """
<style>
.katex-display { overflow-x: auto; overflow-y: hidden; padding-bottom: 0.25rem; }
[data-testid="stCaptionContainer"] code { color: inherit; }
.rv-sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
              clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }
[data-testid="stElementContainer"]:has(.rv-sr-only) { position: absolute; }
[data-testid="stMainBlockContainer"] { padding-top: 4rem; padding-left: 2rem; padding-right: 2rem; }
</style>
"""


# A formula too wide for the column scrolls in its own box; keyboard users must reach that box
# (WCAG 2.1.1, axe's scrollable-region-focusable): each overflowing formula becomes a focusable,
# labelled region, as formulas are drawn and redrawn.
_FOCUSABLE_FORMULAS_JS = """
<script>
(() => {
  const doc = window.parent && window.parent.document ? window.parent.document : document;
  if (doc.rankvizFormulaObserver) return;
  const mark = () => doc.querySelectorAll('.katex-display').forEach((box) => {
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    if (scrolls && !box.hasAttribute('tabindex')) {
      box.setAttribute('tabindex', '0');
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', 'Formula, wider than the page: scroll it with the arrow keys');
    } else if (!scrolls && box.getAttribute('role') === 'region') {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  });
  doc.rankvizFormulaObserver = new MutationObserver(mark);
  doc.rankvizFormulaObserver.observe(doc.body, {childList: true, subtree: true});
  window.addEventListener('resize', mark);
  mark();
})();
</script>
"""


def projector_toggle() -> bool:
    """The sidebar switch for projector mode (URL parameter ``projector``); injects its CSS when on."""
    st.html(_BASE_CSS)
    st.html(_FOCUSABLE_FORMULAS_JS, unsafe_allow_javascript=True)
    with st.sidebar:
        on = link_widget(st.toggle, "Projector mode", key="projector",
                         help="Large type and no chrome, for a 1280x720 projector. Collapse the sidebar too.")
    if on:
        st.html(_PROJECTOR_CSS.replace("FONT_PX", str(PROJECTOR_FONT_PX)))
    return on


def page_header(title: str, purpose: str) -> None:
    """The page title and its one-line purpose."""
    st.subheader(title, divider="gray")
    st.caption(purpose)
