"""One module per family of the course; importing one registers its kinds and its mistakes.

:data:`COURSE_ORDER` is the order the course teaches them in, the order the checker lists them.
"""

COURSE_ORDER = ("precision_recall", "ap", "map", "gmap", "interpolated_map", "eleven_point", "rr", "r_precision",
                "ndcg", "err", "spearman", "kendall", "auc", "gauc", "user")

from rankviz.teaching.homework.kinds import (  # noqa: E402, F401  (imported for their registrations)
    average_precision,
    correlation,
    graded,
    means,
    pairs,
    precision,
    user,
)
