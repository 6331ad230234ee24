"""Docstrings that share words: what many functions say alike is written once.

A parameter many metrics take (``rels``, ``rel_threshold``), the options every chart builder
takes, the References a worked-table twin shares with its metric: each is one text, placed in
every docstring that needs it. In a docstring, a line holding only ``{key}`` becomes the text of
``key`` in the words given to :func:`fill_docstrings`, every line of it indented as the
placeholder; ``{References of name}`` becomes the References section of the docstring of
``name``, a function of the same module. A line holding anything besides the placeholder is left
alone, so a formula's braces are never touched; a placeholder without words is an error when
the module is imported, so a typo cannot reach the documentation.

The module calls :func:`fill_docstrings` once, at its end; ``help()``, doctest and Sphinx read
the filled docstrings.

>>> def f():
...     '''Twice x.
...
...     Parameters
...     ----------
...     {x}
...     '''
>>> namespace = {"__name__": __name__, "f": f}
>>> f.__module__ = __name__
>>> fill_docstrings(namespace, {"x": "x : float\\n    A number."})
>>> print(f.__doc__.splitlines()[4:6])
['    x : float', '        A number.']
"""

from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Mapping

__all__ = ["fill_docstrings"]

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{(?P<key>[A-Za-z][^{}\n]*)\}[ \t]*$", re.MULTILINE)
_SECTION_OF = re.compile(r"(?P<section>[A-Z][a-z]+) of (?P<name>\w+)")


def fill_docstrings(namespace: dict, words: Mapping[str, str] | None = None) -> None:
    """Replace the placeholder lines in the docstrings of a module's functions and classes.

    Parameters
    ----------
    namespace : dict
        The module's ``globals()``: its own functions and classes are filled (not those it
        imported).
    words : mapping of str to str, optional
        The text of each key, dedented; a text may span sections (a parameter entry followed by
        a ``Returns`` section), since a placeholder stands at the indentation of a section.

    Raises
    ------
    ValueError
        A placeholder whose key has no words (or names no function of the module).
    """
    words = dict(words or {})
    module = namespace["__name__"]
    filled: dict[str, str] = {}

    def docstring_of(name: str, seen: tuple = ()) -> str:
        if name in filled:
            return filled[name]
        value = namespace.get(name)
        if value is None or not (inspect.isfunction(value) or inspect.isclass(value)):
            raise ValueError(f"{module}: a docstring copies a section of {name!r}, which is no function here.")
        if name in seen:
            raise ValueError(f"{module}: the docstrings of {' -> '.join(seen + (name,))} copy each other.")

        def replace(match):
            key, indent = match.group("key"), match.group("indent")
            section = _SECTION_OF.fullmatch(key)
            if section:
                text = _section(docstring_of(section.group("name"), seen + (name,)), section.group("section"))
            elif key in words:
                text = words[key]
            else:
                raise ValueError(f"{module}.{name}: the docstring holds {{{key}}}, which has no words.")
            return "\n".join(indent + line if line.strip() else "" for line in textwrap.dedent(text).strip("\n").splitlines())

        filled[name] = _PLACEHOLDER.sub(replace, value.__doc__ or "")
        return filled[name]

    for name, value in list(namespace.items()):
        if (inspect.isfunction(value) or inspect.isclass(value)) and value.__module__ == module and value.__doc__:
            value.__doc__ = docstring_of(name)


def _section(docstring: str, title: str) -> str:
    """The ``title`` section of a numpydoc docstring, its underline included, dedented."""
    lines = inspect.cleandoc(docstring).splitlines()
    starts = [i for i in range(len(lines) - 1)
              if lines[i].strip() and lines[i + 1].strip() and set(lines[i + 1].strip()) == {"-"}]
    for n, start in enumerate(starts):
        if lines[start].strip() == title:
            end = starts[n + 1] if n + 1 < len(starts) else len(lines)
            return "\n".join(lines[start:end]).rstrip()
    raise ValueError(f"no {title} section to copy in the docstring starting {lines[0]!r}.")
