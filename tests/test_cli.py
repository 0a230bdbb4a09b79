"""The ``tapeviz`` command: headless subcommands print results; the GUI path validates first."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tapeviz import cli


def tapeviz(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "tapeviz", *args], capture_output=True,
                          text=True, timeout=120, env=env, check=False)  # fmt: skip


def test_grad_prints_the_derivatives() -> None:
    done = tapeviz("grad", "x**3", "--at", "x=3", "--order", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["f = 27", "df/dx = 27", "d2f/dx2 = 18"]


def test_grad_of_several_variables(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["grad", "x*y + sin(x)", "--at", "x=0", "y=2"]) == 0
    assert capsys.readouterr().out.splitlines() == ["f = 0", "df/dx = 3", "df/dy = 0"]


def test_grad_takes_one_at_per_variable_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["grad", "x*y + sin(x)", "--at", "x=0", "--at", "y=2"]) == 0
    assert capsys.readouterr().out.splitlines() == ["f = 0", "df/dx = 3", "df/dy = 0"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["grad", "x**", "--at", "x=1"], "line 1"),
        (["grad", "x*y", "--at", "x=1"], "give a value for y"),
        (["grad", "x*y", "--at", "x=1", "y=2", "--order", "2"], "one variable"),
        (["grad", "x*y", "--at", "x=1", "y=2", "--at", "x=3"], "x is given twice"),
        (["grad", "x*y", "--at", "x", "y=2"], "--at expects NAME=VALUE, got 'x'"),
        (["grad", "__import__('os')", "--at", "x=1"], "tapeviz grad:"),
    ],
)
def test_grad_errors_are_one_clear_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_presets_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    from tapeviz.models.session.presets import PRESETS

    assert cli.main(["presets"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in PRESETS)


def test_help_of_each_command() -> None:
    for args in (["--help"], ["grad", "--help"], ["presets", "--help"], ["export", "--help"]):
        done = tapeviz(*args)
        assert done.returncode == 0 and "usage: tapeviz" in done.stdout


def test_unknown_preset_is_refused_before_a_window_opens() -> None:
    done = tapeviz("--preset", "no-such-preset")
    assert done.returncode == 2 and "tapeviz presets" in done.stderr


def bad_session(folder: Path, value: object, dtype: str) -> Path:
    path = folder / "bad.tapeviz"
    row = {"name": "x", "value": value, "kind": "trainable", "dtype": dtype}
    doc = {"format": "tapeviz-session", "version": 1, "source": "x * 2", "variables": [row]}
    path.write_text(json.dumps(doc), "utf-8")
    return path


@pytest.mark.parametrize(
    ("value", "dtype", "message"),
    [
        ([[1, 2], [3]], "float32", "not a rectangular array"),
        (2**40, "int32", "outside the int32 range"),
        (float("nan"), "int32", "nan is not a whole number"),
        ([1.0, float("inf")], "int32", "inf is not a whole number"),
        (1e39, "float32", "beyond the float32 range"),
    ],
)
def test_export_of_a_bad_session_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: object, dtype: str, message: str
) -> None:
    path = bad_session(tmp_path, value, dtype)
    assert cli.main(["export", str(path), "--csv", str(tmp_path / "out.csv")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tapeviz export: variables row 1 (x, ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out.csv").exists()


def test_export_of_a_bad_session_prints_no_traceback(tmp_path: Path) -> None:
    path = bad_session(tmp_path, float("inf"), "int32")  # was an OverflowError's traceback
    done = tapeviz("export", str(path), "--csv", str(tmp_path / "out.csv"))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "tapeviz export: variables row 1 (x, int32): inf is not a whole number, so it cannot be "
        "int32"
    ]


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes")
def test_export_of_a_pipe_or_a_folder_is_refused_at_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    os.mkfifo(tmp_path / "pipe.tapeviz")
    (tmp_path / "folder.tapeviz").mkdir()
    for name, kind in (("pipe.tapeviz", "a named pipe (FIFO)"), ("folder.tapeviz", "a folder")):
        assert cli.main(["export", str(tmp_path / name), "--dot", str(tmp_path / "g.dot")]) == 2
        assert capsys.readouterr().err == f"tapeviz export: {name} is {kind}, not a session file\n"


def test_an_unexpected_failure_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(args: object) -> int:
        raise OverflowError("cannot convert float infinity to integer")

    monkeypatch.setattr(cli, "export", broken)
    monkeypatch.delenv("TAPEVIZ_DEBUG", raising=False)
    assert cli.main(["export", "x.tapeviz", "--csv", "out.csv"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "tapeviz export: unexpected error (OverflowError: cannot convert float infinity to "
        "integer)\n"
    )
    monkeypatch.setenv("TAPEVIZ_DEBUG", "1")  # a developer asks for the traceback
    with pytest.raises(OverflowError):
        cli.main(["export", "x.tapeviz", "--csv", "out.csv"])
