"""The app's pages, in one place: app.py builds the navigation from this list and the home
page lists what each page is for. A page appears once its file exists in ``app_pages/``, so a
page can be listed here before it is written.

A page's ``path`` is relative to the app's folder, :data:`APP_ROOT`: the repository's top level in
a clone, ``rankviz/ui/app/`` in an installed wheel (:func:`rankviz.app_launch.app_folder`).
``st.Page``, ``st.page_link`` and ``st.switch_page`` get the absolute :attr:`PageInfo.file`, so the
pages Streamlit runs are the files this module found; a page's URL is its file's stem either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rankviz.app_launch import app_folder
from rankviz.i18n import N_

__all__ = ["PageInfo", "PAGES", "APP_ROOT", "available_pages", "page_for", "page_for_preset"]

APP_ROOT = app_folder()


@dataclass(frozen=True)
class PageInfo:
    """One page: its file (relative to the app root), title, icon and one line on what it is for.

    ``title`` and ``purpose`` are English, marked for the catalogue (``N_``): show them through
    ``rankviz.i18n._`` so they read in the session's language."""

    path: str
    title: str
    icon: str
    purpose: str
    default: bool = False

    @property
    def file(self) -> str:
        """The page's file as an absolute path (what ``st.Page``, ``st.page_link`` and ``st.switch_page`` get).

        A relative path would be resolved by Streamlit against the main script's folder; this one
        is the file :func:`available_pages` checked, in a clone and in an installed wheel alike.
        """
        return str(APP_ROOT / self.path)


PAGES: tuple[PageInfo, ...] = (
    PageInfo("app_pages/home.py", N_("Home"), ":material/home:",
             N_("What each page is for; load a course exercise."), default=True),
    PageInfo("app_pages/one_ranking.py", N_("One ranking, every metric"), ":material/table_chart:",
             N_("Edit a ranked list and see every binary and graded metric at k, each worked out step by step.")),
    PageInfo("app_pages/precision_recall.py", N_("Precision and recall"), ":material/show_chart:",
             N_("P@i and R@i down the ranking, the precision-recall curve, 11-point interpolation and AP as an area.")),
    PageInfo("app_pages/graded.py", N_("Graded relevance"), ":material/stacked_bar_chart:",
             N_("CG, DCG, IDCG and nDCG under every gain and discount, the ideal ranking beside yours, and ERR.")),
    PageInfo("app_pages/correlation.py", N_("Rank correlation"), ":material/compare_arrows:",
             N_("Two rankings of the same documents: Spearman's table, Kendall's pairs, tau and the distance at K.")),
    PageInfo("app_pages/homework.py", N_("Homework checker"), ":material/fact_check:",
             N_("Type your answer for each step of an exercise and see which step went wrong and why.")),
    PageInfo("app_pages/many_queries.py", N_("Many queries: MAP, GMAP, MRR"), ":material/view_list:",
             N_("Several queries at once: AP, RR, nDCG and P@k per query, MAP vs GMAP vs HMAP vs MRR, any query worked out.")),
    PageInfo("app_pages/run_files.py", N_("Evaluate run files"), ":material/upload_file:",
             N_("Upload qrels and runs (or use the sample collection): trec_eval's numbers per query, charts, tests.")),
    PageInfo("app_pages/explorer.py", N_("Metric behaviour explorer"), ":material/science:",
             N_("Move a relevant document down the ranking, change R, k or the grades, and simulate many systems.")),
    PageInfo("app_pages/user_measures.py", N_("AUC, GAUC and user measures"), ":material/person_search:",
             N_("AUC and GAUC with ROC curves; coverage, novelty, relative recall, effort, search length, satisfaction.")),
    PageInfo("app_pages/ties.py", N_("Ties"), ":material/drag_handle:",
             N_("Tied scores ranked three ways (trec_eval, input order, averaged): why evaluation tools disagree.")),
    PageInfo("app_pages/why.py", N_("Why tools disagree"), ":material/help:",
             N_("A run scored as two tools score it (trec_eval, scikit-learn, ranx, RecBole...): which convention "
                "explains each query's difference.")),
    PageInfo("app_pages/glossary.py", N_("Glossary 术语表"), ":material/translate:",
             N_("The course's terms in Chinese and English side by side, each with its source.")),
)


def available_pages(root: Path = APP_ROOT) -> list[PageInfo]:
    """The listed pages whose file exists, in list order."""
    return [page for page in PAGES if (root / page.path).is_file()]


def page_for(path: str) -> PageInfo:
    """The page whose file is ``path`` (e.g. ``"app_pages/one_ranking.py"``)."""
    for page in PAGES:
        if page.path == path:
            return page
    raise ValueError(f"No page {path!r}; pages: {', '.join(p.path for p in PAGES)}.")


def page_for_preset(preset, root: Path = APP_ROOT) -> PageInfo:
    """The page that teaches a course exercise best, among the pages that exist.

    Graded exercises go to the graded-relevance page, binary ones with R to precision and recall,
    two rankings to rank correlation; the one-ranking page is the fallback for any ranking.
    """
    wanted = "app_pages/one_ranking.py"
    if preset.kind == "two_rankings":
        wanted = "app_pages/correlation.py"
    elif preset.kind == "ranking" and "gain" in preset.settings:
        wanted = "app_pages/graded.py"
    elif preset.kind == "ranking" and preset.n_relevant is not None:
        wanted = "app_pages/precision_recall.py"
    existing = {page.path: page for page in available_pages(root)}
    return existing.get(wanted) or existing.get("app_pages/one_ranking.py") or page_for("app_pages/home.py")
