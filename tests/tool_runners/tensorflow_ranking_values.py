"""Run inside a Python that has TensorFlow Ranking (not rankviz's: TF-Ranking 0.5.5 needs numpy < 2):
read lists and metrics as JSON on stdin, print each metric's per-list values and per-list weights as
JSON. tests/test_tool_profiles_tf_ranking.py starts it; nothing of rankviz is imported here.

Input: {"lists": [{"labels": [...], "scores": [...], "weights": [...] or null}, ...],
        "metrics": [["NDCGMetric", topn or null], ...]}
Output: {"NDCGMetric@5": [[value, list_weight], ...], ...} in the order of the lists.
Lists are padded to one batch with label -1, which TF-Ranking masks as "not a valid item".
"""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow_ranking.python import metrics_impl  # noqa: E402

request = json.load(sys.stdin)
lists = request["lists"]
width = max(len(x["labels"]) for x in lists)
labels = np.full((len(lists), width), -1.0, dtype=np.float32)
scores = np.zeros((len(lists), width), dtype=np.float32)
weights = np.ones((len(lists), width), dtype=np.float32)
for i, x in enumerate(lists):
    n = len(x["labels"])
    labels[i, :n], scores[i, :n] = x["labels"], x["scores"]
    if x.get("weights") is not None:
        weights[i, :n] = x["weights"]
out = {}
for name, topn in request["metrics"]:
    extra = {"use_trec_version": False} if name == "BPrefMetric" else {}
    metric = getattr(metrics_impl, name)(name, topn, **extra)
    value, list_weight = metric.compute(tf.constant(labels), tf.constant(scores), tf.constant(weights))
    out[f"{name}@{topn}"] = [[float(v), float(w)] for v, w in zip(np.reshape(value.numpy(), -1),
                                                                   np.reshape(list_weight.numpy(), -1))]
print(json.dumps(out))
