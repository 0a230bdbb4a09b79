"""The ``tapeviz`` command: headless subcommands print results; the GUI path validates first."""

from __future__ import annotations

import os
import subprocess
import sys

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
