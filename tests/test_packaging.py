"""What ``pip install .`` ships: every package of the source tree (CI installs it that way)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_directory_is_listed_in_pyproject() -> None:
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    packages = set(listed["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "tapeviz").rglob("__init__.py")
    }
    missing = sorted(found - packages)
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {missing}"
