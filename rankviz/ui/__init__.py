"""The thin Streamlit layer shared by the app's pages: the link, the ranking editor, settings
widgets and renderers. The only part of rankviz (with ``charts``) that imports streamlit;
``import rankviz`` never loads it. Package logic (the ranking, the settings an exercise implies)
lives in ``rankviz.teaching``; modules here draw and remember.

Modules: ``pages`` (the page list), ``url_keys`` (the table of every value kept in the URL),
``link`` (``link_widget``: the one helper that draws a widget kept in the URL; reading it on
load and after Back/Forward, writing it once per run), ``fields`` (numbers typed as text, kept
in the link), ``state`` (the shared ranking in session state), ``editor`` (``ranking_editor``),
``settings`` (k, R, judged grades, gain/discount), ``table_editor`` (editable tables),
``render`` (worked tables, errors, downloads), ``layout`` (projector mode, page headers),
``address`` (the address a class can open: said when the browser's is loopback),
``cached_results`` (``cached_call``: pure results cached across reruns) and ``cached_charts``
(``show_chart``: charts drawn from cached Vega-Lite specs).
"""
