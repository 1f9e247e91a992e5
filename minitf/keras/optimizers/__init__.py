"""`tf.keras.optimizers`: SGD, Adam and friends, and learning-rate schedules.

One file per optimizer, each a short `build` (which slot variables it keeps
per model variable) and `update_step` (the update rule, in minitf ops, so a
whole training step can be traced by `tf.function`). `optimizer.py` holds the
shared machinery: the learning rate, clipping, weight decay, skipping `None`
gradients and counting `iterations`. `lookup.py` turns strings such as
"adam" into optimizers.

>>> import minitf as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.SGD(learning_rate=0.1)
>>> opt.minimize(lambda: w * w, [w])
<tf.Variable 'iteration:0' shape=() dtype=int64, numpy=1>
>>> print(w.numpy())
0.8
"""
