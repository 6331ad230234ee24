"""Vectorized kernels behind :func:`rankviz.evaluate`: every query at once, no Python loop
per query or per document for the common measures.

* :mod:`~rankviz.metrics.kernels.segments` holds the segmented array operations;
* :mod:`~rankviz.metrics.kernels.context` caches the running counts shared between measures;
* one module per family of measures: :mod:`~rankviz.metrics.kernels.binary`,
  :mod:`~rankviz.metrics.kernels.interpolated`, :mod:`~rankviz.metrics.kernels.incomplete`,
  :mod:`~rankviz.metrics.kernels.graded`, :mod:`~rankviz.metrics.kernels.relstring`,
  :mod:`~rankviz.metrics.kernels.cwl` (C/W/L user models: SDCG, INST, INSQ, NERR),
  :mod:`~rankviz.metrics.kernels.compat` (Compat, rank-biased overlap with the ideal),
  :mod:`~rankviz.metrics.kernels.diversity` (alpha-nDCG, ERR-IA, NRBP... over subtopic judgments).

Each measure's registry entry names its kernel ``kernel(context, measure) -> ndarray`` (one
value per query): ``rankviz.registry.get_spec("ndcg").kernel``, or ``parse_measure("nDCG@10").spec.kernel``.
``KERNELS`` is a read-only view of those entries, by measure name:

>>> KERNELS["nDCG"] is graded.ndcg
True
"""

from __future__ import annotations

from types import MappingProxyType

from rankviz.metrics.kernels import binary, compat, cwl, diversity, graded, incomplete, interpolated, relstring
from rankviz.metrics.kernels.context import BatchContext
from rankviz.metrics.kernels.lists import Cut, RankedLists
from rankviz.registry import METRICS

# The kernel modules are public: kernels.binary.average_precision(ctx, Cut(k)) scores any RankedLists.
__all__ = ["KERNELS", "BatchContext", "Cut", "RankedLists", "binary", "compat", "cwl", "diversity", "graded", "incomplete",
           "interpolated", "relstring"]

#: Measure name (``Measure.name``) -> batch kernel, derived from the registry.
KERNELS = MappingProxyType({spec.measure: spec.kernel for spec in METRICS if spec.kernel_path and spec.measure})
