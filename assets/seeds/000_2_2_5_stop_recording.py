x = tf.Variable(3.0, trainable=True)
m = tf.Variable(2.0, trainable=True)
with tf.GradientTape(persistent=True) as tape:
    y = x*x
    with tape.stop_recording():
        print(tape.gradient(y, x).numpy())
        
    n = m*m
    with tape.stop_recording():
        print(tape.gradient(n, m).numpy())
