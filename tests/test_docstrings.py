"""Docstrings that share words (rankviz._docstrings): every placeholder is filled, a typo is an
error at import, and a copied section is the source's section."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import rankviz
from rankviz._docstrings import _PLACEHOLDER, fill_docstrings


def _modules():
    for info in pkgutil.walk_packages(rankviz.__path__, "rankviz."):
        if ".ui.app" in info.name or info.name.endswith("__main__"):
            continue  # the app's pages run on import; __main__ runs the CLI
        yield importlib.import_module(info.name)


def test_no_docstring_of_the_package_keeps_a_placeholder():
    left = [f"{module.__name__}.{name}: {match.group(0).strip()}"
            for module in _modules() for name, value in vars(module).items()
            if (inspect.isfunction(value) or inspect.isclass(value)) and value.__module__ == module.__name__
            for match in _PLACEHOLDER.finditer(value.__doc__ or "")]
    assert left == []


def _namespace(*functions):
    namespace = {"__name__": __name__}
    for function in functions:
        namespace[function.__name__] = function
    return namespace


def test_a_twin_copies_its_metrics_sections_and_words_fill_lines():
    def metric(rels):
        """Metric.

        Parameters
        ----------
        {rels}

        References
        ----------
        A paper, 2024.
        """

    def metric_breakdown(rels):
        """Worked table.

        {Parameters of metric}

        {References of metric}
        """

    fill_docstrings(_namespace(metric, metric_breakdown), {"rels": "rels : list\n    Grades."})
    assert inspect.cleandoc(metric_breakdown.__doc__).splitlines()[2:] == [
        "Parameters", "----------", "rels : list", "    Grades.", "", "References", "----------", "A paper, 2024."]


def test_a_placeholder_without_words_is_an_error_naming_it():
    def f():
        """F.

        {no such words}
        """

    with pytest.raises(ValueError, match=r"f: the docstring holds \{no such words\}, which has no words"):
        fill_docstrings(_namespace(f), {})


def test_a_line_holding_more_than_a_placeholder_is_left_alone():
    def f():
        r"""F: \frac{1}{2}.

        {x} and more
        """

    before = f.__doc__
    fill_docstrings(_namespace(f), {})
    assert f.__doc__ == before
