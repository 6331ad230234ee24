"""The thin Streamlit layer shared by the app's pages: state keys, the ranking editor,
settings widgets and renderers. The only part of rankviz (with ``charts.py``) that imports
streamlit; ``import rankviz`` never loads it.

Modules: ``pages`` (the page list), ``state`` (the shared ranking in session state),
``editor`` (``ranking_editor``), ``settings`` (k, R, judged grades, gain/discount),
``render`` (worked tables, errors, downloads), ``layout`` (projector mode, page headers),
``cached_results`` (``cached_call``: pure results cached across reruns) and ``cached_charts``
(``show_chart``: charts drawn from cached Vega-Lite specs).
"""
