"""The language machinery (rankviz.i18n): catalogues complete, languages chosen as documented,
one session's language never another's."""

from __future__ import annotations

import threading

import pytest

from rankviz import i18n
from rankviz.i18n import _, choose_language, language, ngettext, speaking, use


def test_every_marked_string_has_a_chinese_translation_with_its_placeholders():
    problems = i18n.missing_translations("zh")
    assert not problems, f"{len(problems)} strings need a translation (python -m rankviz.i18n update):\n" + \
        "\n".join(problems[:40])


def test_the_extractor_finds_marked_strings_and_only_those(tmp_path, monkeypatch):
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "page.py").write_text(
        'from rankviz.i18n import _, N_, ngettext\n'
        'TITLE = N_("Graded relevance")\n'
        'print(_("Hello {name}").format(name="x"), "not marked")\n'
        'ngettext("{n} query", "{n} queries", 2)\n')
    monkeypatch.setattr(i18n, "_ROOT", tmp_path)
    monkeypatch.setattr(i18n, "DOMAINS", {"app": ("pages",)})
    found = i18n.extracted("app")
    assert set(found) == {"Graded relevance", "Hello {name}", ("{n} query", "{n} queries")}
    assert found["Hello {name}"] == ["pages/page.py:3"]


@pytest.mark.parametrize(("asked", "browser", "chosen"), [
    ("zh", "en-US", "zh"), ("en", "zh-CN", "en"), (None, "zh-Hans-CN", "zh"), (None, "zh_TW", "zh"),
    (None, "de-DE", "en"), ("fr", None, "en"), (None, None, "en"), ("", "zh", "zh"),
])
def test_the_link_first_then_the_browser_then_english(asked, browser, chosen):
    assert choose_language(asked, browser) == chosen


def test_a_thread_keeps_its_own_language():
    seen = {}

    def session(name, lang):
        use(lang)
        barrier.wait()  # both sessions have chosen before either reads
        seen[name] = (language(), _("Precision and recall"))

    barrier = threading.Barrier(2)
    threads = [threading.Thread(target=session, args=(n, lang)) for n, lang in (("a", "zh"), ("b", "en"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"a": ("zh", "准确率与召回率"), "b": ("en", "Precision and recall")}
    assert language() == "en"  # this thread never chose


def test_speaking_restores_the_language_before_it():
    with speaking("zh"):
        assert language() == "zh"
        with speaking("en"):
            assert _("Precision and recall") == "Precision and recall"
        assert _("Precision and recall") == "准确率与召回率"
    assert language() == "en"


def test_unknown_language_means_english():
    with speaking("klingon"):
        assert language() == "en"


def test_plural_forms_in_english_and_one_form_in_chinese():
    assert ngettext("{n} query", "{n} queries", 1).format(n=1) == "1 query"
    assert ngettext("{n} query", "{n} queries", 3).format(n=3) == "3 queries"
    with speaking("zh"):  # an untranslated plural falls back to English's rule
        assert ngettext("{n} zebra", "{n} zebras", 2).format(n=2) == "2 zebras"


def test_a_translation_that_drops_a_placeholder_is_found(monkeypatch):
    monkeypatch.setattr(i18n, "catalogue", lambda lang: {"{n} of {total} right": "{n} 对"})
    monkeypatch.setattr(i18n, "extracted", lambda domain: {"{n} of {total} right": ["x.py:1"]} if domain == "app" else {})
    problems = i18n.missing_translations("zh")
    assert problems == ["x.py:1: placeholders differ: '{n} of {total} right' -> '{n} 对'"]


def test_every_source_file_has_one_catalogue():
    """A file a domain names itself (the Why page, in "conventions") is left out of the folders of
    the others ("app" holds app_pages/): one msgid, one translation to keep."""
    owners = {}
    for domain in i18n.DOMAINS:
        for name in i18n.domain_files(domain):
            owners.setdefault(name, []).append(domain)
    assert owners["app_pages/why.py"] == ["conventions"]
    assert owners["app_pages/graded.py"] == ["app"]
    assert {name: domains for name, domains in owners.items() if len(domains) > 1} == {}


def test_no_catalogue_keeps_a_fuzzy_guess():
    """Babel's update guesses a translation for a new string from a similar one and marks it fuzzy
    (a guess such as "Queries that differ" -> "queries with ties"); fuzzy entries are not shown, so
    one left behind is a string silently in English."""
    from babel.messages.pofile import read_po

    for path in sorted((i18n.LOCALE_DIR / "zh" / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            fuzzy = [m.id for m in read_po(handle) if m.id and m.fuzzy]
        assert fuzzy == [], f"{path.name}: {fuzzy}"


def test_a_sentence_in_two_catalogues_reads_the_same_in_both():
    """The domains are one dictionary at run time (the last catalogue read wins), so a msgid kept
    in two catalogues with two translations would read one way or the other by file order; the
    terms follow the glossary (召回代价 for recall effort, 物品 for item, ...)."""
    from babel.messages.pofile import read_po

    seen: dict[str, dict[str, str]] = {}
    for path in sorted((i18n.LOCALE_DIR / "zh" / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle):
                if isinstance(message.id, str) and message.id and message.string:
                    seen.setdefault(message.id, {})[path.name] = message.string
    assert {msgid: where for msgid, where in seen.items() if len(set(where.values())) > 1} == {}
