"""The "Why tools disagree" page's helpers, and the tools side by side on the One ranking and Ties pages.

Numbers come from :mod:`rankviz.evaluation.tools` (``disagreement``, ``tools_table``), the words
of each convention and tool from :mod:`rankviz.conventions`; this module reads files, caches and
renders.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from rankviz.conventions import CONVENTIONS, MEASURE_FAMILIES, PROFILES
from rankviz.i18n import N_, _, ngettext
from rankviz.ui.pages import available_pages, page_for
from rankviz.ui.uploads import read_qrels_file, read_run_file

__all__ = ["disagreement_for_files", "render_disagreement", "tool_label", "tools_side_by_side",
           "tools_for_ranking", "tools_for_example", "DEFAULT_MEASURE", "DEFAULT_TOOLS"]

DEFAULT_MEASURE = "nDCG@10"
DEFAULT_TOOLS = ("trec_eval", "sklearn")
_SIDE_BY_SIDE = N_("The same ranking under each tool's conventions (None where the tool has no such measure or "
                   "leaves the query out).")


def tool_label(tool: str) -> str:
    """A tool's name as people write it, with a mark when its profile is read from its source, not checked."""
    profile = PROFILES[tool]
    return profile.title if profile.checked else _("{title} (from its source)").format(title=profile.title)


@st.cache_data(show_spinner=False, max_entries=16, ttl=3600)
def _disagreement_cached(qrels_digest: str, run_digest: str, measure: str, a: str, b: str, _qrels, _run):
    from rankviz.evaluation.tools import disagreement

    table = disagreement(_qrels, _run, measure, a=a, b=b)
    return table, dict(table.attrs)


def disagreement_for_files(qrels_file, run_file, measure: str, a: str, b: str) -> pd.DataFrame:
    """:func:`rankviz.disagreement` of two uploaded (or sample) files, cached by their content hashes.
    Raises ValueError naming the file, the measure or the tool."""
    qrels, run = read_qrels_file(qrels_file), read_run_file(run_file)
    table, attrs = _disagreement_cached(qrels_file.digest, run_file.digest, measure.strip(), a, b, qrels, run)
    table = table.copy()
    table.attrs.update(attrs)
    return table


def _example_link(convention) -> str | None:
    path = f"app_pages/{convention.example}.py"
    if not convention.example or path not in {p.path for p in available_pages()}:
        return None
    return page_for(path).file


def render_disagreement(table: pd.DataFrame, key: str) -> None:
    """The summary, the queries that differ with their conventions, then each convention named: what
    it is, each tool's choice, and a link to the page that works it through."""
    from rankviz.evaluation.tools import disagreement_summary, parse_tool_measure, profile_settings

    a, b, measure = table.attrs["a"], table.attrs["b"], table.attrs["measure"]
    differ = table[table["conventions"].map(len) > 0]
    mean_a, mean_b = table["a"].mean(), table["b"].mean()
    col_a, col_b, col_n = st.columns(3)
    col_a.metric(_("{measure}, {tool}").format(measure=measure, tool=tool_label(a)),
                 "—" if pd.isna(mean_a) else f"{mean_a:.4f}")
    col_b.metric(_("{measure}, {tool}").format(measure=measure, tool=tool_label(b)),
                 "—" if pd.isna(mean_b) else f"{mean_b:.4f}")
    col_n.metric(_("Queries that differ"), f"{len(differ)} / {len(table)}")
    st.markdown("**" + disagreement_summary(table) + "**")
    if differ.empty:
        return
    shown = pd.DataFrame({
        _("query"): differ["query"],
        tool_label(a): differ["a"],
        tool_label(b): differ["b"],
        _("difference"): differ["b"] - differ["a"],
        _("why"): [(" + ".join(_(CONVENTIONS[c].title) for c in named)
                    + (" " + _("(only together)") if jointly else ""))
                   for named, jointly in zip(differ["conventions"], differ["jointly"])],
    })
    st.dataframe(shown, hide_index=True, width="stretch", key=f"{key}_table",
                 column_config={tool_label(a): st.column_config.NumberColumn(format="%.4f"),
                                tool_label(b): st.column_config.NumberColumn(format="%.4f"),
                                _("difference"): st.column_config.NumberColumn(format="%+.6f")})
    st.caption(_("Each reason is found by switching one convention at a time from one tool's choice to the "
                 "other's: it is named when that alone changes the query's value. None: the tool leaves the "
                 "query out."))
    parsed = parse_tool_measure(measure)
    settings_a = profile_settings(a, parsed.name, parsed.cutoff)
    settings_b = profile_settings(b, parsed.name, parsed.cutoff)
    named = [c for c in CONVENTIONS if any(c in n for n in differ["conventions"])]
    for c in named:
        convention = CONVENTIONS[c]
        count = sum(c in n for n in differ["conventions"])
        with st.container(border=True, key=f"{key}_reason_{c}"):
            heading = ngettext("{title}: {n} query", "{title}: {n} queries", count)
            st.markdown("**" + heading.format(title=_(convention.title), n=count) + "**")
            st.markdown(_(convention.description))
            st.markdown(_("**{tool}**: {choice}").format(tool=tool_label(a), choice=_(convention.label(settings_a[c]))))
            st.markdown(_("**{tool}**: {choice}").format(tool=tool_label(b), choice=_(convention.label(settings_b[c]))))
            link = _example_link(convention)
            if link is not None:
                st.page_link(link, label=_("Worked example: {page}").format(page=_(page_for(
                    f"app_pages/{convention.example}.py").title)), icon=":material/school:")


def _measures_we_know(measures) -> list[str]:
    from rankviz.evaluation.tools import parse_tool_measure

    known = []
    for name in measures:
        try:
            if parse_tool_measure(name).name in MEASURE_FAMILIES:
                known.append(name)
        except ValueError:
            continue
    return known


def tools_side_by_side(docnos, scores, grades, measures, *, judged=None, key: str) -> None:
    """One query under every tool, a small table: rows the tools, columns the measures."""
    from rankviz.evaluation.tools import tools_table

    measures = _measures_we_know(measures)
    if not measures or not len(docnos):
        return
    table = tools_table(list(docnos), list(scores), list(grades), measures, judged=judged)
    table = table.dropna(how="all")
    table.insert(0, _("tool"), [tool_label(t) for t in table.index])
    st.markdown("**" + _("The same ranking under each tool") + "**")
    st.dataframe(table, hide_index=True, width="stretch", key=key,
                 column_config={m: st.column_config.NumberColumn(format="%.4f") for m in measures})
    st.caption(_(_SIDE_BY_SIDE))
    if "app_pages/why.py" in {p.path for p in available_pages()}:
        st.page_link(page_for("app_pages/why.py").file, label=_("Why do the tools disagree?"),
                     icon=":material/help:")


def tools_for_ranking(rels, settings: dict, *, key: str) -> None:
    """The One ranking page's list (grades in ranked order, no ties) under every tool, at the page's k;
    judged-but-not-retrieved grades from the settings count as judgments."""
    rels = [float(g) for g in rels]
    k = settings.get("k")
    judged = list(settings.get("judged") or [])[len(rels):]
    docnos = [f"d{i + 1}" for i in range(len(rels))]
    cut = f"@{k}" if k else ""
    tools_side_by_side(docnos, [float(len(rels) - i) for i in range(len(rels))], rels,
                       [f"nDCG{cut}", f"AP{cut}", f"P@{k or len(rels)}", f"R@{k or len(rels)}", f"RR{cut}"],
                       judged={f"u{i + 1}": g for i, g in enumerate(judged)}, key=key)


def tools_for_example(grid, measures, *, key: str) -> None:
    """The Ties page's example grid (doc, score, grade in input order, with tied scores) under every tool;
    nothing while the grid has a bad row (the page says what is wrong)."""
    from rankviz.ui.ties_view import example_lists

    try:
        doc_ids, scores, grades = example_lists(grid)
        tools_side_by_side(doc_ids, scores, grades, measures, key=key)
    except ValueError:
        return
