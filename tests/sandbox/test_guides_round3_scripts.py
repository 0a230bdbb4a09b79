"""Issue 34, round three, as scripts run in the window: keras-io's Keras 3 training guides.

"Writing a training loop from scratch" (``optimizer.apply``, ``model.trainable_weights``,
metrics, a ``@tf.function`` step, ``tf.data``) and "Customizing what happens in fit()"
(``self.compute_loss``, ``self.metrics`` whose compiled metrics log under their own names),
on small random data instead of MNIST, and TF's concrete functions.
"""

from __future__ import annotations

import re
import textwrap

from tapeviz.sandbox import run


def _ok(source: str) -> tuple[str, tuple[str, ...]]:
    result = run(textwrap.dedent(source))
    assert result.error is None, result.error
    return result.output, result.notes


def test_a_training_loop_from_scratch_with_optimizer_apply() -> None:
    out, _ = _ok("""
        import os
        os.environ["KERAS_BACKEND"] = "tensorflow"
        import tensorflow as tf
        import keras
        import numpy as np

        def get_model():
            inputs = keras.Input(shape=(16,), name="digits")
            x1 = keras.layers.Dense(32, activation="relu")(inputs)
            outputs = keras.layers.Dense(4, name="predictions")(x1)
            return keras.Model(inputs=inputs, outputs=outputs)

        model = get_model()
        optimizer = keras.optimizers.Adam(learning_rate=1e-2)
        loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
        rng = np.random.default_rng(0)
        x_train = rng.integers(0, 255, (128, 16)).astype("uint8")
        y_train = (x_train[:, 0] // 64).astype("uint8")
        train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
        train_dataset = train_dataset.shuffle(buffer_size=1024).batch(32)

        @tf.function
        def train_step(x, y):
            with tf.GradientTape() as tape:
                logits = model(x, training=True)
                loss_value = loss_fn(y, logits)
            grads = tape.gradient(loss_value, model.trainable_weights)
            optimizer.apply(grads, model.trainable_weights)
            train_acc_metric.update_state(y, logits)
            return loss_value

        for epoch in range(2):
            print(f"Start of epoch {epoch}")
            for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
                loss_value = train_step(x_batch_train, y_batch_train)
                if step % 2 == 0:
                    print(f"Training loss (for 1 batch) at step {step}: {float(loss_value):.4f}")
            print(f"Training acc over epoch: {float(train_acc_metric.result()):.4f}")
            train_acc_metric.reset_state()
        print(int(optimizer.iterations.numpy()), len(optimizer.variables) > 0)
    """)
    assert out.count("Start of epoch") == 2
    assert re.search(r"Training loss \(for 1 batch\) at step 2: \d+\.\d{4}", out)
    assert re.search(r"Training acc over epoch: [01]\.\d{4}", out)
    assert out.splitlines()[-1] == "8 True"


def test_a_custom_train_step_logs_its_compiled_metrics_by_name() -> None:
    out, _ = _ok("""
        import keras
        import numpy as np

        class CustomModel(keras.Model):
            def train_step(self, data):
                x, y = data
                with tf.GradientTape() as tape:
                    y_pred = self(x, training=True)
                    loss = self.compute_loss(y=y, y_pred=y_pred)
                gradients = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply(gradients, self.trainable_variables)
                for metric in self.metrics:
                    if metric.name == "loss":
                        metric.update_state(loss)
                    else:
                        metric.update_state(y, y_pred)
                return {m.name: m.result() for m in self.metrics}

            def test_step(self, data):
                x, y = data
                y_pred = self(x, training=False)
                loss = self.compute_loss(y=y, y_pred=y_pred)
                for metric in self.metrics:
                    if metric.name == "loss":
                        metric.update_state(loss)
                    else:
                        metric.update_state(y, y_pred)
                return {m.name: m.result() for m in self.metrics}

        inputs = keras.Input(shape=(8,))
        model = CustomModel(inputs, keras.layers.Dense(1)(inputs))
        model.compile(optimizer="adam", loss="mse", metrics=["mae"])
        x = np.random.random((64, 8))
        y = np.random.random((64, 1))
        history = model.fit(x, y, epochs=2)
        print(sorted(history.history))
        print(len(model.evaluate(x, y, verbose=0)))
    """)
    # the guide's progress line: the nested compile_metrics flattened, keys sorted
    assert re.search(r"2/2 ━+ \S+ \S+/step - mae: \d\.\d{4} - loss: \d\.\d{4}", out)
    assert out.splitlines()[-2:] == ["['loss', 'mae']", "2"]


def test_concrete_functions_and_plot_model_in_a_script() -> None:
    out, notes = _ok("""
        import keras

        @tf.function
        def pow(a, b):
            return a ** b

        square = pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
        assert square(tf.constant(10.0)) == 100
        try:
            square(tf.constant(10.0), b=3)
        except TypeError:
            print("TypeError")
        print(square.structured_input_signature[0][1])
        keras.utils.plot_model(keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)]))
    """)
    assert out.splitlines() == ["TypeError", "2"]
    assert any("plot_model" in n for n in notes)


def test_np_testing_checks_a_reloaded_model() -> None:
    out, _ = _ok("""
        import numpy as np
        import keras
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        x = np.random.random((4, 3))
        model.save("m.keras")
        again = keras.models.load_model("m.keras")
        np.testing.assert_allclose(model.predict(x, verbose=0), again.predict(x, verbose=0))
        np.testing.assert_array_equal(tf.constant([1, 2]), [1, 2])
        try:
            np.testing.assert_allclose([1.0], [1.1], rtol=1e-3, err_msg="differs")
        except AssertionError as e:
            print("differs" in str(e))
    """)
    assert out.splitlines() == ["True"]


def test_time_timeit_and_datetime_read_the_clock_only() -> None:
    out, _ = _ok("""
        import time
        import timeit
        from datetime import datetime
        start_time = time.time()
        x = tf.random.uniform(shape=[4, 4], minval=-1, maxval=2, dtype=tf.int32)
        def power(x, y):
            result = tf.eye(4, dtype=tf.int32)
            for _ in range(y):
                result = tf.matmul(x, result)
            return result
        print(timeit.timeit(lambda: power(x, 3), number=5) >= 0.0)
        print(f"Time taken: {time.time() - start_time:.2f}s".startswith("Time taken: 0."))
        print(len(str(datetime.now())) > 10)
        try:
            timeit.timeit("power(x, 3)", number=1)
        except TypeError as e:
            print("TypeError")
    """)
    assert out.splitlines() == ["True", "True", "True", "TypeError"]
    result = run("import time\ntime.sleep(1)")
    assert result.error is not None  # the clock, not the scheduler


def test_the_default_colour_cycle_of_basic_training_loops() -> None:
    out, _ = _ok("""
        import matplotlib.pyplot as plt
        colors = plt.rcParams['axes.prop_cycle'].by_key()['color']
        print(colors[:2], len(colors))
        plt.plot([0, 1], [1, 2], color=colors[1])
    """)
    assert out.splitlines() == ["['#1f77b4', '#ff7f0e'] 10"]
