"""ScheduleFreeAdamW: AdamW without a learning-rate schedule (Defazio et al., 2024).

Two sequences per weight: `z` (the slot "momentum", started at the weight) takes
plain Adam-style steps, and the average `x` of all the z's so far is what one
would evaluate; the model's weight `y` sits between them:

    t = iterations + 1;  v += (g ** 2 - v) (1 - beta_2)
    z -= lr g / (sqrt(v / (1 - beta_2 ** t)) + epsilon)
    x_old = (y - (1 - beta_1) z) / beta_1              (recovered from y, not stored)
    x = (1 - 1/t) x_old + (1/t) z;   y = (1 - beta_1) z + beta_1 x

With `warmup_steps`, lr grows linearly from 0 over the first steps.

NB: the paper recovers x_old from the z *before* this step's update. Keras 3.15
reads `momentum.value` for it, which on the TensorFlow backend is the variable
itself, so it sees the updated z; minitf follows Keras, so the numbers agree.

>>> import minitf as tf
>>> w = tf.Variable([1.0, -2.0])
>>> opt = tf.keras.optimizers.ScheduleFreeAdamW(learning_rate=0.1)
>>> _ = opt.minimize(lambda: tf.reduce_sum(w * w), [w])
>>> print(w.numpy())  # z moved by -0.1 * sign(g); y = 0.1 z + 0.9 x, x = z at t = 1
[ 0.9 -1.9]
"""
from ...framework.tf_export import tf_export
from ...ops.math_ops import cast, minimum, pow
from ...ops.unary_ops import sqrt, square
from .optimizer import Optimizer


@tf_export("keras.optimizers.ScheduleFreeAdamW", "optimizers.ScheduleFreeAdamW")
class ScheduleFreeAdamW(Optimizer):
    """Schedule-free AdamW; slots "momentum" (z) and "velocity".

    >>> tf.keras.optimizers.ScheduleFreeAdamW().get_config()["learning_rate"]
    0.0024999999441206455
    """

    def __init__(self, learning_rate=0.0025, beta_1=0.9, beta_2=0.999, epsilon=1e-8,
                 warmup_steps=0, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, weight_decay=weight_decay,
                         clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum,
                         ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor,
                         gradient_accumulation_steps=gradient_accumulation_steps, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.warmup_steps = warmup_steps

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])
        for momentum, var in zip(self._momentums, var_list):
            self.assign(momentum, var.read_value())  # z starts at the weight

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = cast(learning_rate, dtype)
        gradient = cast(gradient, dtype)
        step = cast(self.iterations + 1, dtype)
        beta_1, beta_2 = cast(self.beta_1, dtype), cast(self.beta_2, dtype)
        if self.warmup_steps > 0:
            lr = lr * minimum(step / cast(self.warmup_steps, dtype), 1.0)
        index = self._get_variable_index(variable)
        z, v = self._momentums[index], self._velocities[index]
        self.assign_add(v, (square(gradient) - v) * (1 - beta_2))
        denom = sqrt(v / (1 - pow(beta_2, step))) + cast(self.epsilon, dtype)
        self.assign_sub(z, lr * gradient / denom)
        weight = 1.0 / step
        x_old = (variable - (1 - beta_1) * z) / beta_1  # z after its update, as Keras
        x_new = (1 - weight) * x_old + weight * z
        self.assign(variable, (1 - beta_1) * z + beta_1 * x_new)

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                       "warmup_steps": self.warmup_steps})
        return config
