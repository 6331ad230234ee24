"""The glossary (rankviz.glossary): every term sourced, what it says the course notes write is
in the notes, and the app's Chinese uses the glossary's terms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rankviz.glossary import NOTES, SOURCES, TERMS, term

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT.parent / "shared" / "course"


def _course(prefix: str) -> str:
    found = sorted(COURSE.glob(f"{prefix}_*.txt"))
    if not found:
        pytest.skip(f"the course notes ({COURSE}/{prefix}_*.txt) are not beside this checkout")
    return found[0].read_text(encoding="utf-8")


@pytest.mark.parametrize("entry", [t for t in TERMS if t.in_notes], ids=lambda t: t.key)
def test_what_the_notes_write_is_in_the_notes(entry):
    assert entry.in_notes in _course(NOTES)


@pytest.mark.parametrize("entry", [t for t in TERMS if t.in_course], ids=lambda t: t.key)
def test_an_english_source_in_the_course_names_the_term(entry):
    prefix, text = entry.in_course
    assert text in _course(prefix)


@pytest.mark.parametrize("entry", TERMS, ids=lambda t: t.key)
def test_the_source_says_where_the_term_is(entry):
    assert entry.source in SOURCES
    if entry.source in ("notes", "notes_english"):
        assert entry.in_notes, "a term sourced to the notes says what they write"
    if entry.source == "notes":  # the Chinese itself is the notes'
        assert entry.chinese == entry.in_notes
    if entry.source in ("lecture", "summary"):
        assert entry.in_course and entry.in_course[0] == {"lecture": "002", "summary": "000"}[entry.source]
    if entry.source == "usage":
        assert entry.in_notes is None and entry.in_course is None


def test_the_notes_say_zhunquelv_for_precision_not_accuracy():
    notes = _course(NOTES)
    assert "前k个文档的准确率,即precision@K" in notes  # 001, as written (an ASCII comma)
    assert "精确率" not in notes and "查准率" not in notes
    assert term("precision").chinese == "准确率" and "精确率" in term("precision").other_chinese


def test_keys_and_chinese_terms_are_unique():
    assert len({t.key for t in TERMS}) == len(TERMS)
    assert len({t.chinese for t in TERMS}) == len(TERMS)


def test_unknown_term_names_the_known_ones():
    with pytest.raises(ValueError, match="No glossary term 'accuracy'; terms: precision, recall"):
        term("accuracy")


def _app_translations() -> dict[str, str]:
    with (ROOT / "rankviz" / "locale" / "zh" / "LC_MESSAGES" / "app.po").open("rb") as handle:
        return {m.id: m.string for m in read_po(handle, locale="zh") if isinstance(m.id, str) and m.id}


@pytest.mark.parametrize(("english", "excluded", "key"), [
    ("precision", "average precision", "precision"), ("recall", "recall effort", "recall"),
    ("average precision", "mean average precision", "average_precision"),
])
def test_the_app_catalogue_uses_the_glossary_terms(english, excluded, key):
    """Where the English names a glossary term, its Chinese has the glossary's (the notes' 准确率)."""
    checked = 0
    word = re.compile(rf"(?<![\w_]){english}(?![\w_])")  # the word, not part of a name (iprec_at_recall_0.50)
    for msgid, msgstr in _app_translations().items():
        text = msgid.lower()
        found = len(word.findall(text))
        if found and not (excluded and text.count(excluded) == found):
            checked += 1
            assert term(key).chinese in msgstr, (msgid, msgstr)
    assert checked, f"no app string names {english!r}"
