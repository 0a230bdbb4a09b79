# 求f(x) = a*x**2 + b*x + c的最小值
# 使用optimizer.apply_gradients
import tensorflow as tf
x = tf.Variable(0.0,name = "x",dtype = tf.float32)
a = tf.constant(1.0)
b = tf.constant(-2.0)
c = tf.constant(1.0)

lr=0.01

optimizer = tf.keras.optimizers.SGD(learning_rate=lr)
for step in range(200):
    with tf.GradientTape() as tape:
        y = a*tf.pow(x,2) + b*x + c
    dy_dx = tape.gradient(y,x)
    if step % 20 == 0:
    	tf.print("step =",step,"; y =",y,"; x =",x)
    optimizer.apply_gradients(grads_and_vars=[(dy_dx,x)])#optimizer.apply_gradients(zip(dy_dx,x)) #高维要用zip
    #x.assign_sub(lr*dy_dx)#结果等价
    
tf.print("y =",y,"; x =",x)
