"""The command line: ``python -m rankviz eval ...``, ``python -m rankviz compare ...``,
``python -m rankviz why ...`` (why two tools give different values: :func:`rankviz.disagreement`),
``python -m rankviz clicks ...`` (AUC, GAUC and per-group measures of a click log) and
``rankviz app`` (the teaching app, with ``pip install "rankviz[app]"``; see :mod:`rankviz.app_launch`).

``eval`` is a drop-in for ``trec_eval``: by default it prints trec_eval's three columns
(``printf("%-22s\\t%s\\t%6.4f\\n", measure, qid, value)``, counts as integers, ``all`` for the
aggregate), the same measure names and order, and the same flags (``-q -c -l -M -m``), so
scripts that parse trec_eval's output can call it instead. ``compare`` prints the significance
table of :func:`rankviz.compare`.

Errors in the inputs (missing or malformed file, unknown measure) are printed on stderr as one
line, ``rankviz: error: <file>:<line>: <message>``, and the exit status is 2; nothing is printed
on stdout then, so no half-evaluated output can be mistaken for a result.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import rankviz
from rankviz.app_launch import APP_EXTRA_HINT, streamlit_command
from rankviz.evaluation.engines import ENGINES
from rankviz.registry import GAUC_WEIGHT, METRICS, TREC_PRINT_ORDER
from rankviz.trec.judgments import JUDGMENT_FORMATS

EXIT_OK = 0
EXIT_USAGE = 2  # bad input or bad usage, as argparse itself uses

EVAL_EPILOG = """\
output formats:
  trec  trec_eval's lines: measure name padded to 22 characters, TAB, query id (or "all"), TAB,
        value with 4 decimals (counts as integers, runid as text). With -q the per-query lines
        come first, ordered by query id as a string, then the "all" lines. When several runs are
        given, each run's block starts with a line "# run: NAME (FILE)".
  csv   columns run,query_id,measure,value (query_id "all" for the aggregate).
  json  {"runs": [{"run", "file", "measures", "all": {measure: value},
        "per_query": {query_id: {measure: value}} (with -q)}]}.
measure names: trec_eval names (P_10, map, ndcg_cut_10), its -m syntax (P.5,10), ir_measures names
  (P@10, AP, nDCG@10, nDCG(gain=exp)@10, P(rel=2)@10) and the sets "official" (the default),
  "all_prefs", "prefs" (with -R prefs or qrels_prefs), "qrels_jg" (with -R qrels_jg),
  "all_trec" and "set"; with -R subtopics the diversity measures (alpha_nDCG@10, ERR_IA@20, NRBP,
  AP_IA, P_IA@10, StRecall@10, or ndeval's names alpha-nDCG@10, MAP-IA, strec@10). Each measure is printed
  under the name it was asked by: trec_eval's (ndcg_cut_10, also for -m ndcg_cut.10) or rankviz's (nDCG@10).
  When every -m is written the trec_eval way, output follows trec_eval's order; otherwise the order
  given. --list-measures prints
  every measure with its trec_eval names and parameters (docs/metrics.md has their formulas).
"""


# trec_eval 10.0's printing order and its measures' names are the registry's (rankviz.registry).
ADDED_IN_TREC_EVAL_10 = tuple(spec.measure for spec in METRICS if spec.new_in_trec_eval_10)  # not in 9's all_trec
_TREC_POSITION = {name: position for position, name in enumerate(TREC_PRINT_ORDER)}


def trec_print_key(measure) -> tuple:
    """Sort key putting measures in the order trec_eval prints them (then by cutoff)."""
    return measure.trec_order


def measure_listing() -> str:
    """Every measure ``eval -m`` accepts, one line each, from the registry: name, trec_eval's
    names, how it aggregates over queries, its parameters and what it is.

    >>> [line.split()[:5] for line in measure_listing().splitlines()[7:9]]
    [['AP[@k]', 'map,', 'map_cut_k', 'mean', 'rel'], ['GMAP', 'gm_map', 'gmean', 'rel', 'Geometric']]
    """
    from rankviz.evaluation.measures import FAMILIES, NAMED_SETS

    at = {"none": "", "int": "@k", "optional_int": "[@k]", "float": "@x", "recall": "@r"}
    width = max(22, max(len(spec.measure + at[spec.cutoff]) for spec in FAMILIES) + 2)  # prefs_avgjg_Rnonrel_ret
    lines = [f"{'measure':<{width}}{'trec_eval':<28}{'all':<7}{'parameters':<20}definition", ""]
    for spec in FAMILIES:
        trec = spec.trec or "-"
        if spec.trec_cut and spec.trec_cut != spec.trec:
            trec += f", {spec.trec_cut}_k"
        elif spec.trec_cut:
            trec = f"{spec.trec_cut}_{'x' if spec.cutoff in ('float', 'recall') else 'k'}"
        params = ",".join(p.measure_key for p in spec.measure_params) or "-"
        lines.append(f"{spec.measure + at[spec.cutoff]:<{width}}{trec:<28}{spec.aggregate:<7}{params:<20}"
                     f"{spec.description}")
    lines += ["", "named sets (trec_eval names):"]
    for name, names in NAMED_SETS.items():
        lines += textwrap.wrap(" ".join(names), width=100, initial_indent=f"  {name:<10}", subsequent_indent=" " * 12)
    return "\n".join(lines) + "\n"


class _ListMeasures(argparse.Action):
    """``--list-measures``: print :func:`measure_listing` and exit, like ``--version``."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(measure_listing())
        parser.exit()


class InputError(Exception):
    """A problem with the user's input, printed as ``rankviz: error: <where>: <message>``."""

    def __init__(self, where: str | None, message: str):
        super().__init__(message)
        self.where = where
        self.message = message


class Progress:
    """One overwritten status line on stderr, shown only when stderr is a terminal."""

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.perf_counter()

    def step(self, text: str) -> None:
        if self.enabled:
            elapsed = time.perf_counter() - self.started
            self.stream.write(f"\r\033[Krankviz: {text} ({elapsed:.1f} s)")
            self.stream.flush()

    def done(self) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


# --- reading inputs ----------------------------------------------------------------------------


# A run given as the qrels, or the other way round, in the command line's words (a Python caller
# reads "read it with read_run").
CLI_ADVICE = {"run": "the qrels come first: rankviz eval QRELS RUN [RUN ...]",
              "qrels": "the qrels come first, then the runs: rankviz eval QRELS RUN [RUN ...]"}


def _input_error(error) -> InputError:
    """A reader's TrecFormatError as the one-line InputError we print: its message starts with
    "<file> line <n>: " or "<file>: ", which becomes the "file:line" prefix."""
    message = error.with_advice(CLI_ADVICE)
    for prefix in (f"{error.path} line {error.line}: ", f"{error.path}: "):
        if message.startswith(prefix):
            message = message[len(prefix):]
            break
    return InputError(error.path if error.line is None else f"{error.path}:{error.line}", message)


def _read(kind: str, path: str):
    """Read a run file into a TrecTable, judgments in any -R format (``kind``: a key of
    :data:`~rankviz.trec.judgments.JUDGMENT_FORMATS`), TREC qrels indexed for evaluation without
    pandas (``kind="qrels_index"``: a :class:`~rankviz.evaluation.ranking.JudgmentIndex`) or a
    z-score file (``kind="zscores"``), turning the reader's errors into InputError with file and line."""
    if kind == "qrels_index":
        from rankviz.evaluation.evaluator import judgment_index as reader
    elif kind in ("run", "zscores"):
        from rankviz.trec.preferences import read_zscores
        from rankviz.trec.readers import read_run_table  # pyarrow: loaded on use

        reader = {"run": read_run_table, "zscores": read_zscores}[kind]
    else:
        reader = JUDGMENT_FORMATS[kind].read
    try:
        return _reading(path, reader, path)
    except ValueError as error:
        raise InputError(path, str(error)) from None


def _reading(path: str, function, *args, **options):
    """``function(*args, **options)``, the reader errors it raises about ``path`` turned into
    InputError with file and line (other ValueErrors pass through)."""
    from rankviz.trec.formats import TrecFormatError

    try:
        return function(*args, **options)
    except TrecFormatError as error:
        raise _input_error(error) from None
    except IsADirectoryError:
        raise InputError(path, "is a directory, not a file") from None
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except PermissionError:
        raise InputError(path, "permission denied") from None
    except OSError as error:
        raise InputError(path, str(error)) from None


def _trec_base(measure) -> str | None:
    """trec_eval's measure name without parameters (``P``, ``map_cut``, ``relstring``)."""
    family = measure.family
    return family.trec_cut if measure.cutoff is not None and family.trec_cut else family.trec


def _parse_measure_options(values: list[str] | None, trec_eval_version: str = "10"):
    """The -m options -> (measures, names): ``names[measure]`` is what the output calls it.

    Default: trec_eval's "official" set. Each measure is printed under the name of the family it
    was asked in, as trec_eval prints it for a trec_eval name (``-m ndcg_cut_10`` and ``-m
    ndcg_cut.10`` print ``ndcg_cut_10``; ``-m map`` prints ``map``) and as rankviz writes it
    otherwise (``-m nDCG@10`` prints ``nDCG@10``), whatever else is asked beside it: a script
    greps for the name it asked for. A measure asked twice keeps its first name.

    As in trec_eval, ``name.params`` (``P.5,10``, ``relstring.20``) sets the parameters of that
    measure: it replaces the default cutoffs a set or a bare name selected (``-m all_trec -m
    relstring.20`` prints relstring_20 only), and the last such option for a measure wins.
    With ``trec_eval_version="9"``, ``all_trec`` is 9.0's (without unj, rbp and rbp_resid).
    """
    from rankviz.evaluation.measures import NAMED_SETS, parse_measures

    tokens = values or ["official"]
    selected, explicit, trec_style, names = [], {}, True, {}
    for position, token in enumerate(tokens):
        token = token.strip()
        try:
            parsed = parse_measures(token)
        except ValueError as error:
            raise InputError(None, str(error)) from None
        if token == "all_trec" and trec_eval_version == "9":
            parsed = [m for m in parsed if m.name not in ADDED_IN_TREC_EVAL_10]
        # "AP" or "P@10" are rankviz/ir_measures spellings; "map", "P_10", "P.5,10", "official" are trec_eval's.
        ir_style = "@" in token or "(" in token or (len(parsed) == 1 and token == str(parsed[0]) != parsed[0].trec_name)
        trec_style &= not ir_style
        for measure in parsed:
            names.setdefault(measure, str(measure) if ir_style else measure.trec_name)
        head, dot, _ = token.partition(".")
        if not ir_style and dot and head in _TREC_POSITION:
            explicit[head] = (position, list(parsed))
            continue
        from_defaults = token in NAMED_SETS or any(token in (m.family.trec, m.family.trec_cut) for m in parsed)
        selected += [(position, measure, from_defaults) for measure in parsed]
    placed = [(at, m) for at, m, from_defaults in selected if not (from_defaults and _trec_base(m) in explicit)]
    placed += [(at, m) for at, group in explicit.values() for m in group]
    measures = [m for _, m in sorted(placed, key=lambda item: item[0])]  # the order given (stable within a token)
    unique = list(dict.fromkeys(measures))
    if trec_style:
        unique.sort(key=trec_print_key)
    return unique, names


# --- eval ----------------------------------------------------------------------------------------


@dataclass
class Block:
    """One run's results, ready to print: per-query values as whole columns, in qid order."""

    label: str
    path: str
    measures: list
    query_ids: list[str] | None  # sorted as strings (trec_eval's order); None without -q
    columns: dict  # measure -> list of per-query values, aligned with query_ids
    means: dict  # measure -> value of the "all" line
    zscores: bool = False  # -Z: values are z-scores, printed as trec_eval prints them


def _evaluate_one(qrels, path: str, measures, args) -> Block:
    """Evaluate one run file into a Block: TREC qrels without pandas, the run read in blocks of
    whole queries when it is a big TREC file (:func:`rankviz.evaluation.evaluator.evaluate_values`)."""
    from rankviz.evaluation.evaluator import RunValues, evaluate, evaluate_values  # numpy/pyarrow: loaded on use

    # runid and num_q describe the evaluation rather than the ranking: the CLI fills them in, so
    # that they print exactly as trec_eval prints them whatever evaluate() does with them.
    computed = [m for m in measures if m.name not in ("runid", "NumQ")]
    options = dict(complete=args.complete, rel_threshold=args.level, depth=args.depth,
                   trec_eval_version=args.trec_eval_version)
    try:
        if args.qrels_format == "qrels":
            values = _reading(path, evaluate_values, qrels, path, computed or ["num_ret"], **options)
            if args.zscores is not None:
                values = values.standardized(args.zscore_table)
        else:
            run = _read("run", path)
            result = evaluate(qrels, run, computed or ["num_ret"], per_query=True, qrels_format=args.qrels_format,
                              zscores=args.zscore_table, **options)
            listed = set(run.frame["query_id"].unique())
            values = RunValues.of(result, retrieved=[query_id in listed for query_id in result.per_query.index])
    except ValueError as error:
        raise InputError(None, str(error)) from None
    return _block(values, measures, computed, values.run_name or Path(path).name, path, args)


def _block(values, measures, computed, label: str, path: str, args) -> Block:
    """The Block of one run's :class:`~rankviz.evaluation.evaluator.RunValues` (either engine)."""
    means = {}
    for measure in measures:
        if measure.name == "runid":
            means[measure] = values.run_name or ""
        elif measure.name == "NumQ":
            means[measure] = len(values.query_ids)
        elif measure.aggregate != "none":
            means[measure] = values.means[str(measure)]
    query_ids, columns = None, {}
    if args.per_query:
        shown = [m for m in computed if m.family.per_query_printed and str(m) in values.columns]
        ids = values.query_ids  # sorted as strings (strcmp), trec_eval's order
        rows = range(len(ids))
        if args.complete and args.trec_eval_version == "9":
            # trec_eval 9's -c only changes the divisor of the means: no lines for absent topics.
            rows = [row for row in rows if values.retrieved[row]]
        query_ids = [ids[row] for row in rows]
        for measure in shown:  # whole columns to lists once: no per-row access
            column = values.columns[str(measure)].tolist()
            columns[measure] = [column[row] for row in rows]
    return Block(label, path, measures, query_ids, columns, means, args.zscores is not None)


def _dask_extra_hint() -> str:
    from rankviz.evaluation.distributed import DASK_EXTRA_HINT  # no dask needed to import it

    return DASK_EXTRA_HINT


def _evaluate_on_dask(measures, args, progress: Progress) -> list[Block]:
    """Every run of the command line in one Dask job (--engine dask): qrels read once, runs read
    in blocks, partitioned by query; the Blocks print exactly as the memory engine's."""
    from rankviz.trec.readers import TrecFormatError

    if args.qrels_format != "qrels" or args.zscores is not None:
        raise InputError(None, "--engine dask evaluates TREC qrels (-R qrels) without -Z; use --engine memory")
    from rankviz.evaluation.distributed import evaluate_run_files  # dask: loaded on use

    computed = [m for m in measures if m.name not in ("runid", "NumQ")] or _parse_measure_options(["num_ret"])[0]
    progress.step(f"evaluating {len(args.runs)} run(s) on Dask")
    if progress.enabled:
        progress.done()
    try:
        evaluations = evaluate_run_files(
            args.qrels, [[path] for path in args.runs], computed, scheduler=args.scheduler, workers=args.workers,
            memory_limit=args.memory_limit, blocksize=args.blocksize, verbose=args.verbose,
            progress=progress.enabled, per_query=True, complete=args.complete, rel_threshold=args.level,
            depth=args.depth, trec_eval_version=args.trec_eval_version,
        )
    except ImportError:  # dask or distributed not installed: the extra's install line, not a traceback
        raise InputError("--engine dask", _dask_extra_hint()) from None
    except TrecFormatError as error:
        raise _input_error(error) from None
    except FileNotFoundError as error:
        raise InputError(None, str(error)) from None
    except (OSError, ValueError) as error:
        raise InputError(None, str(error)) from None
    from rankviz.evaluation.evaluator import RunValues

    blocks = []
    for path, evaluation in zip(args.runs, evaluations):
        result = evaluation.result
        shown_computed = [m for m in measures if m.name not in ("runid", "NumQ")]
        label = result.run_name or Path(path).name
        values = RunValues.of(result, retrieved=[str(q) in evaluation.retrieved for q in result.per_query.index])
        blocks.append(_block(values, measures, shown_computed, label, path, args))
    return blocks


def _plain(value, measure, zscores: bool = False):
    """A JSON/CSV-friendly Python value: int for counts (float z-scores with -Z), str for text, None for NaN."""
    if isinstance(value, str):
        return value
    if value is None:
        return None
    if measure.is_count and not (zscores and measure.name != "NumQ"):
        return int(value)
    value = float(value)
    return None if math.isnan(value) else value


def _trec_values(values: list, measure, zscores: bool = False) -> list[str]:
    """trec_eval's value column: %6.4f, counts as integers (z-scores of counts too as %6.4f),
    text as is, relstring quoted."""
    if measure.name == "relstring":
        return [f"'{value}'" for value in values]
    if measure.is_count and not zscores:
        return [str(int(value)) for value in values]
    return [value if isinstance(value, str) else "%6.4f" % value for value in values]


def _trec_prefix(measure, name, zscores: bool) -> str:
    """The name column: padded to 22 characters; with -Z, numbers' names get a "Z" in front (not
    relstring's, not runid's), as trec_eval prints them (``Z%-22s``)."""
    z = "Z" if zscores and measure.name not in ("relstring", "runid") else ""
    return z + "%-22s\t" % name(measure)


def _namer(names: dict):
    return lambda measure: names.get(measure, str(measure))


def _format_trec(blocks: list[Block], names: dict) -> str:
    name = _namer(names)
    lines = []
    for block in blocks:
        if len(blocks) > 1:
            lines.append(f"# run: {block.label} ({block.path})")
        if block.query_ids is not None:
            # Formatted column by column, then interleaved query by query (trec_eval's layout).
            prefixes = {m: _trec_prefix(m, name, block.zscores) for m in block.columns}
            texts = {m: _trec_values(values, m, block.zscores) for m, values in block.columns.items()}
            for row, query_id in enumerate(block.query_ids):
                lines += [f"{prefixes[m]}{query_id}\t{texts[m][row]}" for m in block.columns]
        for measure, value in block.means.items():
            lines.append("%s%s\t%s" % (_trec_prefix(measure, name, block.zscores), "all",
                                        _trec_values([value], measure, block.zscores)[0]))
    return "".join(line + "\n" for line in lines)


def _csv_value(value, measure, zscores: bool = False) -> str:
    plain = _plain(value, measure, zscores)
    return "" if plain is None else repr(plain) if isinstance(plain, float) else str(plain)


def _format_csv(blocks: list[Block], names: dict) -> str:
    import csv

    name = _namer(names)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["run", "query_id", "measure", "value"])
    for block in blocks:
        for row, query_id in enumerate(block.query_ids or ()):
            writer.writerows([block.label, query_id, name(m), _csv_value(values[row], m, block.zscores)]
                             for m, values in block.columns.items())
        writer.writerows([block.label, "all", name(m), _csv_value(value, m, block.zscores)]
                         for m, value in block.means.items() if m.name != "runid")  # the run column says it
    return buffer.getvalue()


def _format_json(blocks: list[Block], names: dict) -> str:
    name = _namer(names)
    runs = []
    for block in blocks:
        entry = {
            "run": block.label,
            "file": block.path,
            "measures": [name(m) for m in block.measures if m.name != "runid"],
            "all": {name(m): _plain(v, m, block.zscores) for m, v in block.means.items() if m.name != "runid"},
        }
        if block.query_ids is not None:
            entry["per_query"] = {
                query_id: {name(m): _plain(values[row], m, block.zscores) for m, values in block.columns.items()}
                for row, query_id in enumerate(block.query_ids)
            }
        runs.append(entry)
    return json.dumps({"runs": runs}, indent=1, allow_nan=False) + "\n"


FORMATTERS = {"trec": _format_trec, "csv": _format_csv, "json": _format_json}


def command_eval(args, progress: Progress) -> str:
    measures, names = _parse_measure_options(args.measures or list(JUDGMENT_FORMATS[args.qrels_format].default_measures),
                                             args.trec_eval_version)
    args.zscore_table = None
    if args.zscores is not None:
        progress.step(f"reading {args.zscores}")
        args.zscore_table = _read("zscores", args.zscores)
    if args.engine == "dask":
        return FORMATTERS[args.format](_evaluate_on_dask(measures, args, progress), names)
    progress.step(f"reading {args.qrels}")
    if args.qrels_format == "qrels":
        # Indexed on a thread of its own while the first run's first blocks are read.
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=1) as pool:
            qrels = pool.submit(_read, "qrels_index", args.qrels)
            return FORMATTERS[args.format](_evaluate_runs(qrels, measures, args, progress), names)
    qrels = _read(args.qrels_format, args.qrels)
    return FORMATTERS[args.format](_evaluate_runs(qrels, measures, args, progress), names)


def _evaluate_runs(qrels, measures, args, progress: Progress) -> list[Block]:
    blocks = []
    for number, path in enumerate(args.runs, start=1):
        progress.step(f"evaluating run {number}/{len(args.runs)}: {path}")
        blocks.append(_evaluate_one(qrels, path, measures, args))
    return blocks


# --- compare -------------------------------------------------------------------------------------


def command_compare(args, progress: Progress) -> str:
    measures, _ = _parse_measure_options(args.measures or ["AP", "nDCG@10"])
    measures = [m for m in measures if m.name not in ("runid", "NumQ") and m.aggregate != "none"]
    progress.step(f"reading {args.qrels}")
    qrels = _read("qrels", args.qrels)
    read = []
    for number, path in enumerate(args.runs, start=1):
        progress.step(f"reading run {number}/{len(args.runs)}: {path}")
        read.append(_read("run", path))
    from rankviz.evaluation.presentation import run_labels  # numpy: loaded on use (eval sets its options first)

    # By tag, as the app names them; two runs with one tag are told apart by their files.
    labels = run_labels((run.frame.attrs.get("run_name"), path) for run, path in zip(read, args.runs))
    runs = dict(zip(labels, read))
    progress.step("comparing runs")
    correction = None if args.correction == "none" else args.correction
    from rankviz.evaluation.comparison import compare

    try:
        result = compare(
            qrels, runs, measures, test=args.test, correction=correction, alpha=args.alpha, seed=args.seed,
            complete=args.complete, rel_threshold=args.level, depth=args.depth,
        )
    except ValueError as error:
        raise InputError(None, str(error)) from None
    if args.latex:
        return result.to_latex().rstrip("\n") + "\n"
    return _format_comparison(result)


def _format_comparison(result) -> str:
    from rankviz.evaluation.presentation import P_VALUE_FORMAT

    test_name = {"t": "paired t-test", "randomization": "paired randomization test",
                 "bootstrap": "paired bootstrap test"}[result.test]
    correction = f"{result.correction.capitalize()} correction" if result.correction else "no correction"
    table = result.table.copy()
    for column in ("baseline_mean", "mean", "delta", "effect_size"):
        table[column] = table[column].map(lambda value: f"{value:.4f}")
    for column in ("p_value", "p_adjusted"):  # as the app's significance table prints them
        table[column] = table[column].map(lambda value: P_VALUE_FORMAT % value)
    return (
        f"baseline: {result.baseline}; {test_name}, {correction}, alpha = {result.alpha:g}\n\n"
        f"Means:\n{result.means.to_string(float_format=lambda value: f'{value:.4f}')}\n\n"
        f"Against {result.baseline}:\n{table.to_string(index=False)}\n"
    )


# --- app ------------------------------------------------------------------------------------------


def command_app(args, streamlit_args) -> int:
    """Start the app: replace this process by ``streamlit run`` (so that Ctrl-C and a signal to
    this pid reach the server itself), or run it as a child where ``exec`` is not POSIX."""
    import importlib.util

    missing = [name for name in ("streamlit", "altair") if importlib.util.find_spec(name) is None]
    if missing:
        print(f"rankviz: error: {' and '.join(missing)} not installed; {APP_EXTRA_HINT}", file=sys.stderr)
        return EXIT_USAGE
    try:
        command = streamlit_command(sys.executable, args.projector, args.port, streamlit_args)
    except FileNotFoundError as error:
        print(f"rankviz: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(command[0], command)
    import subprocess

    return subprocess.call(command)


# --- clicks: AUC, GAUC and per-group measures of a click log ----------------------------------------

CLICKS_EPILOG = """\
output: one line per measure, as trec_eval prints its "all" lines (name padded to 22
characters, TAB, "all", TAB, value with 4 decimals), then the counts as integers: rows,
positives, groups, one_class_groups (left out of GAUC), groups_without_positive (left out of
the ranking means). --format json prints {"values": {...}, "counts": {...}, "engine": ...}.

engines: "memory" reads the three columns into pandas (fast while they fit in RAM);
"dask" works partition by partition on a dask.distributed cluster: --scheduler ADDR joins a
running one (e.g. tcp://10.0.0.5:8786), otherwise a local cluster of --workers processes is
started for the run. Needs pip install "rankviz[dask]".

example:
  python -m rankviz clicks logs/ --group session_id --label clicked --score ctr_pred \\
      -m auc -m gauc -m nDCG@10 --engine dask --scheduler tcp://scheduler:8786
"""


def _add_clicks_parser(commands) -> None:
    clicks = commands.add_parser(
        "clicks", help="AUC, GAUC and per-group nDCG/P/RR of a click log (Parquet or CSV), in memory or on Dask",
        description="Evaluate a click log: one row per impression with its group (user/session), label "
                    "(click or grade) and score.",
        epilog=CLICKS_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    clicks.add_argument("path", metavar="PATH", help="Parquet file or dataset directory, or a .csv or .tsv file")
    clicks.add_argument("--group", default="group", help="group column: user, session or query id (default group)")
    clicks.add_argument("--label", default="label", help="label column: 1 clicked, 0 not, or a grade (default label)")
    clicks.add_argument("--score", default="score", help="score column: the model's score (default score)")
    clicks.add_argument("-m", "--measures", dest="measures", action="append", metavar="MEASURE",
                        help="measure; repeat for several: auc, gauc, nDCG@10, P@10, RR (MRR), AP, Success@k, R@k "
                             "(default: auc, gauc, nDCG@10, P@10, RR)")
    clicks.add_argument("--weights", choices=GAUC_WEIGHT.accepted, default="impressions",
                        help="GAUC's group weights (default impressions)")
    clicks.add_argument("-l", dest="level", type=float, default=1, metavar="LEVEL",
                        help="label at or above which an impression is positive (default 1)")
    clicks.add_argument("--engine", choices=ENGINES, default="memory", help="engine (default memory)")
    clicks.add_argument("--scheduler", default=None, metavar="ADDR",
                        help="dask engine: address of a running dask scheduler (tcp://host:8786)")
    clicks.add_argument("--workers", type=_positive_int, default=2, metavar="N",
                        help="dask engine without --scheduler: worker processes of the local cluster (default 2)")
    clicks.add_argument("--partitions", type=_positive_int, default=None, metavar="N",
                        help="dask engine: partitions after the shuffle by group (default: as many as read)")
    clicks.add_argument("--no-shuffle", dest="shuffle", action="store_false",
                        help="dask engine: every group already lies in one partition (e.g. one file per range of "
                             "sessions): skip the shuffle by group (checked: an error if a group is split)")
    clicks.add_argument("--per-group", dest="per_group", default=None, metavar="FILE",
                        help="also write the per-group table (counts, AUC, measures) to FILE as CSV")
    clicks.add_argument("--format", choices=["trec", "json"], default="trec", help="output format (default trec)")
    clicks.add_argument("--verbose", action="store_true",
                        help="dask engine: also show Dask's own log messages (scheduler and workers) on stderr")


def _read_click_log(path: Path, engine: str):
    """The click log as evaluate_clicks takes it: a Parquet file or dataset as its path; a .csv or
    .tsv file as a pandas DataFrame (memory engine) or a dask DataFrame read in blocks (dask)."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".tsv"):
        return str(path)
    sep = "\t" if suffix == ".tsv" else ","
    if engine == "dask":
        import dask.dataframe as dd

        return dd.read_csv(str(path), sep=sep)
    import pandas as pd

    return pd.read_csv(path, sep=sep)


def command_clicks(args) -> int:
    """``rankviz clicks``: print the values of :func:`rankviz.evaluation.clicks.evaluate_clicks`,
    each under the name asked with -m (``-m MRR`` prints MRR; without -m, evaluate_clicks' names)."""
    from rankviz.evaluation.clicks import (DEFAULT_CLICK_MEASURES, MissingColumnError, click_measure_name,
                                           evaluate_clicks)

    path = Path(args.path)
    if not path.exists():
        print(f"rankviz: error: {args.path}: no such file or directory", file=sys.stderr)
        return EXIT_USAGE
    printed = {}  # evaluate_clicks' name -> the name printed
    for asked in args.measures or []:
        try:
            printed.setdefault(click_measure_name(asked), asked)
        except ValueError as error:
            print(f"rankviz: error: -m {error}", file=sys.stderr)
            return EXIT_USAGE
    options = dict(group=args.group, label=args.label, score=args.score, weights=args.weights,
                   measures=args.measures or DEFAULT_CLICK_MEASURES, rel_threshold=args.level,
                   per_group=args.per_group is not None)
    try:
        from rankviz.evaluation.distributed import quiet_dask_logs

        with quiet_dask_logs(args.verbose):
            if args.engine == "memory":
                result = evaluate_clicks(_read_click_log(path, "memory"), **options)
            else:
                from distributed import Client, LocalCluster

                table = _read_click_log(path, "dask")
                dask_options = dict(engine="dask", partitions=args.partitions, shuffle=args.shuffle, **options)
                if args.scheduler:
                    with Client(args.scheduler) as client:
                        result = evaluate_clicks(table, client=client, **dask_options)
                else:
                    with LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                      dashboard_address=None) as cluster, Client(cluster) as client:
                        result = evaluate_clicks(table, client=client, **dask_options)
    except ImportError:
        print(f"rankviz: error: --engine dask: {_dask_extra_hint()}", file=sys.stderr)
        return EXIT_USAGE
    except MissingColumnError as error:  # evaluate_clicks says group=...: the command line has --group...
        print(f"rankviz: error: {args.path}: no column {error.column!r} (columns: {', '.join(error.columns)}); "
              "name the columns with --group, --label and --score", file=sys.stderr)
        return EXIT_USAGE
    except (ValueError, OSError) as error:
        print(f"rankviz: error: {args.path}: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.per_group is not None:
        result.per_group.to_csv(args.per_group)
    values = {printed.get(name, name): value for name, value in result.values.items()}
    if args.format == "json":
        print(json.dumps({"values": {k: (None if math.isnan(v) else v) for k, v in values.items()},
                          "counts": dict(result.counts), "engine": result.engine}, indent=2))
    else:
        lines = [f"{name:<22}\tall\t{value:6.4f}" for name, value in values.items()]
        lines += [f"{name:<22}\tall\t{count}" for name, count in result.counts.items()]
        print("\n".join(lines))
    return EXIT_OK


# --- why: two tools' values of one measure, and the conventions behind each difference ------------

WHY_EPILOG = """\
output: a header naming the measure and the two tools, one line per query where the values differ
(query, the value under --a, under --b, the conventions that account for the difference; "-" where a
tool leaves the query out), then each named convention with both tools' choices, then the summary
line ("7 of 12 queries differ: tie order 5, IDCG and R from the run 2"). --all lists every query.

tools: trec_eval pytrec_eval ir_measures ranx trectools sklearn torchmetrics recbole spark
tensorflow_ranking elasticsearch torchrec (docs/conventions.md: each one's choices and names).

example:
  rankviz why qrels.txt run.txt -m nDCG@10 --a trec_eval --b sklearn
"""


def command_why(args, progress: Progress) -> str:
    from rankviz.conventions import CONVENTIONS, PROFILES
    from rankviz.evaluation.tools import check_tool_measure, disagreement, parse_tool_measure, profile_settings
    from rankviz.trec.readers import read_qrels, read_run

    try:
        measure = parse_tool_measure(args.measure)
    except ValueError as error:
        raise InputError("-m", str(error)) from None
    for flag, tool in (("--a", args.a), ("--b", args.b)):
        try:
            profile_settings(tool, measure.name, measure.cutoff)
            check_tool_measure(PROFILES[tool], measure)
        except ValueError as error:
            raise InputError(flag, str(error)) from None
    progress.step("reading")
    qrels = _reading(args.qrels, read_qrels, args.qrels)
    run = _reading(args.run, read_run, args.run)
    progress.step("comparing")
    try:
        table = disagreement(qrels, run, args.measure, a=args.a, b=args.b)
    except ValueError as error:
        raise InputError(None, str(error)) from None

    def show(value) -> str:
        return "-" if math.isnan(value) else f"{value:.4f}"

    rows = table if args.all else table[table["conventions"].map(len) > 0]
    width = max([len("query"), *(len(q) for q in rows["query"])])
    lines = [f"{table.attrs['measure']}: {args.a} vs {args.b}",
             f"{'query':<{width}}  {args.a[:12]:>12}  {args.b[:12]:>12}  conventions"]
    for q, va, vb, named, jointly in zip(rows["query"], rows["a"], rows["b"], rows["conventions"], rows["jointly"]):
        reasons = (" + ".join(named) + " (together)") if jointly else ", ".join(named)
        lines.append(f"{q:<{width}}  {show(va):>12}  {show(vb):>12}  {reasons or '='}")
    named_anywhere = [c for c in CONVENTIONS if any(c in n for n in table["conventions"])]
    if named_anywhere:
        lines.append("")
        settings_a = profile_settings(args.a, measure.name, measure.cutoff)
        settings_b = profile_settings(args.b, measure.name, measure.cutoff)
        for c in named_anywhere:
            convention = CONVENTIONS[c]
            lines.append(f"{c}: {args.a}: {convention.label(settings_a[c])}; {args.b}: {convention.label(settings_b[c])}")
    lines += ["", table.attrs["summary"]]
    return "\n".join(lines) + "\n"


def _add_why_parser(commands) -> None:
    why = commands.add_parser(
        "why", help="why two tools give different values: the conventions behind each query's difference",
        description="Score a run as two tools would (trec_eval, sklearn, ranx, ...) and name, for each query "
                    "where they differ, the conventions that account for it.",
        epilog=WHY_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    why.add_argument("qrels", metavar="QRELS", help="qrels file (qid iter docno rel), .gz/CSV/TSV/Parquet too")
    why.add_argument("run", metavar="RUN", help="run file (qid Q0 docno rank score tag)")
    why.add_argument("-m", dest="measure", required=True, metavar="MEASURE",
                     help="one measure: nDCG@10, AP, AP@10, P@5, R@100, RR@10, Success@1")
    why.add_argument("--a", dest="a", default="trec_eval", metavar="TOOL", help="the first tool (default trec_eval)")
    why.add_argument("--b", dest="b", default="sklearn", metavar="TOOL", help="the second tool (default sklearn)")
    why.add_argument("--all", action="store_true", help="list every query, also those where the tools agree")


# --- the parser and main -------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rankviz",
        description="Evaluate TREC runs with trec_eval's numbers, and compare runs with significance tests.",
    )
    parser.add_argument("--version", action="version", version=f"rankviz {rankviz.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{eval,compare,why,app,clicks}")

    evaluate = commands.add_parser(
        "eval", help="evaluate runs against qrels (trec_eval-compatible output)",
        description="Evaluate one or more TREC runs against a qrels file; trec_eval's output by default.",
        epilog=EVAL_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    evaluate.add_argument("qrels", metavar="QRELS", help="qrels file (qid iter docno rel), .gz/CSV/TSV/Parquet too")
    evaluate.add_argument("runs", metavar="RUN", nargs="+", help="run file(s) (qid Q0 docno rank score tag)")
    _add_measure_option(evaluate, "official")
    evaluate.add_argument("--list-measures", action=_ListMeasures,
                          help="list every measure -m accepts (names, trec_eval names, parameters) and exit")
    evaluate.add_argument("-q", dest="per_query", action="store_true", help="also print per-query values")
    _add_judgment_options(evaluate, "score qrels queries missing from the run as 0 and count them in the mean")
    evaluate.add_argument(
        "-R", dest="qrels_format", choices=list(JUDGMENT_FORMATS), default="qrels",
        metavar="FORMAT",
        help="format of QRELS, as trec_eval's -R: qrels (default), prefs (qid jg jsg docno rel_level: "
             "preference judgments), qrels_prefs (a qrels read as preferences, iter = judgment group), "
             "qrels_jg (qid jg docno rel: one qrels per judgment group), and ndeval's subtopics (topic "
             "subtopic docno judgment: the diversity measures alpha_nDCG@k, ERR_IA@k, NRBP, P_IA@k, StRecall@k...). "
             "Without -m: the set 'prefs' for prefs and qrels_prefs, 'qrels_jg' for qrels_jg, ndeval's measures "
             "at 5, 10, 20 for subtopics",
    )
    evaluate.add_argument(
        "-Z", dest="zscores", default=None, metavar="FILE",
        help="print z-scores instead of values, as trec_eval's -Z: (value - mean) / stddev with the "
             "per-query means and deviations of FILE (qid measure mean stddev); -1000000 where FILE has "
             "no mean. Names are printed with a Z in front",
    )
    evaluate.add_argument("--format", choices=sorted(FORMATTERS), default="trec", help="output format (default trec)")
    engine = evaluate.add_argument_group(
        "engine", "where to compute; the numbers are the same, digit for digit (README: Engines)")
    engine.add_argument("--engine", choices=ENGINES, default="memory",
                        help="memory (default): read each run whole, fastest for what fits in memory; dask: read "
                             "runs in blocks and evaluate them partitioned by query on Dask workers, with bounded "
                             "memory and all runs in one job (pip install 'rankviz[dask]')")
    engine.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="Dask scheduler to use (tcp://host:8786); default: a local cluster on this machine")
    engine.add_argument("--workers", type=_positive_int, default=None, metavar="N",
                        help="worker processes of the local cluster (default: one per core)")
    engine.add_argument("--memory-limit", default=None, metavar="SIZE",
                        help="memory limit of each local worker, e.g. 2GiB (default: Dask's share of the machine)")
    engine.add_argument("--blocksize", default=None, metavar="SIZE",
                        help="bytes of run text per block, e.g. 16MiB (default: what the workers' memory limit "
                             "allows, at most 64MiB)")
    engine.add_argument("--verbose", action="store_true",
                        help="also show Dask's own log messages (scheduler and workers) on stderr")
    evaluate.add_argument(
        "--trec-eval-version", choices=["10", "9"], default="10",
        help="behave as trec_eval 10.0 (default) or 9.0.x, as pytrec_eval does: recall levels of "
             "iprec_at_recall/11pt_avg rounded as 9.x, all_trec without unj/rbp, -c printing no lines "
             "for topics absent from the run",
    )

    compare = commands.add_parser(
        "compare", help="compare runs: per-measure means, deltas, p-values, effect sizes",
        description="Compare two or more runs on the same qrels with paired significance tests.",
    )
    compare.add_argument("qrels", metavar="QRELS", help="qrels file")
    compare.add_argument("runs", metavar="RUN", nargs="+", help="two or more run files (the first is the baseline)")
    _add_measure_option(compare, "AP and nDCG@10")
    compare.add_argument("--test", choices=["t", "randomization", "bootstrap"], default="t",
                         help="paired test (default t)")
    compare.add_argument("--correction", choices=["holm", "bonferroni", "none"], default="holm",
                         help="multiple-comparison correction (default holm)")
    compare.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    compare.add_argument("--seed", type=int, default=0, help="seed of the randomization/bootstrap tests (default 0)")
    _add_judgment_options(compare, "score qrels queries missing from a run as 0 (trec_eval -c)")
    compare.add_argument("--latex", action="store_true", help="print the table as LaTeX (booktabs)")

    app = commands.add_parser(
        "app", help="start the teaching app (needs the [app] extra)",
        description='Start the Streamlit teaching app installed with rankviz (pip install "rankviz[app]"), '
                    "then open the URL it prints.",
        epilog="Any other option is passed to `streamlit run`, e.g. --server.address 0.0.0.0 or "
               "--server.headless true (see `streamlit run --help`).",
    )
    app.add_argument("--projector", action="store_true",
                     help="projector mode: large type (theme.baseFontSize 22) and no toolbar")
    app.add_argument("--port", type=_positive_int, default=None, help="port to serve on (streamlit's default 8501)")
    _add_why_parser(commands)
    _add_clicks_parser(commands)
    return parser


def _add_measure_option(parser, default: str) -> None:
    parser.add_argument(
        "-m", dest="measures", action="append", metavar="MEASURE",
        help=f"measure to compute; repeat for several (default: {default}). "
             "P_10, P.5,10, P@10, map, AP, ndcg_cut_10, nDCG@10, official, all_trec...",
    )


def _add_judgment_options(parser, complete_help: str) -> None:
    """trec_eval's -c, -l and -M, which eval and compare share."""
    parser.add_argument("-c", dest="complete", action="store_true", help=complete_help)
    parser.add_argument("-l", dest="level", type=int, default=1, metavar="LEVEL",
                        help="grade at or above which a document is relevant for binary measures (default 1)")
    parser.add_argument("-M", dest="depth", type=_positive_int, default=None, metavar="DEPTH",
                        help="evaluate only the top DEPTH documents of each query (after sorting by score)")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer; got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer; got {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0 success, 2 bad input or usage)."""
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if args.command == "app":
        return command_app(args, unknown)  # options it does not know go to `streamlit run`
    if args.command == "clicks" and not unknown:
        return command_clicks(args)
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command == "compare" and len(args.runs) < 2:
        parser.error("compare needs at least two runs")
    if "numpy" not in sys.modules:
        # eval and compare do no linear algebra: without OpenBLAS's thread pool, numpy starts in
        # half the time (~45 ms less). Their arrays are freed and made again block after block:
        # as transparent huge pages, each would be zeroed 2 MB at a time (up to a fifth of the
        # CPU time of a 5M-line eval). A user's own settings win; --engine dask workers inherit them.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
    progress = Progress()
    try:
        command = {"eval": command_eval, "compare": command_compare, "why": command_why}[args.command]
        output = command(args, progress)
    except InputError as error:
        progress.done()
        where = f"{error.where}: " if error.where else ""
        print(f"rankviz: error: {where}{error.message}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        progress.done()
        return 130
    progress.done()
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `python -m rankviz eval ... | head`: stop quietly
        # Point stdout at devnull so that the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return EXIT_OK
