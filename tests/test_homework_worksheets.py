"""Worksheets and answer keys (issue 9, part 4): drawn from a seed, every exercise reopened from
its printed seed and kind, as LaTeX and as one self-contained HTML page that prints cleanly.

Everything is checked for every registered kind (``KINDS``), so a kind added later is covered.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest

from rankviz.teaching.homework import KINDS, describe, generate_exercise, stages, steps_for
from rankviz.teaching.homework.core import KIND_SPECS, MAX_SEED, Exercise, KindSpec, Step, tex_number
from rankviz.formatting import latex_math, latex_text
# The function itself: once rankviz.formatting.markdown has imported the submodule of the same name, the
# package attribute is that submodule (the lazy name is never asked for).
from rankviz.formatting.formula_text import formula_text
from rankviz.teaching.homework.worksheets import (
    LINK_PARAMETERS,
    MAX_SHEET_EXERCISES,
    checker_link,
    make_worksheet,
    worksheet_html,
    worksheet_latex,
)

ALL_KINDS = list(KINDS)
BASE = "https://rankviz.example/homework"
# Packages of every TeX distribution (TeX Live's and MiKTeX's basic schemes).
STANDARD_PACKAGES = {"fontenc", "lmodern", "geometry", "amsmath", "amssymb", "array", "booktabs", "tabularx",
                     "hyperref"}


def option_variants():
    """(kind, options) for every kind with its defaults, and every other value of each of its options."""
    for kind in ALL_KINDS:
        yield kind, {}
        for name, values in KIND_SPECS[kind].options.items():
            for value in tuple(values)[1:]:
                yield kind, {name: value}


# ------------------------------------------------------------------------------ helpers


def latex_groups_balanced(tex: str) -> bool:
    """Braces balance, ignoring escaped ones (\\{ \\}) and % comments."""
    depth, i = 0, 0
    while i < len(tex):
        ch = tex[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "%":
            i = tex.find("\n", i)
            if i < 0:
                break
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return False
        i += 1
    return depth == 0


def latex_environments(tex: str) -> list[str]:
    """The \\begin/\\end pairs as a stack: empty when every environment closes in order."""
    stack = []
    for command, name in re.findall(r"\\(begin|end)\{([^}]*)\}", tex):
        if command == "begin":
            stack.append(name)
        elif not stack or stack.pop() != name:
            return [f"unmatched \\end{{{name}}}"]
    return stack


def unescaped(tex: str, chars: str) -> list[str]:
    """Special characters of ``tex`` not escaped by a backslash (comment lines left out)."""
    found = []
    for line in tex.splitlines():
        if line.startswith("%"):
            continue
        i = 0
        while i < len(line):
            if line[i] == "\\":
                i += 2
                continue
            if line[i] in chars:
                found.append(line[i])
            i += 1
    return found


class Page(HTMLParser):
    """Everything the tests read from a page: tags, attributes, table cells and text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.stack: list[str] = []
        self.rows: list[list[tuple[str, dict, str]]] = []
        self.row_tables: list[str] = []  # the aria-label of each row's table ("" for a description's table)
        self.tables: list[str] = []
        self.cell: list | None = None
        self.styles: list[str] = []
        self.title = ""
        self.text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag not in ("meta", "br"):
            self.stack.append(tag)
        if tag == "table":
            self.tables.append(attributes.get("aria-label", ""))
        if tag == "tr":
            self.rows.append([])
            self.row_tables.append(self.tables[-1])
        if tag in ("th", "td"):
            self.cell = [tag, attributes, ""]

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()
        if tag == "table":
            self.tables.pop()
        if tag in ("th", "td") and self.cell is not None:
            self.rows[-1].append(tuple(self.cell))
            self.cell = None

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "style":
            self.styles.append(data)
            return
        if self.stack and self.stack[-1] == "title":
            self.title += data
        if self.cell is not None:
            self.cell[2] += data
        self.text.append(data)

    def all_text(self) -> str:
        return "".join(self.text)

    def step_rows(self) -> list[list[tuple[str, dict, str]]]:
        """The body rows of the worked tables (not the header rows, not a description's table)."""
        return [row for row, table in zip(self.rows, self.row_tables) if table.startswith("Work") and row[-1][0] == "td"]


@pytest.fixture(scope="module")
def every_kind_sheet():
    return make_worksheet(ALL_KINDS, min(MAX_SHEET_EXERCISES, 2 * len(ALL_KINDS)), 2024)


# ------------------------------------------------------------------------------ drawing a sheet


def test_same_arguments_give_the_same_sheet_and_documents():
    one, two = (make_worksheet(ALL_KINDS, 6, 77) for _ in range(2))
    assert one == two
    for answers in (False, True):
        assert worksheet_latex(one, answers=answers) == worksheet_latex(two, answers=answers)
        assert worksheet_html(one, answers=answers, base_url=BASE) == worksheet_html(two, answers=answers,
                                                                                      base_url=BASE)


def test_a_different_seed_gives_a_different_sheet():
    one, two = make_worksheet(ALL_KINDS, 6, 77), make_worksheet(ALL_KINDS, 6, 78)
    assert [e.seed for e in one.exercises] != [e.seed for e in two.exercises]
    assert [e.exercise for e in one.exercises] != [e.exercise for e in two.exercises]
    assert worksheet_latex(one) != worksheet_latex(two)
    assert worksheet_html(one) != worksheet_html(two)
    assert worksheet_latex(one, answers=True) != worksheet_latex(two, answers=True)


def test_kinds_cycle_in_the_order_given_and_numbers_count_from_one():
    kinds = list(reversed(ALL_KINDS))
    sheet = make_worksheet(kinds + kinds[:1], 2 * len(kinds) + 1, 5)  # a repeated kind counts once
    assert sheet.kinds == tuple(kinds)
    assert [e.kind for e in sheet.exercises] == (kinds * 3)[:2 * len(kinds) + 1]
    assert [e.number for e in sheet.exercises] == list(range(1, sheet.count + 1))
    assert make_worksheet("ap", 2, 5).kinds == ("ap",)  # one kind as a string


def test_a_longer_sheet_begins_with_the_shorter_one():
    assert make_worksheet(ALL_KINDS, 9, 31).exercises[:4] == make_worksheet(ALL_KINDS, 4, 31).exercises


def test_every_exercise_reopens_from_its_printed_seed_and_kind(every_kind_sheet):
    seeds = [e.seed for e in every_kind_sheet.exercises]
    assert len(set(seeds)) == len(seeds), "each exercise has its own printed seed"
    for item in every_kind_sheet.exercises:
        assert isinstance(item.seed, int) and not isinstance(item.seed, bool) and 0 <= item.seed <= MAX_SEED
        again = generate_exercise(item.seed, item.kind, **dict(item.options))
        assert again == item.exercise
        assert tuple(steps_for(again)) == item.steps
        assert item.kind_title == KINDS[item.kind]


@pytest.mark.parametrize(("kind", "options"), list(option_variants()))
def test_every_kind_and_option_prints_and_reopens(kind, options):
    sheet = make_worksheet([kind], 3, 11, options=options)
    for item in sheet.exercises:
        chosen = dict(item.options)
        assert set(chosen) == set(KIND_SPECS[kind].options), "every option of the kind is recorded"
        assert all(chosen[name] == value for name, value in options.items())
        assert generate_exercise(item.seed, kind, **chosen) == item.exercise
        query = parse_qs(urlsplit(item.link(BASE)).query)
        assert query.pop("hw_source") == ["practice"]
        assert query.pop("hw_kind") == [kind]
        assert query.pop("seed") == [str(item.seed)]
        assert query == {f"hw_{name}": [str(value)] for name, value in chosen.items()}
    for answers in (False, True):
        tex = worksheet_latex(sheet, answers=answers, base_url=BASE)
        assert latex_groups_balanced(tex) and latex_environments(tex) == []
        Page(worksheet_html(sheet, answers=answers, base_url=BASE))


def test_distinct_exercises_where_the_kind_allows():
    sheet = make_worksheet(["spearman"], 12, 3)
    given = [(e.exercise.ranks_a, e.exercise.ranks_b) for e in sheet.exercises]
    assert len(set(given)) == len(given)


def test_shared_and_per_kind_options():
    ndcg_options = dict(KIND_SPECS["ndcg"].options)
    other_gain = ndcg_options["gain"][1]
    sheet = make_worksheet(["ap", "ndcg"], 4, 9, options={"gain": other_gain})
    assert [dict(e.options) for e in sheet.exercises if e.kind == "ndcg"] == [
        {"gain": other_gain, "discount": ndcg_options["discount"][0]}] * 2
    assert all(e.options == () for e in sheet.exercises if e.kind == "ap")
    other_discount = ndcg_options["discount"][1]
    sheet = make_worksheet(["ndcg"], 1, 9, options={"ndcg": {"discount": other_discount}})
    assert dict(sheet.exercises[0].options) == {"gain": ndcg_options["gain"][0], "discount": other_discount}
    assert sheet.exercises[0].exercise.discount == other_discount


def test_links_use_the_apps_url_keys():
    """The printed link opens the checker: every parameter it writes is a URL key of the homework page."""
    from rankviz.ui.url_keys import URL_KEYS

    names = {key.name: key for key in URL_KEYS.values()}
    wanted = {LINK_PARAMETERS["source"], LINK_PARAMETERS["kind"], LINK_PARAMETERS["seed"]}
    wanted |= {LINK_PARAMETERS["option_prefix"] + name for kind in ALL_KINDS for name in KIND_SPECS[kind].options}
    missing = sorted(name for name in wanted if name not in names)
    assert not missing, (f"a worksheet's link writes {missing}, which rankviz/ui/url_keys.py does not list for the "
                         f"homework page: add them there (and read them on the page) so the link opens the exercise")
    assert all("homework" in names[name].pages for name in wanted)
    assert checker_link("ap", 12, base_url=BASE + "?tol=0.005") == (
        BASE + "?tol=0.005&hw_source=practice&hw_kind=ap&seed=12")


@pytest.mark.parametrize(("call", "message"), [
    (lambda: make_worksheet(["no_such_kind"], 3, 1), r"Unknown exercise kind 'no_such_kind'; the kinds are precision_recall, ap"),
    (lambda: make_worksheet([], 3, 1), r"Pick at least one kind of exercise"),
    (lambda: make_worksheet(None, 3, 1), r"kinds must be a list of exercise kinds"),
    (lambda: make_worksheet(["ap"], 0, 1), r"A worksheet has 1 to 40 exercises; got 0\."),
    (lambda: make_worksheet(["ap"], 41, 1), r"A worksheet has 1 to 40 exercises; got 41\."),
    (lambda: make_worksheet(["ap"], 2.0, 1), r"A worksheet has 1 to 40 exercises; got 2\.0\."),
    (lambda: make_worksheet(["ap"], True, 1), r"A worksheet has 1 to 40 exercises; got True\."),
    (lambda: make_worksheet(["ap"], 3, -1), r"The seed must be a whole number from 0 to 1000000000; got -1\."),
    (lambda: make_worksheet(["ap"], 3, 10**9 + 1), r"The seed must be a whole number from 0 to 1000000000"),
    (lambda: make_worksheet(["ap"], 3, "12"), r"The seed must be a whole number from 0 to 1000000000; got '12'\."),
    (lambda: make_worksheet(["ap"], 3, 1, options={"gain": "linear"}),
     r"No kind on this sheet takes the option 'gain': ap takes none\."),
    (lambda: make_worksheet(["ndcg"], 3, 1, options={"gain": "cubic"}),
     r"The option gain of 'ndcg' exercises must be one of exponential, linear; got 'cubic'\."),
    (lambda: make_worksheet(["ndcg"], 3, 1, options={"spearman": {"gain": "linear"}}),
     r"options for 'spearman', which is not a kind on this sheet \(ndcg\)\."),
    (lambda: make_worksheet(["ap", "ndcg"], 3, 1, options={"ap": {"gain": "linear"}}),
     r"Exercises of kind 'ap' take no option 'gain'; ap takes none\."),
    (lambda: make_worksheet(["ap"], 3, 1, options=["gain"]), r"options must be a mapping"),
    (lambda: worksheet_html(make_worksheet(["ap"], 1, 1), base_url="javascript:alert(1)"),
     r"base_url must be empty, an http\(s\) address or a path"),
    (lambda: worksheet_latex(make_worksheet(["ap"], 1, 1), base_url="https://x.org/a b"), r"without spaces"),
    (lambda: worksheet_latex(make_worksheet(["ap"], 1, 1), base_url='https://x.org/"}'), r"got 'https://x.org/\"}'"),
    (lambda: checker_link("ap", 1, base_url="https://x.org/#frag"), r"or a # fragment"),
])
def test_bad_input_is_a_readable_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ------------------------------------------------------------------------------ LaTeX


def test_latex_is_a_complete_balanced_ascii_document(every_kind_sheet):
    for answers in (False, True):
        tex = worksheet_latex(every_kind_sheet, answers=answers, base_url=BASE)
        assert tex.isascii(), "Unicode is spelt in LaTeX, so any engine compiles it"
        assert tex.startswith(r"\documentclass[a4paper,11pt]{article}")
        assert tex.rstrip().endswith(r"\end{document}")
        assert latex_groups_balanced(tex)
        assert latex_environments(tex) == []
        packages = {p.strip() for group in re.findall(r"\\usepackage(?:\[[^]]*\])?\{([^}]*)\}", tex)
                    for p in group.split(",")}
        assert "booktabs" in packages and packages <= STANDARD_PACKAGES
        assert tex.count(r"\begin{minipage}") == every_kind_sheet.count  # an exercise is never split
        assert tex.count(r"\begin{tabularx}") == every_kind_sheet.count
        for item in every_kind_sheet.exercises:
            assert rf"\subsection*{{Exercise {item.number}: " in tex
            assert rf"seed \textbf{{{item.seed}}}" in tex
            href = item.link(BASE).replace("%", r"\%")
            assert rf"\href{{{href}}}" in tex
            assert latex_text(describe(item.exercise)) in tex


def test_latex_table_has_one_row_per_step(every_kind_sheet):
    blank = worksheet_latex(every_kind_sheet)
    key = worksheet_latex(every_kind_sheet, answers=True)
    rows_blank = [line for line in blank.splitlines() if line.endswith(r"\rule{0pt}{6.5mm} \\")]
    rows_key = [line for line in key.splitlines() if re.search(r"& \$.*\$ \\\\$", line)]
    steps = [step for item in every_kind_sheet.exercises for step in item.steps]
    assert len(rows_blank) == len(rows_key) == len(steps)
    stage_names = [stage for item in every_kind_sheet.exercises for stage in stages(item.steps)]
    assert sum(not row.startswith(" &") for row in rows_blank) == len(stage_names), "a stage named once"
    for row, step in zip(rows_key, steps):
        cells = row.split(" & ", 3)
        assert cells[2] == tex_number(step.expected)
        assert cells[3] == f"${latex_math(step.formula)}$ \\\\"


def test_the_answer_key_holds_every_value_and_the_blank_sheet_none(every_kind_sheet):
    blank_tex, key_tex = worksheet_latex(every_kind_sheet), worksheet_latex(every_kind_sheet, answers=True)
    # What a reader sees: the body, without LaTeX's lengths (\\rule{7cm}{0.4pt}).
    blank_tex = re.sub(r"\d*\.?\d+(?:pt|mm|cm|ex|em)\b", "", blank_tex.split(r"\begin{document}")[1])
    blank_page = Page(worksheet_html(every_kind_sheet)).all_text()
    given = " ".join(describe(e.exercise) + " " + " ".join(s.label + " " + s.stage for s in e.steps)
                     for e in every_kind_sheet.exercises)
    checked = 0
    for item in every_kind_sheet.exercises:
        for step in item.steps:
            value = tex_number(step.expected)
            assert value in key_tex
            if "." in value and value not in given:  # whole numbers also stand in the descriptions
                assert not re.search(rf"(?<![\d.]){re.escape(value)}(?!\d)", blank_tex), value
                assert not re.search(rf"(?<![\d.]){re.escape(value)}(?!\d)", blank_page), value
                checked += 1
            if len(step.formula) > 12:
                assert latex_math(step.formula) not in blank_tex
    assert checked >= 10


# A kind that exists only in these tests, with a description and formulas full of what must be escaped.
NASTY = ("50% of d_1 & d_2 cost $5 #1 ~ {x} \\ 2^g − 1, Σ ρ √ ² ≤ ≥ ×, Järvelin; **bold** *em* `a_b` $\\beta^2$ "
         "<script>alert('x')</script>\n\nGiven:\n| query | AP_1 |\n|---|--:|\n| q1 | 50% |\nThen:\n1. MAP & GMAP\n2. *done*")


def _nasty_steps(exercise):
    return [Step("d_1 & 50% #1", 0.1234, r"\frac{50\%}{x_{1}} + Σd² = 0.123", stage="Step 1: α & β_1"),
            Step("ρ total", 1.5, r"\sqrt{2.25} \times 1 \gt 1 = 1.5", uses=(0,), rule="sum",
                 stage="Step 2: ρ")]


@pytest.fixture()
def nasty_kind(monkeypatch):
    spec = KindSpec("sheet_test_nasty", "Escaping: 100% & more_of {this} ρ",
                    lambda rng, seed: Exercise("sheet_test_nasty", f"Practice exercise {seed}",
                                               params={"x": rng.randint(1, 9)}),
                    _nasty_steps, lambda exercise: NASTY)
    monkeypatch.setitem(KIND_SPECS, spec.key, spec)
    monkeypatch.setitem(KINDS, spec.key, spec.title)
    return spec.key


def test_latex_escapes_special_characters(nasty_kind):
    sheet = make_worksheet([nasty_kind, "ap"], 2, 1)
    for answers in (False, True):
        tex = worksheet_latex(sheet, answers=answers)
        assert tex.isascii()
        assert latex_groups_balanced(tex) and latex_environments(tex) == []
        body = tex.split(r"\begin{document}")[1]
        assert unescaped(body, "%#") == []
        assert r"100\% \& more\_of \{this\} \ensuremath{\rho}" in tex
    text = latex_text(NASTY)
    assert unescaped(text.split("\n\n")[0].replace(r"$\beta^2$", ""), "%#_&~") == []  # the table has & columns
    for piece in (r"50\%", r"d\_1 \& d\_2", r"\$5 \#1", r"\textasciitilde{}", r"\{x\}", r"\textbackslash{}",
                  r"2\textsuperscript{g} \ensuremath{-} 1", r"\ensuremath{\Sigma}", r"\ensuremath{\rho}",
                  r"\ensuremath{\surd}", r"\ensuremath{^{\mathrm{2}}}", r"\ensuremath{\leq}", r"\ensuremath{\geq}",
                  r"\ensuremath{\times}", r'J\"{a}rvelin', r"\textbf{bold}", r"\emph{em}", r"\texttt{a\_b}",
                  r"$\beta^2$", r"\textless{}script\textgreater{}"):
        assert piece in text, piece
    key = worksheet_latex(sheet, answers=True)
    assert r"$\frac{50\%}{x_{1}} + \ensuremath{\Sigma}d^{2} = 0.123$" in key
    assert r"\sqrt{2.25} \times 1 > 1 = 1.5" in key
    assert r"Step 1: \ensuremath{\alpha} \& \ensuremath{\beta}\_1" in key


def test_description_tables_and_lists(nasty_kind):
    sheet = make_worksheet([nasty_kind], 1, 1)
    tex = worksheet_latex(sheet)
    assert ("\\begin{tabular}{@{}lr@{}}\n\\toprule\nquery & AP\\_1 \\\\\n\\midrule\nq1 & 50\\% \\\\\n\\bottomrule\n"
            "\\end{tabular}") in tex
    assert "Then:\n\n\\begin{enumerate}\n\\item MAP \\& GMAP\n\\item \\emph{done}\n\\end{enumerate}" in tex
    page = Page(worksheet_html(sheet))
    given = [row for row, table in zip(page.rows, page.row_tables) if table == ""]
    assert [[cell[2] for cell in row] for row in given] == [["query", "AP_1"], ["q1", "50%"]]
    assert given[0][0][1]["scope"] == "col"
    assert "<ol><li>MAP &amp; GMAP</li><li><em>done</em></li></ol>" in worksheet_html(sheet)


@pytest.mark.parametrize(("formula", "math"), [
    (r"\frac{1}{3}\left(1 + 0.667\right) = 0.556", r"\frac{1}{3}\left(1 + 0.667\right) = 0.556"),
    ("50% # & x", r"50\% \# \& x"),
    (r"\begin{aligned} a &= 1 \\ b &= 2 \end{aligned}", r"\begin{aligned} a &= 1 \\ b &= 2 \end{aligned}"),
    (r"a \\ b", r"a \quad  b"),
    ("τ = −0.5, x² y₁₂", r"\ensuremath{\tau} = \ensuremath{-}0.5, x^{2} y_{12}"),
    (r"\color{red} x \bm{y}", r" x \boldsymbol{y}"),
])
def test_latex_math(formula, math):
    assert latex_math(formula) == math


def test_latex_text_keeps_lists_and_paragraphs():
    assert latex_text("First.\n\n- one_1\n- two%") == ("First.\n\n\\begin{itemize}\n\\item one\\_1\n"
                                                       "\\item two\\%\n\\end{itemize}")
    assert latex_text("line one\nline two") == "line one line two"
    assert latex_text(r"not \*emphasis\*") == "not *emphasis*"


def test_latex_compiles_with_pdflatex(tmp_path, every_kind_sheet):
    """Both sheets compile. Where TeX is missing the test skips with the install command, except
    under CI (``CI=true``, where .ci/run installs it): there a missing pdflatex is a failure."""
    if shutil.which("pdflatex") is None:
        message = ("pdflatex is not installed: apt-get install texlive-latex-recommended lmodern "
                   "(the LaTeX is still checked for balance, escaping and standard packages)")
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    for answers in (False, True):
        source = tmp_path / f"sheet_{answers}.tex"
        source.write_text(worksheet_latex(every_kind_sheet, answers=answers, base_url=BASE), encoding="ascii")
        run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", source.name],
                             cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
        assert run.returncode == 0, run.stdout[-3000:]
        assert (tmp_path / f"sheet_{answers}.pdf").stat().st_size > 0


# ------------------------------------------------------------------------------ HTML


def check_self_contained(text: str, sheet, base_url: str) -> Page:
    page = Page(text)
    assert page.stack == [], f"unclosed tags {page.stack}"
    assert text.startswith("<!DOCTYPE html>")
    assert ("html", {"lang": "en"}) in page.tags
    assert page.title.strip()
    tags = {tag for tag, _ in page.tags}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed", "video", "audio", "source"}
    links = {item.link(base_url) for item in sheet.exercises}
    for tag, attributes in page.tags:
        assert "src" not in attributes and "srcset" not in attributes, tag
        assert not any(name.startswith("on") for name in attributes), (tag, attributes)
        if "href" in attributes:
            assert tag == "a" and attributes["href"] in links, attributes["href"]
    style = "".join(page.styles)
    assert "url(" not in style and "@import" not in style and "@font-face" not in style
    assert not re.search(r"https?://", style)
    return page


def test_html_is_one_self_contained_accessible_page(every_kind_sheet):
    for answers in (False, True):
        for base_url in ("", BASE):
            text = worksheet_html(every_kind_sheet, answers=answers, base_url=base_url)
            page = check_self_contained(text, every_kind_sheet, base_url)
            assert sum(tag == "a" for tag, _ in page.tags) == every_kind_sheet.count
            assert page.title == every_kind_sheet.title(answers)
            headers = [attributes for tag, attributes in page.tags if tag == "th"]
            assert headers and all(a.get("scope") in ("col", "row", "rowgroup") for a in headers)
            assert sum(tag == "section" for tag, _ in page.tags) == every_kind_sheet.count


def test_html_has_print_rules():
    style = "".join(Page(worksheet_html(make_worksheet(["ap"], 1, 1))).styles)
    assert "@media print" in style and "@page" in style and "size: A4" in style
    print_rules = style[style.index("@media print"):]
    assert re.search(r"\.exercise \{[^}]*break-inside: avoid", print_rules)
    assert re.search(r"table, tr \{[^}]*break-inside: avoid", print_rules)
    assert re.search(r"td\.answer \{ height: \d", print_rules), "room to write in each answer cell"
    assert "color: #000; background: #fff" in print_rules
    assert re.search(r"th, td \{[^}]*border: 1px solid #111", style)


def test_html_tables_hold_the_steps(every_kind_sheet):
    blank = Page(worksheet_html(every_kind_sheet))
    key = Page(worksheet_html(every_kind_sheet, answers=True))
    steps = [step for item in every_kind_sheet.exercises for step in item.steps]
    blank_rows, key_rows = blank.step_rows(), key.step_rows()
    assert len(blank_rows) == len(key_rows) == len(steps)
    for blank_row, key_row, step in zip(blank_rows, key_rows, steps):
        label = next(cell for cell in blank_row if cell[1].get("scope") == "row")
        assert label[2] == step.label
        assert blank_row[-1][1].get("class") == "answer" and blank_row[-1][2] == ""
        value, working = key_row[-2], key_row[-1]
        assert value[2] == tex_number(step.expected)
        assert working[2] == formula_text(step.formula)
    stage_cells = [cell for row in blank.rows for cell in row if cell[1].get("scope") == "rowgroup"]
    assert [cell[2] for cell in stage_cells] == [s for item in every_kind_sheet.exercises for s in stages(item.steps)]


def test_html_escapes_every_text(nasty_kind):
    sheet = make_worksheet([nasty_kind], 1, 1)
    for answers in (False, True):
        text = worksheet_html(sheet, answers=answers)
        page = check_self_contained(text, sheet, "")
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in text
        assert "100% &amp; more_of {this} ρ" in text
        words = page.all_text()
        assert "50% of d_1 & d_2 cost $5 #1 ~ {x} \\ 2g − 1, Σ ρ √ ² ≤ ≥ ×, Järvelin; bold em a_b β²" in words
    key = Page(worksheet_html(sheet, answers=True))
    workings = [row[-1][2] for row in key.step_rows()]
    assert workings == ["50%/x₁ + Σd² = 0.123", "√(2.25) × 1 > 1 = 1.5"]


@pytest.mark.parametrize(("formula", "text"), [
    (r"\frac{2^{3} - 1}{\log_2(2 + 1)} = \frac{7}{1.585} = 4.417", "(2³ - 1)/log2(2 + 1) = 7/1.585 = 4.417"),
    (r"\frac{1}{3}\left(1 + 0.667\right) = 0.556", "(1/3)(1 + 0.667) = 0.556"),
    (r"1 - \frac{6 \times 96}{7 \times (7^2 - 1)} = -0.714", "1 - (6 × 96)/(7 × (7² - 1)) = -0.714"),
    (r"\frac{\mathrm{DCG}}{\mathrm{IDCG}} = \frac{13.848}{14.595} = 0.949", "DCG/IDCG = 13.848/14.595 = 0.949"),
    (r"\frac{2^{3} - 1}{\max(1, \log_{2} 3)}", "(2³ - 1)/max(1, log2 3)"),
    (r"\frac{3}{\ln(2 + 1)}", "3/ln(2 + 1)"),
    (r"\left(\prod_{q} AP_q\right)^{1/2} = \sqrt[3]{x}", "(Π_q AP_q)^(1/2) = 3√(x)"),
    (r"\tau_b = \frac{C - D}{\sqrt{(C + D + T_a)(C + D + T_b)}}", "τ_b = (C - D)/√((C + D + T_a)(C + D + T_b))"),
    (r"\text{RR} = \frac{1}{3} \cdot 1 \le 1,\; F_{\beta} \ne 0", "RR = 1/3 · 1 ≤ 1, F_β ≠ 0"),
    (r"R_i = \frac{2^{g} - 1}{2^{g_{\max}}}", "R_i = (2^g - 1)/2^(g_max)"),
    (r"\left. x \right|_{0}^{1} \geq \overline{x}", "x |₀¹ ≥ x̄"),
    (r"|R \cap A| = \{d_1\} \approx 50\%", "|R ∩ A| = {d₁} ≈ 50%"),
])
def test_formula_text(formula, text):
    assert formula_text(formula) == text


# ------------------------------------------------------------------------------ printing
