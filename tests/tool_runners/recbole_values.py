"""Run inside a Python that has RecBole 1.2.1 (not rankviz's: its NDCG, MAP and MRR use ``np.float``,
gone since NumPy 1.24): read each user's top-k hits and number of positives as JSON on stdin, print
RecBole's per-user values of its top-k metrics as JSON. tests/test_tool_profiles_recbole.py starts it.

Input: {"hits": [[true, false, ...], ...] (each user's ranked list, best first, at least max(topk)
        long, padded with false), "positives": [n, ...], "topk": [1, 3, 5]}
Output: {"NDCG@5": [value per user], ...}: RecBole's ``metric_info`` matrices, column k - 1, as its
evaluator reads them (``topk_result``).
"""

import json
import sys

import numpy as np
from recbole.evaluator.metrics import MAP, MRR, NDCG, Hit, Precision, Recall

request = json.load(sys.stdin)
hits = np.array(request["hits"], dtype=bool)
positives = np.array(request["positives"], dtype=np.int64)
config = {"metric_decimal_place": 12, "topk": request["topk"]}
out = {}
for metric in (NDCG, MAP, MRR, Hit, Recall, Precision):
    needs_positives = metric in (NDCG, MAP, Recall)
    values = metric(config).metric_info(hits, positives) if needs_positives else metric(config).metric_info(hits)
    for k in request["topk"]:
        out[f"{metric.__name__}@{k}"] = [float(v) for v in values[:, k - 1]]
print(json.dumps(out))
