x = tf.Variable(3.0, trainable=True)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x*x
    z = y*y
print(tape.gradient(y, x).numpy())
print(tape.gradient(z, x).numpy())
