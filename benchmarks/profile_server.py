"""Run ``streamlit`` with cProfile on every thread; report where a loaded server spends its time.

    python benchmarks/profile_server.py OUT run app.py [streamlit options]   # what load.py --profile does
    python benchmarks/profile_server.py --report OUT [--top 25]

The first form is ``python -m streamlit ...`` with a ``cProfile.Profile`` enabled in the main
thread (the event loop: websocket traffic, message serialization) and in every thread started
afterwards (``ScriptRunner.scriptThread``: one per run chain, running app.py and the page; the
asyncio executor's workers). The clock is each thread's own CPU time (``time.thread_time``), so
a thread waiting for the GIL, a lock or the network is not charged for the wait. When the server exits (SIGTERM), it writes ``OUT`` (all threads)
and ``OUT.main``, ``OUT.script``, ``OUT.other`` (one pstats file per kind of thread).

The second form prints, per kind of thread, its total profiled time and the functions with the
most own time (tottime) and the most cumulative time, as Markdown-ready text. cProfile slows
Python code by a factor that grows with the number of calls: compare shares, not seconds.
"""

from __future__ import annotations

import atexit
import cProfile
import pstats
import sys
import threading
import time


def _kind(thread_name: str) -> str:
    if thread_name == "MainThread":
        return "main"
    if thread_name.startswith("ScriptRunner"):
        return "script"
    return "other"


def serve(out: str, streamlit_args: list[str]) -> None:
    profiles: list[tuple[str, cProfile.Profile]] = []
    lock = threading.Lock()
    original_run = threading.Thread.run

    def profiled_run(self):
        profile = cProfile.Profile(time.thread_time)
        with lock:
            profiles.append((_kind(self.name), profile))
        profile.enable()
        try:
            original_run(self)
        finally:
            profile.disable()

    threading.Thread.run = profiled_run
    main_profile = cProfile.Profile(time.thread_time)
    profiles.append(("main", main_profile))

    def dump() -> None:
        main_profile.disable()
        by_kind: dict[str, pstats.Stats] = {}
        with lock:
            for kind, profile in profiles:
                profile.create_stats()
                if not profile.stats:
                    continue
                if kind in by_kind:
                    by_kind[kind].add(profile)
                else:
                    by_kind[kind] = pstats.Stats(profile)
        merged = None
        for kind, stats in by_kind.items():
            stats.dump_stats(f"{out}.{kind}")
            if merged is None:
                merged = pstats.Stats(f"{out}.{kind}")
            else:
                merged.add(f"{out}.{kind}")
        if merged is not None:
            merged.dump_stats(out)
        print(f"profile_server: wrote {out} ({', '.join(sorted(by_kind))})", file=sys.stderr)

    atexit.register(dump)
    sys.argv = ["streamlit", *streamlit_args]
    from streamlit.web.cli import main

    main_profile.enable()
    try:
        main(prog_name="streamlit")
    except SystemExit:
        pass


def _where(func) -> str:
    filename, line, name = func
    for marker in ("site-packages/", "lib/python3.11/", "/wt-loadbench/", "/rankviz/"):
        if marker in filename:
            filename = filename.split(marker, 1)[1]
            break
    return f"{name} ({filename}:{line})" if line else name


def report(out: str, top: int) -> None:
    for kind in ("main", "script", "other"):
        try:
            stats = pstats.Stats(f"{out}.{kind}")
        except OSError:
            continue
        total = stats.total_tt
        print(f"\n## {kind} threads: {total:.1f} s profiled\n")
        entries = stats.stats  # func -> (primitive calls, calls, tottime, cumtime, callers)
        print("own time (tottime):")
        for func, (_, calls, tottime, cumtime, _) in sorted(entries.items(), key=lambda e: -e[1][2])[:top]:
            print(f"  {100 * tottime / total:5.1f}%  {tottime:7.2f} s  {calls:>9}  {_where(func)}")
        print("cumulative (cumtime):")
        for func, (_, calls, tottime, cumtime, _) in sorted(entries.items(), key=lambda e: -e[1][3])[:top]:
            print(f"  {100 * cumtime / total:5.1f}%  {cumtime:7.2f} s  {calls:>9}  {_where(func)}")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--report":
        top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 25
        report(sys.argv[2], top)
    elif len(sys.argv) >= 3:
        serve(sys.argv[1], sys.argv[2:])
    else:
        sys.exit(__doc__)
