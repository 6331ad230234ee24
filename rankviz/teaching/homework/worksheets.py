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

The text helpers are public because a sheet needs them and they are worth testing alone:
:func:`latex_text` (Markdown and Unicode of a description as LaTeX), :func:`latex_math` (a
KaTeX formula made safe for a LaTeX math cell) and :func:`formula_text` (a KaTeX formula as
plain readable text, for the HTML answer key).

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
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

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
    "latex_text",
    "latex_math",
    "formula_text",
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


# ------------------------------------------------------------------------------ text to LaTeX

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%", "#": r"\#",
    "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}", "<": r"\textless{}",
    ">": r"\textgreater{}", "|": r"\textbar{}", '"': "''",
}
# Unicode a description or formula may hold -> LaTeX that works in text and in math mode.
_SYMBOLS = {
    "−": r"\ensuremath{-}", "×": r"\ensuremath{\times}", "÷": r"\ensuremath{\div}", "·": r"\ensuremath{\cdot}",
    "⋅": r"\ensuremath{\cdot}", "±": r"\ensuremath{\pm}", "≤": r"\ensuremath{\leq}", "≥": r"\ensuremath{\geq}",
    "≠": r"\ensuremath{\neq}", "≈": r"\ensuremath{\approx}", "≡": r"\ensuremath{\equiv}", "∝": r"\ensuremath{\propto}",
    "√": r"\ensuremath{\surd}", "∞": r"\ensuremath{\infty}", "∑": r"\ensuremath{\sum}", "∏": r"\ensuremath{\prod}",
    "∫": r"\ensuremath{\int}", "∈": r"\ensuremath{\in}", "∉": r"\ensuremath{\notin}", "∩": r"\ensuremath{\cap}",
    "∪": r"\ensuremath{\cup}", "⊆": r"\ensuremath{\subseteq}", "⊂": r"\ensuremath{\subset}",
    "⊇": r"\ensuremath{\supseteq}", "⊃": r"\ensuremath{\supset}", "∅": r"\ensuremath{\emptyset}",
    "∖": r"\ensuremath{\setminus}", "∧": r"\ensuremath{\wedge}", "∨": r"\ensuremath{\vee}", "¬": r"\ensuremath{\neg}",
    "∀": r"\ensuremath{\forall}", "∃": r"\ensuremath{\exists}", "∂": r"\ensuremath{\partial}",
    "∆": r"\ensuremath{\Delta}", "∇": r"\ensuremath{\nabla}", "∣": r"\ensuremath{\mid}", "‖": r"\ensuremath{\|}",
    "⌊": r"\ensuremath{\lfloor}", "⌋": r"\ensuremath{\rfloor}", "⌈": r"\ensuremath{\lceil}",
    "⌉": r"\ensuremath{\rceil}", "⟨": r"\ensuremath{\langle}", "⟩": r"\ensuremath{\rangle}",
    "→": r"\ensuremath{\rightarrow}", "←": r"\ensuremath{\leftarrow}", "↔": r"\ensuremath{\leftrightarrow}",
    "⇒": r"\ensuremath{\Rightarrow}", "⇐": r"\ensuremath{\Leftarrow}", "⇔": r"\ensuremath{\Leftrightarrow}",
    "↑": r"\ensuremath{\uparrow}", "↓": r"\ensuremath{\downarrow}", "↦": r"\ensuremath{\mapsto}",
    "°": r"\ensuremath{^\circ}", "′": r"\ensuremath{'}", "″": r"\ensuremath{''}", "∘": r"\ensuremath{\circ}",
    "µ": r"\ensuremath{\mu}", "ℓ": r"\ensuremath{\ell}", "∗": r"\ensuremath{*}", "⋯": r"\ensuremath{\cdots}",
    "½": r"\ensuremath{\tfrac{1}{2}}", "¼": r"\ensuremath{\tfrac{1}{4}}", "¾": r"\ensuremath{\tfrac{3}{4}}",
    "⅓": r"\ensuremath{\tfrac{1}{3}}", "⅔": r"\ensuremath{\tfrac{2}{3}}", "✓": r"\ensuremath{\checkmark}",
    "✗": r"\ensuremath{\times}", "…": r"\ensuremath{\ldots}", "•": r"\ensuremath{\bullet}", "\u00a0": "~",
    "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''", "«": "<<", "»": ">>", "‐": "-", "‑": "-",
    "\u2009": r"\,", "\u202f": r"\,", "€": "EUR", "£": "GBP", "§": r"\S{}", "¶": r"\P{}", "©": r"\copyright{}",
}
_TEXT_LETTERS = {"ß": r"\ss{}", "æ": r"\ae{}", "Æ": r"\AE{}", "ø": r"\o{}", "Ø": r"\O{}", "œ": r"\oe{}",
                 "Œ": r"\OE{}", "ł": r"\l{}", "Ł": r"\L{}", "ı": r"\i{}", "å": r"\aa{}", "Å": r"\AA{}"}
_ACCENTS = {"\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0308": '"', "\u030a": "r", "\u0327": "c",
            "\u030c": "v", "\u0304": "=", "\u0306": "u", "\u0307": ".", "\u030b": "H", "\u0328": "k"}
_GREEK_CAPITALS = {"GAMMA", "DELTA", "THETA", "LAMDA", "XI", "PI", "SIGMA", "UPSILON", "PHI", "PSI", "OMEGA"}
_GREEK_SAME_AS_LATIN = {"ALPHA": "A", "BETA": "B", "EPSILON": "E", "ZETA": "Z", "ETA": "H", "IOTA": "I",
                        "KAPPA": "K", "MU": "M", "NU": "N", "OMICRON": "O", "RHO": "P", "TAU": "T", "CHI": "X"}
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ", "0123456789+-=()ni")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜ", "0123456789+-=()aeoxhklmnpst")
_SCRIPT_RUN = re.compile("([⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ]+)|([₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜ]+)")


def _greek(ch: str) -> str | None:
    name = unicodedata.name(ch, "")
    symbol = {"GREEK PHI SYMBOL": r"\phi", "GREEK THETA SYMBOL": r"\vartheta", "GREEK RHO SYMBOL": r"\varrho",
              "GREEK SMALL LETTER FINAL SIGMA": r"\varsigma", "GREEK SMALL LETTER OMICRON": "o"}
    if name in symbol:
        return rf"\ensuremath{{{symbol[name]}}}"
    match = re.fullmatch(r"GREEK (SMALL|CAPITAL) LETTER (\w+)", name)
    if not match:
        return None
    case, letter = match.groups()
    command = "lambda" if letter == "LAMDA" else letter.lower()
    if case == "SMALL":
        return rf"\ensuremath{{\{command}}}"
    if letter in _GREEK_CAPITALS:
        return rf"\ensuremath{{\{command.capitalize()}}}"
    return _GREEK_SAME_AS_LATIN.get(letter)


def _unicode_latex(ch: str, math: bool) -> str:
    """One non-ASCII character as ASCII LaTeX (in math mode when ``math``); a character with no
    LaTeX spelling becomes its Unicode code point in brackets, so the document still compiles."""
    if ch in _SYMBOLS:
        return _SYMBOLS[ch]
    greek = _greek(ch)
    if greek:
        return greek
    letter = _TEXT_LETTERS.get(ch)
    if letter is None:
        decomposed = unicodedata.normalize("NFD", ch)
        if len(decomposed) == 2 and decomposed[0].isascii() and decomposed[1] in _ACCENTS:
            base = r"\i" if decomposed[0] == "i" else decomposed[0]
            letter = f"\\{_ACCENTS[decomposed[1]]}{{{base}}}"
    if letter is not None:
        return rf"\text{{{letter}}}" if math else letter
    if unicodedata.category(ch).startswith("Z"):
        return " "
    code = f"[U+{ord(ch):04X}]"
    return rf"\text{{{code}}}" if math else code


def _scripts(text: str, math: bool) -> str:
    """Runs of Unicode superscript or subscript characters (d², x₁₂) as LaTeX scripts."""
    def script(match):
        up, down = match.groups()
        body = (up or down).translate(_SUPERSCRIPTS if up else _SUBSCRIPTS)
        mark = "^" if up else "_"
        return f"{mark}{{{body}}}" if math else rf"\ensuremath{{{mark}{{\mathrm{{{body}}}}}}}"
    return _SCRIPT_RUN.sub(script, text)


def _escape_latex(text: str) -> str:
    r"""Plain text as LaTeX text: special characters escaped, Unicode spelt in ASCII LaTeX, and
    ``x^y`` (a caret before a word or a parenthesised group, as in 2^g − 1) as a superscript."""
    out = []
    pieces = re.split(r"(\^(?:\([^()]*\)|[A-Za-z0-9.]+))", text)
    for i, piece in enumerate(pieces):
        if i % 2:
            out.append(rf"\textsuperscript{{{_escape_latex(piece[1:])}}}")
            continue
        piece = _SCRIPT_RUN.sub(lambda m: "\0" + m.group(0) + "\0", piece)
        for j, part in enumerate(piece.split("\0")):
            if j % 2:
                out.append(_scripts(part, math=False))
                continue
            out.extend(_LATEX_SPECIAL.get(ch) or (ch if ch.isascii() else _unicode_latex(ch, math=False))
                       for ch in part)
    return "".join(out)


# Inline Markdown: a backslash escape, `code`, $math$, **bold**, __bold__, *emphasis*, _emphasis_.
_INLINE = re.compile(
    r"\\(?P<escaped>[!-/:-@\[-`{-~])"
    r"|`(?P<code>[^`]+)`"
    r"|\$(?!\s)(?P<math>[^$]+?)(?<![\s\\])\$(?!\d)"
    r"|\*\*(?P<strong>.+?)\*\*|(?<!\w)__(?P<strong2>.+?)__(?!\w)"
    r"|(?<![\w*])\*(?![\s*])(?P<em>.+?)(?<![\s*])\*(?![\w*])"
    r"|(?<![\w_])_(?![\s_])(?P<em2>.+?)(?<![\s_])_(?![\w_])",
    re.DOTALL)


def _inline(text: str, plain, markup) -> str:
    """``text``'s inline Markdown through ``markup(what, content)``, the text between through ``plain``."""
    out, at = [], 0
    for match in _INLINE.finditer(text):
        out.append(plain(text[at:match.start()]))
        what = match.lastgroup.rstrip("2")
        content = match.group(match.lastgroup)
        out.append(markup(what, content))
        at = match.end()
    out.append(plain(text[at:]))
    return "".join(out)


_LIST_ITEM = {"ul": re.compile(r"[-*+]\s+(.*)"), "ol": re.compile(r"\d{1,9}[.)]\s+(.*)")}
_TABLE_RULE = re.compile(r"\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?")


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row (``|`` at either end optional, ``\\|`` kept in a cell)."""
    line = line.strip()
    line = line.removeprefix("|")
    line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line)]


def _blocks(text: str) -> list[tuple[str, object]]:
    """Markdown blocks: ("p", text) a paragraph (its lines joined), ("ul" or "ol", [items]) a list
    of ``- `` or ``1. `` lines (an indented line continues the item above), ("table", (aligns,
    header, rows)) a pipe table with its ``|---|`` rule. A list or table may follow a paragraph
    line directly, as CommonMark allows."""
    blocks: list[tuple[str, object]] = []
    for block in re.split(r"\n\s*\n", str(text).strip()):
        runs: list[tuple[str, list[str]]] = []  # (kind, raw lines) of consecutive lines of one kind
        for line in block.splitlines():
            if not line.strip():
                continue
            stripped = line.strip()
            kind = next((k for k, pattern in _LIST_ITEM.items() if pattern.fullmatch(stripped)), None)
            if kind is None and stripped.startswith("|"):
                kind = "table"
            if kind is None and runs and runs[-1][0] in ("ul", "ol") and line[:1].isspace():
                runs[-1][1][-1] += " " + stripped  # an indented line continues the list item
                continue
            kind = kind or "p"
            if runs and runs[-1][0] == kind:
                runs[-1][1].append(stripped)
            else:
                runs.append((kind, [stripped]))
        for kind, lines in runs:
            if kind in _LIST_ITEM:
                blocks.append((kind, [_LIST_ITEM[kind].fullmatch(line).group(1).strip() for line in lines]))
            elif kind == "table" and len(lines) >= 2 and _TABLE_RULE.fullmatch(lines[1]):
                rule = _cells(lines[1])
                aligns = ["c" if c.startswith(":") and c.endswith(":") else "r" if c.endswith(":") else "l"
                          for c in rule]
                width = len(aligns)
                rows = [(_cells(line) + [""] * width)[:width] for line in lines[2:]]
                blocks.append(("table", (aligns, (_cells(lines[0]) + [""] * width)[:width], rows)))
            else:
                blocks.append(("p", " ".join(lines)))
    return blocks


def _latex_markup(what: str, content: str) -> str:
    if what == "escaped":
        return _escape_latex(content)
    if what == "code":
        return rf"\texttt{{{_escape_latex(content)}}}"
    if what == "math":
        return f"${latex_math(content)}$"
    inner = _inline(content, _escape_latex, _latex_markup)
    return rf"\textbf{{{inner}}}" if what == "strong" else rf"\emph{{{inner}}}"


def latex_text(markdown: str) -> str:
    r"""The Markdown of a description as LaTeX text, in ASCII: special characters escaped
    (``% & _ # $ { } ^ ~ \``), Unicode spelt out (Σ, ρ, √, −, ², ä), ``**bold**``,
    ``*emphasis*``, ```code``` and ``$math$`` kept as such, paragraphs separated by a blank
    line, lists of ``- `` (``1. ``) lines as ``itemize`` (``enumerate``) and pipe tables as a
    booktabs ``tabular``. ``x^y`` is printed as a superscript.

    >>> print(latex_text("AP = (1/R) Σ P@i; 50% & more_of it, **R** = 3, ρ² ≥ 0.5"))
    AP = (1/R) \ensuremath{\Sigma} P@i; 50\% \& more\_of it, \textbf{R} = 3, \ensuremath{\rho}\ensuremath{^{\mathrm{2}}} \ensuremath{\geq} 0.5
    >>> print(latex_text("gain 2^g − 1, Järvelin"))
    gain 2\textsuperscript{g} \ensuremath{-} 1, J\"{a}rvelin
    """
    def convert(text):
        return _inline(text, _escape_latex, _latex_markup)

    out = []
    for kind, payload in _blocks(markdown):
        if kind in ("ul", "ol"):
            environment = "itemize" if kind == "ul" else "enumerate"
            items = "\n".join(rf"\item {convert(item)}" for item in payload)
            out.append(f"\\begin{{{environment}}}\n{items}\n\\end{{{environment}}}")
        elif kind == "table":
            aligns, header, rows = payload
            lines = [rf"\begin{{tabular}}{{@{{}}{''.join(aligns)}@{{}}}}", r"\toprule",
                     " & ".join(convert(cell) for cell in header) + r" \\", r"\midrule",
                     *(" & ".join(convert(cell) for cell in row) + r" \\" for row in rows),
                     r"\bottomrule", r"\end{tabular}"]
            out.append("\\par\\smallskip\n" + "\n".join(lines) + "\n\\par\\smallskip")
        else:
            out.append(convert(payload))
    return "\n\n".join(out)


# A few KaTeX commands pdflatex (with amsmath and amssymb) lacks, as what they show.
_KATEX_ONLY = {r"\gt": ">", r"\lt": "<", r"\R": r"\mathbb{R}", r"\N": r"\mathbb{N}", r"\Z": r"\mathbb{Z}",
               r"\bm": r"\boldsymbol", r"\dotsc": r"\dots", r"\argmax": r"\operatorname*{arg\,max}",
               r"\argmin": r"\operatorname*{arg\,min}", r"\cancel": "", r"\bcancel": "", r"\xcancel": ""}


def _skip_group(tex: str, i: int) -> int:
    """The index after the balanced {...} group starting at ``tex[i]`` (``i`` itself if there is none)."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i >= len(tex) or tex[i] != "{":
        return i
    depth = 0
    while i < len(tex):
        if tex[i] == "\\":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(tex[i], 0)
        i += 1
        if depth == 0:
            break
    return i


def latex_math(formula: str) -> str:
    r"""A step's KaTeX formula made safe for LaTeX math mode in a table cell.

    ASCII out: Unicode symbols spelt as commands (Σ, ρ, ², −, ≤); an unescaped ``%``, ``#``
    or ``&`` escaped (outside ``\begin...\end``); a top-level line break ``\\`` becomes
    ``\quad`` (it would end the table row); KaTeX-only commands (``\gt``, ``\bm``,
    ``\color{..}``, ``\textcolor{..}{x}``) rewritten for pdflatex.

    >>> print(latex_math(r"\frac{2^{3} - 1}{\log_2(2 + 1)} = 4.417"))
    \frac{2^{3} - 1}{\log_2(2 + 1)} = 4.417
    >>> print(latex_math(r"Σd² = 50% \times 2 \\ \textcolor{red}{x} \gt 1"))
    \ensuremath{\Sigma}d^{2} = 50\% \times 2 \quad  {x} > 1
    """
    tex = _scripts(str(formula), math=True)
    out, i, depth = [], 0, 0
    while i < len(tex):
        ch = tex[i]
        if ch == "\\":
            command = re.match(r"\\(?:[A-Za-z]+|.)?", tex[i:]).group(0)
            i += len(command)
            if command in (r"\color", r"\textcolor"):
                i = _skip_group(tex, i)  # the colour; \textcolor's text follows as a group of its own
                continue
            if command == r"\begin":
                depth += 1
            elif command == r"\end":
                depth = max(0, depth - 1)
            if command == "\\\\" and depth == 0:
                out.append(r"\quad ")
                continue
            replacement = _KATEX_ONLY.get(command, command)
            if re.match(r"\\[A-Za-z]+$", replacement) and i < len(tex) and tex[i].isalpha():
                replacement += " "
            out.append(replacement)
            continue
        if ch in "%#" or (ch == "&" and depth == 0):
            out.append("\\" + ch)
        elif ch == "~":
            out.append(r"\sim ")
        elif not ch.isascii():
            out.append(_unicode_latex(ch, math=True))
        else:
            out.append(ch)
        i += 1
    return "".join(out)


# ---------------------------------------------------------------------------- formula as text

_TEXT_COMMANDS = {
    "times": "×", "cdot": "·", "div": "÷", "pm": "±", "mp": "∓", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
    "ne": "≠", "neq": "≠", "approx": "≈", "equiv": "≡", "sim": "~", "propto": "∝", "infty": "∞", "sum": "Σ",
    "prod": "Π", "int": "∫", "in": "∈", "notin": "∉", "cap": "∩", "cup": "∪", "subseteq": "⊆", "subset": "⊂",
    "supseteq": "⊇", "supset": "⊃", "emptyset": "∅", "varnothing": "∅", "setminus": "∖", "land": "∧",
    "wedge": "∧", "lor": "∨", "vee": "∨", "neg": "¬", "lnot": "¬", "forall": "∀", "exists": "∃", "partial": "∂",
    "nabla": "∇", "to": "→", "rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒", "Leftarrow": "⇐",
    "Leftrightarrow": "⇔", "iff": "⇔", "implies": "⇒", "mapsto": "↦", "ldots": "…", "dots": "…", "cdots": "⋯",
    "dotsc": "…", "dotsb": "⋯", "vdots": "⋮", "lvert": "|", "rvert": "|", "vert": "|", "mid": "|", "lVert": "‖",
    "rVert": "‖", "Vert": "‖", "|": "‖", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉",
    "langle": "⟨", "rangle": "⟩", "circ": "∘", "ast": "*", "star": "⋆", "prime": "′", "checkmark": "✓",
    "gt": ">", "lt": "<", "surd": "√", "ell": "ℓ", "quad": "  ", "qquad": "   ", ",": " ", ";": " ", ":": " ",
    ">": " ", " ": " ", "!": "", "%": "%", "{": "{", "}": "}", "&": "&", "#": "#", "_": "_", "$": "$",
    "lbrace": "{", "rbrace": "}", "displaystyle": "", "textstyle": "", "scriptstyle": "", "limits": "",
    "nolimits": "", "left": "", "right": "", "big": "", "Big": "", "bigg": "", "Bigg": "", "bigl": "",
    "bigr": "", "Bigl": "", "Bigr": "", "biggl": "", "biggr": "", "middle": "", "nonumber": "", "notag": "",
    "\\": "; ",
}
_FUNCTIONS = {"log", "ln", "lg", "exp", "max", "min", "sup", "inf", "arg", "argmax", "argmin", "lim", "det",
              "sin", "cos", "tan", "mod", "bmod", "gcd", "Pr"}
_TEXT_ARGUMENT = {"mathrm", "text", "textrm", "textit", "textbf", "texttt", "mathit", "mathbf", "mathsf", "mathtt",
                  "mathcal", "mathbb", "boldsymbol", "bm", "operatorname", "emph", "mbox", "hbox", "textsf",
                  "mathnormal", "underline", "cancel", "bcancel", "xcancel", "boxed", "pmb"}
# Digits only: Unicode's superscript and subscript digits are in every font, its letters are not.
_SUPER_CHARS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_SUB_CHARS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_TOKEN = re.compile(r"\\(?:[A-Za-z]+\*?|.)|[{}^_]|\s+|[^\\{}^_\s]")


def _greek_text(name: str) -> str | None:
    variant = {"varepsilon": "epsilon", "vartheta": "theta", "varphi": "phi", "varrho": "rho", "varsigma": "sigma",
               "varpi": "pi", "lambda": "lamda", "Lambda": "Lamda"}.get(name, name)
    case = "CAPITAL" if variant[:1].isupper() else "SMALL"
    if name == "varsigma":
        return "ς"
    try:
        return unicodedata.lookup(f"GREEK {case} LETTER {variant.upper()}")
    except KeyError:
        return None


class _FormulaReader:
    """A small recursive reader of KaTeX: groups, scripts, fractions, roots and the common commands."""

    def __init__(self, tex: str):
        self.tokens = _TOKEN.findall(tex)
        self.i = 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self):
        token = self.peek()
        self.i += 1
        return token

    def skip_space(self):
        while self.peek() is not None and self.peek().isspace():
            self.i += 1

    def argument(self) -> str:
        """The next argument: a {group} or one token, as text."""
        self.skip_space()
        token = self.peek()
        if token is None or token == "}":
            return ""
        if token == "{":
            self.take()
            text = self.sequence()
            if self.peek() == "}":
                self.take()
            return text
        return self.item()

    def raw_argument(self) -> str:
        """The next {group} untouched (a colour, an environment's name)."""
        self.skip_space()
        if self.peek() != "{":
            return ""
        self.take()
        depth, parts = 1, []
        while self.peek() is not None:
            token = self.take()
            depth += {"{": 1, "}": -1}.get(token, 0)
            if depth == 0:
                break
            parts.append(token)
        return "".join(parts)

    def optional(self) -> str:
        """An optional [argument] (the n of \\sqrt[n]{x}), as text."""
        self.skip_space()
        if self.peek() != "[":
            return ""
        self.take()
        parts = []
        while self.peek() not in (None, "]"):
            parts.append(self.item())
        self.take()
        return "".join(parts)

    def sequence(self) -> str:
        """Items up to the closing brace; a fraction next to a bracket or a term is put in
        parentheses (\\frac{1}{3}(1 + 2) reads (1/3)(1 + 2), not 1/3(1 + 2))."""
        parts: list[str] = []
        fractions: list[bool] = []
        while self.peek() is not None and self.peek() != "}":
            fraction = self.peek() in (r"\frac", r"\dfrac", r"\tfrac", r"\cfrac")
            part = self.item()
            if not part:
                continue  # \\left, \\displaystyle: nothing between a fraction and its bracket
            if parts:
                if fractions[-1] and re.match(r"[\w(√]", part):
                    parts[-1] = f"({parts[-1]})"
                if fraction and re.search(r"[\w)]$", parts[-1]):
                    part = f"({part})"
            parts.append(part)
            fractions.append(fraction)
        return "".join(parts)

    def item(self) -> str:
        token = self.take()
        if token == "{":
            text = self.sequence()
            if self.peek() == "}":
                self.take()
            return text
        if token in ("^", "_"):
            return _script(self.argument(), up=token == "^")
        if token.isspace():
            return " "
        if token == "&":
            return " "
        if token == "~":
            return " "
        if not token.startswith("\\"):
            return token
        return self.command(token[1:])

    def command(self, name: str) -> str:
        base = name.rstrip("*")
        if base in ("frac", "dfrac", "tfrac", "cfrac"):
            top, bottom = self.argument(), self.argument()
            return f"{_grouped(top)}/{_grouped(bottom)}"
        if base == "binom":
            top, bottom = self.argument(), self.argument()
            return f"C({top.strip()}, {bottom.strip()})"
        if base == "sqrt":
            index = self.optional()
            return f"{index.strip()}√({self.argument().strip()})" if index else f"√({self.argument().strip()})"
        if base in ("color",):
            self.raw_argument()
            return ""
        if base == "textcolor":
            self.raw_argument()
            return self.argument()
        if base in ("begin", "end"):
            self.raw_argument()
            return " "
        if base in ("overline", "bar", "hat", "tilde", "vec", "widehat", "widetilde", "dot"):
            mark = {"hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303",
                    "vec": "\u20d7", "dot": "\u0307"}.get(base, "\u0304")
            text = self.argument()
            return text + mark if len(text) == 1 else f"({text}){mark}"
        if base in _TEXT_ARGUMENT:
            return self.argument()
        if base in _FUNCTIONS:
            self.skip_space()
            word = "argmax" if base == "argmax" else base
            if self.peek() == "_" and base in ("log", "lg"):
                self.take()
                return word + self.argument().strip()  # \log_2 -> log2
            if self.peek() and self.peek() not in ("(", "^", "_", "\\left", "{", "\\bigl", "\\Bigl"):
                return word + " "
            return word
        if name in _TEXT_COMMANDS:
            if _TEXT_COMMANDS[name] == "" and self.peek() == ".":  # \left. shows nothing
                self.take()
            return _TEXT_COMMANDS[name]
        greek = _greek_text(name)
        if greek:
            return greek
        return name  # an unknown command: its name reads better than nothing


def _grouped(text: str) -> str:
    """A fraction's part: bare if it is one term (a number, a word, a function of a bracket), else in parentheses."""
    text = re.sub(r"\s+", " ", text).strip()
    outside = text
    while re.search(r"\([^()]*\)", outside):
        outside = re.sub(r"\([^()]*\)", "", outside)
    if text and not re.search(r"[\s+\-−×·/=<>≤≥]", outside) and "(" not in outside:
        return text
    return f"({text})"


def _script(text: str, up: bool) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    if text.isascii() and text.isdigit():
        return text.translate(_SUPER_CHARS if up else _SUB_CHARS)
    mark = "^" if up else "_"
    return f"{mark}{text}" if re.fullmatch(r"(?:[^\W_]|\.)+", text) else f"{mark}({text})"


def formula_text(formula: str) -> str:
    r"""A KaTeX formula as plain readable text (the HTML answer key shows it so, no script needed).

    ``\frac{a}{b}`` becomes ``a/b`` (parts of more than one number or word in parentheses),
    ``\log_2`` ``log2``, ``\times`` ``×``, ``\sqrt{x}`` ``√(x)``, ``\left( \right)`` plain
    brackets, ``^{2}`` ``²`` (a digit's Unicode superscript; ``^x`` or ``^(...)`` otherwise, and
    ``_i`` likewise ``_i`` or a subscript digit), Greek letters
    their Unicode letter, ``\mathrm{..}`` / ``\text{..}`` their text; other commands their name.

    >>> formula_text(r"\frac{2^{3} - 1}{\log_2(2 + 1)} = \frac{7}{1.585} = 4.417")
    '(2³ - 1)/log2(2 + 1) = 7/1.585 = 4.417'
    >>> formula_text(r"\frac{1}{3}\left(1 + 0.667\right) = 0.556")
    '(1/3)(1 + 0.667) = 0.556'
    >>> formula_text(r"1 - \frac{6 \times 96}{7 \times (7^2 - 1)} = -0.714")
    '1 - (6 × 96)/(7 × (7² - 1)) = -0.714'
    >>> formula_text(r"\frac{\mathrm{DCG}}{\mathrm{IDCG}} = \sqrt{x_{i}} \cdot \rho^{1/2} \le \beta^2")
    'DCG/IDCG = √(x_i) · ρ^(1/2) ≤ β²'
    """
    text = _FormulaReader(str(formula)).sequence()
    return re.sub(r" {2,}", " ", text).strip()


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
    return "".join(_LATEX_SPECIAL.get(ch, ch) + (r"\allowbreak{}" if ch in "?&/" else "") for ch in url)


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
            stage = _escape_latex(step.stage)
        previous = step.stage
        label = _escape_latex(step.label)
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
    lines = [_LATEX_PREAMBLE.rstrip("\n"), rf"\hypersetup{{pdftitle={{{_escape_latex(sheet.title(answers))}}}}}",
             r"\begin{document}", rf"\section*{{{_escape_latex(sheet.title(answers))}}}"]
    kinds = ", ".join(_escape_latex(KINDS[kind]) for kind in sheet.kinds)
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
            rf"\subsection*{{Exercise {item.number}: {_escape_latex(item.kind_title)}}}",
            rf"Kind \texttt{{{_escape_latex(item.kind)}}}, seed \textbf{{{item.seed}}}"
            + "".join(rf", {_escape_latex(name)} \texttt{{{_escape_latex(str(value))}}}" for name, value in item.options)
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


def _html_markup(what: str, content: str) -> str:
    if what == "escaped":
        return html.escape(content)
    if what == "code":
        return f"<code>{html.escape(content)}</code>"
    if what == "math":
        return html.escape(formula_text(content))
    inner = _inline(content, _html_plain, _html_markup)
    return f"<strong>{inner}</strong>" if what == "strong" else f"<em>{inner}</em>"


def _html_plain(text: str) -> str:
    """Text escaped, with ``x^y`` as a superscript (as in LaTeX)."""
    pieces = re.split(r"(\^(?:\([^()]*\)|[A-Za-z0-9.]+))", text)
    return "".join(f"<sup>{html.escape(piece[1:])}</sup>" if i % 2 else html.escape(piece)
                   for i, piece in enumerate(pieces))


def _html_description(markdown: str) -> str:
    def convert(text):
        return _inline(text, _html_plain, _html_markup)

    out = []
    for kind, payload in _blocks(markdown):
        if kind in ("ul", "ol"):
            out.append(f"<{kind}>" + "".join(f"<li>{convert(item)}</li>" for item in payload) + f"</{kind}>")
        elif kind == "table":
            aligns, header, rows = payload
            align = {"l": "left", "c": "center", "r": "right"}
            head = "".join(f'<th scope="col" style="text-align: {align[a]}">{convert(cell)}</th>'
                           for a, cell in zip(aligns, header))
            body = "".join("<tr>" + "".join(f'<td style="text-align: {align[a]}">{convert(cell)}</td>'
                                            for a, cell in zip(aligns, row)) + "</tr>" for row in rows)
            out.append(f'<table class="given"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')
        else:
            out.append(f"<p>{convert(payload)}</p>")
    return "".join(out)


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
            f'<div class="description">{_html_description(describe(item.exercise))}</div>',
            *_html_table(item, answers),
            "</section>",
        ]
    lines += ["</main>", "</body>", "</html>", ""]
    return "\n".join(lines)
