"""Two conventions of :mod:`rankviz.conventions` worked through on their teaching pages (their
``example``): Kendall's tau of the Correlation page's rankings under every variant, and the User
measures page's click log under every tool's GAUC rules, each beside the tools that use it.

The numbers and who uses what come from :func:`rankviz.evaluation.tools.kendall_table` and
:func:`~rankviz.evaluation.tools.gauc_rules_table`; here they become words and a small Markdown
table. A Markdown table wraps its cells (a 390 px phone, a 1280 px projector at its type size)
where a grid would scroll, and the tools' own names are set as code, as a script writes them.
"""

from __future__ import annotations

import re
import warnings

import streamlit as st

from rankviz.conventions import CONVENTIONS, PROFILES, SUMMARY_WORDS
from rankviz.formatting import format_number
from rankviz.i18n import N_, _
from rankviz.ui.cached_results import cached_call
from rankviz.ui.why import tool_label

__all__ = ["markdown_cell", "kendall_variants_section", "gauc_rules_section"]

# Why a rule leaves a group out (the fates of rankviz.metrics.kernels.conventions.gauc_groups).
_LEFT_OUT = {"one class": N_("only clicks or only non-clicks"), "constant predictions": N_("every score equal")}
_RANKVIZ_GAUC = "gauc"  # rankviz.metrics.gauc

_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|$<>~])")


def markdown_cell(text) -> str:
    r"""User data (a group's name) as literal text in a Markdown table cell: every Markdown character
    escaped, so a ``|`` does not end the cell nor a ``$`` start a formula.

    >>> markdown_cell("u|1 $x$")
    'u\\|1 \\$x\\$'
    """
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", str(text))


def _code(name: str) -> str:
    return "`" + name.replace("`", "'").replace("|", r"\|") + "`"


def _tool(tool: str) -> str:
    return tool_label(tool) if tool in PROFILES else tool


def _uses(tools) -> str:
    return "; ".join(f"{_tool(tool)} {_code(name)}" for tool, name in tools) or "—"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def kendall_variants_section(ranks_a, ranks_b, *, key: str) -> None:
    """Kendall's tau of two rankings (ranks, 1 first) under tau-a, tau-b, tau-c and weighted tau, side
    by side with the tools that use each, and the four formulas (in an expander)."""
    from rankviz.evaluation.tools import kendall_table

    with warnings.catch_warnings():  # an undefined tau is NaN here; the page warns once, above
        warnings.simplefilter("ignore", RuntimeWarning)
        table = cached_call(kendall_table, tuple(ranks_a), tuple(ranks_b))
    with st.container(key=key):
        st.markdown("**" + _("The same two rankings under each variant of Kendall's τ") + "**")
        rows = [[_(row.label), f"**{format_number(row.tau, 3)}**", _uses(row.tools)] for row in table.itertuples()]
        st.markdown(_table([_("variant"), "τ", _("used by (the tool's own name)")], rows))
        st.caption(_("tau-a divides by every pair, tau-b corrects for the pairs tied in either ranking, tau-c "
                     "for tables with few distinct values, and weighted tau counts a pair near the top (rank 1) "
                     "more than one near the bottom."))
        with st.expander(_("The four formulas")):
            for choice in CONVENTIONS["kendall"].param.choices:
                st.markdown(f"**{choice.label}**")
                st.latex(choice.formula)
            # Symbols as formulas: the same in every language.
            st.caption(_("$C$ concordant and $D$ discordant pairs, $T_1$ and $T_2$ the pairs tied in one ranking "
                         "only, $n$ items, $m$ the smaller number of distinct ranks; weighted tau: $s^x_{ij}$ the "
                         "sign of pair $(i, j)$ in a ranking, $w_{ij} = 1/(r_i + 1) + 1/(r_j + 1)$ with $r$ the "
                         "rank counted from 0 at the top."))


def _choice(convention: str, choice, own: str) -> str:
    """A rule's choice in words, with the other tools that make it (scikit-learn's sample_weight...)."""
    c = CONVENTIONS[convention]
    words = c.label(choice)
    others = [(use.tool, use.name) for use in c.tools if use.choice == choice and use.tool not in (own, "rankviz")]
    return _("{choice} (as {tools})").format(choice=words, tools=_uses(others)) if others else words


def gauc_rules_section(labels, scores, groups, *, key: str) -> None:
    """The click log's GAUC under rankviz's rules and each tool's that computes GAUC, the rules side by
    side (a column each): their choices, the groups each leaves out (and why), and which conventions
    make the numbers differ."""
    from rankviz.evaluation.tools import GAUC_CONVENTIONS, gauc_rules_table

    table = cached_call(gauc_rules_table, tuple(labels), tuple(scores), tuple(groups))
    rules = list(table.index)
    header = [_("convention")] + [f"rankviz {_code(_RANKVIZ_GAUC)}" if rule == "rankviz"
                     else f"{tool_label(rule)} {_code(PROFILES[rule].measure('GAUC').name)}" for rule in rules]

    def bold_if(text: str, rule: str, convention: str) -> str:
        return f"**{text}**" if convention in table.loc[rule, "differs_by"] else text

    rows = [["**GAUC**"] + [f"**{format_number(table.loc[rule, 'gauc'], 3)}**" for rule in rules]]
    rows += [[_(CONVENTIONS[c].title)] + [bold_if(_choice(c, table.loc[rule, c], rule), rule, c) for rule in rules]
             for c in GAUC_CONVENTIONS]
    rows.append([_("groups left out")] + [
        "; ".join(_("{group}: {reason}").format(group=markdown_cell(g), reason=_(_LEFT_OUT[fate]))
                  for g, fate in table.loc[rule, "left_out"]) or "—" for rule in rules])
    with st.container(key=key):
        st.markdown("**" + _("This log's GAUC under each tool's rules") + "**")
        st.markdown(_table(header, rows))
        for rule in rules[1:]:
            named = table.loc[rule, "differs_by"]
            if named:
                reasons = _(SUMMARY_WORDS["separator"]).join(_(CONVENTIONS[c].title) for c in named)
                st.caption(_("{tool} differs from rankviz here because of: {reasons} (in bold).").format(
                    tool=tool_label(rule), reasons=reasons))
            else:
                st.caption(_("{tool} gives rankviz's value here: its rules differ only where this log has "
                             "nothing to tell them apart.").format(tool=tool_label(rule)))
        st.caption(_("This log has no weight per impression: every row weighs 1 under every rule."))
        dropping = [tool_label(rule) for rule in rules
                    if table.loc[rule, "gauc_constant"] != CONVENTIONS["gauc_constant"].default]
        if dropping:
            st.caption(_("Give a group with a click and a non-click the same score on every row: {tools} leaves it "
                         "out, rankviz counts it with AUC 0.5.").format(
                tools=_(SUMMARY_WORDS["separator"]).join(dropping)))
