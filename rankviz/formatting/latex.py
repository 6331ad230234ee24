"""LaTeX from the app's text and formulas, in ASCII: the one escaping of the package, Unicode
spelt as LaTeX commands, and KaTeX formulas made safe for pdflatex's math mode.

:func:`latex_escape` writes text (a table cell, a caption, a sentence), :func:`latex_math` a
KaTeX formula for a ``$...$`` cell. Pure functions over strings; no rankviz import.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["CARET_POWER", "latex_escape", "latex_math"]

# LaTeX's special characters (and those T1 text shows wrongly) and what to write instead.
_SPECIALS = {
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


# A caret before a word or a parenthesised group: a power written in text (2^g − 1).
CARET_POWER = re.compile(r"(\^(?:\([^()]*\)|[A-Za-z0-9.]+))")


def latex_escape(text, *, carets: bool = False) -> str:
    r"""Text as LaTeX text, in ASCII: LaTeX's special characters escaped (``\ { } $ & % # _ ^ ~``,
    and ``< > | "``, which T1 text would print as other glyphs), Unicode spelt as ASCII LaTeX
    (Σ, ρ, √, −, ä; super- and subscript digits as scripts); a character with no LaTeX spelling
    becomes its code point in brackets, so the document still compiles.

    The one escaping of the package: table cells and captions (:mod:`rankviz.teaching.export`,
    :meth:`rankviz.evaluation.comparison.Comparison.to_latex`), the worksheets' text and
    :func:`~rankviz.formatting.markdown.latex_text` go through it.

    Parameters
    ----------
    text : object
        Written with ``str``.
    carets : bool, default False
        Print ``x^y`` (a caret before a word or a parenthesised group, as in ``2^g − 1``) as a
        superscript, as the app's sentences write powers; otherwise a caret is a caret.

    Examples
    --------
    >>> print(latex_escape("P_10 & 50% of {a}"))
    P\_10 \& 50\% of \{a\}
    >>> print(latex_escape("ρ ≥ 0.5, Järvelin"))
    \ensuremath{\rho} \ensuremath{\geq} 0.5, J\"{a}rvelin
    >>> print(latex_escape("2^g − 1", carets=True))
    2\textsuperscript{g} \ensuremath{-} 1
    """
    text = str(text)
    if carets:
        pieces = CARET_POWER.split(text)
        return "".join(rf"\textsuperscript{{{latex_escape(piece[1:], carets=True)}}}" if i % 2 else latex_escape(piece)
                       for i, piece in enumerate(pieces))
    out, at = [], 0
    for run in _SCRIPT_RUN.finditer(text):
        out.append(_escape_characters(text[at:run.start()]))
        out.append(_scripts(run.group(0), math=False))
        at = run.end()
    out.append(_escape_characters(text[at:]))
    return "".join(out)


def _escape_characters(text: str) -> str:
    # An ASCII control character (a NUL, a form feed) is no more printable by TeX than an
    # unknown symbol: written as its code point too.
    return "".join(_SPECIALS.get(ch) or (ch if (ch.isascii() and ch.isprintable()) or ch in "\n\t"
                                          else _unicode_latex(ch, math=False)) for ch in text)


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
