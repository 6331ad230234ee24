"""``cached_call``: a pure rankviz function's result, cached across reruns by its arguments.

Every widget interaction reruns the whole page, and most of them change one input of one
table: the other worked tables would be recomputed from the same ranking and settings on every
rerun. ``cached_call(function, *args, **kwargs)`` returns what ``function(*args, **kwargs)``
returns (a copy, as ``st.cache_data`` gives), keyed by the function's name and the arguments'
values. A ``ValueError`` is never cached: it is raised again on the next call. Warnings the
function gave (e.g. the RuntimeWarning of an undefined correlation) are given again on every
call, so a page that shows them sees no difference.
"""

from __future__ import annotations

import warnings

import streamlit as st

__all__ = ["cached_call"]


@st.cache_data(max_entries=1024, show_spinner=False)
def _result(name: str, args: tuple, kwargs: tuple, _function):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = _function(*args, **dict(kwargs))
    return value, [(str(warning.message), warning.category) for warning in caught]


def cached_call(function, *args, **kwargs):
    """``function(*args, **kwargs)`` for a pure function of hashable values (lists, tuples, numbers,
    strings, DataFrames), cached by ``function.__module__.__qualname__`` and the arguments.

    >>> from rankviz.metrics import average_precision
    >>> cached_call(average_precision, [1, 0, 1], n_relevant=2)  # (1/1 + 2/3) / 2
    0.8333333333333333
    """
    name = f"{function.__module__}.{function.__qualname__}"
    value, given = _result(name, args, tuple(sorted(kwargs.items())), function)
    for message, category in given:
        warnings.warn(message, category, stacklevel=2)
    return value
