"""Sandbox overhead benchmark: compiled expressions and sandboxed seed scripts vs plain Python.

Run from the repository root::

    python benchmarks/bench_sandbox.py          # full run (~1 min)
    python benchmarks/bench_sandbox.py --quick  # smoke run for tests/CI (a few seconds)

Both sides of every ratio are measured in the same process and run. Times are the best of N
repeats (``time.perf_counter``) with the garbage collector enabled, as users run: one run per
repeat, after a collection, as a lecturer runs a cell. The "warm ratio" column times as many
runs per repeat as fill 20 ms instead (caches warm); the fixed cost of a sandboxed run weighs
more there on the smallest cells. It is printed for information, without a target.

- E1: Rosenbrock ``(1-x)**2 + 100*(y-x**2)**2`` at x = -1.2, y = 1.0, recorded on a
  ``GradientTape`` and differentiated w.r.t. [x, y]; µs per evaluation. Compiled with
  ``tapeviz.sandbox.compile_expression`` (also the ``^`` spelling, which normalises to ``**``)
  vs the same expression written directly in Python against tapeviz. Target: ≤ 1.5x direct.
- S1: every seed block of ``assets/seeds`` (manifest ``seeds.json``) as a whole program: the
  sources of its ``after`` chain, then its own. ``tapeviz.sandbox.run`` vs plain Python
  (``compile`` + ``exec`` with ``tensorflow`` bound to ``tapeviz.tf``, stdout/stderr captured);
  both sides include parsing/compiling the text. Target: ≤ 3x plain Python for every block.
  The block whose manifest ``raises`` is set is skipped; --quick also skips the 10,000-epoch
  linear-regression blocks.

Each result is checked once before timing: a wrong gradient, a sandbox error, or sandbox output
that differs from plain Python's aborts with exit code 1 and prints both outputs.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import math
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from _common import best_of, calls_for, check  # benchmarks/_common.py, beside this script

import tapeviz as tv
import tapeviz.sandbox
import tapeviz.tf
from tapeviz.sandbox import Limits

SEEDS = Path(__file__).resolve().parents[1] / "assets" / "seeds"
ROSENBROCK = "(1-x)**2 + 100*(y-x**2)**2"
ROSENBROCK_CARET = "(1-x)^2 + 100*(y-x^2)^2"
LONG = {"003_2_1_linear_regression_raw", "003_2_1_linear_regression_normalized"}  # 10,000 epochs
LIMITS = Limits(wall_time=120)


def verdict(value: float, target: float) -> str:
    return "PASS" if value <= target else "MISS"


# --- E1: compiled expression vs direct Python -------------------------------------------------


def rosenbrock_direct(x: Any, y: Any) -> Any:
    return (1 - x) ** 2 + 100 * (y - x**2) ** 2


def evaluator(f: Callable[[Any, Any], Any]) -> Callable[[int], Any]:
    """``n`` record+gradient evaluations of ``f`` at the classic start point; returns the last."""
    x, y = tv.Variable(-1.2), tv.Variable(1.0)

    def evaluate(n: int) -> Any:
        for _ in range(n):
            with tv.GradientTape() as tape:
                v = f(x, y)
            grads = tape.gradient(v, [x, y])
        return v, grads

    return evaluate


def bench_expression(calls: int, reps: int) -> dict[str, float]:
    ce = tapeviz.sandbox.compile_expression(ROSENBROCK, ["x", "y"])
    ce_caret = tapeviz.sandbox.compile_expression(ROSENBROCK_CARET, ["x", "y"])
    print(f"\nE1 compiled sources: {ce.text!r} -> {ce.source!r}; "
          f"{ce_caret.text!r} -> {ce_caret.source!r}")  # fmt: skip
    check(ce.source == ce_caret.source, "E1: '^' does not normalise to the '**' source")
    runners = {
        "direct Python": evaluator(rosenbrock_direct),
        "compiled **": evaluator(lambda x, y: ce({"x": x, "y": y})),
        "compiled ^": evaluator(lambda x, y: ce_caret({"x": x, "y": y})),
    }
    ref_v, ref_g = runners["direct Python"](1)
    check(np.isclose(float(ref_v), 24.2, rtol=1e-6), f"E1 direct value {ref_v}")
    check(np.allclose([float(g) for g in ref_g], [-215.6, -88.0], rtol=1e-5), "E1 direct grads")
    for name, fn in runners.items():
        v, g = fn(1)
        same = float(v) == float(ref_v) and [float(a) for a in g] == [float(b) for b in ref_g]
        check(same, f"E1 {name}: value/gradients differ from direct Python")
    us = {n: best_of(lambda fn=fn: fn(calls), reps) / calls * 1e6 for n, fn in runners.items()}
    print(f"\n{'E1 Rosenbrock, record + gradient':<40}{'µs/eval':>10}{'ratio':>8}")
    for name, t in us.items():
        print(f"  {name:<38}{t:10.2f}{t / us['direct Python']:8.2f}")
    return us


# --- S1: seed scripts, sandbox vs plain Python ------------------------------------------------


def load_programs(quick: bool) -> dict[str, str]:
    """Each runnable cell's whole program: its dependency chain's sources, then its own."""
    cells = {c["name"]: c for c in json.loads((SEEDS / "seeds.json").read_text("utf-8"))["cells"]}

    def chain(name: str) -> list[str]:
        order: list[str] = []
        for dep in cells[name]["after"]:
            order.extend(d for d in chain(dep) if d not in order)
        return [*order, name]

    programs = {}
    for name, cell in cells.items():
        if cell["raises"] or (quick and name in LONG):
            continue
        sources = [(SEEDS / cells[n]["file"]).read_text("utf-8") for n in chain(name)]
        programs[name] = "\n".join(s if s.endswith("\n") else s + "\n" for s in sources)
    return programs


def run_plain(name: str, program: str) -> str:
    """Run ``program`` as plain Python (``tensorflow`` is ``tapeviz.tf``); return its output."""
    out = io.StringIO()
    namespace: dict[str, Any] = {"__name__": "__seed__"}
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        exec(compile(program, name, "exec"), namespace)
    return out.getvalue()


def run_sandbox(program: str) -> tapeviz.sandbox.RunResult:
    """Run ``program`` in the sandbox (stdout/stderr redirected too, for symmetry)."""
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        result = tapeviz.sandbox.run(program, limits=LIMITS)
    if sink.getvalue():
        result = dataclasses.replace(result, output="LEAKED TO STDOUT:" + sink.getvalue())
    return result


def bench_seeds(quick: bool, reps: int) -> list[tuple[str, float, float]]:
    rows = []
    print(f"\n{'S1 seed block (with its after-chain)':<42}{'plain ms':>10}{'sandbox ms':>12}"
          f"{'ratio':>8}{'reps':>6}{'warm ratio':>12}")  # fmt: skip
    for name, program in load_programs(quick).items():
        t0 = time.perf_counter()
        plain_out = run_plain(name, program)
        first = time.perf_counter() - t0
        result = run_sandbox(program)
        if result.error is not None or result.output != plain_out:
            print(f"\nBUG in {name}: sandbox error = {result.error!r}")
            print(f"--- plain Python output ---\n{plain_out}")
            print(f"--- sandbox output ---\n{result.output}")
            check(False, f"S1 {name}: sandbox run differs from plain Python")
        n = reps if first < 0.5 else min(reps, 3)  # long cells: fewer repeats

        def plain_run(p: str = program, nm: str = name) -> str:
            return run_plain(nm, p)

        def sandbox_run(p: str = program) -> object:
            return tapeviz.sandbox.run(p, limits=LIMITS)

        plain, sandbox = best_of(plain_run, n) * 1e3, best_of(sandbox_run, n) * 1e3
        calls = calls_for(first)  # warm: as many calls per round as fill 20 ms, both sides
        warm = best_of(sandbox_run, n, number=calls) / best_of(plain_run, n, number=calls)
        rows.append((name, plain, sandbox, warm))
        print(f"  {name:<40}{plain:10.2f}{sandbox:12.2f}{sandbox / plain:8.2f}{n:6d}{warm:12.2f}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short smoke run (< 20 s)")
    quick = parser.parse_args().quick
    reps = 3 if quick else 7
    calls = 200 if quick else 2000
    print(f"tapeviz {tv.__version__} | Python {platform.python_version()} | "
          f"numpy {np.__version__} | {platform.machine()}, {os.cpu_count()} CPUs")  # fmt: skip
    print(
        f"best of {reps}{' (--quick)' if quick else ''}; gc enabled; E1 {calls} evals per "
        "repeat; S1 cells whose first run takes > 0.5 s use at most 3 repeats"
    )
    saved = sys.modules.get("tensorflow")
    sys.modules["tensorflow"] = tapeviz.tf  # plain-Python side: `import tensorflow as tf`
    try:
        us = bench_expression(calls, reps)
        rows = bench_seeds(quick, reps)
    finally:
        if saved is None:
            sys.modules.pop("tensorflow", None)
        else:
            sys.modules["tensorflow"] = saved
    ratios = {name: sandbox / plain for name, plain, sandbox, _ in rows}
    warm = {name: w for name, _, _, w in rows}
    worst = max(ratios, key=ratios.__getitem__)
    geo = math.exp(sum(math.log(r) for r in ratios.values()) / len(ratios))
    over = sorted(n for n, r in ratios.items() if r > 3.0)
    skipped = " (--quick: 10,000-epoch cells skipped)" if quick else ""
    print(
        f"\nS1 worst ratio {ratios[worst]:.2f} ({worst}); geometric mean {geo:.2f} over "
        f"{len(ratios)} cells{skipped}; {len(over)} cells above 3x: {', '.join(over) or '-'}\n"
    )
    base = us["direct Python"]
    for name in ("compiled **", "compiled ^"):
        r = us[name] / base
        print(f"RESULT E1 {name:<12} {us[name]:.2f} µs/eval, direct {base:.2f}: ratio {r:.2f} "
              f"(target ≤ 1.50) {verdict(r, 1.5)}")  # fmt: skip
    print(f"RESULT S1 worst       sandbox/plain {ratios[worst]:.2f} ({worst}) "
          f"(target ≤ 3.00 for every cell) {verdict(ratios[worst], 3.0)}")  # fmt: skip
    print(f"RESULT S1 geomean     sandbox/plain {geo:.2f} over {len(ratios)} cells "
          f"(target ≤ 3.00) {verdict(geo, 3.0)}")  # fmt: skip
    hot = max(warm, key=warm.__getitem__)
    warm_geo = math.exp(sum(math.log(r) for r in warm.values()) / len(warm))
    print(f"RESULT S1 warm        worst {warm[hot]:.2f} ({hot}), geomean {warm_geo:.2f} "
          "(repeated runs, caches warm; no target: the verdicts above time one run, as a "
          "lecturer runs a cell)")  # fmt: skip


if __name__ == "__main__":
    main()
