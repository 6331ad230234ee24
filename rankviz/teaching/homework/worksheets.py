"""Printable worksheets and their answer keys, as LaTeX and as one self-contained HTML page.

A lecturer picks kinds, a count and a seed; :func:`make_worksheet` draws the exercises (the
same arguments always give the same sheet), each with its own printed seed, so a student opens
any exercise of the sheet in the homework checker from its kind and seed (or its link,
:meth:`SheetExercise.link`). :func:`worksheet_latex` and :func:`worksheet_html` lay the sheet
out: per exercise a heading (number, kind, seed, link), the description of
:func:`~rankviz.teaching.homework.describe` and a worked table with one row per step of
:func:`~rankviz.teaching.homework.steps_for`: blank for the students, or with each step's
value and working for the answer key.

Everything here works from the registry only (``KINDS``, ``describe``, ``steps_for``,
``stages``, ``generate_exercise`` and each kind's ``options``), so a new kind is printable the
moment it is registered. Pure functions; no streamlit.

Text is written by :mod:`rankviz.formatting`: :func:`~rankviz.formatting.markdown.latex_text`
(Markdown and Unicode of a description as LaTeX), :func:`~rankviz.formatting.latex.latex_math`
(a KaTeX formula made safe for a LaTeX math cell), :func:`~rankviz.formatting.markdown.markdown_html`
and :func:`~rankviz.formatting.formula_text.formula_text` (a KaTeX formula as plain readable
text, for the HTML answer key).

Examples
--------
>>> sheet = make_worksheet(["ap", "spearman"], 3, 2024)
>>> [(e.number, e.kind) for e in sheet.exercises]
[(1, 'ap'), (2, 'spearman'), (3, 'ap')]
>>> sheet == make_worksheet(["ap", "spearman"], 3, 2024)
True
>>> first = sheet.exercises[0]
>>> generate_exercise(first.seed, first.kind) == first.exercise
True
>>> first.link("https://rankviz.example/homework") == (
...     f"https://rankviz.example/homework?hw_source=practice&hw_kind=ap&seed={first.seed}")
True
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from rankviz.formatting import latex_escape, latex_math, latex_text, markdown_html
# The function, not the submodule of the same name (which shadows the lazy name once it is imported).
from rankviz.formatting.formula_text import formula_text
from rankviz.i18n import DEFAULT_LANGUAGE, N_, _, language, ngettext
from rankviz.teaching.homework import KINDS, describe, generate_exercise, stages, steps_for
from rankviz.teaching.homework.core import KIND_SPECS, Exercise, check_seed, in_language, tex_number

__all__ = [
    "MAX_SHEET_EXERCISES",
    "LINK_PARAMETERS",
    "SheetExercise",
    "Worksheet",
    "make_worksheet",
    "checker_link",
    "worksheet_latex",
    "worksheet_html",
]

MAX_SHEET_EXERCISES = 40
# The URL parameters of the homework page a printed exercise opens with (rankviz/ui/url_keys.py
# lists them): practice source, kind, seed; a kind's option ``name`` is ``hw_<name>``.
LINK_PARAMETERS = {"source": "hw_source", "kind": "hw_kind", "seed": "seed", "option_prefix": "hw_"}
# Printed seeds stay short enough to type (6 digits at most), well inside check_seed's range.
_PRINTED_SEEDS = (1, 999_999)
# Tries at drawing an exercise not already on the sheet before a repeat is accepted (tiny kinds).
_REDRAWS = 25
_BASE_URL = re.compile(r"^(?:https?://[A-Za-z0-9.-]+(?::\d+)?)?(?:/[A-Za-z0-9\-._~:/@!+,;=%&()*?]*)?$")


# ------------------------------------------------------------------------------------ the sheet


@dataclass(frozen=True)
class SheetExercise:
    """Exercise ``number`` of a sheet: ``kind``, its printed ``seed`` and ``options`` (the
    kind's option name -> value pairs, every option of the kind), the generated ``exercise``
    (``generate_exercise(seed, kind, **dict(options))``) and its ``steps``."""

    number: int
    kind: str
    seed: int
    options: tuple
    exercise: Exercise
    steps: tuple

    @property
    def kind_title(self) -> str:
        """The kind as the checker names it (``KINDS[kind]``)."""
        return KINDS[self.kind]

    def link(self, base_url: str = "") -> str:
        """The checker's link to this exercise (see :func:`checker_link`)."""
        return checker_link(self.kind, self.seed, dict(self.options), base_url)


@dataclass(frozen=True)
class Worksheet:
    """A sheet drawn by :func:`make_worksheet`: its ``seed``, the ``kinds`` it cycles over (in
    the order given) and its ``exercises``."""

    seed: int
    kinds: tuple
    exercises: tuple

    @property
    def count(self) -> int:
        """How many exercises the sheet has."""
        return len(self.exercises)

    def title(self, answers: bool = False) -> str:
        """``Worksheet 1234`` or ``Answer key to worksheet 1234``, with the number of exercises.

        >>> make_worksheet(["ap"], 2, 1234).title(answers=True)
        'Answer key to worksheet 1234 (2 exercises)'
        """
        if answers:
            return ngettext("Answer key to worksheet {seed} ({n} exercise)", "Answer key to worksheet {seed} ({n} exercises)",
                            self.count).format(seed=self.seed, n=self.count)
        return ngettext("Worksheet {seed} ({n} exercise)", "Worksheet {seed} ({n} exercises)",
                        self.count).format(seed=self.seed, n=self.count)


def checker_link(kind: str, seed: int, options: Mapping | None = None, base_url: str = "") -> str:
    """The homework checker's link to practice exercise ``seed`` of ``kind``.

    ``?hw_source=practice&hw_kind=<kind>&seed=<seed>``, then ``&hw_<name>=<value>`` for each of
    ``options`` (ndcg: ``hw_gain``, ``hw_discount``), after ``base_url`` (the app's homework
    page; empty: the query alone). ``base_url`` is an http(s) address or a path, without
    spaces, quotes, braces or a ``#`` fragment (it is printed in LaTeX and HTML too).

    >>> checker_link("ndcg", 7, {"gain": "linear", "discount": "log2"})
    '?hw_source=practice&hw_kind=ndcg&seed=7&hw_gain=linear&hw_discount=log2'
    >>> checker_link("ap", 7, base_url="http://localhost:8501/homework?tol=0.005")
    'http://localhost:8501/homework?tol=0.005&hw_source=practice&hw_kind=ap&seed=7'
    """
    base_url = _check_base_url(base_url)
    pairs = [(LINK_PARAMETERS["source"], "practice"), (LINK_PARAMETERS["kind"], kind),
             (LINK_PARAMETERS["seed"], str(check_seed(seed)))]
    pairs += [(LINK_PARAMETERS["option_prefix"] + name, str(value)) for name, value in (options or {}).items()]
    return base_url + ("&" if "?" in base_url else "?") + urlencode(pairs)


def _check_base_url(base_url) -> str:
    if not isinstance(base_url, str) or not _BASE_URL.match(base_url):
        raise ValueError(f"base_url must be empty, an http(s) address or a path starting with /, without spaces, "
                         f"quotes, braces or a # fragment; got {base_url!r}.")
    return base_url


def _kinds(kinds) -> tuple:
    if isinstance(kinds, str):
        kinds = (kinds,)
    try:
        kinds = tuple(dict.fromkeys(kinds))
    except TypeError:
        raise ValueError(f"kinds must be a list of exercise kinds such as ['ap', 'ndcg']; got {kinds!r}.") from None
    if not kinds:
        raise ValueError(f"Pick at least one kind of exercise: {', '.join(KINDS)}.")
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        raise ValueError(f"Unknown exercise kind{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(map(repr, unknown))}; the kinds are {', '.join(KINDS)}.")
    return kinds


def _takes(kind: str) -> str:
    names = list(KIND_SPECS[kind].options)
    return f"{kind} takes {', '.join(names) if names else 'none'}"


def _options_per_kind(kinds: tuple, options) -> dict:
    """Every option of every kind on the sheet, from ``options`` (shared names, or kind -> mapping)
    or the kind's default (its first allowed value); ValueError for a name or value no kind takes."""
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise ValueError(f"options must be a mapping such as {{'gain': 'linear'}}; got {options!r}.")
    shared = {name: value for name, value in options.items() if not isinstance(value, Mapping)}
    own = {kind: dict(value) for kind, value in options.items() if isinstance(value, Mapping)}
    for kind in own:
        if kind not in kinds:
            raise ValueError(f"options for {kind!r}, which is not a kind on this sheet ({', '.join(kinds)}).")
    taken = {name for kind in kinds for name in KIND_SPECS[kind].options}
    for name in shared:
        if name not in taken:
            raise ValueError(f"No kind on this sheet takes the option {name!r}: "
                             f"{'; '.join(_takes(kind) for kind in kinds)}.")
    chosen = {}
    for kind in kinds:
        allowed = KIND_SPECS[kind].options
        for name in own.get(kind, {}):
            if name not in allowed:
                raise ValueError(f"Exercises of kind {kind!r} take no option {name!r}; {_takes(kind)}.")
        given = {**{name: value for name, value in shared.items() if name in allowed}, **own.get(kind, {})}
        values = {}
        for name, choices in allowed.items():
            value = given.get(name, next(iter(choices)))
            if value not in tuple(choices):
                raise ValueError(f"The option {name} of {kind!r} exercises must be one of "
                                 f"{', '.join(map(str, choices))}; got {value!r}.")
            values[name] = value
        chosen[kind] = tuple(values.items())
    return chosen


def make_worksheet(kinds, count: int, seed: int, *, options: Mapping | None = None,
                   language: str | None = None) -> Worksheet:
    """A worksheet of ``count`` exercises cycling over ``kinds``, drawn from ``seed``.

    Exercise i (from 1) is of kind ``kinds[(i - 1) % len(kinds)]`` (duplicates in ``kinds``
    count once); its printed seed (1 to 999999) is drawn from ``seed`` alone, a different one
    for each exercise and, as far as the kind allows, a different exercise too. So the same
    arguments give the same sheet, and a longer sheet begins with the shorter one's exercises.
    ``options`` choose each kind's options: ``{"gain": "linear"}`` for every kind on the sheet
    that takes ``gain``, or ``{"ndcg": {"gain": "linear"}}`` for one kind; an option not given
    is the kind's default (its first allowed value). Each exercise records every option of its
    kind, so its link opens the same exercise whatever the app's defaults. The steps' labels and
    stages are in ``language`` (None: the language in force, :func:`rankviz.i18n.use`).

    Raises ValueError for an unknown kind, a count outside 1 to :data:`MAX_SHEET_EXERCISES`,
    a seed outside 0 to 10**9, and an option name or value no kind on the sheet takes.

    Examples
    --------
    >>> sheet = make_worksheet(["ndcg"], 2, 5, options={"gain": "linear"})
    >>> sheet.exercises[0].options
    (('gain', 'linear'), ('discount', 'log2'))
    >>> make_worksheet(["ndcg"], 4, 5).exercises[:2] == make_worksheet(["ndcg"], 2, 5).exercises
    True
    >>> make_worksheet(["ap"], 41, 5)
    Traceback (most recent call last):
    ...
    ValueError: A worksheet has 1 to 40 exercises; got 41.
    >>> make_worksheet(["ap"], 2, 5, options={"gain": "linear"})
    Traceback (most recent call last):
    ...
    ValueError: No kind on this sheet takes the option 'gain': ap takes none.
    """
    kinds = _kinds(kinds)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_SHEET_EXERCISES:
        raise ValueError(f"A worksheet has 1 to {MAX_SHEET_EXERCISES} exercises; got {count!r}.")
    seed = check_seed(seed)
    chosen = _options_per_kind(kinds, options)
    rng = random.Random(f"rankviz-worksheet-{seed}")
    used_seeds: set[int] = set()
    seen: set[str] = set()
    exercises = []
    for number in range(1, count + 1):
        kind = kinds[(number - 1) % len(kinds)]
        for _attempt in range(_REDRAWS):
            printed = rng.randint(*_PRINTED_SEEDS)
            while printed in used_seeds:
                printed = rng.randint(*_PRINTED_SEEDS)
            exercise = generate_exercise(printed, kind, **dict(chosen[kind]))
            # The title holds the seed; the rest says what the student is given.
            given = repr((kind, exercise.rels, exercise.judged, exercise.n_relevant, exercise.items,
                          exercise.ranks_a, exercise.ranks_b, exercise.gain, exercise.discount,
                          sorted(exercise.params.items())))
            if given not in seen:
                break  # else draw again; after _REDRAWS tries a repeat is accepted (a kind with few exercises)
        used_seeds.add(printed)
        seen.add(given)
        exercises.append(SheetExercise(number, kind, printed, chosen[kind], exercise,
                                       tuple(steps_for(exercise, mistakes=False, language=language))))
    return Worksheet(seed, kinds, tuple(exercises))


# ------------------------------------------------------------------------------------- LaTeX

_LATEX_FONTS = r"""\usepackage[T1]{fontenc}
\usepackage{lmodern}
"""
# Chinese: xelatex with xeCJK and Debian's fonts-noto-cjk (texlive-xetex, texlive-lang-chinese).
_LATEX_FONTS_CJK = r"""\usepackage{fontspec}
\usepackage{xeCJK}
\setCJKmainfont{Noto Serif CJK SC}
\setCJKsansfont{Noto Sans CJK SC}
\setCJKmonofont{Noto Sans Mono CJK SC}
"""
_LATEX_PREAMBLE = r"""\documentclass[a4paper,11pt]{article}
FONTS
\usepackage[a4paper,margin=18mm]{geometry}
\usepackage{amsmath,amssymb}
\usepackage{array,booktabs,tabularx}
\usepackage[hidelinks]{hyperref}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5ex}
\newcolumntype{L}[1]{>{\raggedright\arraybackslash}p{#1}}
\newcolumntype{Y}{>{\raggedright\arraybackslash}X}
\renewcommand{\arraystretch}{1.15}
"""


# CJK characters and punctuation pass through LaTeX conversion untouched (xeCJK typesets them).
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
_CJK_TOKEN = re.compile(r"cjkQ([0-9a-f]{4})Q")


def _keeping_cjk(convert, text: str, **options) -> str:
    """``convert(text)`` (a LaTeX writer of :mod:`rankviz.formatting`) with CJK characters kept as they are."""
    hidden = _CJK.sub(lambda m: f"cjkQ{ord(m.group()):04x}Q", text)
    return _CJK_TOKEN.sub(lambda m: chr(int(m.group(1), 16)), convert(hidden, **options))


def _latex_format(template: str, **values) -> str:
    """A translated ``template`` as LaTeX: its words escaped, its ``{placeholders}`` filled with ``values``
    (already LaTeX)."""
    import string

    return "".join(_text(literal) + (values[name] if name is not None else "")
                   for literal, name, _spec, _conversion in string.Formatter().parse(template))


def _latex_url(url: str) -> str:
    """``url`` for \\href: % and # escaped (the checker's links hold no other special character)."""
    return url.replace("%", r"\%").replace("#", r"\#")


def _latex_url_text(url: str) -> str:
    """``url`` printed in typewriter type, breakable after ? & and /."""
    return "".join(latex_escape(ch) + (r"\allowbreak{}" if ch in "?&/" else "") for ch in url)


def _text(text: str) -> str:
    """A title, a stage or a step label as LaTeX (``2^g`` as a superscript, as in the descriptions)."""
    return _keeping_cjk(latex_escape, text, carets=True)


def _latex_table(item: SheetExercise, answers: bool) -> list[str]:
    if answers:
        spec = r"@{}L{2.6cm}L{4.2cm}r Y@{}"
        head = " & ".join(_text(_(word)) for word in _HEADS_ANSWERS) + r" \\"
    else:
        spec = r"@{}L{2.8cm}Y p{7.2cm}@{}"
        head = " & ".join(_text(_(word)) for word in _HEADS_BLANK) + r" \\"
    lines = [rf"\begin{{tabularx}}{{\linewidth}}{{{spec}}}", r"\toprule", head, r"\midrule"]
    previous = None
    for n, step in enumerate(item.steps):
        stage = ""
        if step.stage != previous:
            if previous is not None:
                lines.append(r"\addlinespace[2pt]")
            stage = _text(step.stage)
        previous = step.stage
        label = _text(step.label)
        if answers:
            lines.append(rf"{stage} & {label} & {tex_number(step.expected)} & ${_keeping_cjk(latex_math, step.formula)}$ \\")
        else:
            lines.append(rf"{stage} & {label} & \rule{{0pt}}{{6.5mm}} \\")
            if n < len(item.steps) - 1:
                lines.append(r"\cmidrule(l){3-3}")
    lines += [r"\bottomrule", r"\end{tabularx}"]
    return lines


def worksheet_latex(sheet: Worksheet, *, answers: bool = False, base_url: str = "", language: str | None = None) -> str:
    r"""The sheet as a complete LaTeX document (article; amsmath, amssymb, array, booktabs,
    tabularx, geometry, hyperref: all in every TeX distribution), in ASCII.

    Per exercise, kept on one page (a minipage): a heading with its number and kind, its kind
    key, printed seed and checker link (:meth:`SheetExercise.link` after ``base_url``), the
    description (:func:`latex_text`) and a worked table with one row per step: stage (on its
    first step), step, and a blank cell to write in; with ``answers`` (the answer key) the
    step's value (:func:`~rankviz.teaching.homework.core.tex_number`) and its formula in math
    mode instead. Compile with pdflatex, lualatex or xelatex; in Chinese (``language="zh"`` or
    the language in force) the document is UTF-8 and loads xeCJK with the Noto CJK fonts: compile
    it with xelatex (Debian: texlive-xetex, texlive-lang-chinese, fonts-noto-cjk). The steps'
    labels are in the language the sheet was made in (:func:`make_worksheet`).

    >>> tex = worksheet_latex(make_worksheet(["ap"], 1, 3))
    >>> tex.startswith(r"\documentclass"), tex.rstrip().endswith(r"\end{document}")
    (True, True)
    """
    base_url = _check_base_url(base_url)
    with in_language(language):
        return _worksheet_latex(sheet, answers, base_url)


_HEADS_ANSWERS = (N_("Stage"), N_("Step"), N_("Value"), N_("Working"))
_HEADS_BLANK = (N_("Stage"), N_("Step"), N_("Your working and answer"))


def _worksheet_latex(sheet: Worksheet, answers: bool, base_url: str) -> str:
    fonts = _LATEX_FONTS if language() == DEFAULT_LANGUAGE else _LATEX_FONTS_CJK
    lines = [_LATEX_PREAMBLE.replace("FONTS\n", fonts).rstrip("\n"),
             rf"\hypersetup{{pdftitle={{{_text(sheet.title(answers))}}}}}",
             r"\begin{document}", rf"\section*{{{_text(sheet.title(answers))}}}"]
    kinds = _(", ").join(_text(KINDS[kind]) for kind in sheet.kinds)
    lines.append(_latex_format(_("Exercises on: {kinds}. Each exercise opens in the homework checker: choose “a "
                                 "practice exercise”, its kind and its seed, or follow its link."), kinds=kinds))
    if not answers:
        lines.append(r"\par\medskip " + _text(_("Name:")) + r" \rule{7cm}{0.4pt}")
    lines.append(r"\par\bigskip")
    for item in sheet.exercises:
        link = item.link(base_url)
        lines += [
            "", rf"% Exercise {item.number}",
            r"\noindent\begin{minipage}{\linewidth}",
            rf"\subsection*{{{_text(_('Exercise {number}: {title}').format(number=item.number, title=item.kind_title))}}}",
            _latex_format(_("Kind {kind}, seed {seed}{options}. Checker: {link}"),
                kind=rf"\texttt{{{_text(item.kind)}}}", seed=rf"\textbf{{{item.seed}}}",
                options="".join(_text(_(", ")) + rf"\texttt{{{_text(name)}}} \texttt{{{_text(str(value))}}}"
                                if language() != DEFAULT_LANGUAGE else rf", {_text(name)} \texttt{{{_text(str(value))}}}"
                                for name, value in item.options),
                link=rf"\href{{{_latex_url(link)}}}{{\texttt{{\small {_latex_url_text(link)}}}}}"),
            r"\par\smallskip",
            _keeping_cjk(latex_text, describe(item.exercise)),
            r"\par\smallskip",
            *_latex_table(item, answers),
            r"\end{minipage}",
            r"\par\bigskip",
        ]
    lines += ["", r"\end{document}", ""]
    return "\n".join(lines)


# -------------------------------------------------------------------------------------- HTML

_CSS = """
:root { color-scheme: light; }
html { font-size: 16px; }
body { margin: 0; background: #fff; color: #111; line-height: 1.4;
       font-family: "Helvetica Neue", Arial, "Liberation Sans", "Noto Sans CJK SC", "Noto Sans SC",
                    "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif; }
:lang(zh) body, body:lang(zh) { font-family: "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC",
                    "Microsoft YaHei", "Helvetica Neue", Arial, sans-serif; line-height: 1.6; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.45em; margin: 0 0 .4em; }
h2 { font-size: 1.12em; margin: 0 0 .25em; }
p { margin: .25em 0; }
a { color: #0b3a8c; }
code, .url { font-family: "DejaVu Sans Mono", Consolas, "Noto Sans Mono CJK SC", monospace; font-size: .88em; }
.url { overflow-wrap: anywhere; }
.exercise { margin: 0 0 1.4em; padding-top: .5em; border-top: 2px solid #111; }
.name-line { display: inline-block; width: 18em; border-bottom: 1px solid #111; }
table { width: 100%; border-collapse: collapse; margin: .35em 0 0; table-layout: fixed; }
th, td { border: 1px solid #111; padding: .2em .4em; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
thead th { background: #eee; }
tbody th { font-weight: normal; }
th.stage { font-weight: bold; }
th.col-stage { width: 15%; }
th.col-step { width: 30%; }
th.col-value { width: 9%; }
th.col-answer { width: 55%; }
td.answer { height: 2.2em; }
table.given { width: auto; table-layout: auto; margin: .3em 0; }
td.value { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
@page { size: A4; margin: 14mm 14mm 15mm; }
@media print {
  html { font-size: 10pt; }
  body { color: #000; background: #fff; line-height: 1.3; }
  main { max-width: none; margin: 0; padding: 0; }
  a { color: #000; text-decoration: none; }
  thead th { background: #fff; }
  th, td { padding: .6mm 1.5mm; }
  .exercise { break-inside: avoid; page-break-inside: avoid; margin-bottom: 5mm; }
  table, tr { break-inside: avoid; page-break-inside: avoid; }
  thead { display: table-header-group; }
  h1, h2, .meta, .description { break-after: avoid; page-break-after: avoid; }
  td.answer { height: 6mm; }
}
"""


def _html_table(item: SheetExercise, answers: bool) -> list[str]:
    heads = (("stage", _("Stage")), ("step", _("Step")), *((("value", _("Value")), ("working", _("Working")))
                                                          if answers else (("answer", _("Your working and answer")),)))
    caption = (_("Worked answer for exercise {number}") if answers else _("Working for exercise {number}")).format(
        number=item.number)
    lines = [f'<table aria-label="{caption}">',
             "<thead><tr>" + "".join(f'<th scope="col" class="col-{key}">{head}</th>' for key, head in heads)
             + "</tr></thead>"]
    for stage in stages(item.steps):
        rows = [step for step in item.steps if step.stage == stage]
        lines.append("<tbody>")
        for n, step in enumerate(rows):
            cells = (f'<th scope="rowgroup" rowspan="{len(rows)}" class="stage">{html.escape(stage)}</th>'
                     if n == 0 else "")
            cells += f'<th scope="row">{html.escape(step.label)}</th>'
            if answers:
                cells += (f'<td class="value">{html.escape(tex_number(step.expected))}</td>'
                          f'<td class="working">{html.escape(formula_text(step.formula))}</td>')
            else:
                cells += '<td class="answer"></td>'
            lines.append(f"<tr>{cells}</tr>")
        lines.append("</tbody>")
    lines.append("</table>")
    return lines


def _html_format(template: str, **values) -> str:
    """A translated ``template`` as HTML: its words escaped, its ``{placeholders}`` filled with ``values`` (HTML)."""
    import string

    return "".join(html.escape(literal) + (values[name] if name is not None else "")
                   for literal, name, _spec, _conversion in string.Formatter().parse(template))


def worksheet_html(sheet: Worksheet, *, answers: bool = False, base_url: str = "", language: str | None = None) -> str:
    """The sheet as one self-contained HTML page that prints cleanly on A4.

    No external resource (no script, stylesheet, font or image): an inline ``<style>`` with
    ``@media print`` rules (A4 margins, black on white, bordered tables, an exercise never split
    across pages, room to write in each answer cell). Per exercise the same content as
    :func:`worksheet_latex`: a heading, kind, seed and checker link, the description and the
    worked table (``<th scope>`` headers, one ``<tbody>`` per stage), blank or, with
    ``answers``, each step's value and its formula as plain text (:func:`formula_text`).
    Every text is escaped with :func:`html.escape`. The page speaks ``language`` (None: the
    language in force): its ``lang`` attribute follows (``zh-Hans`` for Chinese) and its font
    list names CJK fonts ("Noto Sans CJK SC", Debian's fonts-noto-cjk) so it prints without tofu.

    >>> page = worksheet_html(make_worksheet(["spearman"], 1, 3))
    >>> page.startswith('<!DOCTYPE html>') and '<html lang="en">' in page and "@media print" in page
    True
    """
    base_url = _check_base_url(base_url)
    with in_language(language):
        return _worksheet_html(sheet, answers, base_url)


_HTML_LANG = {"en": "en", "zh": "zh-Hans"}


def _worksheet_html(sheet: Worksheet, answers: bool, base_url: str) -> str:
    title = sheet.title(answers)
    kinds = _(", ").join(KINDS[kind] for kind in sheet.kinds)
    lines = ["<!DOCTYPE html>", f'<html lang="{_HTML_LANG.get(language(), language())}">', "<head>",
             '<meta charset="utf-8">', '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{html.escape(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>", "<main>",
             "<header>", f"<h1>{html.escape(title)}</h1>",
             "<p>" + html.escape(_("Exercises on: {kinds}. Each exercise opens in the homework checker: choose “a "
                                   "practice exercise”, its kind and its seed, or follow its link.").format(kinds=kinds))
             + "</p>"]
    if not answers:
        lines.append(f'<p>{html.escape(_("Name:"))} <span class="name-line" aria-hidden="true"></span></p>')
    lines.append("</header>")
    for item in sheet.exercises:
        link = item.link(base_url)
        if language() == DEFAULT_LANGUAGE:
            options = "".join(f", {html.escape(name)} <code>{html.escape(str(value))}</code>"
                              for name, value in item.options)
        else:  # the option's name is a parameter of the link: code, like its value
            options = "".join(f"{html.escape(_(', '))}<code>{html.escape(name)}={html.escape(str(value))}</code>"
                              for name, value in item.options)
        meta = _html_format(_("Kind {kind}, seed {seed}{options}. Checker: {link}"),
                            kind=f"<code>{html.escape(item.kind)}</code>", seed=f"<strong>{item.seed}</strong>",
                            options=options, link=f'<a class="url" href="{html.escape(link)}">{html.escape(link)}</a>')
        heading = _("Exercise {number}: {title}").format(number=item.number, title=item.kind_title)
        lines += [
            f'<section class="exercise" aria-labelledby="exercise-{item.number}">',
            f'<h2 id="exercise-{item.number}">{html.escape(heading)}</h2>',
            f'<p class="meta">{meta}</p>',
            f'<div class="description">{markdown_html(describe(item.exercise))}</div>',
            *_html_table(item, answers),
            "</section>",
        ]
    lines += ["</main>", "</body>", "</html>", ""]
    return "\n".join(lines)
