"""``from pathlib import Path``: the course's model-saving cell, in the run's own folder.

pathlib's documented behaviour: ``/`` joins, ``name``/``stem``/``suffix``/``suffixes``/
``parent``/``parts``, ``with_suffix``, ``mkdir(parents=True, exist_ok=True)``, ``exists``,
``iterdir``, ``glob``, ``stat().st_size``; nothing reaches the real file system.
"""

from __future__ import annotations

from collections.abc import Callable

from tapeviz.sandbox import run

PREFIX = "import torch\nfrom torch import nn\nfrom pathlib import Path\n"  # (every script)
Lines = Callable[[str], list[str]]  # (the lines_of fixture: tests/conftest.py)


def test_the_courses_save_and_load_cell(lines_of: Lines) -> None:
    assert lines_of(
        PREFIX + 'MODEL_PATH = Path("models")\nMODEL_PATH.mkdir(parents=True, exist_ok=True)\n'
        'MODEL_SAVE_PATH = MODEL_PATH / "01_pytorch_workflow_model_0.pth"\n'
        'print(f"Saving model to: {MODEL_SAVE_PATH}")\n'
        "m = nn.Linear(1, 1)\ntorch.save(obj=m.state_dict(), f=MODEL_SAVE_PATH)\n"
        "back = nn.Linear(1, 1)\nback.load_state_dict(torch.load(f=MODEL_SAVE_PATH))\n"
        "print(back.weight.item() == m.weight.item(), MODEL_SAVE_PATH.stat().st_size > 0)\n"
        'print(list(MODEL_PATH.iterdir()) == list(MODEL_PATH.glob("*.pth")))'
    ) == ["Saving model to: models/01_pytorch_workflow_model_0.pth", "True True", "True"]


def test_pure_path_parts_as_pathlib_documents(lines_of: Lines) -> None:
    assert lines_of(
        PREFIX + 'p = Path("data") / "set" / "model.tar.gz"\n'
        "print(repr(p), p.name, p.stem, p.suffix, p.suffixes)\n"
        'print(p.parent, p.parts, p.with_suffix(".pt"), p.with_name("x.pth"))\n'
        'print(Path("a") == Path("a/"), "b" / Path("c"), Path("a").joinpath("b", "c"))'
    ) == [
        "PosixPath('data/set/model.tar.gz') model.tar.gz model.tar .gz ['.tar', '.gz']",
        "data/set ('data', 'set', 'model.tar.gz') data/set/model.tar.pt data/set/x.pth",
        "True b/c a/b/c",
    ]


def test_the_folder_is_the_runs_own_and_mkdir_follows_pathlib(
    lines_of: Lines,
) -> None:
    assert lines_of(
        PREFIX + 'print(Path("/etc/passwd").exists(), Path("x").is_dir())\n'
        'Path("d").mkdir()\nprint(Path("d").is_dir())\n'
        "try:\n    Path('d').mkdir()\nexcept FileExistsError:\n    print('exists')\n"
        "try:\n    Path('e/f').mkdir()\nexcept FileNotFoundError:\n    print('no parent')\n"
        'Path("e/f").mkdir(parents=True)\nprint(sorted(str(p) for p in Path(".").iterdir()))'
    ) == ["False False", "True", "exists", "no parent", "['d', 'e']"]
    r = run('from pathlib import Path\nPath("a").read_text()')
    assert r.error is not None
