"""What the app teaches with, as plain functions: no Streamlit here.

* :mod:`~rankviz.teaching.presets`: every exercise of the course notes, with its source;
* :mod:`~rankviz.teaching.ranking`: the ranked list the app edits, the settings an exercise implies;
* :mod:`~rankviz.teaching.homework`: exercises as steps, answers marked step by step;
* :mod:`~rankviz.teaching.explore`: how metrics move when a ranking changes;
* :mod:`~rankviz.teaching.multi_query`: several queries by hand, MAP/GMAP/MRR;
* :mod:`~rankviz.teaching.graded_variants`: every gain and discount of nDCG side by side;
* :mod:`~rankviz.teaching.parsing` and :mod:`~rankviz.teaching.export`: grade lists as text,
  tables as CSV and LaTeX.

``rankviz.presets`` and ``rankviz.homework`` remain the public import paths of the first two.
"""
