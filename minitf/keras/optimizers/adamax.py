"""Adamax: Adam with the infinity norm in place of the root mean square.

    m += (g - m) * (1 - beta_1)
    u = max(beta_2 * u, |g|)
    w -= learning_rate * m / ((1 - beta_1 ** t) * (u + epsilon))      t = iterations + 1

>>> import minitf as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.Adamax(learning_rate=0.1)
>>> _ = opt.minimize(lambda: w * w, [w])
>>> print(w.numpy(), opt.get_slot(w, "norm").numpy())
0.90000004 2.0
"""
from ...framework.tf_export import tf_export
from ...ops.math_ops import abs as abs_
from ...ops.math_ops import cast, maximum, pow
from .optimizer import Optimizer


@tf_export("keras.optimizers.Adamax", "optimizers.Adamax")
class Adamax(Optimizer):
    """Adamax; slots "momentum" and "norm" (classic "m" and "v" accepted by `get_slot`).

    >>> tf.keras.optimizers.Adamax().get_config()["beta_2"]
    0.999
    """

    _SLOT_ALIASES = {"m": "momentum", "v": "norm", "u": "norm"}

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None,
                 loss_scale_factor=None, gradient_accumulation_steps=None, name=None,
                 **kwargs):
        super().__init__(learning_rate=learning_rate, weight_decay=weight_decay,
                         clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum,
                         ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor,
                         gradient_accumulation_steps=gradient_accumulation_steps, name=name,
                         **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._m, self._u = self.add_optimizer_variables(var_list, ["momentum", "norm"])

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = cast(learning_rate, dtype)
        gradient = cast(gradient, dtype)
        local_step = cast(self.iterations + 1, dtype)
        beta_1_power = pow(cast(self.beta_1, dtype), local_step)
        index = self._get_variable_index(variable)
        m = self._m[index]
        u = self._u[index]
        self.assign_add(m, (gradient - m) * (1 - self.beta_1))
        self.assign(u, maximum(self.beta_2 * u, abs_(gradient)))
        self.assign_sub(variable, lr * m / ((1 - beta_1_power) * (u + self.epsilon)))

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon})
        return config
