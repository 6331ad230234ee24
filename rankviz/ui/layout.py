"""Page chrome shared by every page: projector mode (its switch, CSS and the page redrawn at its
type size), the language switch beside it, formulas that wrap, and page headers.

Projector mode sets the root font to :data:`PROJECTOR_FONT_PX`, and everything sized in rem
follows, except what measures the root font once: Streamlit's grids (``st.dataframe``,
``st.data_editor``) take their text size and row height from it when they mount and keep them.
A grid that mounted before the projector CSS landed (a projector link opened fresh, or the switch
turned on) stayed at 14 px text and 35 px rows inside a frame sized for 44 px rows: small type
above empty rows. So the page is drawn in a container whose key names the mode
(:func:`projector_view`): a change of mode mounts every element again; and a small script checks,
once the CSS is in, that each grid's type matches the root font, and if one does not, presses a
hidden button that mounts the page once more (the CSS is in by then). A server started in
projector mode (``rankviz app --projector``: ``--theme.baseFontSize 22``) needs none of this.
"""

from __future__ import annotations

import json

import streamlit as st

from rankviz.i18n import DEFAULT_LANGUAGE, _, language
from rankviz.ui.language import html_lang, language_switch
from rankviz.ui.link import current_value, link_widget

__all__ = ["PALETTE", "PROJECTOR_FONT_PX", "projector_on", "row_height_px", "grid_text_px", "table_height_px",
           "projector_view", "page_header"]

# Okabe-Ito: distinguishable with every common colour-vision deficiency. Charts and highlights use
# these; relevance is always written as a number or label too, never shown by colour alone.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")

PROJECTOR_FONT_PX = 20
_DEFAULT_FONT_PX = 16
_ROW_PX = 35  # a grid row at the default 16 px root font; rows scale with the font


def projector_on() -> bool:
    """True in projector mode (the switch at the top right of every page, URL parameter ``projector``)."""
    return bool(current_value("projector"))


def row_height_px() -> float:
    """Height of one grid row now (grids scale their rows with the root font size)."""
    return _ROW_PX * (PROJECTOR_FONT_PX / _DEFAULT_FONT_PX if projector_on() else 1)


def grid_text_px(texts, *, minimum: int = 60) -> int:
    """A grid column width (px) that shows the longest of ``texts`` whole at the type size now in force.

    Grids draw text at 0.875 of the root font (14 px, 17.5 px in projector mode); Source Sans
    averages under half an em a character (0.44 measured on the metric names), plus the cell's padding.
    """
    font = 0.875 * (PROJECTOR_FONT_PX if projector_on() else _DEFAULT_FONT_PX)
    longest = max((len(str(text)) for text in texts), default=0)
    return max(minimum, round(longest * 0.5 * font + font))


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
@media (min-width: 641px) { .st-key-rv_switches { top: 4.25rem; right: 1rem; } }
.stMarkdown p, .stMarkdown li, [data-testid="stCaptionContainer"] { font-size: 1.05rem; }
.katex { font-size: 1.3em; }
</style>
"""
# Drawn in the projector CSS's place when it is off, so turning it off replaces that CSS at once
# (a removed element would stay on screen until the run ends, after the page has mounted again).
_DEFAULT_VIEW_CSS = "<style>.rv-default-view { }</style>"

# Always on. Long formulas wrap at their operators (KaTeX splits a display formula into pieces at
# each operator and relation; Streamlit's CSS keeps them on one line, which cut the ERR sum at
# 1280 px), and a wrapped one is set flush left with its continuation lines indented; one that
# still cannot fit scrolls in its own box instead of widening the page. Code in a caption takes
# the caption's colour (Streamlit's green code on the caption's grey fails WCAG AA contrast, 3.0:1).
# Code in a Markdown table cell (a tool's own name of a function) may break anywhere: unbroken, one
# name (DataFrame.corr(method='kendall')) widened the table past a 390 px phone, cutting its last column.
# A button's label wraps to a second line rather than end in "…" ("Load the course's q1 an…" in
# projector mode), except in a row of download buttons: a row gives each button its narrowest width,
# and a wrapping label then broke letter by letter ("C / S / V"). The projector switch sits at the
# top right, beside the page title (on a phone, above it); the redraw button is for the script only
# (see the module docstring).
_BASE_CSS = """
<style>
.katex-display { overflow-x: auto; overflow-y: hidden; padding-bottom: 0.25rem; }
.katex-display > .katex, .katex-display > .katex > .katex-html { white-space: normal; }
.katex-display > .katex > .katex-html > .base { white-space: nowrap; text-indent: 0; }
.katex-display.rv-wrapped > .katex { text-align: left; }
.katex-display.rv-wrapped > .katex > .katex-html { padding-left: 2em; text-indent: -2em; }
.katex-display.rv-wrapped > .katex > .katex-html > .base { margin: 0.2em 0; }
[data-testid="stCaptionContainer"] code { color: inherit; }
[data-testid="stMarkdownContainer"] td code { overflow-wrap: anywhere; }
[data-testid^="stBaseButton"] [data-testid="stMarkdownContainer"],
[data-testid^="stBaseButton"] [data-testid="stMarkdownContainer"] p { white-space: normal; text-overflow: clip; overflow: visible; }
[class*="_downloads"] [data-testid^="stBaseButton"] [data-testid="stMarkdownContainer"] p { white-space: nowrap; }
.rv-sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
              clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }
[data-testid="stElementContainer"]:has(.rv-sr-only) { position: absolute; width: 1px; height: 1px; overflow: hidden; }
[data-testid="stMainBlockContainer"] { padding-top: 4rem; padding-left: 2rem; padding-right: 2rem; position: relative; }
[data-testid="stLayoutWrapper"]:has(> .st-key-rv_redraw) { display: none !important; }
.st-key-rv_switches { gap: 0.25rem 1rem; align-items: center; }
@media (min-width: 641px) {
  .st-key-rv_switches { position: absolute; top: 4.5rem; right: 2rem; width: auto !important; z-index: 2; }
  .st-key-rv_page_title h3 { padding-right: 22rem; }
}
</style>
"""

# What a keyboard and a phone need on every page. A collapsed sidebar is off-screen: hidden, its widgets leave the
# Tab order (focus vanished there twice per page). Taps of at least 24x24 px (WCAG 2.5.8, axe's target-size): help
# icons and heading anchors (16x16), a multiselect's remove buttons (15x7), its open button and text box, two-letter
# tabs; negative margins keep the layout. Wrapped inline formulas (a phone's sums, the reveal's cells) keep room between their
# lines, so fractions on two lines never touch.
_KEYBOARD_AND_TOUCH_CSS = """
<style>
[data-testid="stSidebar"][data-collapsed="true"], [data-testid="stSidebar"][data-collapsed="true"] * { visibility: hidden !important; }
[data-testid="stTooltipIcon"] button, [data-testid="stHeaderActionElements"] a {
  min-width: 24px; min-height: 24px; margin: -4px; display: inline-flex; align-items: center; justify-content: center; }
[data-testid="stMultiSelectTagsContainer"] [data-tag] button {
  min-width: 24px; min-height: 24px; margin: -8px -4px -8px 0; display: inline-flex; align-items: center;
  justify-content: center; }
[data-testid="stMultiSelect"] button[aria-haspopup="listbox"], [data-testid="stSelectbox"] button[aria-haspopup="listbox"] {
  min-height: 24px; min-width: 24px; }
[data-testid="stMultiSelect"] input { min-width: 24px; }
[data-testid="stTab"], button[aria-label^="Scroll tabs"] { min-width: 24px; justify-content: center; }
.stMarkdown .katex .base { margin: 0.2em 0; }
</style>
"""

# A formula too wide for the column even wrapped (a bracketed sum cannot wrap inside) is set up to
# a quarter smaller; one still too wide scrolls in its own box, and keyboard users must reach that
# box (WCAG 2.1.1, axe's scrollable-region-focusable): each overflowing formula becomes a
# focusable, labelled region, as formulas are drawn and redrawn. A formula that wraps is marked
# (rv-wrapped) to be set flush left with a hanging indent, as a long sum is written by hand.
_FOCUSABLE_FORMULAS_JS = """
<div class="rv-sr-only"><script>
(() => {
  const doc = window.parent && window.parent.document ? window.parent.document : document;
  doc.rankvizFormulaLabel = LABEL;  // in the language of the latest run
  if (doc.rankvizFormulaObserver) return;
  const wraps = (box) => {
    const pieces = box.querySelectorAll(':scope > .katex > .katex-html > .base');
    return pieces.length > 1 && pieces[pieces.length - 1].offsetTop > pieces[0].offsetTop + 4;
  };
  const mark = () => doc.querySelectorAll('.katex-display').forEach((box) => {
    box.style.fontSize = '';
    box.classList.toggle('rv-wrapped', wraps(box));
    const wide = box.scrollWidth / Math.max(box.clientWidth, 1);
    if (wide > 1.002 && wide < 1.34) {  // a piece that cannot wrap, a little too wide: smaller by up to a quarter
      box.style.fontSize = (0.99 / wide) + 'em';
      box.classList.toggle('rv-wrapped', wraps(box));
    }
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    if (scrolls && !box.hasAttribute('tabindex')) {
      box.setAttribute('tabindex', '0');
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', doc.rankvizFormulaLabel);
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
</script></div>
"""

# Grids take their type from the root font when they mount (see the module docstring): Streamlit
# draws grid text at 0.875rem. Once the root font is the mode's, a grid whose type is not
# 0.875 of it mounted too early: press the hidden redraw button, at most once per view drawn and
# a few times per page load (a guard against a loop should Streamlit change its grid type).
_REDRAW_STALE_GRIDS_JS = """
<script>
(() => {
  const view = VIEW;
  window.rvRedrawn = window.rvRedrawn || {};
  if (window.rvRedrawn[view] || Object.keys(window.rvRedrawn).length > 8) return;
  const stale = () => {
    const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
    return [...document.querySelectorAll('[data-testid="stDataFrame"] [style*="--gdg-base-font-style"]')].some((grid) => {
      const px = parseFloat(grid.style.getPropertyValue('--gdg-base-font-style').trim().split(' ').pop());
      return Math.abs(px - 0.875 * root) > 0.5;
    });
  };
  let tries = 0;
  const check = () => {
    if (stale()) {
      const button = document.querySelector('.st-key-rv_redraw button');
      if (button) { window.rvRedrawn[view] = true; button.click(); }
      return;
    }
    if (tries++ < 60) setTimeout(check, 200);
  };
  check();
})();
</script>
"""

_VIEW = "_projector_view_drawn"  # how many times the page was mounted again for its type size


def _redraw() -> None:
    st.session_state[_VIEW] = st.session_state.get(_VIEW, 0) + 1


def _widget_words_css(lang: str) -> str:
    """Streamlit writes a few words of its own widgets in English (it has no translations): in another
    language, the file uploader's button and its size limit are drawn in that language instead (CSS
    generated content; Streamlit's English text is kept, at size 0, for its own code).

    >>> _widget_words_css("en")
    ''
    >>> "上传" in _widget_words_css("zh")
    True
    """
    if lang == DEFAULT_LANGUAGE:
        return ""
    from rankviz.i18n import speaking
    from rankviz.ui.uploads import MAX_UPLOAD_MB

    with speaking(lang):
        upload = json.dumps(_("Upload"), ensure_ascii=False)
        limit = json.dumps(_("{size} MB per file").format(size=MAX_UPLOAD_MB), ensure_ascii=False)
    button = '[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p'
    instructions = '[data-testid="stFileUploaderDropzoneInstructions"] span'
    return (f"<style>{button}, {instructions} {{ font-size: 0; }}\n"
            f"{button}::after {{ content: {upload}; font-size: 0.875rem; }}\n"
            f"{instructions}::after {{ content: {limit}; font-size: 0.875rem; }}</style>")


def projector_view():
    """Projector mode for this run: its CSS, its switch (top right) and the container the page is
    drawn in (``with projector_view(): navigation.run()`` in app.py).

    The container's key names the mode and how often the page was redrawn, so a change of mode,
    or the redraw script (see the module docstring), mounts every grid again at the type size now
    in force. The switch is drawn here, outside that container, so it keeps the keyboard focus
    when pressed; it is never in the sidebar (an open sidebar eats a third of a 1280 px screen).
    """
    on = projector_on()
    # One style element and one script element: each element is a message to every browser that
    # opens the page (a class opening one link at once, issue 25).
    lang = language()
    st.html(_BASE_CSS + _KEYBOARD_AND_TOUCH_CSS + _widget_words_css(lang)
            + (_PROJECTOR_CSS.replace("FONT_PX", str(PROJECTOR_FONT_PX)) if on else _DEFAULT_VIEW_CSS))
    view = f"rv_view_{'projector' if on else 'default'}_{st.session_state.get(_VIEW, 0)}"
    with st.container(key="rv_redraw"):
        st.button(_("Redraw the page at this type size"), key="rv_redraw_button", on_click=_redraw)
        st.html(_FOCUSABLE_FORMULAS_JS.replace("LABEL", json.dumps(
                    _("Formula, wider than the page: scroll it with the arrow keys")))
                + _REDRAW_STALE_GRIDS_JS.replace("VIEW", json.dumps(view)) + html_lang(lang),
                unsafe_allow_javascript=True)
    with st.container(key="rv_switches", horizontal=True, width="content"):
        language_switch(lang)
        link_widget(st.toggle, _("Projector mode"), key="projector",
                    help=_("Large type everywhere, tables and formulas included, and no menu: for a 1280x720 "
                           "projector. Kept in the link, so a shared link opens in projector mode."))
    return st.container(key=view)


def page_header(title: str, purpose: str) -> None:
    """The page title and its one-line purpose (the title leaves room for the projector switch)."""
    with st.container(key="rv_page_title"):
        st.subheader(title, divider="gray")
    st.caption(purpose)
