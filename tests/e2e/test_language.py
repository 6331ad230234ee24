"""Every page in Chinese in a real browser (issue 23): ``?lang=zh`` shows no English word outside
formulas, code, numbers, metric symbols and user data, in the default and the projector view;
``<html lang>`` says the language (screen readers speak it); axe's audit passes in Chinese; on a
390 px phone nothing is wider than the screen.

What counts as English: a run of two or more Latin letters in the page's visible text, once
KaTeX formulas and code blocks are set aside, that is not in :data:`ALLOWED` (the metric
symbols the course writes in English in the Chinese notes too, the tools' names, file formats).
A failing page lists its words, so what is left to translate is read off the failure.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import no_error_text, open_drawn, wait_until_idle
from rankviz.glossary import TERMS
from rankviz.i18n import _, speaking
from rankviz.conventions import CONVENTIONS, PROFILES, TOOLS
from rankviz.data import SAMPLE_RUNS
from rankviz.ui.pages import PAGES

pytestmark = pytest.mark.e2e

STEMS = [Path(page.path).stem for page in PAGES]

# Symbols and names that stay as they are in Chinese text (the notes write MAP, NDCG, AUC, GAUC,
# MRR, ERR, DCG, ROC in Latin letters too), tools and formats, and the switch's own "English".
ALLOWED = {
    "nDCG", "NDCG", "DCG", "IDCG", "CG", "AP", "MAP", "GMAP", "HMAP", "MRR", "RR", "ERR", "NERR", "AUC", "GAUC",
    "ROC", "ESL", "tpr", "fpr", "SRCC", "tau", "rho", "Fβ", "log", "ln", "max", "min", "mean", "exp", "ceil", "floor",
    "g_max", "gmax", "rel", "rankviz", "trec_eval", "qrels", "run", "runs", "CSV", "LaTeX", "HTML", "TREC",
    "PageDown", "PageUp", "Enter", "English", "q1", "q2", "prec", "interp", "pt", "at", "cut", "sh",
    "w_g", "S_h", "T_a", "T_b", "R_i", "g_i", "K_n", "F_",  # symbols the captions define
    "w_p", "w_n",  # a pair's impression weights, in the GAUC conventions' words
    "NaN",  # an undefined value, as every language's number is written (rankviz.formatting.format_number)
    "round", "Python",  # round(r·R) in the 11-point rule; the language of "Show the code"
    "MB",  # a unit, as Chinese text writes it
    "Glossary",  # the glossary's title is bilingual on purpose (术语表 Glossary), in the navigation of every page
}
# Names stay as they are written: the tools the Why page and the tools table compare, trec_eval's
# measure names (code), the authors, venues and libraries the registry's descriptions cite.
NAMES = {word for tool in TOOLS for word in re.findall(r"[A-Za-z_]+", PROFILES[tool].title)}
# and the other tools the conventions name beside their choices (pandas, R DescTools: the teaching pages list them)
NAMES |= {word for c in CONVENTIONS.values() for use in c.tools for word in re.findall(r"[A-Za-z_]+", use.tool)}
NAMES |= {"scikit", "learn", "pytrec_eval", "scipy", "NIST", "Burges", "LightGBM", "XGBoost", "Järvelin",
          "Kekäläinen", "McSherry", "Najork", "ECIR", "Zhou", "Hanley", "McNeil", "Korfhage", "Cooper", "KDD",
          "Holm", "Bonferroni", "Stuart", "Vigna", "ndcg", "ndcg_cut_k", "gm_map", "iprec_at_recall_", "log_base",
          "docno", "query_id", "TF"}  # TF-Ranking, as its authors shorten TensorFlow Ranking
# The sample collection's runs are data (a user's own runs would be named by them): bm25, dense...
NAMES |= {word for run in SAMPLE_RUNS for word in re.findall(r"[A-Za-z]+", run)}
# Set aside before looking for words: a citation after 出处： (sources are cited as they are titled:
# the English lecture's file and slide titles), web addresses, file names, dotted code names
# (rankviz.metrics.precision) and metric symbols with a cut-off (Accuracy@6, success@k, R-precision).
_SET_ASIDE = re.compile(r"出处：[^。；\n]*|https?://\S+|[\w.-]+\.(?:txt|csv|tsv|tex|html|qrels|run)\b"
                        r"|rankviz(?:\.\w+)+|\b[A-Za-z_]+@[\w.]+|\bR-precision\b")

# The glossary shows English names on purpose, beside the Chinese (and its note names the English terms).
GLOSSARY_ENGLISH = {word for t in TERMS for word in re.findall(r"[A-Za-z]+", f"{t.english} {t.symbol} {t.in_notes or ''}")}
GLOSSARY_ENGLISH |= {"accuracy", "precision", "recall", "P_interp", "prec"}

# Formulas, code and Material icons (their ligature names, e.g. "play_arrow", are text in the DOM)
# set aside; every text node read on its own, so a table's cells do not run together.
_VISIBLE_TEXT_JS = """
() => {
  const main = document.querySelector('[data-testid="stMain"]').cloneNode(true);
  main.querySelectorAll('.katex, .katex-display, code, pre, script, style, [data-testid="stCode"], '
                        + '[data-testid="stIconMaterial"], [translate="no"]')
      .forEach((node) => node.remove());
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode.textContent);
  return texts.join(' ');
}
"""


def _open(tab, url: str) -> None:
    open_drawn(tab, url)


def _url(app_url: str, stem: str, query: str) -> str:
    return f"{app_url}/{'' if stem == 'home' else stem}?{query}"


def english_words(text: str, allowed=frozenset()) -> list[str]:
    """The Latin-letter words of ``text`` (two letters or more) not in :data:`ALLOWED` or ``allowed``,
    once each, in order.

    >>> english_words("准确率 P@k 与 nDCG@6 = 0.949 (exponential gain)")
    ['exponential', 'gain']
    """
    words = re.findall(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ_]+", _SET_ASIDE.sub(" ", text))
    return list(dict.fromkeys(w for w in words if w not in ALLOWED and w not in NAMES and w not in allowed))


@pytest.mark.parametrize("view", ["default", "projector"])
@pytest.mark.parametrize("stem", STEMS)
def test_every_page_in_chinese_shows_no_english_words_and_passes_axe(page, app_url, stem, view):
    """One visit per page and view (the suite's time): its words, then axe's audit of the same page."""
    from test_accessibility import _serious_violations

    _open(page, _url(app_url, stem, "lang=zh" + ("&projector=true" if view == "projector" else "")))
    no_error_text(page)
    found = english_words(page.evaluate(_VISIBLE_TEXT_JS), GLOSSARY_ENGLISH if stem == "glossary" else frozenset())
    assert found == [], f"{stem} ({view}): {len(found)} English words: {' '.join(found)}"
    assert page.evaluate("() => document.documentElement.lang") == "zh"
    assert _serious_violations(page) == []


@pytest.mark.parametrize(("lang", "expected"), [("zh", "zh"), ("en", "en")])
def test_the_html_lang_attribute_follows_the_language(page, app_url, lang, expected):
    _open(page, _url(app_url, "graded", f"lang={lang}"))
    page.wait_for_function(f"() => document.documentElement.lang === {expected!r}", timeout=10_000)
    assert re.search(rf"[?&]lang={lang}\b", page.url), page.url


def test_the_switch_turns_the_page_chinese_and_keeps_it_in_the_link(page, app_url):
    _open(page, _url(app_url, "precision_recall", "rels=1,0,1"))
    page.get_by_role("radio", name="简体中文").click()
    page.get_by_role("heading", name="准确率与召回率").wait_for()
    wait_until_idle(page)
    assert re.search(r"[?&]lang=zh\b", page.url) and "rels=1%2C0%2C1" in page.url.replace(",", "%2C"), page.url
    assert page.evaluate("() => document.documentElement.lang") == "zh"
    page.get_by_role("link", name="多级相关性").first.click()  # the navigation, in Chinese too
    page.get_by_role("heading", name="多级相关性").wait_for()
    wait_until_idle(page)
    assert re.search(r"[?&]lang=zh\b", page.url), page.url


@pytest.mark.parametrize("stem", STEMS)
def test_a_phone_shows_every_chinese_page_within_its_width(browser, app_url, stem):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        tab = context.new_page()
        tab.set_default_timeout(20_000)
        _open(tab, _url(app_url, stem, "lang=zh"))
        assert tab.evaluate("() => document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_the_checker_names_a_mistake_in_chinese_without_english_words(page, app_url):
    """A student types the slide's NDCG working in Chinese with DCG's rank-2 term taken with ln (a
    named mistake): the marks, the mistake's sentence and the hints read in Chinese."""
    from test_student import SLIDE

    with speaking("zh"):
        check, marked = _("Check my answers"), _("Your answers, marked")
    _open(page, _url(app_url, "homework", "lang=zh&hw_source=course&hw_preset=ndcg_exercise"))
    answers = list(SLIDE)
    answers[2] = "2.731"  # 3 / ln(3): the natural log, not log2
    for box, answer in zip(page.get_by_test_id("stForm").first.locator('input[type="text"]').all(), answers):
        box.fill(answer)
    page.get_by_role("button", name=check).click()
    page.get_by_text(marked).first.wait_for(timeout=30_000)
    wait_until_idle(page)
    no_error_text(page)
    text = page.evaluate(_VISIBLE_TEXT_JS)
    assert "ln" in text and "log2" in text, "the mistake is named"
    found = english_words(text)
    assert found == [], f"homework after a check: {len(found)} English words: {' '.join(found)}"


def test_the_file_uploader_speaks_chinese(page, app_url):
    """Streamlit draws its uploader's button and size limit in English; a Chinese page draws them in
    Chinese (what shows is the CSS content; Streamlit's English is kept at size 0)."""
    with speaking("zh"):
        upload = _("Upload")
    _open(page, _url(app_url, "run_files", "lang=zh"))
    page.get_by_text("上传文件").first.click()
    page.get_by_test_id("stFileUploaderDropzone").first.wait_for()
    wait_until_idle(page)
    shown = page.evaluate("""() => {
      const p = document.querySelector('[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p');
      const limit = document.querySelector('[data-testid="stFileUploaderDropzoneInstructions"] span');
      const drawn = (node) => [getComputedStyle(node).fontSize, getComputedStyle(node, '::after').content];
      return [drawn(p), drawn(limit)];
    }""")
    assert shown[0] == ["0px", f'"{upload}"'], shown
    assert shown[1][0] == "0px" and "MB" in shown[1][1] and not english_words(shown[1][1]), shown
