"""The ``tapeviz`` command: the app by default, and headless subcommands.

``tapeviz`` opens the app on the seed quadratic; ``tapeviz FILE.tapeviz`` opens a session;
``tapeviz --preset NAME`` loads a preset; ``tapeviz presets`` lists them;
``tapeviz grad "x**3" --at x=3 --order 2`` prints the derivatives without a window;
``tapeviz export --preset rosenbrock-race --gif out.gif`` renders files without a window.

No command prints a traceback: bad input (a session file that does not validate, an output
that cannot be written, an unexpected failure) is one line on stderr and a non-zero exit
status. ``TAPEVIZ_DEBUG=1`` lets an unexpected exception through with its traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

DEFAULT_PRESET = "quadratic"
SUBCOMMANDS = (["presets"], ["grad"], ["export"])


def fail(prog: str, error: object, status: int = 2) -> int:
    """Print ``prog: error`` as one line on stderr; return ``status``."""
    print(f"{prog}: {' '.join(str(error).split()) or type(error).__name__}", file=sys.stderr)
    return status


def _parse_at(items: Sequence[str]) -> list:
    from tapeviz.models.values import parse_value
    from tapeviz.sandbox import VariableSpec

    specs = []
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--at expects NAME=VALUE, got {item!r}")
        if any(s.name == name.strip() for s in specs):
            raise ValueError(f"{name.strip()} is given twice")
        specs.append(VariableSpec(name.strip(), parse_value(value), "trainable", "float64"))
    return specs


def grad(expression: str, at: Sequence[str], order: int, out: TextIO | None = None) -> int:
    """Print f and its derivatives up to ``order`` (one variable: d^k f/dx^k; several: ∇f)."""
    from tapeviz.models.kernel import derivatives_in_worker

    try:  # in a worker process, like every evaluation of user text
        lines = derivatives_in_worker(expression, _parse_at(at), order)
    except ValueError as exc:
        return fail("tapeviz grad", exc)
    for line in lines:
        print(line, file=out or sys.stdout)
    return 0


def list_presets(out: TextIO | None = None) -> int:
    """Print every preset by group."""
    from tapeviz.models.session.presets import PRESETS

    for group, names in PRESETS.groups().items():
        print(group, file=out or sys.stdout)
        for name in names:
            print(f"  {name:40s} {PRESETS[name].title}", file=out or sys.stdout)
    return 0


def _positive(text: str) -> int:
    """An argparse type: a whole number above zero."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a whole number above 0, got {text!r}")
    return value


def export_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tapeviz export``."""
    p = argparse.ArgumentParser(
        prog="tapeviz export",
        description="Render a preset or a session to files without opening a window. "
        "Optimization sessions export the animation, the plots and the histories; scripts "
        "whose loop records a tape per step export the same from the loop's timeline; every "
        "session exports its computational graph.",
        epilog="example: tapeviz export --preset rosenbrock-race --gif race.gif --csv race.csv",
    )
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", help="a .tapeviz session file")
    source.add_argument("--preset", help="a preset name (see 'tapeviz presets')")
    files = p.add_argument_group("outputs (at least one)")
    files.add_argument("--gif", metavar="PATH", help="the descent (or loop) animation as GIF")
    files.add_argument("--mp4", metavar="PATH", help="the animation as MP4 (H.264)")
    files.add_argument("--png", metavar="PATH", help="the optimization (or loop) plots as PNG")
    files.add_argument("--svg", metavar="PATH", help="the plots as SVG")
    files.add_argument("--csv", metavar="PATH", help="every run's history (or the loop's "
                       "per-step series) as CSV")  # fmt: skip
    files.add_argument("--graph-png", metavar="PATH", help="the computational graph as PNG")
    files.add_argument("--graph-svg", metavar="PATH", help="the computational graph as SVG")
    files.add_argument("--dot", metavar="PATH", help="the computational graph as graphviz DOT")
    p.add_argument("--step", type=int, help="the step shown in PNG/SVG and graphs (default: last)")
    p.add_argument("--frames", type=_positive, help="frames in the animation (default: GIF 80, "
                   "MP4 120)")  # fmt: skip
    p.add_argument("--width", type=_positive, help="animation width in pixels")
    p.add_argument("--loop", type=_positive, default=1,
                   help="which loop of a script with several (default: 1)")  # fmt: skip
    return p


def export(args: Sequence[str]) -> int:
    """``tapeviz export``: make the requested files; 2 with a message if it cannot."""
    from pathlib import Path

    from tapeviz.models.session import file as sessions
    from tapeviz.models.session.presets import PRESETS

    p = export_parser()
    ns = p.parse_args(args)
    kinds = ("gif", "mp4", "png", "svg", "csv", "graph_png", "graph_svg", "dot")
    outputs = {k: Path(getattr(ns, k)) for k in kinds if getattr(ns, k)}
    if not outputs:
        p.error("name at least one output, e.g. --gif out.gif")
    try:
        if ns.preset is not None:
            if ns.preset not in PRESETS:
                p.error(f"no preset {ns.preset!r}; 'tapeviz presets' lists them")
            session = PRESETS[ns.preset]
        else:
            session = sessions.load(ns.file)
    except sessions.SessionError as exc:
        return fail("tapeviz export", exc)
    from tapeviz.ui.headless import ExportError, ExportRequest, run_export

    request = ExportRequest(session, outputs, ns.step, ns.frames, ns.width, ns.loop)
    try:
        run_export(request)
    except (ExportError, OSError, ValueError, ArithmeticError) as exc:
        return fail("tapeviz export", exc)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``tapeviz`` command."""
    parser = argparse.ArgumentParser(
        prog="tapeviz",
        description="Make automatic differentiation and optimization visible.",
        epilog="subcommands: 'tapeviz presets', 'tapeviz grad EXPR --at x=3 --order 2', "
        "'tapeviz export --preset NAME --gif out.gif' (each has --help)",
    )
    parser.add_argument("file", nargs="?", help="a .tapeviz session to open")
    parser.add_argument("--preset", help="open this preset (see 'tapeviz presets')")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``tapeviz`` and ``python -m tapeviz``: never a traceback (see above)."""
    args = list(sys.argv[1:] if argv is None else argv)
    prog = " ".join(["tapeviz", *args[:1]]) if args[:1] in SUBCOMMANDS else "tapeviz"
    try:
        return _main(args)
    except KeyboardInterrupt:
        return fail(prog, "interrupted", 130)
    except Exception as exc:  # a bug or an input no check foresaw: one line, not a traceback
        if os.environ.get("TAPEVIZ_DEBUG"):
            raise
        return fail(prog, f"unexpected error ({type(exc).__name__}: {exc})", 1)


def _main(args: list[str]) -> int:
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
        p.add_argument("--at", nargs="+", action="extend", default=[], metavar="NAME=VALUE",
                       help="the point: --at x=1 y=2, or --at x=1 --at y=2")  # fmt: skip
        p.add_argument("--order", type=int, default=1, choices=range(1, 6))
        ns = p.parse_args(args[1:])
        return grad(ns.expression, ns.at, ns.order)
    if args[:1] == ["export"]:
        return export(args[1:])
    ns = build_parser().parse_args(args)
    from tapeviz.ui.app import run_app

    return run_app(session_file=ns.file, preset=ns.preset or (None if ns.file else DEFAULT_PRESET))
