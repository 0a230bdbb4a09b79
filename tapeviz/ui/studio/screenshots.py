"""Render the studio's README images offscreen: ``python -m tapeviz.ui.studio.screenshots [DIR]``.

``studio_rosenbrock_race.png``: the Rosenbrock race preset at step 1,200 (momentum has
arrived, Adam is close, GD and RMSprop still crawl), presenter-size fonts.
``studio_rosenbrock_race.gif``: the same race from step 0 to 2,000 in 80 frames, 800 px wide.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from tapeviz.models.descent.demos import studio_presets
from tapeviz.ui.studio.export import render_image
from tapeviz.ui.studio.studio import OptimizationStudio

SIZE = (1600, 900)
STEP = 1200


def _wait(app: QApplication, done: object, timeout: float = 60.0) -> None:
    t0 = time.perf_counter()
    while not done() and time.perf_counter() - t0 < timeout:  # type: ignore[operator]
        app.processEvents()
        time.sleep(0.005)
    if not done():  # type: ignore[operator]
        raise RuntimeError("the studio did not finish in time")


def race_studio(app: QApplication) -> OptimizationStudio:
    """The studio showing the Rosenbrock race, computed and laid out."""
    preset = studio_presets()["rosenbrock-race"]
    studio = OptimizationStudio()
    studio.resize(*SIZE)
    studio.set_font_scale(1.3)
    studio.show()
    studio.set_config(preset.config)
    studio.set_problem(preset.problem)
    _wait(app, lambda: studio.race is not None)
    studio.plot_area.setSizes([int(SIZE[0] * 0.5), int(SIZE[0] * 0.32)])
    app.processEvents()
    studio.set_step(0)
    return studio


def main(argv: list[str] | None = None) -> int:
    """Write both images into the directory given (default ``assets/screenshots``)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "assets/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    studio = race_studio(app)
    studio.set_step(STEP)
    app.processEvents()
    png = out / "studio_rosenbrock_race.png"
    render_image(studio, 1.0).save(str(png), "PNG")
    print(png)
    gif = out / "studio_rosenbrock_race.gif"
    exporter = studio.export("gif", gif, frames=80, width=800)
    _wait(app, lambda: exporter.index >= len(exporter.steps) and not exporter.timer.isActive())
    print(gif)
    studio.shutdown()
    studio.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
