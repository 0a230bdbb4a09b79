"""The preset registry: every seed code block, the micrograd examples and the optimizer demos.

Presets are session documents (see :mod:`tapeviz.models.session.file`) stored as JSON in
``assets/presets/``. The seed presets are generated from ``assets/seeds`` with
``python -m tapeviz.models.session.presets`` and a test keeps them in sync.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from tapeviz.models.resources import assets_dir
from tapeviz.models.session import file as sessions
from tapeviz.models.session.file import Session
from tapeviz.models.session.safe_io import atomic_write_text

GROUPS = (
    "Start here",
    "Seed: GradientTape basics",
    "Seed: gradients and optimizers",
    "micrograd (Karpathy)",
    "PyTorch",
    "Optimizer surfaces",
)


class _Registry(Mapping[str, Session]):
    """Ordered name -> Session, read from disk on first use (groups in ``GROUPS`` order)."""

    def __init__(self) -> None:
        self._items: dict[str, Session] | None = None

    def _load(self) -> dict[str, Session]:
        if self._items is None:
            found = [sessions.load(p) for p in sorted((assets_dir() / "presets").glob("*.json"))]
            rank = {g: i for i, g in enumerate(GROUPS)}
            found.sort(key=lambda s: (rank.get(s.group, len(GROUPS)), s.group))
            self._items = {s.name: s for s in found}
        return self._items

    def __getitem__(self, name: str) -> Session:
        return self._load()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def groups(self) -> dict[str, list[str]]:
        """Preset names by group, in menu order."""
        out: dict[str, list[str]] = {}
        for name, preset in self._load().items():
            out.setdefault(preset.group, []).append(name)
        return out


PRESETS = _Registry()


def seed_presets(seeds: Path | None = None) -> list[Session]:
    """One script preset per seed code block (with the blocks it runs after, as in the notebook)."""
    seeds = seeds or assets_dir() / "seeds"
    manifest = json.loads((seeds / "seeds.json").read_text("utf-8"))
    cells = {c["name"]: c for c in manifest["cells"]}
    out = []
    for cell in manifest["cells"]:
        if not cell["name"][:1].isdigit() or cell["name"].endswith("_import"):
            continue
        chain = [*cell["after"], cell["name"]]
        source = "\n".join((seeds / cells[n]["file"]).read_text("utf-8") for n in chain)
        tutorial = "Seed: GradientTape basics" if cell["name"].startswith("000") else GROUPS[2]
        out.append(
            Session(
                source=source,
                mode="script",
                view="stepper" if "gradient(" in source and "optimizers" not in source else "graph",
                name=("basics-" if cell["name"].startswith("000") else "training-")
                + cell["name"].split("_", 1)[1].replace("_", "-"),
                title=f"{cell['section']} {cell['title']}",
                group=tutorial,
                notes=_notes(cell["output"], cell.get("raises"), cell.get("value")),
            )
        )
    return out


def _notes(output: str, raises: str | None, value: float | None = None) -> str:
    text = output.strip()
    if raises:
        return f"TensorFlow raises {raises} here: that error is the lesson."
    if not text and value is not None:  # (the cell ends in dy_dx.numpy(): a notebook shows 6.0)
        return (
            "TensorFlow prints nothing here; the last line's value is the Out line under the "
            "Output pane, as a notebook shows it."
        )
    if not text:
        return "TensorFlow prints nothing here: look at the graph and the variables."
    lines = text.splitlines()
    shown = "\n".join(lines[:6]) + ("\n..." if len(lines) > 6 else "")
    return f"What TensorFlow prints:\n{shown}"


def write_seed_presets(folder: Path | None = None) -> list[Path]:
    """(Re)write the seed presets' JSON files; returns the paths written."""
    folder = folder or assets_dir() / "presets"
    paths = []
    for preset in seed_presets():
        path = folder / f"{preset.name}.json"
        atomic_write_text(path, preset.dumps())
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write_seed_presets():
        sys.stdout.write(f"{written}\n")
