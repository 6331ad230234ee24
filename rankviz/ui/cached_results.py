"""``cached_call``: a pure rankviz function's result, cached across reruns by its arguments.

Every widget interaction reruns the whole page, and most of them change one input of one
table: the other worked tables would be recomputed from the same ranking and settings on every
rerun. ``cached_call(function, *args, **kwargs)`` returns what ``function(*args, **kwargs)``
returns (a copy, as ``st.cache_data`` gives: a :class:`~rankviz.metrics.breakdown.Breakdown`
comes back whole, table, value, formula and details), keyed by the function's name and the arguments'
values and the language in force (its text is in that language). A ``ValueError`` is never cached: it is raised again on the next call. Warnings the
function gave (e.g. the RuntimeWarning of an undefined correlation) are given again on every
call, so a page that shows them sees no difference.

``arrow_frame(frame)`` is what ``st.dataframe`` makes of a DataFrame before sending it (an Arrow
table), made once per distinct table in the server process and shared by every session: a class
opening one link shows the same worked tables, and each first run would convert them again.
"""

from __future__ import annotations

import pickle
import threading
import warnings
from collections import OrderedDict

import streamlit as st

from rankviz.i18n import language

__all__ = ["arrow_frame", "cached_call", "fingerprint"]


def fingerprint(*values):
    """A cache key for ``values``: their pickle (bytes that differ whenever the values differ), or the
    values themselves when they cannot be pickled.

    ``st.cache_data`` hashes a 100-row DataFrame column by column (``hash_pandas_object``, ~2 ms);
    hashing its pickle takes ~0.1 ms. The pickle also carries what ``st.cache_data``'s hashing
    ignores, such as ``DataFrame.attrs`` (a run's name) and a breakdown's ``details`` (its R,
    which a chart reads). Equal values pickling differently would only cost a cache miss.
    """
    try:
        return pickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return values


@st.cache_data(max_entries=1024, show_spinner=False)
def _result(name: str, key, _args: tuple, _kwargs: dict, _function):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = _function(*_args, **_kwargs)
    return value, [(str(warning.message), warning.category) for warning in caught]


def cached_call(function, *args, **kwargs):
    """``function(*args, **kwargs)`` for a pure function of hashable values (lists, tuples, numbers,
    strings, DataFrames), cached by ``function.__module__.__qualname__`` and the arguments.

    >>> from rankviz.metrics import average_precision
    >>> cached_call(average_precision, [1, 0, 1], n_relevant=2)  # (1/1 + 2/3) / 2
    0.8333333333333333
    """
    name = f"{function.__module__}.{function.__qualname__}"
    # Keyed on the language too: a worked table's headers and step labels are words (rankviz.i18n).
    value, given = _result(name, fingerprint(language(), args, sorted(kwargs.items())), args, kwargs, function)
    for message, category in given:
        warnings.warn(message, category, stacklevel=2)
    return value


_ARROW_TABLES: OrderedDict = OrderedDict()
_ARROW_LOCK = threading.Lock()
ARROW_TABLES_KEPT = 256


def arrow_frame(frame):
    """``frame`` as the Arrow table ``st.dataframe`` sends (Streamlit's own conversion, with its
    fallbacks for columns Arrow cannot type), converted once per distinct table and shared across
    sessions; ``st.dataframe`` passes a table through as is. Anything but a DataFrame comes back
    unchanged.

    A pyarrow Table is immutable, so sessions share one object: no copy, unlike ``st.cache_data``
    (whose per-call bookkeeping, a signature inspection and a pickled copy, costs more than the
    conversion of a small table). The last ``ARROW_TABLES_KEPT`` tables are kept.

    >>> import pandas as pd
    >>> table = arrow_frame(pd.DataFrame({"rank": [1, 2], "gain": [3.0, 0.5]}))
    >>> table.column_names, table.column("gain").to_pylist()
    (['rank', 'gain'], [3.0, 0.5])
    >>> arrow_frame(pd.DataFrame({"rank": [1, 2], "gain": [3.0, 0.5]})) is table  # the same table: shared
    True
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        return frame
    try:
        from streamlit.dataframe_util import convert_pandas_df_to_arrow_table
    except ImportError:  # a Streamlit without it converts the frame itself
        return frame
    key = fingerprint(frame)
    with _ARROW_LOCK:
        table = _ARROW_TABLES.get(key)
        if table is not None:
            _ARROW_TABLES.move_to_end(key)
            return table
    table = convert_pandas_df_to_arrow_table(frame)
    with _ARROW_LOCK:
        _ARROW_TABLES[key] = table
        while len(_ARROW_TABLES) > ARROW_TABLES_KEPT:
            _ARROW_TABLES.popitem(last=False)
    return table
