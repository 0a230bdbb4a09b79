x = tf.Variable(3.0, trainable=True)
with tf.GradientTape() as tape:
    y = x*x
dy_dx = tape.gradient(y, x)
dy_dx.numpy()
