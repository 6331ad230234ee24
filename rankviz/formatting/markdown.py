"""Markdown as the app writes it (a description, a mistake sentence), as LaTeX and as HTML.

The subset the app's text uses: paragraphs, lists of ``- `` or ``1. `` lines, pipe tables, and
inline ``**bold**``, ``*emphasis*``, ```code```, ``$math$`` and backslash escapes.
:func:`latex_text` writes it for pdflatex (the printed worksheets), :func:`markdown_html` for a
self-contained HTML page (their HTML twin), where a formula is shown as plain text
(:func:`~rankviz.formatting.formula_text.formula_text`). Pure functions; no rankviz import
beyond this package.
"""

from __future__ import annotations

import html
import re

from rankviz.formatting.formula_text import formula_text
from rankviz.formatting.latex import CARET_POWER, latex_escape, latex_math

__all__ = ["latex_text", "markdown_html"]

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
        return latex_escape(content, carets=True)
    if what == "code":
        return rf"\texttt{{{latex_escape(content, carets=True)}}}"
    if what == "math":
        return f"${latex_math(content)}$"
    inner = _inline(content, _latex_plain, _latex_markup)
    return rf"\textbf{{{inner}}}" if what == "strong" else rf"\emph{{{inner}}}"


def _latex_plain(text: str) -> str:
    return latex_escape(text, carets=True)


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
        return _inline(text, _latex_plain, _latex_markup)

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
    pieces = CARET_POWER.split(text)
    return "".join(f"<sup>{html.escape(piece[1:])}</sup>" if i % 2 else html.escape(piece)
                   for i, piece in enumerate(pieces))


def markdown_html(markdown: str) -> str:
    r"""The Markdown of a description as HTML: ``<p>``, ``<ul>``/``<ol>``, a ``<table>`` with
    ``scope="col"`` headers, ``<strong>``, ``<em>``, ``<code>``; ``$math$`` as plain text
    (:func:`~rankviz.formatting.formula_text.formula_text`), ``x^y`` as ``<sup>``; everything escaped.

    >>> markdown_html("**R** = 3 & $\\frac{1}{3}$; 2^g - 1")
    '<p><strong>R</strong> = 3 &amp; 1/3; 2<sup>g</sup> - 1</p>'
    """
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
