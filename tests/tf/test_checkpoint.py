"""tf.train.Checkpoint, CheckpointManager, latest_checkpoint (TF's "Training checkpoints")."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.tf import run_files
from tapeviz.tf.run_state import fresh_run_state


@pytest.fixture(autouse=True)
def own_folder() -> Iterator[None]:
    with fresh_run_state():
        yield


class Net(tf.keras.Model):
    def __init__(self) -> None:
        super().__init__()
        self.l1 = tf.keras.layers.Dense(5)

    def call(self, x: object) -> object:
        return self.l1(x)


def _train(net: Net, opt: object, steps: int = 3) -> None:
    x = tf.range(10.0)[:, None]
    y = x * 5.0 + tf.range(5.0)[None, :]
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.abs(net(x) - y))
        grads = tape.gradient(loss, net.trainable_variables)
        opt.apply_gradients(zip(grads, net.trainable_variables, strict=True))


def test_save_numbers_the_checkpoints_and_records_the_latest() -> None:
    ckpt = tf.train.Checkpoint(step=tf.Variable(1))
    assert ckpt.save("./tf_ckpts/ckpt") == "./tf_ckpts/ckpt-1"
    assert ckpt.save("./tf_ckpts/ckpt") == "./tf_ckpts/ckpt-2"
    assert int(ckpt.save_counter.numpy()) == 2
    assert tf.train.latest_checkpoint("./tf_ckpts") == "./tf_ckpts/ckpt-2"
    assert "ckpt-1.index" in run_files.listdir("tf_ckpts")
    assert ckpt.write("other/path") == "other/path"  # write: no number, no record
    assert tf.train.latest_checkpoint("other") is None
    assert tf.train.latest_checkpoint("nowhere") is None


def test_restore_assigns_by_attribute_path() -> None:
    v = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(layer=tf.train.Checkpoint(v=v), step=tf.Variable(7))
    path = ckpt.save("ck")
    v.assign([0.0, 0.0])
    target = tf.Variable([9.0, 9.0])
    step = tf.Variable(0)
    status = tf.train.Checkpoint(layer=tf.train.Checkpoint(v=target), step=step).restore(path)
    assert target.numpy().tolist() == [1.0, 2.0] and int(step.numpy()) == 7
    status.assert_consumed()  # every saved value (the save counter too) found a variable


def test_partial_restores_and_what_the_status_says() -> None:
    ckpt = tf.train.Checkpoint(a=tf.Variable(1.0), b=tf.Variable(2.0))
    path = ckpt.save("ck")
    only_a = tf.Variable(0.0)
    status = tf.train.Checkpoint(a=only_a).restore(path)
    assert float(only_a.numpy()) == 1.0
    status.assert_existing_objects_matched().assert_nontrivial_match().expect_partial()
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        status.assert_consumed()
    extra = tf.train.Checkpoint(a=tf.Variable(0.0), c=tf.Variable(0.0)).restore(path)
    with pytest.raises(AssertionError, match="not bound to checkpointed values"):
        extra.assert_existing_objects_matched()
    with pytest.raises(AssertionError, match="No checkpoint specified"):
        tf.train.Checkpoint(a=only_a).restore(None).assert_consumed()


def test_values_for_an_unbuilt_model_wait_for_its_variables() -> None:
    net, opt = Net(), tf.keras.optimizers.Adam(0.1)
    _train(net, opt)
    path = tf.train.Checkpoint(optimizer=opt, net=net).save("./ck/ckpt")
    new_net, new_opt = Net(), tf.keras.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(optimizer=new_opt, net=new_net).restore(path)
    assert int(new_opt.iterations.numpy()) == 3  # the optimizer existed: restored now
    with pytest.raises(AssertionError):
        status.assert_consumed()  # the layer's kernel does not exist yet
    x = tf.ones((1, 1))
    np.testing.assert_allclose(new_net(x).numpy(), net(x).numpy())  # restored when built
    status.assert_consumed()
    _train(net, opt, 1)  # Adam's slots came back too: the next step is the same
    _train(new_net, new_opt, 1)
    np.testing.assert_allclose(new_net(x).numpy(), net(x).numpy(), rtol=1e-6)


def test_a_manager_keeps_the_newest_checkpoints() -> None:
    ckpt = tf.train.Checkpoint(step=tf.Variable(1))
    manager = tf.train.CheckpointManager(ckpt, "./tf_ckpts", max_to_keep=3)
    assert manager.latest_checkpoint is None and manager.restore_or_initialize() is None
    for _ in range(5):
        ckpt.step.assign_add(1)
        manager.save()
    assert manager.checkpoints == ["./tf_ckpts/ckpt-3", "./tf_ckpts/ckpt-4", "./tf_ckpts/ckpt-5"]
    assert manager.latest_checkpoint == "./tf_ckpts/ckpt-5"
    assert "ckpt-1.index" not in run_files.listdir("tf_ckpts")
    assert manager.save(checkpoint_number=100) == "./tf_ckpts/ckpt-100"
    again = tf.train.CheckpointManager(tf.train.Checkpoint(step=tf.Variable(0)), "./tf_ckpts", 3)
    assert again.checkpoints == ["./tf_ckpts/ckpt-4", "./tf_ckpts/ckpt-5", "./tf_ckpts/ckpt-100"]
    assert again.restore_or_initialize() == "./tf_ckpts/ckpt-100"
    assert int(again.checkpoint.step.numpy()) == 6
    with pytest.raises(ValueError, match="positive integer or `None`"):
        tf.train.CheckpointManager(ckpt, "d", max_to_keep=0)


def test_list_variables_and_the_reader() -> None:
    net = Net()
    net(tf.ones((1, 2)))
    path = tf.train.Checkpoint(model=net).write("my_checkpoint")
    names = dict(tf.train.list_variables(path))
    assert names["model/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE"] == [2, 5]
    assert names["_CHECKPOINTABLE_OBJECT_GRAPH"] == []
    reader = tf.train.load_checkpoint(path)
    np.testing.assert_array_equal(
        reader.get_tensor("model/l1/bias/.ATTRIBUTES/VARIABLE_VALUE"), net.l1.bias.numpy()
    )


def test_checkpoint_errors_are_tensorflows() -> None:
    with pytest.raises(ValueError, match="was expecting a trackable object"):
        tf.train.Checkpoint(x=3)
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
        tf.train.Checkpoint(a=tf.Variable(1.0)).restore("missing-1")
    path = tf.train.Checkpoint(a=tf.Variable([1.0, 2.0])).save("ck")
    with pytest.raises(ValueError, match="incompatible tensor with shape"):
        tf.train.Checkpoint(a=tf.Variable([1.0, 2.0, 3.0])).restore(path)


def test_a_module_checkpoint_restores_into_a_new_module() -> None:
    class Dense(tf.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = tf.Variable(tf.random.normal([3, 2]))
            self.b = tf.Variable(tf.zeros([2]))

    class Seq(tf.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layers = [Dense(), Dense()]

    model = Seq()
    tf.train.Checkpoint(model=model).write("seq")
    assert ("model/layers/1/w/.ATTRIBUTES/VARIABLE_VALUE", [3, 2]) in tf.train.list_variables("seq")
    fresh = Seq()
    tf.train.Checkpoint(model=fresh).restore("seq").assert_consumed()
    np.testing.assert_array_equal(fresh.layers[1].w.numpy(), model.layers[1].w.numpy())
