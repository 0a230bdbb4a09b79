"""The ``tapeviz`` command: the app by default, and headless subcommands.

``tapeviz`` opens the app on the seed quadratic; ``tapeviz FILE.tapeviz`` opens a session;
``tapeviz --preset NAME`` loads a preset; ``tapeviz presets`` lists them;
``tapeviz grad "x**3" --at x=3 --order 2`` prints the derivatives without a window.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

DEFAULT_PRESET = "quadratic"


def _parse_at(items: Sequence[str]) -> list:
    from tapeviz.models.values import parse_value
    from tapeviz.sandbox import VariableSpec

    specs = []
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"tapeviz grad: --at expects NAME=VALUE, got {item!r}")
        try:
            specs.append(VariableSpec(name.strip(), parse_value(value), "trainable", "float64"))
        except ValueError as exc:
            raise SystemExit(f"tapeviz grad: {exc}") from None
    return specs


def grad(expression: str, at: Sequence[str], order: int, out: TextIO | None = None) -> int:
    """Print f and its derivatives up to ``order`` (one variable: d^k f/dx^k; several: ∇f)."""
    from tapeviz.models.derivatives import derivatives

    specs = _parse_at(at)
    try:
        lines = derivatives(expression, specs, order)
    except ValueError as exc:
        print(f"tapeviz grad: {exc}", file=sys.stderr)
        return 2
    for line in lines:
        print(line, file=out or sys.stdout)
    return 0


def list_presets(out: TextIO | None = None) -> int:
    """Print every preset by group."""
    from tapeviz.models.presets import PRESETS

    for group, names in PRESETS.groups().items():
        print(group, file=out or sys.stdout)
        for name in names:
            print(f"  {name:40s} {PRESETS[name].title}", file=out or sys.stdout)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``tapeviz`` command."""
    parser = argparse.ArgumentParser(
        prog="tapeviz",
        description="Make automatic differentiation and optimization visible.",
        epilog="subcommands: 'tapeviz presets', 'tapeviz grad EXPR --at x=3 --order 2' "
        "(each has --help)",
    )
    parser.add_argument("file", nargs="?", help="a .tapeviz session to open")
    parser.add_argument("--preset", help="open this preset (see 'tapeviz presets')")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``tapeviz`` and ``python -m tapeviz``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["presets"]:
        argparse.ArgumentParser(prog="tapeviz presets", description="List the presets.")\
            .parse_args(args[1:])  # fmt: skip
        return list_presets()
    if args[:1] == ["grad"]:
        p = argparse.ArgumentParser(
            prog="tapeviz grad",
            description="Print f and its derivatives at a point, e.g. "
            "tapeviz grad 'x**3' --at x=3 --order 2  ->  27, 27, 18.",
        )
        p.add_argument("expression")
        p.add_argument("--at", nargs="+", default=[], metavar="NAME=VALUE")
        p.add_argument("--order", type=int, default=1, choices=range(1, 6))
        ns = p.parse_args(args[1:])
        return grad(ns.expression, ns.at, ns.order)
    ns = build_parser().parse_args(args)
    from tapeviz.ui.app import run_app

    return run_app(session_file=ns.file, preset=ns.preset or (None if ns.file else DEFAULT_PRESET))
