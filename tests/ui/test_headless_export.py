"""``tapeviz export``: files rendered without a window decode, errors are one clear line."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import imageio.v2 as imageio
import pytest
from PySide6.QtGui import QImage

from tapeviz import cli
from tapeviz.models.graph.model import TOO_LARGE
from tapeviz.models.session.presets import PRESETS


def test_every_studio_output_of_a_preset(
    qapp: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = {k: tmp_path / f"q.{k}" for k in ("gif", "mp4", "png", "svg", "csv")}
    args = ["export", "--preset", "seed-quadratic-sgd", "--frames", "12", "--step", "20"]
    for kind, path in out.items():
        args += [f"--{kind}", str(path)]
    args += ["--graph-svg", str(tmp_path / "g.svg"), "--dot", str(tmp_path / "g.dot")]
    assert cli.main(args) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.count("wrote ") == 7
    assert len(imageio.mimread(out["gif"])) == 12
    reader = imageio.get_reader(out["mp4"])
    assert reader.get_meta_data()["duration"] == pytest.approx(12 / 30, abs=0.05)
    reader.close()
    image = QImage(str(out["png"]))
    assert image.width() > 800 and image.height() > 400
    assert ET.parse(out["svg"]).getroot().tag.endswith("svg")
    rows = list(csv.DictReader(out["csv"].open(encoding="utf-8")))
    assert len(rows) == 201  # steps 0…200 of the one run
    assert rows[-1]["x"].startswith("0.98241")
    dot = (tmp_path / "g.dot").read_text("utf-8")
    assert dot.startswith("digraph") and "0.3324" in dot  # x at step 20 is 0.332391977
    assert ET.parse(tmp_path / "g.svg").getroot().tag.endswith("svg")


def test_graph_of_a_plain_preset(qapp: object, tmp_path: Path) -> None:
    path = tmp_path / "quadratic.png"
    assert cli.main(["export", "--preset", "quadratic", "--graph-png", str(path)]) == 0
    assert QImage(str(path)).width() > 300


def test_a_session_file_is_exported(qapp: object, tmp_path: Path) -> None:
    session = tmp_path / "himmelblau.tapeviz"
    PRESETS["himmelblau"].save(session)
    path = tmp_path / "h.csv"
    assert cli.main(["export", str(session), "--csv", str(path)]) == 0
    header = path.read_text("utf-8").splitlines()[0]
    assert "x" in header and "loss" in header


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "quadratic", "--gif", "x.gif"], "needs an optimization session"),
        (["--preset", "nope", "--csv", "x.csv"], "tapeviz presets"),
        (["--preset", "rosenbrock"], "at least one output"),
        (["missing.tapeviz", "--csv", "x.csv"], "missing.tapeviz"),
    ],
)
def test_errors_are_one_clear_line(
    qapp: object, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list, message: str
) -> None:
    os.chdir(tmp_path)
    try:
        code = cli.main(["export", *args])
    except SystemExit as exc:  # argparse errors
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not list(tmp_path.glob("x.*"))


def test_the_console_command_renders_without_a_display(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
    path = tmp_path / "race.csv"
    args = ["export", "--preset", "rosenbrock-race", "--csv", str(path)]
    done = subprocess.run([sys.executable, "-m", "tapeviz", *args], capture_output=True,
                          text=True, timeout=300, env=env, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len(path.read_text("utf-8").splitlines()) > 2000


def test_unwritable_outputs_fail_with_a_message(
    qapp: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-dir"
    for flag, name in (("--png", "p.png"), ("--svg", "p.svg"), ("--graph-svg", "g.svg")):
        assert cli.main(["export", "--preset", "saddle", flag, str(missing / name)]) == 2
        err = capsys.readouterr().err
        assert "cannot write" in err and "Traceback" not in err


def test_a_tape_too_large_to_draw_is_exported_folded(qapp: object, tmp_path: Path) -> None:
    from tapeviz.models.session.file import Session

    source = ("x = tf.Variable(1.0)\nwith tf.GradientTape() as tape:\n    y = x\n"
              f"    for i in range({TOO_LARGE + 200}):\n        y = y * 1.0001\n")  # fmt: skip
    path = tmp_path / "big.tapeviz"
    Session(source="import tensorflow as tf\n" + source, mode="script").save(path)
    out = tmp_path / "big.svg"
    assert (
        cli.main(["export", str(path), "--graph-svg", str(out), "--dot", str(tmp_path / "b.dot")])
        == 0
    )
    assert ET.parse(out).getroot().tag.endswith("svg")
    assert (tmp_path / "b.dot").read_text("utf-8").count("->") < 1000  # folded, not all the ops


@pytest.mark.parametrize("flag", ["--width", "--frames"])
def test_sizes_must_be_positive(capsys: pytest.CaptureFixture[str], flag: str) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["export", "--preset", "saddle", "--gif", "x.gif", flag, "-5"])
    assert exc.value.code == 2 and "above 0" in capsys.readouterr().err
