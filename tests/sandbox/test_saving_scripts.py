"""Scripts that save and reload models: the run's own folder, in memory, size-limited, per run."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tapeviz.sandbox import run
from tapeviz.sandbox.process.client import Pool
from tapeviz.sandbox.process.isolated import run_isolated

KERAS_TUTORIAL = """
import os
import numpy as np
import tensorflow as tf
from tensorflow import keras
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
rng = np.random.default_rng(0)
x = rng.random((32, 3)).astype("float32")
y = x.sum(axis=1, keepdims=True)

def create_model():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    return model

model = create_model()
checkpoint_path = "training_1/cp.weights.h5"
checkpoint_dir = os.path.dirname(checkpoint_path)
cp_callback = keras.callbacks.ModelCheckpoint(filepath=checkpoint_path, save_weights_only=True)
model.fit(x, y, epochs=2, callbacks=[cp_callback], verbose=0)
print(os.listdir(checkpoint_dir))
fresh = create_model()
fresh.load_weights(checkpoint_path)
print(np.allclose(fresh.predict(x, verbose=0), model.predict(x, verbose=0)))
model.save("my_model.keras")
new_model = tf.keras.models.load_model("my_model.keras")
print(np.allclose(new_model.predict(x, verbose=0), model.predict(x, verbose=0)))
print(new_model.evaluate(x, y, verbose=0) == model.evaluate(x, y, verbose=0))
print(os.path.exists("my_model.keras"), sorted(os.listdir(".")))
"""


def _ok(source: str) -> str:
    result = run(textwrap.dedent(source))
    assert result.error is None, result.error
    return result.output


def test_a_script_trains_saves_reloads_and_predicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = _ok(KERAS_TUTORIAL)
    assert out.splitlines() == [
        "['cp.weights.h5']", "True", "True", "True", "True ['my_model.keras', 'training_1']"
    ]  # fmt: skip
    assert list(tmp_path.iterdir()) == []  # nothing on the disk


def test_a_subclassed_registered_model_and_a_checkpoint_in_a_script() -> None:
    out = _ok("""
        import numpy as np
        import tensorflow as tf
        keras = tf.keras

        @keras.saving.register_keras_serializable(package="demo")
        class Net(keras.Model):
            def __init__(self, units=4, **kwargs):
                super().__init__(**kwargs)
                self.units = units
                self.l1 = keras.layers.Dense(units, activation="relu")
                self.l2 = keras.layers.Dense(1)
            def call(self, x):
                return self.l2(self.l1(x))
            def get_config(self):
                return {**super().get_config(), "units": self.units}

        x = np.ones((4, 2), dtype="float32")
        net = Net(3)
        net(x)
        net.save("net.keras")
        again = keras.models.load_model("net.keras")
        print(type(again).__name__, again.units, np.allclose(again(x).numpy(), net(x).numpy()))

        opt = keras.optimizers.Adam(0.1)
        ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net)
        manager = tf.train.CheckpointManager(ckpt, "./tf_ckpts", max_to_keep=2)
        for _ in range(3):
            ckpt.step.assign_add(1)
            manager.save()
        print(manager.checkpoints, tf.train.latest_checkpoint("./tf_ckpts"))
        other = Net(3)
        status = tf.train.Checkpoint(optimizer=keras.optimizers.Adam(0.1), net=other).restore(
            manager.latest_checkpoint)
        print(np.allclose(other(x).numpy(), net(x).numpy()))
        status.assert_existing_objects_matched()
    """)
    assert out.splitlines() == [
        "Net 3 True",
        "['./tf_ckpts/ckpt-2', './tf_ckpts/ckpt-3'] ./tf_ckpts/ckpt-3",
        "True",
    ]


def test_a_torch_script_saves_and_loads_state_dicts() -> None:
    out = _ok("""
        import torch
        from torch import nn
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, "ck.pt")
        checkpoint = torch.load("ck.pt", weights_only=True)
        other = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
        other.load_state_dict(checkpoint["model"])
        x = torch.randn(2, 3)
        print(torch.equal(other(x), model(x)), sorted(checkpoint))
    """)
    assert out == "True ['model', 'optimizer']\n"


def test_a_saved_model_in_a_script() -> None:
    out = _ok("""
        import tensorflow as tf
        class Scale(tf.Module):
            def __init__(self):
                super().__init__()
                self.v = tf.Variable(2.0)
            @tf.function
            def __call__(self, x):
                return x * self.v
        m = Scale()
        m(tf.constant(1.0))
        tf.saved_model.save(m, "scale")
        loaded = tf.saved_model.load("scale")
        print(loaded(tf.constant(3.0)).numpy(), loaded.v.numpy())
    """)
    assert out == "6.0 2.0\n"


def test_each_run_has_its_own_folder_and_environment() -> None:
    _ok("import os\nos.makedirs('kept', exist_ok=True)\nos.environ['A'] = '1'")
    out = _ok("import os\nprint(os.listdir('.'), os.getenv('A'), os.path.exists('/etc/passwd'))")
    assert out == "[] None False\n"


def test_os_offers_only_the_folder() -> None:
    result = run("import os\nos.system('touch x')")
    assert result.error is not None
    result = run("import os\nos.listdir('../../..')")  # the folder's root, not the disk's
    assert result.error is None


def test_the_saved_files_are_size_limited() -> None:
    result = run(
        textwrap.dedent("""
        import tensorflow as tf
        w = tf.Variable(tf.zeros([3000, 3000]))
        ckpt = tf.train.Checkpoint(w=w)
        ckpt.write("a")
        ckpt.write("b")
    """)
    )
    assert result.error is not None and result.error.kind == "limit", result.error
    assert "64 MB" in result.error.message


def test_saving_works_across_the_process_wall(pool: Pool) -> None:
    result = run_isolated(KERAS_TUTORIAL, pool=pool)
    assert result.error is None, result.error
    assert result.output.splitlines()[-1] == "True ['my_model.keras', 'training_1']"
