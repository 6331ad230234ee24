"""A lecture hall on one server: N students open a shared link at once and edit, side by side.

    python benchmarks/load.py                              # N = 1, 30, 100; 30 s each
    python benchmarks/load.py --sessions 1 30 100 300 --duration 30
    python benchmarks/load.py --url http://127.0.0.1:8501 --server-pid 1234 --sessions 30
    python benchmarks/load.py --sessions 100 --arrival burst --think 4 6 --duration 20   # a QR code on the screen

Starts ``streamlit run app.py`` (headless, loopback, a free port; a fresh server for every N, so
that each N's peak memory is its own), or drives a server already running at ``--url``. Every
session is a websocket client speaking Streamlit's own protocol (``streamlit_client.py``: the
BackMsg/ForwardMsg protobufs of the streamlit wheel), so the server does exactly the work a
browser tab makes it do; no browser renders anything.

Classroom traffic, per session (seeded: ``--seed``):

* it arrives at a random moment in the first ``--ramp`` seconds and opens the lecturer's shared
  link, the graded page with a 20-grade ranking (the same link for everyone); with ``--arrival
  burst`` the N sessions arrive evenly spread over ``--burst`` seconds (1 s: a class opening the
  link of a QR code on the screen at once);
* then, after thinking 0.5-2 s after each answer, it acts: mostly an **edit** (one grade of the
  ranking changed in the "Grades in ranked order" box, i.e. a new value of that text input's
  widget state, the message the browser sends when a student presses Enter), now and then a
  **page switch** (the one-ranking or precision-recall page, where it edits too, then back to the
  graded page) or a visit to the **homework checker**, where it types three answers and presses
  "Check my answers" (a form submit) before going back;
* it stops ``--duration`` seconds after the end of the ramp, letting its request in flight end.

Closed loop: a session waits for its answer before thinking again, as a student waits for the
page (so a slow server gets fewer requests per second, not a growing queue).

Per N, the table gives (seconds unless said):

* **first load**: connect -> ``script_finished`` of the session's first run (the page drawn);
* **edit**: BackMsg sent -> ``script_finished`` of the run it asked for;
* **page** (switches and homework checks): the same for those actions;
* **errors**: exceptions shown on a page (``delta.new_element.exception``), compile errors,
  ``page_not_found``, disconnects and runs unanswered within ``--timeout``;
* **server peak MB**: the server process's peak resident memory (``VmHWM`` in ``/proc``; with
  ``--url`` only when ``--server-pid`` is given), which includes its start-up and the untimed
  warm-up session; **server CPU**: its CPU seconds per wall second over the measured window
  (1.0 = one core busy; one Python process runs its scripts under one GIL);
* **client CPU**: the same for this load generator (it shares the 2 cores with the server).

Not a test: nothing here asserts a time. The table is Markdown on stdout; progress on stderr.
``--profile FILE`` starts the server under ``benchmarks/profile_server.py`` (cProfile on every
thread) and writes its pstats to FILE at the end (profiling slows the server several-fold: the
latencies of a profiled run are not the app's).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
REPOSITORY = BENCHMARKS.parent
sys.path.insert(0, str(BENCHMARKS))

import websockets  # noqa: E402

from streamlit_client import FINISHED_WITH_COMPILE_ERROR, StreamlitSession  # noqa: E402

SHARED_RANKING = (3, 2, 3, 0, 1, 2, 3, 0, 0, 1, 2, 1, 0, 3, 2, 0, 1, 0, 2, 1)
HOME_PAGE = "graded"
OTHER_RANKING_PAGES = ("one_ranking", "precision_recall")  # pages with the same "rels" box
HOMEWORK_PAGE = "homework"
THINK_S = (0.5, 2.0)
# On a page with the ranking box: edit, go to the homework checker, go to another ranking page.
ACTIONS_ON_RANKING_PAGE = (("edit", 0.85), ("homework", 0.07), ("other_page", 0.08))
HOMEWORK_ANSWERS = ("0.5", "1/3", "0,667")


# --- the server -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(url: str, process: subprocess.Popen | None, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise SystemExit(f"streamlit exited with code {process.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"streamlit did not answer {url}/_stcore/health within {timeout:.0f} s")


class Server:
    """``streamlit run app.py`` on a free loopback port, stopped by its own pid."""

    def __init__(self, log_path: Path, profile: Path | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        runner = ([str(BENCHMARKS / "profile_server.py"), str(profile)] if profile else ["-m", "streamlit"])
        command = [sys.executable, *runner, "run", "app.py", "--server.headless", "true",
                   "--server.address", "127.0.0.1", "--server.port", str(self.port),
                   "--browser.gatherUsageStats", "false"]  # the rest from the app's .streamlit/config.toml
        self.log = open(log_path, "w")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(command, cwd=REPOSITORY, stdout=self.log, stderr=subprocess.STDOUT)
        self.pid = self.process.pid
        wait_healthy(self.url, self.process)

    def stop(self) -> None:
        self.process.terminate()  # SIGTERM: streamlit shuts down cleanly (the profiler writes its stats)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def proc_status(pid: int, field_name: str) -> float | None:
    """A memory field of /proc/PID/status in MB (VmHWM: peak resident, VmRSS: resident now)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def proc_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (all its threads), from /proc/PID/stat."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# --- the sessions -----------------------------------------------------------------------------


@dataclass
class Results:
    first_load: list[float] = field(default_factory=list)
    edit: list[float] = field(default_factory=list)
    page: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    bytes_received: int = 0

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        if detail and len(self.examples) < 5:
            self.examples.append(f"{kind}: {detail}")

    def check(self, result) -> None:
        self.bytes_received += result.bytes
        for text in result.exceptions:
            self.error("exception", text)
        if result.status == FINISHED_WITH_COMPILE_ERROR:
            self.error("compile error")
        if result.page_not_found:
            self.error("page not found")


def shared_link() -> str:
    return "rels=" + ",".join(map(str, SHARED_RANKING))


def edited(grades: list[int], rng: random.Random) -> list[int]:
    """One grade changed to another value (what a student typing over one number does)."""
    grades = list(grades)
    rank = rng.randrange(len(grades))
    grades[rank] = rng.choice([g for g in range(4) if g != grades[rank]])
    return grades


def choose(rng: random.Random, weighted) -> str:
    return rng.choices([name for name, _ in weighted], [weight for _, weight in weighted])[0]


async def student(number: int, url: str, args, start_at: float, stop_at: float, results: Results) -> None:
    rng = random.Random(args.seed * 100_003 + number)
    await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
    # Each tab holds its own sticky cookie, as a browser does after its first page load through
    # deploy/replicas.py's proxy (a server without the proxy ignores it).
    session = StreamlitSession(url, timeout=args.timeout, cookie=f"rankviz_replica=student{number}")
    grades = list(SHARED_RANKING)
    action = "first load"
    try:
        result = await session.open(HOME_PAGE, shared_link())
        results.check(result)
        results.first_load.append(result.seconds)
        page = HOME_PAGE
        while True:
            await asyncio.sleep(rng.uniform(*args.think))
            if time.perf_counter() >= stop_at:
                break
            if page == HOMEWORK_PAGE:
                action = "homework check"
                inputs = [w for w in session.widgets.values() if w.kind == "text_input" and w.proto.form_id
                          and "-hw_answer_" in w.id]
                submit = session.widget(kind="button", key="hw_check")
                if submit is None or not inputs:
                    results.error("homework form not found")
                    break
                answers = {w.id: ("string_value", rng.choice(HOMEWORK_ANSWERS)) for w in inputs[:3]}
                result = await session.rerun(set_values=answers, triggers={submit.id: ("trigger_value", True)})
                results.check(result)
                results.page.append(result.seconds)
                await asyncio.sleep(rng.uniform(*args.think))
                action, page = "page switch", HOME_PAGE
                result = await session.switch_page(page)
                results.check(result)
                results.page.append(result.seconds)
                continue
            kind = choose(rng, ACTIONS_ON_RANKING_PAGE) if page == HOME_PAGE else choose(
                rng, (("edit", 0.7), ("back", 0.3)))
            if kind == "edit":
                action = "edit"
                box = session.widget(kind="text_input", key="rels")
                if box is None:
                    results.error("ranking box not found", page)
                    break
                grades = edited(grades, rng)
                result = await session.rerun(set_values={box.id: ("string_value", ",".join(map(str, grades)))})
                results.check(result)
                results.edit.append(result.seconds)
            else:
                action = "page switch"
                page = {"homework": HOMEWORK_PAGE, "other_page": rng.choice(OTHER_RANKING_PAGES),
                        "back": HOME_PAGE}[kind]
                result = await session.switch_page(page)
                results.check(result)
                results.page.append(result.seconds)
    except asyncio.TimeoutError:
        results.error("timeout", f"session {number}: no answer to its {action} within {args.timeout:.0f} s")
    except (websockets.ConnectionClosed, OSError) as error:
        results.error("disconnect", f"session {number} during its {action}: {error!r}"[:300])
    finally:
        try:
            await session.close()
        except Exception:  # noqa: BLE001 (a broken connection may fail to close; it is counted above)
            pass


async def warm_up(url: str, args) -> None:
    """One untimed session over every page it will visit: imports and shared caches, as on a
    server that has already served its first student."""
    session = StreamlitSession(url, timeout=args.timeout)
    await session.open(HOME_PAGE, shared_link())
    for page in (*OTHER_RANKING_PAGES, HOMEWORK_PAGE, HOME_PAGE):
        await session.switch_page(page)
    await session.close()


async def classroom(url: str, n: int, args) -> tuple[Results, float, float]:
    results = Results()
    rng = random.Random(args.seed)
    begin = time.perf_counter()
    if args.arrival == "burst":  # evenly over the burst: N arrivals a second for N = 100 and 1 s
        arrivals = [begin + i * args.burst / n for i in range(n)]
    else:
        arrivals = sorted(begin + rng.uniform(0, args.ramp) for _ in range(n)) if n > 1 else [begin]
    stop_at = begin + (args.burst if args.arrival == "burst" else args.ramp) + args.duration
    await asyncio.gather(*(student(i, url, args, arrivals[i], stop_at, results) for i in range(n)))
    return results, begin, time.perf_counter()


# --- the table --------------------------------------------------------------------------------


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def cells(values: list[float]) -> list[str]:
    if not values:
        return ["—", "—", "—"]
    return [f"{statistics.median(values):.2f}", f"{quantile(values, 0.95):.2f}", f"{max(values):.2f}"]


HEADER = ("| sessions | first load p50 | p95 | max | edit p50 | p95 | max | edits | edits/s | page p50 | p95 "
          "| max | errors | server peak MB | server CPU | client CPU |\n"
          "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")


def row(n: int, results: Results, window: float, peak_mb, server_cpu, client_cpu) -> str:
    errors = ", ".join(f"{count} {kind}" for kind, count in sorted(results.errors.items())) or "0"
    peak = f"{peak_mb:,.0f}" if peak_mb is not None else "n/a"
    server = f"{server_cpu:.2f}" if server_cpu is not None else "n/a"
    return (f"| {n} | " + " | ".join(cells(results.first_load)) + " | " + " | ".join(cells(results.edit))
            + f" | {len(results.edit)} | {len(results.edit) / window:.1f} | " + " | ".join(cells(results.page))
            + f" | {errors} | {peak} | {server} | {client_cpu:.2f} |")


def measure(n: int, args, log_dir: Path) -> str:
    server = None
    if args.url:
        url, pid = args.url.rstrip("/"), args.server_pid
    else:
        profile = Path(args.profile).resolve() if args.profile else None
        server = Server(log_dir / f"server-{n}.log", profile)
        url, pid = server.url, server.pid
    try:
        if not args.no_warm_up:
            asyncio.run(warm_up(url, args))
        cpu_before = proc_cpu_seconds(pid) if pid else None
        own_before = own_cpu_seconds()
        print(f"N = {n}: {url} (server pid {pid or 'unknown'}) ...", file=sys.stderr, flush=True)
        results, begin, end = asyncio.run(classroom(url, n, args))
        window = end - begin
        peak_mb = proc_status(pid, "VmHWM") if pid else None
        now_mb = proc_status(pid, "VmRSS") if pid else None
        cpu_after = proc_cpu_seconds(pid) if pid else None
        server_cpu = (cpu_after - cpu_before) / window if cpu_before is not None and cpu_after is not None else None
        client_cpu = (own_cpu_seconds() - own_before) / window
        line = row(n, results, window, peak_mb, server_cpu, client_cpu)
        print(f"  {line}\n  window {window:.1f} s, {len(results.first_load)} loads, {len(results.edit)} edits, "
              f"{len(results.page)} page actions, {results.bytes_received / 1e6:.1f} MB received, "
              f"server RSS at the end {now_mb if now_mb is None else round(now_mb)} MB", file=sys.stderr, flush=True)
        for example in results.examples:
            print(f"  e.g. {example}", file=sys.stderr)
        return line
    finally:
        if server is not None:
            server.stop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[1, 30, 100],
                        help="the numbers of concurrent sessions to measure, one after the other")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of traffic after the last arrival")
    parser.add_argument("--ramp", type=float, default=5.0,
                        help="sessions arrive at random moments within this many seconds (0: all at once)")
    parser.add_argument("--arrival", choices=["ramp", "burst"], default="ramp",
                        help="ramp (default): arrivals at random moments within --ramp seconds; burst: evenly "
                             "spread over --burst seconds")
    parser.add_argument("--burst", type=float, default=1.0, help="with --arrival burst: seconds the N arrivals take")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for one run's answer")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--think", type=float, nargs=2, default=THINK_S, metavar=("LOW", "HIGH"),
                        help="seconds a student thinks after each answer, uniform in [LOW, HIGH] (default "
                             "0.5 2; the issue's goal, an edit every 5 s: --think 4 6)")
    parser.add_argument("--url", help="drive this running server instead of starting one per N")
    parser.add_argument("--server-pid", type=int, help="with --url: the server's pid, for its memory and CPU")
    parser.add_argument("--no-warm-up", action="store_true",
                        help="measure a cold server (its first session pays the imports and caches)")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile; pstats to FILE "
                        "(one N only)")
    args = parser.parse_args(argv)
    if args.profile and (args.url or len(args.sessions) != 1):
        parser.error("--profile starts its own server for one --sessions value")
    with tempfile.TemporaryDirectory(prefix="rankviz-load-") as log_dir:
        lines = [measure(n, args, Path(log_dir)) for n in args.sessions]
    arrivals = (f"all {'/'.join(map(str, args.sessions))} arriving evenly within {args.burst:g} s (burst)"
                if args.arrival == "burst" else f"arrivals within {args.ramp:g} s")
    print(f"Think time {args.think[0]:g}-{args.think[1]:g} s, {arrivals}, {args.duration:g} s of traffic after the last "
          f"one, seed {args.seed}, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end; "
          f"latencies in seconds.\n")
    print(HEADER)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
