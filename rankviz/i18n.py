"""The language rankviz speaks: English (the source text) and Simplified Chinese, from gettext catalogues.

Every sentence a person reads (page titles, labels, help, captions, worked-table headers, step
labels, chart titles, the homework checker's verdicts and mistake sentences, worksheets) is
written in English in the source, wrapped in :func:`_` (or :func:`ngettext` where English
needs a plural), and translated from the catalogues in ``rankviz/locale/<lang>/LC_MESSAGES/``.
The catalogues are standard gettext ``.po`` files managed with Babel (extract, update, compile);
they are read directly, so nothing has to be compiled before the app or the tests run.

A catalogue per *domain* (a part of the tree, :data:`DOMAINS`) lets the app's pages, the
metrics' words and the homework checker be translated side by side; at run time the domains
are one dictionary. The CLI stays English (its output is trec_eval's).

Choosing the language: :func:`use` sets it for the current thread of work (a
:class:`contextvars.ContextVar`, so two Streamlit sessions never see each other's language);
:func:`language` tells it; ``with speaking("zh"): ...`` sets it for a block. Text is translated
when it is shown, not when a module is imported: mark a module-level constant with :func:`N_`
(extracted, not translated) and pass it through :func:`_` where it is displayed.

Placeholders are named (``_("{n} of {total} right").format(n=3, total=5)``): a translator may
move them, and ``python -m rankviz.i18n check`` finds a translation that lost one.

>>> with speaking("zh"):
...     _("Precision and recall")
'准确率与召回率'
>>> _("Precision and recall"), language()
('Precision and recall', 'en')
>>> with speaking("zh"):
...     _("no such sentence in any catalogue")
'no such sentence in any catalogue'

Commands (Babel's, per domain)::

    python -m rankviz.i18n extract   # write rankviz/locale/<domain>.pot from the source
    python -m rankviz.i18n update    # merge new strings into every <lang>/LC_MESSAGES/<domain>.po
    python -m rankviz.i18n check     # untranslated, fuzzy or placeholder-losing entries (exit 1)
    python -m rankviz.i18n compile   # .mo files, for tools that want them (the app reads .po)

Reference: GNU gettext manual, https://www.gnu.org/software/gettext/manual/; Babel's message
catalogues, https://babel.pocoo.org/en/latest/messages.html.
"""

from __future__ import annotations

import contextvars
import functools
import string
from contextlib import contextmanager
from pathlib import Path

__all__ = ["LANGUAGES", "DEFAULT_LANGUAGE", "DOMAINS", "LOCALE_DIR", "use", "language", "speaking",
           "choose_language", "_", "N_", "ngettext", "catalogue", "missing_translations"]

LANGUAGES = {"en": "English", "zh": "简体中文"}
DEFAULT_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).parent / "locale"
_ROOT = Path(__file__).parent.parent
# domain -> the files and folders (from the checkout's root) whose marked strings it holds; a file
# named by one domain is left out of the folders of the others (each string has one catalogue)
DOMAINS = {
    "app": ("app.py", "app_pages", "rankviz/ui", "rankviz/glossary.py"),
    "words": ("rankviz/registry.py", "rankviz/metrics", "rankviz/charts", "rankviz/display.py",
              "rankviz/evaluation", "rankviz/trec", "rankviz/formatting", "rankviz/i18n.py"),
    "teaching": ("rankviz/teaching",),
    # Why tools disagree (issue 24): the conventions catalogue, its page and the page's helpers.
    "conventions": ("rankviz/conventions.py", "rankviz/ui/why.py", "app_pages/why.py"),
}
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}

_LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("rankviz_language", default=DEFAULT_LANGUAGE)


def use(lang: str | None) -> str:
    """Speak ``lang`` (``"en"`` or ``"zh"``; ``None`` or anything else: English) from now on in
    this thread of work, and return the language now in force."""
    chosen = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    _LANGUAGE.set(chosen)
    return chosen


def language() -> str:
    """The language in force (``"en"`` unless :func:`use` said otherwise)."""
    return _LANGUAGE.get()


@contextmanager
def speaking(lang: str | None):
    """``with speaking("zh"): ...``: the block speaks ``lang``, then the previous language returns."""
    token = _LANGUAGE.set(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def choose_language(asked: str | None, browser_locale: str | None) -> str:
    """The language of a session: the link's ``?lang=`` if it names one, else the browser's
    (``"zh-CN"``, ``"zh-Hans-CN"`` ... -> ``"zh"``), else English.

    >>> choose_language("en", "zh-CN"), choose_language(None, "zh-Hans-CN"), choose_language("xx", "de-DE")
    ('en', 'zh', 'en')
    """
    if asked in LANGUAGES:
        return asked
    primary = (browser_locale or "").replace("_", "-").split("-")[0].lower()
    return primary if primary in LANGUAGES else DEFAULT_LANGUAGE


@functools.lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str | tuple[str, ...]]:
    """Every translated message of ``lang``, all domains together: msgid -> msgstr (a tuple of
    plural forms for a plural entry). Untranslated and fuzzy entries are left out (they show in
    English). Read once per process."""
    from babel.messages.pofile import read_po  # only when a language other than English is shown

    found: dict[str, str | tuple[str, ...]] = {}
    for path in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                if not message.id or message.fuzzy or not message.string:
                    continue
                if isinstance(message.id, tuple):
                    if all(message.string):
                        found[message.id[0]] = tuple(message.string)
                else:
                    found[message.id] = message.string
    return found


def _(message: str) -> str:
    """``message`` in the language in force (itself in English, or where no translation exists)."""
    lang = _LANGUAGE.get()
    if lang == DEFAULT_LANGUAGE:
        return message
    translated = catalogue(lang).get(message)
    return translated if isinstance(translated, str) else message


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (module-level constants:
    translate with :func:`_` where the text is shown)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the language in force (Chinese has one
    form; English two). Placeholders stay for ``.format``: ``ngettext("{n} query", "{n} queries", n).format(n=n)``."""
    lang = _LANGUAGE.get()
    if lang != DEFAULT_LANGUAGE:
        translated = catalogue(lang).get(singular)
        if isinstance(translated, tuple):
            return translated[0] if len(translated) == 1 else translated[0 if n == 1 else 1]
        if isinstance(translated, str):
            return translated
    return singular if n == 1 else plural


def _placeholders(text: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:  # a brace that is not a placeholder (LaTeX): nothing to compare
        return set()


def domain_files(domain: str) -> list[str]:
    """The Python files of ``domain`` (paths from the checkout's root, sorted): its files, and
    those of its folders that no other domain names itself."""
    claimed = {entry for other, entries in DOMAINS.items() if other != domain for entry in entries}
    files = []
    for entry in DOMAINS[domain]:
        path = _ROOT / entry
        if path.is_file():
            files.append(entry)
        else:
            files += [name for name in (p.relative_to(_ROOT).as_posix() for p in path.rglob("*.py"))
                      if name not in claimed]
    return sorted(files)


def extracted(domain: str):
    """``(msgid, locations)`` of every marked string of ``domain`` in the source, extracted with
    Babel's Python extractor and :data:`KEYWORDS`."""
    from babel.messages.extract import extract_from_file

    seen: dict[object, list[str]] = {}
    for name in domain_files(domain):
        for line, message, _comments, _context in extract_from_file("python", _ROOT / name, keywords=KEYWORDS):
            seen.setdefault(message, []).append(f"{name}:{line}")
    return seen


def missing_translations(lang: str = "zh") -> list[str]:
    """Every marked string of the source with no usable ``lang`` translation, or whose
    translation lost or invented a ``{placeholder}``: ``"file:line: msgid"`` per problem."""
    known = catalogue(lang)
    problems = []
    for domain in DOMAINS:
        for message, where in extracted(domain).items():
            msgid = message[0] if isinstance(message, tuple) else message
            if not msgid:
                continue
            translated = known.get(msgid)
            if translated is None:
                problems.append(f"{where[0]}: untranslated: {msgid!r}")
                continue
            for form in (translated if isinstance(translated, tuple) else (translated,)):
                if _placeholders(form) != _placeholders(msgid):
                    problems.append(f"{where[0]}: placeholders differ: {msgid!r} -> {form!r}")
    return problems


def _main(argv: list[str] | None = None) -> int:
    import contextlib
    import sys

    from babel.messages.frontend import CommandLineInterface

    command = (argv if argv is not None else sys.argv[1:]) or ["check"]
    action = command[0]
    if action == "check":
        problems = missing_translations(command[1] if len(command) > 1 else "zh")
        print("\n".join(problems) or "every marked string is translated")
        return 1 if problems else 0
    cli = CommandLineInterface()
    for domain in DOMAINS:
        pot = LOCALE_DIR / f"{domain}.pot"
        if action == "extract":
            keywords = [f"-k{k}" if v is None else f"-k{k}:{v[0]},{v[1]}" for k, v in KEYWORDS.items()]
            with contextlib.chdir(_ROOT):  # locations relative to the checkout, wherever it lies
                cli.run(["pybabel", "extract", "--no-default-keywords", *keywords, "--sort-by-file",
                         "--project=rankviz", "-o", str(pot), *domain_files(domain)])
        elif action == "update":
            for lang in LANGUAGES:
                if lang == DEFAULT_LANGUAGE:
                    continue
                po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
                verb = "update" if po.exists() else "init"
                obsolete = ["--ignore-obsolete"] if verb == "update" else []  # a string gone from the source goes
                cli.run(["pybabel", verb, "-D", domain, "-i", str(pot), "-d", str(LOCALE_DIR), "-l", lang, *obsolete])
        elif action == "compile":
            cli.run(["pybabel", "compile", "-D", domain, "-d", str(LOCALE_DIR)])
        else:
            print(f"rankviz.i18n: unknown command {action!r} (extract, update, check, compile)")
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
