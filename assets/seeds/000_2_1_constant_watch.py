x = tf.constant(3.0)
with tf.GradientTape() as tape:
    # track constants
    tape.watch(x)
    y = x*x
dy_dx = tape.gradient(y, x)
dy_dx.numpy()
