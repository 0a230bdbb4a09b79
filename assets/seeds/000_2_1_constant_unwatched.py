x = tf.constant(3.0)
with tf.GradientTape() as tape:
    y = x*x
dy_dx = tape.gradient(y, x)
print(dy_dx)
