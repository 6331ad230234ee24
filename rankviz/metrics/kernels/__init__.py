"""Vectorized kernels behind :func:`rankviz.evaluate`: every query at once, no Python loop
per query or per document for the common measures.

* :mod:`~rankviz.metrics.kernels.segments` holds the segmented array operations;
* :mod:`~rankviz.metrics.kernels.context` caches the running counts shared between measures;
* one module per family of measures: :mod:`~rankviz.metrics.kernels.binary`,
  :mod:`~rankviz.metrics.kernels.interpolated`, :mod:`~rankviz.metrics.kernels.incomplete`,
  :mod:`~rankviz.metrics.kernels.graded`, :mod:`~rankviz.metrics.kernels.relstring`.

``KERNELS`` maps each measure family (``Measure.name``) to its kernel
``kernel(context, measure) -> ndarray`` (one value per query).
"""

from __future__ import annotations

from rankviz.metrics.kernels import binary, graded, incomplete, interpolated
from rankviz.metrics.kernels.context import BatchContext
from rankviz.metrics.kernels.lists import Cut, RankedLists
from rankviz.metrics.kernels.relstring import relevance_string

__all__ = ["KERNELS", "BatchContext", "Cut", "RankedLists"]

KERNELS = {
    "NumQ": binary.num_q,
    "NumRet": binary.num_ret,
    "NumRel": binary.num_rel,
    "NumRelRet": binary.num_rel_ret,
    "NumNonRelJudgedRet": binary.num_nonrel_judged_ret,
    "AP": binary.average_precision,
    "GMAP": binary.geometric_average_precision,
    "Rprec": binary.r_precision,
    "Bpref": incomplete.bpref,
    "gm_bpref": incomplete.geometric_bpref,
    "RR": binary.reciprocal_rank,
    "IPrec": interpolated.interpolated_precision,
    "P": binary.precision,
    "relstring": relevance_string,
    "R": binary.recall,
    "unj": incomplete.unjudged_at,
    "rbp": graded.rank_biased_precision,
    "rbp_resid": incomplete.rbp_residual,
    "infAP": incomplete.inferred_ap,
    "Rprec_mult": interpolated.r_precision_multiple,
    "utility": binary.utility,
    "11pt_avg": interpolated.eleven_point_average,
    "binG": binary.binary_g,
    "G": graded.normalized_gain,
    "DCG": graded.dcg,
    "IdealDCG": graded.ideal_dcg,
    "nDCG": graded.ndcg,
    "ndcg_rel": graded.ndcg_rel,
    "Rndcg": graded.r_ndcg,
    "relative_P": binary.relative_precision,
    "Success": binary.success,
    "SetP": binary.set_precision,
    "SetRelP": binary.set_relative_precision,
    "SetR": binary.set_recall,
    "SetAP": binary.set_average_precision,
    "SetF": binary.set_f,
    "yaap": binary.yaap,
    "ERR": graded.expected_reciprocal_rank,
}
