"""``tapeviz export`` of a script session: the loop's timeline as GIF, MP4, PNG, SVG and CSV."""

from __future__ import annotations

import csv
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import imageio.v2 as imageio
import pytest
from PySide6.QtGui import QImage

from tapeviz import cli
from tapeviz.models.session.presets import PRESETS


def test_a_scripts_loop_exports_like_the_studio(
    qapp: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = {k: tmp_path / f"loop.{k}" for k in ("gif", "mp4", "png", "svg", "csv")}
    args = ["export", "--preset", "training-2-1-sgd-apply-gradients", "--frames", "8"]
    for kind, path in out.items():
        args += [f"--{kind}", str(path)]
    args += ["--dot", str(tmp_path / "g.dot"), "--step", "20"]
    assert cli.main(args) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.count("wrote ") == 6
    assert len(imageio.mimread(out["gif"])) == 8
    reader = imageio.get_reader(out["mp4"])
    assert reader.get_meta_data()["duration"] == pytest.approx(8 / 30, abs=0.05)
    reader.close()
    assert QImage(str(out["png"])).width() > 1000
    assert ET.parse(out["svg"]).getroot().tag.endswith("svg")
    rows = list(csv.reader(out["csv"].open(encoding="utf-8")))
    assert rows[0] == ["step", "y", "grad_norm", "x"] and len(rows) == 202
    assert rows[21][0] == "20" and rows[21][3] == "0.332391977"  # TensorFlow's step 20
    assert rows[-1] == ["200", "", "", "0.98241204"]  # and its final x
    dot = (tmp_path / "g.dot").read_text("utf-8")
    assert "x\\n= 0.3324" in dot  # the graph of step 20


def test_the_second_loop_of_a_session_file(qapp: object, tmp_path: Path) -> None:
    session = tmp_path / "two.tapeviz"
    PRESETS["training-2-2-minimize"].save(session)
    path = tmp_path / "second.csv"
    assert cli.main(["export", str(session), "--loop", "2", "--csv", str(path)]) == 0
    rows = path.read_text("utf-8").splitlines()
    assert len(rows) == 1 + 1001 and rows[-1] == "1000,,,0.999998569"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "basics-2-2-4-persistent", "--csv", "x.csv"], "a script whose loop"),
        (["--preset", "training-2-1-sgd-apply-gradients", "--loop", "3", "--csv", "x.csv"],
         "--loop 3: the script has 1 loop(s)"),
    ],
)  # fmt: skip
def test_errors_for_scripts_without_that_loop(
    qapp: object, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list, message: str
) -> None:
    os.chdir(tmp_path)
    assert cli.main(["export", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not list(tmp_path.glob("x.*"))
