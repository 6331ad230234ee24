"""A KaTeX formula as plain readable text (``\\frac{7}{1.585}`` -> ``7/1.585``), for pages that
cannot run KaTeX: the HTML answer key of the worksheets. Pure functions; no rankviz import.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["formula_text"]

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
