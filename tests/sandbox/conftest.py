"""Checks shared by the sandbox's escape and limit tests, and a warm worker pool per module."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from tapeviz.sandbox import Limits, run
from tapeviz.sandbox.process.client import Pool

EscapeCheck = Callable[[str, str, Sequence[str]], None]
SizeCheck = Callable[[str, Limits, str], None]


@pytest.fixture
def escape_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> EscapeCheck:
    """Run a payload and check it ended in an allowed error without touching files or env."""

    def check(name: str, payload: str, allowed: Sequence[str]) -> None:
        cwd = tmp_path / "cwd"
        cwd.mkdir()
        sentinel = tmp_path / "pwned"
        monkeypatch.chdir(cwd)
        env_before = dict(os.environ)

        result = run(payload.replace("SENTINEL", str(sentinel)), limits=Limits(wall_time=2.0))

        assert result.error is not None, (
            f"{name}: the payload ran to the end: value={result.value!r:.300} "
            f"output={result.output!r:.300}"
        )
        assert result.error.kind in allowed, result.error
        assert os.environ.get("HOME", "\0") not in result.output
        assert list(cwd.iterdir()) == [], f"{name} left files in the working directory"
        assert not sentinel.exists(), f"{name} created {sentinel}"
        assert not Path(str(sentinel) + ".npy").exists()
        assert dict(os.environ) == env_before, f"{name} changed os.environ"

        healthy = run("x = [1, 2, 3]\nsum(x) * 2")
        assert healthy.error is None, healthy.error
        assert healthy.value == 12

    return check


@pytest.fixture
def size_limit_holds() -> SizeCheck:
    """Run a value-amplifying script and check a limit (or a refusal) stopped it."""

    def check(source: str, limits: Limits, name: str) -> None:
        result = run(source, limits=limits)
        assert result.error is not None, "the value was built past the limit without an error"
        assert result.error.kind in ("limit", "refused"), result.error
        if result.error.kind == "limit":
            assert name in (result.error.limit or "") or name in result.error.message

    return check


@pytest.fixture(scope="module")
def pool() -> Iterator[Pool]:
    """A warm worker pool of the test module's own (shut down after its tests)."""
    p = Pool()
    p.warm()
    yield p
    p.shutdown()
