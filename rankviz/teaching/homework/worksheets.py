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

from rankviz.formatting import formula_text, latex_escape, latex_math, latex_text, markdown_html
from rankviz.teaching.homework import KINDS, describe, generate_exercise, stages, steps_for
from rankviz.teaching.homework.core import KIND_SPECS, Exercise, check_seed, tex_number

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
        what = f"Answer key to worksheet {self.seed}" if answers else f"Worksheet {self.seed}"
        return f"{what} ({self.count} exercise{'s' if self.count != 1 else ''})"


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


def make_worksheet(kinds, count: int, seed: int, *, options: Mapping | None = None) -> Worksheet:
    """A worksheet of ``count`` exercises cycling over ``kinds``, drawn from ``seed``.

    Exercise i (from 1) is of kind ``kinds[(i - 1) % len(kinds)]`` (duplicates in ``kinds``
    count once); its printed seed (1 to 999999) is drawn from ``seed`` alone, a different one
    for each exercise and, as far as the kind allows, a different exercise too. So the same
    arguments give the same sheet, and a longer sheet begins with the shorter one's exercises.
    ``options`` choose each kind's options: ``{"gain": "linear"}`` for every kind on the sheet
    that takes ``gain``, or ``{"ndcg": {"gain": "linear"}}`` for one kind; an option not given
    is the kind's default (its first allowed value). Each exercise records every option of its
    kind, so its link opens the same exercise whatever the app's defaults.

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
        for _ in range(_REDRAWS):
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
        exercises.append(SheetExercise(number, kind, printed, chosen[kind], exercise, tuple(steps_for(exercise))))
    return Worksheet(seed, kinds, tuple(exercises))


# ------------------------------------------------------------------------------------- LaTeX

_LATEX_PREAMBLE = r"""\documentclass[a4paper,11pt]{article}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
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


def _latex_url(url: str) -> str:
    """``url`` for \\href: % and # escaped (the checker's links hold no other special character)."""
    return url.replace("%", r"\%").replace("#", r"\#")


def _latex_url_text(url: str) -> str:
    """``url`` printed in typewriter type, breakable after ? & and /."""
    return "".join(latex_escape(ch) + (r"\allowbreak{}" if ch in "?&/" else "") for ch in url)


def _text(text: str) -> str:
    """A title, a stage or a step label as LaTeX (``2^g`` as a superscript, as in the descriptions)."""
    return latex_escape(text, carets=True)


def _latex_table(item: SheetExercise, answers: bool) -> list[str]:
    if answers:
        spec, head = r"@{}L{2.6cm}L{4.2cm}r Y@{}", r"Stage & Step & Value & Working \\"
    else:
        spec, head = r"@{}L{2.8cm}Y p{7.2cm}@{}", r"Stage & Step & Your working and answer \\"
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
            lines.append(rf"{stage} & {label} & {tex_number(step.expected)} & ${latex_math(step.formula)}$ \\")
        else:
            lines.append(rf"{stage} & {label} & \rule{{0pt}}{{6.5mm}} \\")
            if n < len(item.steps) - 1:
                lines.append(r"\cmidrule(l){3-3}")
    lines += [r"\bottomrule", r"\end{tabularx}"]
    return lines


def worksheet_latex(sheet: Worksheet, *, answers: bool = False, base_url: str = "") -> str:
    r"""The sheet as a complete LaTeX document (article; amsmath, amssymb, array, booktabs,
    tabularx, geometry, hyperref: all in every TeX distribution), in ASCII.

    Per exercise, kept on one page (a minipage): a heading with its number and kind, its kind
    key, printed seed and checker link (:meth:`SheetExercise.link` after ``base_url``), the
    description (:func:`latex_text`) and a worked table with one row per step: stage (on its
    first step), step, and a blank cell to write in; with ``answers`` (the answer key) the
    step's value (:func:`~rankviz.teaching.homework.core.tex_number`) and its formula in math
    mode instead. Compile with pdflatex, lualatex or xelatex.

    >>> tex = worksheet_latex(make_worksheet(["ap"], 1, 3))
    >>> tex.startswith(r"\documentclass"), tex.rstrip().endswith(r"\end{document}")
    (True, True)
    """
    base_url = _check_base_url(base_url)
    lines = [_LATEX_PREAMBLE.rstrip("\n"), rf"\hypersetup{{pdftitle={{{_text(sheet.title(answers))}}}}}",
             r"\begin{document}", rf"\section*{{{_text(sheet.title(answers))}}}"]
    kinds = ", ".join(_text(KINDS[kind]) for kind in sheet.kinds)
    lines.append(f"Exercises on: {kinds}. Each exercise opens in the homework checker: choose ``a practice "
                 f"exercise'', its kind and its seed, or follow its link.")
    if not answers:
        lines.append(r"\par\medskip Name: \rule{7cm}{0.4pt}")
    lines.append(r"\par\bigskip")
    for item in sheet.exercises:
        link = item.link(base_url)
        lines += [
            "", rf"% Exercise {item.number}",
            r"\noindent\begin{minipage}{\linewidth}",
            rf"\subsection*{{Exercise {item.number}: {_text(item.kind_title)}}}",
            rf"Kind \texttt{{{_text(item.kind)}}}, seed \textbf{{{item.seed}}}"
            + "".join(rf", {_text(name)} \texttt{{{_text(str(value))}}}" for name, value in item.options)
            + rf". Checker: \href{{{_latex_url(link)}}}{{\texttt{{\small {_latex_url_text(link)}}}}}",
            r"\par\smallskip",
            latex_text(describe(item.exercise)),
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
body { margin: 0; background: #fff; color: #111; font-family: "Helvetica Neue", Arial, "Liberation Sans", sans-serif;
       line-height: 1.4; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.45em; margin: 0 0 .4em; }
h2 { font-size: 1.12em; margin: 0 0 .25em; }
p { margin: .25em 0; }
a { color: #0b3a8c; }
code, .url { font-family: "DejaVu Sans Mono", Consolas, monospace; font-size: .88em; }
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
    heads = (("stage", "Stage"), ("step", "Step"), *((("value", "Value"), ("working", "Working")) if answers
                                                    else (("answer", "Your working and answer"),)))
    caption = f"{'Worked answer' if answers else 'Working'} for exercise {item.number}"
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


def worksheet_html(sheet: Worksheet, *, answers: bool = False, base_url: str = "") -> str:
    """The sheet as one self-contained HTML page that prints cleanly on A4.

    No external resource (no script, stylesheet, font or image): an inline ``<style>`` with
    ``@media print`` rules (A4 margins, black on white, bordered tables, an exercise never split
    across pages, room to write in each answer cell). Per exercise the same content as
    :func:`worksheet_latex`: a heading, kind, seed and checker link, the description and the
    worked table (``<th scope>`` headers, one ``<tbody>`` per stage), blank or, with
    ``answers``, each step's value and its formula as plain text (:func:`formula_text`).
    Every text is escaped with :func:`html.escape`.

    >>> page = worksheet_html(make_worksheet(["spearman"], 1, 3))
    >>> page.startswith('<!DOCTYPE html>') and '<html lang="en">' in page and "@media print" in page
    True
    """
    base_url = _check_base_url(base_url)
    title = sheet.title(answers)
    kinds = ", ".join(KINDS[kind] for kind in sheet.kinds)
    lines = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{html.escape(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>", "<main>",
             "<header>", f"<h1>{html.escape(title)}</h1>",
             (f"<p>Exercises on: {html.escape(kinds)}. Each exercise opens in the homework checker: choose "
              f"“a practice exercise”, its kind and its seed, or follow its link.</p>")]
    if not answers:
        lines.append('<p>Name: <span class="name-line" aria-hidden="true"></span></p>')
    lines.append("</header>")
    for item in sheet.exercises:
        link = item.link(base_url)
        options = "".join(f", {html.escape(name)} <code>{html.escape(str(value))}</code>"
                          for name, value in item.options)
        lines += [
            f'<section class="exercise" aria-labelledby="exercise-{item.number}">',
            f'<h2 id="exercise-{item.number}">Exercise {item.number}: {html.escape(item.kind_title)}</h2>',
            (f'<p class="meta">Kind <code>{html.escape(item.kind)}</code>, seed <strong>{item.seed}</strong>'
             f'{options}. Checker: <a class="url" href="{html.escape(link)}">{html.escape(link)}</a></p>'),
            f'<div class="description">{markdown_html(describe(item.exercise))}</div>',
            *_html_table(item, answers),
            "</section>",
        ]
    lines += ["</main>", "</body>", "</html>", ""]
    return "\n".join(lines)
