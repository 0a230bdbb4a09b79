x = tf.Variable(3.0, trainable=True)
with tf.GradientTape() as tape:
    y = x**3
g_1 = tape.gradient(y, x)
g_2 = tape.gradient(g_1, x)
g_2
