"""The run's own folder: in memory only, paths kept inside it, a size limit, emptied per run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.engine.guard import ResourceLimitError
from tapeviz.tf import run_files
from tapeviz.tf.run_state import fresh_run_state


@pytest.fixture(autouse=True)
def own_folder() -> Iterator[None]:
    with fresh_run_state():
        yield


def test_paths_stay_inside_the_folder() -> None:
    assert run_files.normpath("model.keras") == "/model.keras"
    assert run_files.normpath("./a/../b") == "/b"
    assert run_files.normpath("../../../etc/passwd") == "/etc/passwd"
    assert run_files.normpath("/tmp/x") == "/tmp/x"
    run_files.write("../../m.bin", "part", {})
    assert run_files.isfile("m.bin") and not run_files.exists("/etc/passwd")


def test_nothing_reaches_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.save("m.keras")
    model.save_weights(str(tmp_path / "w.weights.h5"))  # an absolute path: still the folder's
    tf.train.Checkpoint(model=model).save("ckpts/ckpt")
    tf.saved_model.save(tf.Module(), "sm")
    assert list(tmp_path.iterdir()) == []
    assert run_files.isfile(str(tmp_path / "w.weights.h5"))


def test_files_are_copies_of_the_data() -> None:
    arr = np.ones(3)
    run_files.write("d", "part", {"k": [1, 2]}, {"a": arr})
    arr[0] = 5.0
    found = run_files.read("d")
    assert found is not None and found.arrays["a"][0] == 1.0
    assert not found.arrays["a"].flags.writeable
    config = found.config
    config["k"].append(3)
    assert found.config == {"k": [1, 2]}


def test_the_folder_holds_at_most_64_mb() -> None:
    big = np.zeros(run_files.MAX_BYTES // 8 // 2 + 1024)  # a little over 32 MB
    run_files.write("a", "part", {}, {"x": big})
    run_files.write("a", "part", {}, {"x": big})  # replacing a file frees its size first
    with pytest.raises(ResourceLimitError, match="more than the limit of 64 MB"):
        run_files.write("b", "part", {}, {"x": big})
    run_files.remove("a")
    run_files.write("b", "part", {}, {"x": big})


def test_folders_and_listing() -> None:
    run_files.makedirs("a/b", exist_ok=True)
    run_files.write("a/b/c.keras", "part", {})
    run_files.write("a/d/e.txt", "part", {})  # a file's folders are made with it
    assert run_files.listdir("a") == ["b", "d"]
    assert run_files.isdir("a/d") and run_files.glob("a/b/*.keras") == ["a/b/c.keras"]
    with pytest.raises(FileExistsError):
        run_files.makedirs("a/b")
    with pytest.raises(FileNotFoundError):
        run_files.listdir("nowhere")
    run_files.rmtree("a")
    assert run_files.listdir(".") == []


def test_each_run_starts_with_an_empty_folder() -> None:
    run_files.write("kept", "part", {})
    with fresh_run_state():
        assert not run_files.exists("kept")
        run_files.write("inner", "part", {})
        run_files.ENVIRON["X"] = "1"
    assert run_files.exists("kept") and not run_files.exists("inner")
    assert "X" not in run_files.ENVIRON


def test_gfile_looks_in_the_folder() -> None:
    tf.io.gfile.makedirs("logs/run1")
    assert tf.io.gfile.exists("logs/run1") and tf.io.gfile.isdir("logs")
    assert tf.io.gfile.listdir("logs") == ["run1"]
