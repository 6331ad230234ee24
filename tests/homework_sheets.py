"""Published exercises and worked examples, posed as a student types them into the homework checker.

Each :class:`Sheet` is one exercise from a textbook, an encyclopaedia article, a library's
documentation or another course's sheet: its source, the inputs as the sheet gives them (the text a
student pastes: "R N R N", "3,2,3,0,1,2", "0,9 0,6", "−29/165"), and the answers the source prints,
as printed, with the tolerance their rounding calls for ("2 decimals": ±0.005). Where the source
poses the exercise without printing its answer (Manning et al. print no answers in the book), the
answer is the book's own arithmetic, written out beside it, and ``printed`` says so.

``VARIANTS`` are the same inputs under the other conventions a sheet may ask for (AP over the
relevant documents retrieved, trec_eval's rounding of recall levels, the shortcut Spearman on
ties...): the catalogue test finds every convention mistake on them.

Used by tests/test_homework_own.py (every sheet marks its printed answers right) and
tests/test_homework_catalogue.py (every mistake is named on some exercise).
"""

from __future__ import annotations

from dataclasses import dataclass, field

IIR = "Manning, Raghavan & Schütze, Introduction to Information Retrieval (2008)"
CROFT = "Croft, Metzler & Strohman, Search Engines: Information Retrieval in Practice (2010), ch. 8"
PR_EXAMPLE = ("'PR Example Sol', a course's worked precision-recall example (scribd.com/document/594559770; "
              "relevant d3, d12, d15, d21, d22, d30; ranking d5, d3, d21, d36, d30, d45, d80, d28, d23, d12)")
IIR_8_9 = "R R N N N N N N R N R N N N R N N N N R"


@dataclass(frozen=True)
class Sheet:
    """One published exercise: ``answers`` maps a step label to the answer as the source prints it."""

    kind: str
    source: str
    inputs: dict
    answers: dict
    tolerance: float = 0.005
    printed: bool = True  # False: the source poses it, the answer is the arithmetic written in ``note``
    note: str = ""
    name: str = field(default="")

    @property
    def id(self) -> str:
        return self.name or f"{self.kind}: {self.source[:40]}"


SHEETS = [
    # ------------------------------------------------------------------ P@k, R@k, F
    Sheet("precision_recall", f"{IIR}, Exercise 8.1", name="IIR 8.1",
          inputs={"rels": "R " * 8 + "N " * 10, "n_relevant": 20, "k": 18},
          answers={"P@18": "8/18", "R@18": "8/20"}, printed=False,
          note="8 relevant among 18 returned, 20 relevant in all: P = 8/18 = 0.444, R = 8/20 = 0.4"),
    Sheet("precision_recall", f"{IIR}, Exercise 8.9 (a) and (b)", name="IIR 8.9 a-b",
          inputs={"rels": IIR_8_9, "n_relevant": 8, "cutoffs": "20"},
          answers={"P@20": "0.3", "R@20": "0,75", "F1@20": "0.43"}, printed=False,
          note="6 of 20 relevant, 8 in all: P = 0.3, R = 0.75, F1 = 2 (0.3)(0.75) / 1.05 = 0.4286"),
    Sheet("precision_recall", PR_EXAMPLE, name="PR example P and R",
          inputs={"rels": "N R R N R N N N N R", "n_relevant": 6, "cutoffs": "5 7 8 10"},
          # The sheet cuts to 2 decimals: 3/7 = 0.428 is printed 0.42, 4/6 = 0.667 is printed 0.66.
          answers={"P@5": "0.60", "R@5": "0.50", "P@7": "0.42", "P@8": "0.37", "P@10": "0.40", "R@10": "0.66"},
          tolerance=0.01),
    Sheet("precision_recall", f"{CROFT}, Figure 8.2 (ranking #1: relevant at 1, 3, 4, 5, 6 and 10 of 6)",
          name="Croft fig. 8.2 #1", inputs={"rels": "R N R R R R N N N R", "n_relevant": 6, "cutoffs": "5, 10"},
          answers={"P@5": "0.8", "R@5": "0.67", "P@10": "0.6", "R@10": "1.0"}),
    Sheet("precision_recall", f"{CROFT}, Figure 8.2 (ranking #2: relevant at 2, 5, 6, 7, 9 and 10 of 6)",
          name="Croft fig. 8.2 #2", inputs={"rels": "N R N N R R R N R R", "n_relevant": 6, "cutoffs": "5, 10"},
          answers={"P@5": "0.4", "R@5": "0.33", "P@10": "0.6", "R@10": "1.0"}),
    # ------------------------------------------------------------------ AP
    Sheet("ap", f"{CROFT}, §8.4.2: average precision of ranking #1 (Figure 8.2)", name="Croft AP #1",
          inputs={"rels": "R N R R R R N N N R", "n_relevant": 6},
          answers={"P@3 (relevant)": "0.67", "P@7 (not relevant)": "0.71", "P@8 (not relevant)": "0.63",
                   "AP": "0.78"}),
    Sheet("ap", f"{CROFT}, §8.4.2: average precision of ranking #2 (Figure 8.2)", name="Croft AP #2",
          inputs={"rels": "0 1 0 0 1 1 1 0 1 1", "n_relevant": 6},
          answers={"P@7 (relevant)": "0.57", "P@9 (relevant)": "0.56", "AP": "0.52"}),
    Sheet("ap", f"{IIR}, Exercise 8.8 (a), system 1", name="IIR 8.8 system 1",
          inputs={"rels": "R N R N N N N N R R", "n_relevant": 4}, answers={"AP": "0.6"}, printed=False,
          note="(1 + 2/3 + 3/9 + 4/10) / 4 = 0.6"),
    Sheet("ap", f"{IIR}, Exercise 8.8 (a), system 2", name="IIR 8.8 system 2",
          inputs={"rels": "N R N N R R R N N N", "n_relevant": 4}, answers={"AP": "0.493"}, tolerance=0.0005,
          printed=False, note="(1/2 + 2/5 + 3/6 + 4/7) / 4 = 0.493"),
    Sheet("ap", f"{IIR}, Exercise 8.9 (e): the 20 results are the whole result set", name="IIR 8.9 e",
          inputs={"rels": IIR_8_9, "n_relevant": 8}, answers={"AP": "0.416"}, tolerance=0.0005, printed=False,
          note="(1 + 1 + 3/9 + 4/11 + 5/15 + 6/20) / 8 = 0.416"),
    Sheet("ap", f"{IIR}, Exercise 8.9 (f): the 2 missing relevant documents at ranks 21 and 22", name="IIR 8.9 f",
          inputs={"rels": IIR_8_9 + " R R", "n_relevant": 8}, answers={"AP": "0.503"}, tolerance=0.0005,
          printed=False, note="(3.330 + 7/21 + 8/22) / 8 = 0.503; 22 ranks"),
    Sheet("ap", "ml_metrics (Kaggle's metrics, benhamner/Metrics), test_average_precision.py: "
                "apk(range(1, 6), [6, 4, 7, 1, 2], 2) == 0.25", name="ml_metrics apk@2",
          inputs={"rels": "N R N R R", "n_relevant": 5, "k": 2, "denominator": "min_r_k"},
          answers={"AP@2": "0.25"}, tolerance=0.0005),
    # ------------------------------------------------------------------ MAP
    Sheet("map", f"{CROFT}, Figure 8.5: queries 1 (5 relevant) and 2 (3 relevant)", name="Croft fig. 8.5",
          inputs={"rankings": "R N R N N R N N R R\nN R N N R N R N N N", "n_relevant": "5 3",
                  "names": "query_1 query_2"},
          answers={"AP of query_1": "0.62", "AP of query_2": "0.44", "MAP": "0.53"}),
    Sheet("map", "ml_metrics (benhamner/Metrics), test_average_precision.py: mapk([[1, 3, 4], [1, 2, 4], [1, 3]], "
                 "[range(1, 6)] * 3, 3) == 0.685185185185185", name="ml_metrics mapk@3",
          inputs={"rankings": "R N R N R\nR R N R N\nR N R N N", "n_relevant": "3 3 2", "k": 3,
                  "denominator": "min_r_k"},
          answers={"MAP@3": "0.685185185185185"}, tolerance=0.0005),
    # ------------------------------------------------------------------ GMAP
    Sheet("gmap", "Course lecture 'Evaluating IR Systems' (shared/course/002), 'GMAP - example': both runs have "
                  "MAP 0.38; 'Run 1 has a GMAP of 0.25 and Run 2 has a GMAP of 0.33'", name="lecture GMAP",
          inputs={"runs": "0.05 0.1 0.5 0.5 0.75\n0,1 0,3 0,45 0,45 0,6"},
          answers={"Run 1: MAP": "0.38", "Run 2: MAP": "0.38", "Run 1: GMAP": "0.25", "Run 2: GMAP": "0.33"}),
    # ------------------------------------------------------------------ interpolated precision
    Sheet("interpolated_map", f"{IIR}, Exercise 8.9 (d): interpolated precision at 33% recall", name="IIR 8.9 d",
          inputs={"rels": IIR_8_9, "n_relevant": 8, "levels": "33%"}, answers={"P_interp(0.33)": "4/11"},
          printed=False, note="33% of 8 needs 3 relevant: max(3/9, 4/11, 5/15, 6/20) = 4/11 = 0.364"),
    Sheet("eleven_point", f"{CROFT}, §8.4.2: interpolated precision of query 1 at the 11 standard recall levels",
          name="Croft 11-point q1", inputs={"rels": "R N R N N R N N R R", "n_relevant": 5},
          answers={f"P_interp({level})": value for level, value in zip(
              ("0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"),
              ("1.0", "1.0", "1.0", "0.67", "0.67", "0.5", "0.5", "0.5", "0.5", "0.5", "0.5"))}),
    Sheet("eleven_point", f"{CROFT}, §8.4.2: interpolated precision of query 2 at the 11 standard recall levels",
          name="Croft 11-point q2", inputs={"rels": "N R N N R N R N N N", "n_relevant": 3},
          answers={f"P_interp({level})": value for level, value in zip(
              ("0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"),
              ("0.5", "0.5", "0.5", "0.5", "0.43", "0.43", "0.43", "0.43", "0.43", "0.43", "0.43"))}),
    # ------------------------------------------------------------------ RR and MRR
    Sheet("rr", "Wikipedia, 'Mean reciprocal rank', example (cat: 3rd, torus: 2nd, virus: 1st)", name="Wikipedia MRR",
          inputs={"rankings": "N N R\nN R N\nR N N", "names": "cat torus virus"},
          answers={"RR(cat)": "1/3", "RR(torus)": "1/2", "RR(virus)": "1", "MRR": "0.61"}),
    # ------------------------------------------------------------------ R-precision
    Sheet("r_precision", f"{IIR}, Exercise 8.8 (c), system 1", name="IIR 8.8 c system 1",
          inputs={"rels": "R N R N N N N N R R", "n_relevant": 4}, answers={"R-precision": "0.5"}, printed=False,
          note="2 relevant in the top 4: 2/4"),
    Sheet("r_precision", f"{IIR}, Exercise 8.8 (c), system 2", name="IIR 8.8 c system 2",
          inputs={"rels": "N R N N R R R N N N", "n_relevant": 4}, answers={"R-precision": "0.25"}, printed=False,
          note="1 relevant in the top 4: 1/4"),
    Sheet("r_precision", PR_EXAMPLE, name="PR example R-precision",
          inputs={"rels": "N R R N R N N N N R", "n_relevant": 6}, answers={"R-precision": "0.5"}),
    # ------------------------------------------------------------------ DCG and nDCG
    Sheet("ndcg", "Wikipedia, 'Discounted cumulative gain', §Example (D1..D6 graded 3, 2, 3, 0, 1, 2; D7 and D8, "
                  "graded 3 and 2, not retrieved)", name="Wikipedia nDCG",
          inputs={"rels": "3,2,3,0,1,2", "unretrieved": "3 2", "k": 6, "gain": "linear"},
          answers={"CG@6": "11", "DCG term at rank 2 (grade 2)": "1.262", "DCG term at rank 5 (grade 1)": "0.387",
                   "DCG term at rank 6 (grade 2)": "0.712", "DCG@6": "6.861", "IDCG@6": "8.740",
                   "NDCG@6": "0.785"}, tolerance=0.0005),
    Sheet("ndcg", f"{CROFT}, §8.4.3: 3, 2, 3, 0, 0, 1, 2, 2, 3, 0 with DCG = rel_1 + Σ rel_i / log2 i, at rank 5",
          name="Croft nDCG@5", inputs={"rels": "3 2 3 0 0 1 2 2 3 0", "k": 5, "gain": "linear", "discount": "jarvelin"},
          answers={"DCG@5": "6.89", "IDCG@5": "9.75", "NDCG@5": "0.71"}),
    Sheet("ndcg", f"{CROFT}, §8.4.3: the same ranking at rank 10", name="Croft nDCG@10",
          inputs={"rels": "3 2 3 0 0 1 2 2 3 0", "k": 10, "gain": "linear", "discount": "jarvelin"},
          answers={"DCG term at rank 3 (grade 3)": "1.89", "DCG@10": "9.61", "IDCG@10": "10.88", "NDCG@10": "0.88"}),
    # ------------------------------------------------------------------ ERR
    Sheet("err", "Princeton COS 435 ERR exercise as Marc Leef's solution poses it: grades 2, 0, 0, 1, 2, 0, 0, 0, "
                 "1, 1 on a 0-2 scale (the page prints the program, not its output)", name="COS 435 ERR",
          inputs={"rels": "2 0 0 1 2 0 0 0 1 1", "max_grade": 2},
          answers={"R_1 (grade 2)": "3/4", "ERR": "0.7959"}, tolerance=0.0005, printed=False,
          note="0.75 + (1/4)(1/4)(1/4)/4 + (3/4)(3/16)/5 + ... = 0.7959"),
    # ------------------------------------------------------------------ Spearman
    Sheet("spearman", "Wikipedia, 'Spearman's rank correlation coefficient', §Example (IQ against hours of TV)",
          name="Wikipedia Spearman", inputs={"ranks_a": "106 100 86 101 99 103 97 113 112 110",
                                             "ranks_b": "7\n27\n2\n50\n28\n29\n20\n12\n6\n17"},
          answers={"Σd²": "194", "ρ (Spearman)": "−29/165"}, tolerance=0.0005),
    Sheet("spearman", "scipy.stats.spearmanr documentation: spearmanr([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) "
                      "statistic=0.8207826816681233 (two tied 7s)", name="scipy spearmanr ties",
          inputs={"ranks_a": "1 2 3 4 5", "ranks_b": "5 6 7 8 7"},
          answers={"ρ (Spearman)": "0.8207826816681233"}, tolerance=0.0005),
    # ------------------------------------------------------------------ Kendall
    Sheet("kendall", "Wikipedia, 'Kendall tau distance', §Example (A B C D E against C D A B E)",
          name="Wikipedia Kendall distance",
          inputs={"ranks_a": "1 2 3 4 5", "ranks_b": "3 4 1 2 5", "items": "A B C D E", "k": 5},
          answers={"D (discordant pairs)": "4", "K_n@5 (normalized Kendall tau distance)": "0.4"}),
    Sheet("kendall", "scipy.stats.kendalltau documentation: kendalltau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) "
                     "statistic=-0.47140452079103173", name="scipy kendalltau ties",
          inputs={"ranks_a": "12, 2, 1, 12, 2", "ranks_b": "1, 4, 7, 1, 0"},
          answers={"τ_b (Kendall)": "-0.47140452079103173"}, tolerance=0.0005),
    # ------------------------------------------------------------------ AUC and GAUC
    Sheet("auc", "scikit-learn documentation of sklearn.metrics.auc: y = [1, 1, 2, 2], pred = [0.1, 0.4, 0.35, 0.8], "
                 "pos_label=2, auc = 0.75", name="sklearn auc",
          inputs={"labels": "0 0 1 1", "scores": "0.1 0.4 0.35 0.8"}, answers={"AUC": "0.75"}, tolerance=0.0005),
    Sheet("gauc", "GAUC example of a Zhihu column (zhuanlan.zhihu.com/p/88708071), as blogs repeat it "
                  "(transformerswsz.github.io 'AUC & GAUC', 2023; blog.csdn.net/qfikh/article/details/105390002): "
                  "users 甲 and 乙, model A ranks 甲−, 甲+, 乙−, 甲+, 乙+ by score; AUC 0.833, each user's AUC 1",
          name="GAUC two users", inputs={"labels": "0 1 0 1 1", "scores": "1 2 3 4 5", "groups": "甲 甲 乙 甲 乙"},
          answers={"AUC of 甲": "1", "AUC of 乙": "1", "GAUC": "1"}, tolerance=0.0005),
    # ------------------------------------------------------------------ user-oriented measures
    Sheet("user", f"{PR_EXAMPLE}: user 1 knew d12, d15, d21", name="PR example coverage and novelty",
          inputs={"answer": "d5 d3 d21 d36 d30 d45 d80 d28 d23 d12", "relevant": "d3 d12 d15 d21 d22 d30",
                  "known": "d12 d15 d21"},
          answers={"coverage": "2/3", "novelty": "2/4"}, tolerance=0.0005),
]

# The same inputs under the other conventions a sheet may ask for: the convention mistakes' test bench.
VARIANTS = [
    ("ap", {"rels": IIR_8_9, "n_relevant": 8, "denominator": "retrieved"}),
    ("ap", {"rels": IIR_8_9, "n_relevant": 8, "k": 10, "denominator": "min_r_k"}),
    ("ap", {"rels": IIR_8_9, "n_relevant": 8, "k": 10}),
    ("map", {"rankings": "R N R N N N N N R R\nN R N N R R R N N N\nN N N", "n_relevant": "6 4 0"}),
    ("map", {"rankings": "R N R N N N N N R R\nN R N N R R R N N N", "n_relevant": "6 5", "denominator": "retrieved"}),
    ("map", {"rankings": "R N R N N N N N R R\nN R N N R R R N N N", "n_relevant": "6 5", "k": 5,
             "denominator": "min_r_k"}),
    ("interpolated_map", {"rels": IIR_8_9, "n_relevant": 8, "rounding": "lround"}),
    ("interpolated_map", {"rels": IIR_8_9, "n_relevant": 8, "rounding": "floor_plus_0.9"}),
    ("eleven_point", {"rels": IIR_8_9, "n_relevant": 8, "rounding": "lround"}),
    ("eleven_point", {"rels": "N N R N N N N R N N N N N N R", "n_relevant": 3, "rounding": "floor_plus_0.9"}),
    ("precision_recall", {"rels": "R N R", "n_relevant": 4, "cutoffs": "5 10"}),
    ("rr", {"rankings": "N N R N R\nN R N R\nR N N N R", "threshold": 4}),
    ("ndcg", {"rels": "3 2 3 0 1 2 3 2", "k": 4, "unretrieved": "3", "gain": "linear"}),
    ("spearman", {"ranks_a": "1 2 3 4 5", "ranks_b": "5 6 7 8 7", "ties": "formula"}),
    ("spearman", {"ranks_a": "1 2 2 4 5 5", "ranks_b": "3 1 2 2 6 5"}),
    ("r_precision", {"rels": "R R N N R N R R N N", "n_relevant": 5}),
]
