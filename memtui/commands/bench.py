"""`memtui bench`: how fast memtui loads, reranks and updates, next to two reference baselines,
and how long `memtui rank` takes as a whole process, cold and warm, beside `grep -ril`.

On ROOT (never written to) or on a synthetic corpus of `--entries N` written to a temp
folder that is removed afterwards. `--json` prints one object; otherwise a readable table.
Exit codes: 0 every budget that applies at this size holds, 3 one of them failed, 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memtui.bench.commands import measure_commands
from memtui.bench.corpus import write_corpus
from memtui.bench.keystrokes import read_queries
from memtui.bench.runner import run_benchmark
from memtui.bench.setup import BenchSetup
from memtui.commands.common import startup_from_args
from memtui.core.plural import plural
from memtui.core.sanitize import one_line
from memtui.errors import UsageError


def run_bench(args: argparse.Namespace) -> int:
    if args.entries is not None:
        if args.roots or args.demo:
            raise UsageError("give either ROOT/--demo or --entries N, not both")
        if args.entries == 0:
            raise UsageError("--entries must be at least 1")
    startup = startup_from_args(args)
    today, config = startup.today, startup.config
    for warning in startup.warnings:
        print(f"memtui: {one_line(warning, 500)}", file=sys.stderr)
    queries = load_query_file(args.queries) if args.queries else None
    if args.entries is not None:
        with tempfile.TemporaryDirectory(prefix="memtui-bench-") as folder:
            root = Path(folder)
            summary = write_corpus(root, args.entries, today=today)
            days = args.days if args.days is not None else 0
            setup = BenchSetup(root, config, today, days, queries, summary)
            report = run_benchmark(setup, tui_measurer(args.tui))
            report["commands"] = measure_commands(setup, report["queries"][0])
    else:
        setup = BenchSetup(startup.require_root(), config, today, startup.days, queries, None)
        report = run_benchmark(setup, tui_measurer(args.tui))
        report["commands"] = measure_commands(setup, report["queries"][0])
    print(json.dumps(report, indent=2) if args.json else human_report(report))
    return 0 if report["budgets"]["all_pass"] else BUDGET_FAILED


BUDGET_FAILED = 3
"""Exit code when a budget that applies at this corpus size failed."""


def load_query_file(name: str) -> list[str]:
    path = Path(name)
    try:
        queries = read_queries(path)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read queries ({exc.strerror or exc})") from None
    if not queries:
        raise UsageError(f"{path}: no queries (one per line)")
    return queries


def tui_measurer(enabled: bool) -> Any:
    """The app measurement, imported only when it runs: it pulls in Textual and the whole UI
    (~20 MB), which must not count in the engine's peak RSS, read before the app starts."""
    if not enabled:
        return None

    def measure(setup: BenchSetup, queries: Sequence[str]) -> dict[str, Any]:
        from memtui.bench.tui import measure_tui

        return measure_tui(setup, queries)

    return measure


def latency(figures: dict[str, float]) -> str:
    return f"p50 {figures['p50']:>8.3f} ms   p95 {figures['p95']:>8.3f} ms"


def command_row(commands: dict[str, Any]) -> str:
    """`memtui rank` as whole processes, cold and warm, beside the floor and grep -ril."""
    cold, warm, grep = commands["rank_cold"], commands["rank_warm"], commands["grep_ril"]
    beside = f"   python + numpy alone {commands['imports_floor']['wall_ms']:.0f} ms"
    beside += f"   grep -ril {grep['wall_ms']:.0f} ms" if grep else ""
    return (
        f"  {'rank as a process, cold / warm':<32}{cold['wall_ms']:>10.0f} ms"
        f" / {warm['wall_ms']:.0f} ms   (CPU {cold['cpu_ms']:.0f} / {warm['cpu_ms']:.0f} ms,"
        f" median of {commands['runs']}){beside}"
    )


def human_report(report: dict[str, Any]) -> str:
    corpus = (
        "synthetic corpus" if report["corpus"] == "synthetic" else one_line(report["corpus"], 200)
    )
    rows = [
        f"memtui bench · {corpus} · {plural(report['entries'], 'entry', 'entries')} in "
        f"{plural(report['files'], 'file')}"
        f" · today {report['today']}",
        "",
        f"  {'load (read + parse + index)':<32}{report['load_ms']:>10.1f} ms",
        f"  {'peak RSS (engine, no UI)':<32}{report['rss_mb']:>10.1f} MB",
        f"  {'rerank per keystroke':<32}{latency(report['rerank_ms'])}"
        f"   max {report['rerank_ms']['max']:.3f} ms"
        f"   (on CPU p95 {report['rerank_cpu_ms']['p95']:.3f} ms;"
        f" {plural(report['keystrokes'], 'keystroke')},"
        f" {plural(len(report['queries']), 'query', 'queries')})",
        f"  {'naive scan (seeds)':<32}{latency(report['baselines']['naive'])}"
        f"   memtui {report['speedup_vs_naive']}× faster at p95",
        f"  {'SQLite FTS5 prefix + bm25':<32}{latency(report['baselines']['fts5'])}"
        f"   memtui {report['speedup_vs_fts5']}× faster at p95",
    ]
    if report["update_ms"] is not None:
        rows.append(
            f"  {'one-file update':<32}median {report['update_ms']:.3f} ms"
            f"   max {report['update_ms_max']:.3f} ms   ({report['update_note']})"
        )
    rows.append(f"  {'memory health (every check)':<32}{report['health_ms']:>10.1f} ms")
    commands = report.get("commands")
    if commands:
        rows.append(command_row(commands))
    tui = report.get("tui")
    if tui:
        if tui.get("keystroke_ms"):
            rows.append(f"  {'app keystroke → repaint':<32}{latency(tui['keystroke_ms'])}")
        startup = tui.get("startup")
        if startup:
            rows.append(
                f"  {'app first results, cold / warm':<32}"
                f"{startup['cold_first_results_ms']:>10.1f} ms"
                f" / {startup['warm_first_results_ms']:.1f} ms"
            )
            rows.append(
                f"  {'app first word, cold / warm':<32}"
                f"{startup['cold_first_word_ms']:>10.1f} ms"
                f" / {startup['warm_first_word_ms']:.1f} ms"
                f"   (cache {startup['cache_mb']:.1f} MB)"
            )
            rows.append(
                f"  {'app peak RSS, cold / warm':<32}"
                f"{startup['cold_peak_rss_mb']:>10.1f} MB"
                f" / {startup['warm_peak_rss_mb']:.1f} MB   (typing included)"
            )
        if tui.get("note"):
            rows.append(f"  {'app note':<32}{tui['note']}")
    load_average = report["machine"]["load_average_1m_at_start"]
    if load_average is not None:
        rows.append(
            f"  {'machine':<32}{report['machine']['cpus']} CPUs,"
            f" load average {load_average} at start (wall-clock figures include contention)"
        )
    budgets = report["budgets"]
    rows += ["", f"  budgets ({budgets['tier_entries']:,}-entry tier)"]
    if "note" in budgets:
        rows.append(f"    note: {budgets['note']}")
    for name, check in budgets.items():
        if isinstance(check, dict):
            verdict = "n/a" if not check["applies"] else "pass" if check["pass"] else "FAIL"
            rows.append(
                f"    {verdict:<5} {name:<24} {check['value']:>10} {check['rule']} {check['limit']}"
            )
    return "\n".join(rows)
