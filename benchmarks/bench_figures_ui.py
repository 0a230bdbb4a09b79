"""Big figures in the Plots tab, in the real window (offscreen): issue 32's B1 for figures.

Run from the repository root::

    python benchmarks/bench_figures_ui.py          # full run (~30 s)
    python benchmarks/bench_figures_ui.py --quick  # smoke run (one round)

It shares ``bench_ui.py``'s window, event loop and RESULT lines. Each figure is the UI thread's
longest block (ms; target ≤ 50 ms, as B1's) over a few rounds, the worst round reported:

- a script drawing 500 labelled lines in one axes, from Run until every line is drawn;
- that figure replaced by the next run's (a small plot): until the old one is gone;
- the presenter scale changed while the figure is shown: until it is drawn again at the new
  scale and the old drawing is gone.

Before issue 32's last rounds these were 1.2 s, 113-177 ms and 230-278 ms on this machine.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ui import RESULTS, Gaps, report, wait, window

from tapeviz.ui.turns import pending

LINES = (
    "import numpy as np\nimport matplotlib.pyplot as plt\nfor i in range(500):\n"
    "    plt.plot(np.arange(100), np.arange(100) * i, label=str(i))\nplt.legend()\n"
)
SMALL = "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\n"


def settled(w: object) -> None:
    """Until the run ended and no figure work waits for a turn."""
    wait(lambda: w._cancel is None, 120)  # type: ignore[attr-defined]
    wait(lambda: pending() == 0 and not w.plots.building, 120)  # type: ignore[attr-defined]
    wait(lambda: not any(p.canvas.building for p in w.plots.panels), 120)  # type: ignore[attr-defined]
    wait(lambda: pending() == 0, 120)
    wait(lambda: False, 0.2)


def ran(w: object, source: str) -> float:
    """Run ``source`` and wait until its figures are drawn; the longest block (ms)."""
    w.editor.setPlainText(source)  # type: ignore[attr-defined]
    wait(lambda: False, 0.3)
    with Gaps() as gaps:
        w.run_code()  # type: ignore[attr-defined]
        settled(w)
    return gaps.worst_ms


def main() -> int:
    """Print the three figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    rounds = 1 if parser.parse_args().quick else 3
    w = window()
    wait(lambda: False, 1.0)  # the worker warms up
    w.mode.setCurrentIndex(1)  # type: ignore[attr-defined]
    w.show_view("plots")  # type: ignore[attr-defined]
    drawn, replaced, scaled = [], [], []
    for _ in range(rounds):
        drawn.append(ran(w, LINES))
        with Gaps() as gaps:
            w.set_font_scale(1.5)  # type: ignore[attr-defined]
            settled(w)
        scaled.append(gaps.worst_ms)
        w.set_font_scale(1.0)  # type: ignore[attr-defined]
        settled(w)
        replaced.append(ran(w, SMALL))
    report("B1 longest UI-thread block, 500 labelled lines drawn in one axes", max(drawn), "ms", 50)
    report("B1 longest UI-thread block, that figure replaced by the next run's", max(replaced),
           "ms", 50)  # fmt: skip
    report("B1 longest UI-thread block, that figure drawn again at presenter scale 1.5",
           max(scaled), "ms", 50)  # fmt: skip
    w.close()  # type: ignore[attr-defined]
    print(f"{sum('PASS' in r for r in RESULTS)} of {len(RESULTS)} figures within target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
