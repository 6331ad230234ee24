"""Step labels, stages and exercise titles in the student's language.

A kind's step builder writes its labels and stages in English ("DCG term at rank 2 (grade 2)",
"Step 2: DCG"): inside the checker they are keys (the course notes' printed values, a mistake's
working lined up with the right one, a step found by its label), so they stay English while the
steps are built. :func:`translated` then gives each label and stage in the language in force,
from the templates below (English source marked with ``N_``; their placeholders match a part of
the label, and a part that is itself a template or a catalogue entry is translated too). A label
no template matches (a metric's symbol: ``AP``, ``P@3``, ``NDCG@5``) stays as it is.

>>> from rankviz.i18n import speaking
>>> with speaking("zh"):
...     translated("DCG term at rank 2 (grade 2)"), translated("Step 1: AP of q1"), translated("NDCG@5")
('DCG 第 2 位的项（等级 2）', '第 1 步：q1 的 AP', 'NDCG@5')
>>> translated("Step 1: AP of q1")
'Step 1: AP of q1'
"""

from __future__ import annotations

import functools
import re
import string

from rankviz.i18n import DEFAULT_LANGUAGE, N_, _, language

__all__ = ["LABEL_TEMPLATES", "register_title_templates", "translated"]

# English step labels and stages with named placeholders; most specific first.
LABEL_TEMPLATES = (
    N_("Step {number}: {what}"),
    N_("Cut-off k = {k}"),
    N_("{what} term at rank {rank} (grade {grade})"),
    N_("term at rank {rank}"),
    N_("P@{rank} (relevant)"),
    N_("P@{rank} (not relevant)"),
    N_("R_{rank} (grade {grade})"),
    N_("P(reach rank {rank})"),
    N_("d² of {doc} (s1 = {s1}, s2 = {s2})"),
    N_("T{index} = Σ(t³ − t)/12 (ties in {ranking})"),
    N_("n0 = n(n − 1)/2 (all pairs)"),
    N_("n{index} (pairs tied in R{ranking})"),
    N_("n (items in the union of the two top-{k} lists)"),
    N_("K_n@{k} (normalized Kendall tau distance)"),
    N_("τ_{variant} (Kendall)"),
    N_("negatives below {item} ({score})"),
    N_("negatives tied with {item} ({score})"),
    N_("pairs |P| × |N| of {group}"),
    N_("weight × AUC of {group}"),
    N_("weight of {group}"),
    N_("AUC of {group}"),
    N_("AP of {name}"),
    N_("relevant in the top R = {n}"),
    N_("documents examined until {n} relevant are found"),
    N_("interpolated MAP (mean of the {count} levels)"),
    N_("mean of the {count} levels"),
    N_("{n}-point average"),
    N_("Run {run}: {what}"),
    N_("the top-{k} lists"),
    # exercise titles
    N_("Practice exercise {seed}: {title}"),
    N_("Query {query}: {title}"),
    N_("R-precision of the lecture's {query} (R = {r})"),
    N_("interpolated precision at 10 recall levels (slide: {value})"),
    N_("{title} (weights: {weights})"),
    N_("{title} ({variant})"),
    N_("{name}: {what}"),
)
# Title templates of the kinds' own exercises ("Your ranking {ranking}: {title}"), added as they register.
_TITLE_TEMPLATES: list[str] = []


def register_title_templates(*templates: str) -> None:
    """Read exercise titles made with ``templates`` (English, marked with ``N_`` where written) translated."""
    for template in templates:
        if template not in _TITLE_TEMPLATES:
            _TITLE_TEMPLATES.append(template)
    _templates.cache_clear()


@functools.lru_cache(maxsize=None)
def _templates() -> tuple:
    # The kinds' titles first: "Your ranking {ranking}: {title}" before the catch-all "{name}: {what}".
    return (*_TITLE_TEMPLATES, *LABEL_TEMPLATES)

# Labels and stage names without placeholders (read with _()).
LABEL_WORDS = (
    N_("C (concordant pairs)"), N_("D (discordant pairs)"), N_("pairs of the union n(n − 1)/2"),
    N_("Σ of the pair penalties"), N_("ρ (Spearman)"), N_("|P| (positives)"), N_("|N| (negatives)"),
    N_("pairs |P| × |N|"), N_("pairs won (s_p > s_n)"), N_("tied pairs (s_p = s_n)"), N_("tied pairs counted ½"),
    N_("credit: won + ½ tied"), N_("|K ∩ R| (known relevant)"), N_("|K ∩ R ∩ A| (known relevant retrieved)"),
    N_("coverage"), N_("|R ∩ A| (relevant retrieved)"), N_("|(R ∩ A) − K| (relevant retrieved, new to the user)"),
    N_("novelty"), N_("relative recall"), N_("recall effort"), N_("expected search length"),
    N_("i: non-relevant in the last level read"), N_("j: non-relevant in the levels read in full"),
    N_("r: relevant in the last level read"), N_("s: relevant still wanted from the last level"),
    # stage names
    N_("AUC of each user"), N_("P(reach rank i)"), N_("RR per query"), N_("R_i · P(reach) / i"),
    N_("add up the pairs"), N_("compare each positive with every negative"), N_("count the pairs"),
    N_("d² per document"), N_("interpolated precision at each recall level"), N_("pair penalties"),
    N_("pairs"), N_("the mean"), N_("the top R"), N_("weight each user"), N_("the tie corrections"),
)


@functools.lru_cache(maxsize=None)
def _pattern(template: str) -> re.Pattern:
    parts, seen = [], set()
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
    return re.compile("".join(parts) + r"\Z")


def _translate(text: str, depth: int) -> str:
    found = _(text)
    if found != text or depth > 3:
        return found
    for template in _templates():
        match = _pattern(template).match(text)
        if match:
            target = _(template)
            if target == template:
                return text
            return target.format(**{name: _translate(value, depth + 1) for name, value in match.groupdict().items()})
    return text


def translated(text: str) -> str:
    """A step label or stage (English, as a kind's builder writes it) in the language in force."""
    if language() == DEFAULT_LANGUAGE or not text:
        return text
    return _translate(text, 0)
