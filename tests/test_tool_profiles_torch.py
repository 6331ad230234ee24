"""Differential tests: ``evaluate(..., as_tool="torchmetrics")`` equals torchmetrics itself, query by query.

torchmetrics 1.9.0 (with a CPU build of torch 2.13.0, both pinned in requirements-dev.txt) is run
as a user runs it: each measure's ``Retrieval*`` class with its defaults, one ``update`` holding
every judged query of the run, ``indexes=`` telling the queries apart. Its per-query values are
read through the ``aggregation=`` callable, which receives them in the order of the indexes.

What torchmetrics sees of a query is its scored documents, nothing else:

* ``preds``: the run's scores; ``target``: the document's grade for RetrievalNormalizedDCG (the
  only class that takes graded targets), 1 if the grade is at least 1 for the others (they raise
  on any target above 1), and 0 for a document without a judgment. A relevant document never
  retrieved is not there at all: the ideal ranking and R come from the list (``ideal_from="run"``).
* A judged query missing from the run is not there either: it gets no value (``missing_query``
  "skip"); a run query without judgments is not passed (every profile ignores it).
* A query with no positive target is scored by ``empty_target_action``, left at each class's
  default: "neg", 0.0 (``no_relevant="zero"``), except RetrievalFallOut, whose default "pos" gives
  a query with no negative target 1.0 (``fallout_empty="one"``; the functional retrieval_fall_out
  gives 0 there).
* RetrievalMAP, RetrievalPrecision, RetrievalRecall and RetrievalMRR keep a target only where
  ``preds > 0`` (``torch.where(preds > 0, target, ...)`` in functional/retrieval): a relevant document
  scored 0 or below is no hit (``nonpositive_scores="no_hit"``); the generated runs have scores of
  -0.5 and 0.0 for that. RetrievalHitRate, RetrievalFallOut and RetrievalNormalizedDCG do not.

Precision: torchmetrics casts preds to float32 and computes in float32 (``preds.float()`` in
utilities/checks.py, ``dtype=torch.float32`` in retrieval_average_precision and _tie_average_dcg,
``.float()`` in precision, recall and fall-out), so its values agree with rankviz's float64 ones to
float32's precision: at most 1.6e-7 apart on these runs, compared with a tolerance of 1e-6, far
below any difference a convention makes on lists of 12 documents.

Tied scores (torch 2.13.0 on CPU, probed on random lists of 2 to 12 documents with 4 score values):
nDCG averages the gains of tied documents (scikit-learn's way), so their order does not matter.
The other measures take an order that torch does not specify: ``preds.topk`` (AP, RR, P) returns
tied documents in neither the order given nor its reverse, for some k, in 77% of 17,797 tied
lists, and its order depends on k; ``argsort(descending=True)`` (R, HitRate, FallOut) keeps the
order given up to 16 documents only; and before either, ``compute()`` groups the queries with
``torch.sort(indexes)``, not stable, which reorders the documents within a query once the update
holds more than 16 (even when the queries come one after the other). The order is
deterministic for the same input and torch, yet follows no rule a profile could state, so the
profile takes the order given (``ties="input_order"``) and the tests compare the binary measures
on lists without ties, and on tied lists only the queries whose tie order cannot matter (every
group of equal scores all relevant or all non-relevant).
"""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")
retrieval = pytest.importorskip("torchmetrics.retrieval")

import rankviz  # noqa: E402
from generated_runs import SEEDS, frames, generated  # noqa: E402
from rankviz.conventions import PROFILES  # noqa: E402
from rankviz.evaluation.tools import parse_tool_measure  # noqa: E402

FLOAT32 = 1e-6
CLASSES = {"nDCG": "RetrievalNormalizedDCG", "AP": "RetrievalMAP", "RR": "RetrievalMRR", "P": "RetrievalPrecision",
           "R": "RetrievalRecall", "Success": "RetrievalHitRate", "Fallout": "RetrievalFallOut"}
CUTOFFS = (1, 5, 15)  # 15: past the end of every list (at most 12 documents)


def _cases():
    """(rankviz measure, torchmetrics class, its keywords) for every measure and cutoff of the profile, the
    class's name checked against the profile's own name of the measure."""
    profile = PROFILES["torchmetrics"]
    cases = []
    for family, cls in CLASSES.items():
        own = profile.measure(family)
        for k in (None, *CUTOFFS):
            measure = family if k is None else f"{family}@{k}"
            try:
                parse_tool_measure(measure)
            except ValueError:
                continue  # rankviz's P, R and Success need a cutoff
            name = own.tool_name(k)
            if name is None:
                continue
            assert name == (f"{cls}()" if k is None else f"{cls}(top_k={k})"), name
            cases.append((measure, cls, {} if k is None else {"top_k": k}))
    return cases


CASES = _cases()


def theirs(qrels, run) -> dict:
    """{measure: {query: value}} from torchmetrics' classes, every judged query of the run in one update."""
    queries = [q for q in sorted(run) if q in qrels]
    rows = [(i, score, qrels[q].get(d, 0)) for i, q in enumerate(queries) for d, score in run[q].items()]
    indexes = torch.tensor([i for i, _, _ in rows])
    preds = torch.tensor([s for _, s, _ in rows], dtype=torch.float64)
    grades = torch.tensor([g for _, _, g in rows])
    values = {}
    for measure, cls, keywords in CASES:
        target = grades if cls == "RetrievalNormalizedDCG" else (grades >= 1).long()
        per_query = _per_query(getattr(retrieval, cls), keywords, preds, target, indexes)
        assert len(per_query) == len(queries), f"{measure}: torchmetrics left a query out"
        values[measure] = dict(zip(queries, per_query))
    return values


def _per_query(metric_class, keywords, preds, target, indexes) -> list:
    """The values of each query (in the order of the indexes) that ``compute()`` hands to ``aggregation``."""
    seen = []

    def keep(values, dim=None):
        seen.append(values.tolist())
        return values.mean()

    metric = metric_class(aggregation=keep, **keywords)
    metric.update(preds, target, indexes=indexes)
    metric.compute()
    (per_query,) = seen
    return per_query


def ours(qrels, run) -> dict:
    table = rankviz.evaluate(*frames(qrels, run), [m for m, _, _ in CASES], as_tool="torchmetrics").per_query
    return {m: {q: v for q, v in table[m].items() if not math.isnan(v)} for m, _, _ in CASES}


def untied(run) -> dict:
    """The run with its ties broken in the order given (each tied document 0.01 below the one before it): the
    order is the same and the scores keep their signs, a score of 0.0 staying 0.0 for the first of its tie."""
    out = {}
    for q, docs in run.items():
        seen: dict = {}
        out[q] = {}
        for d, s in docs.items():
            out[q][d] = s - 0.01 * seen.get(s, 0)
            seen[s] = seen.get(s, 0) + 1
    return out


def order_free(judged: dict, docs: dict) -> bool:
    """True when every group of equal scores is all relevant or all non-relevant: any order of ties gives the
    binary measures the same value."""
    groups: dict = {}
    for d, s in docs.items():
        groups.setdefault(s, set()).add(judged.get(d, 0) >= 1)
    return all(len(g) == 1 for g in groups.values())


@pytest.mark.parametrize("seed", SEEDS)
def test_torchmetrics_on_lists_without_ties(seed):
    qrels, run = generated(seed)
    run = untied(run)
    expected, got = theirs(qrels, run), ours(qrels, run)
    for measure, cls, _ in CASES:
        assert sorted(got[measure]) == sorted(expected[measure]), f"{cls} {measure}: queries"
        for q, value in expected[measure].items():
            assert got[measure][q] == pytest.approx(value, abs=FLOAT32), f"{cls} {measure}, query {q}"


def test_torchmetrics_on_tied_scores():
    """nDCG on every query (tie averaging); the binary measures where the tie order cannot matter. Elsewhere
    torchmetrics' tie order is not the order given: some of those queries differ from the profile."""
    compared = differ = 0
    for seed in SEEDS:
        qrels, run = generated(seed)
        expected, got = theirs(qrels, run), ours(qrels, run)
        for measure, cls, _ in CASES:
            assert sorted(got[measure]) == sorted(expected[measure]), f"seed {seed} {cls} {measure}: queries"
            for q, value in expected[measure].items():
                same = got[measure][q] == pytest.approx(value, abs=FLOAT32)
                if measure.startswith("nDCG") or order_free(qrels[q], run[q]):
                    assert same, f"seed {seed} {cls} {measure}, query {q}: {got[measure][q]} != {value}"
                    compared += not measure.startswith("nDCG") and len(set(run[q].values())) < len(run[q])
                else:
                    differ += not same
    assert compared, "no tied query whose tie order cannot matter was compared"
    assert differ, "torchmetrics ordered every tie as given: the profile's input_order could be checked on all"
