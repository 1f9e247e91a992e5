"""Lion ("EvoLved Sign Momentum"): every coordinate moves by exactly +-learning_rate.

    w -= learning_rate * sign(beta_1 * m + (1 - beta_1) * g)
    m = beta_2 * m + (1 - beta_2) * g

>>> import minitf as tf
>>> w = tf.Variable([1.0, -1.0])
>>> opt = tf.keras.optimizers.Lion(learning_rate=0.1)
>>> _ = opt.minimize(lambda: tf.reduce_sum(w * w), [w])
>>> print(w.numpy())
[ 0.9 -0.9]
"""
from ...framework.tf_export import tf_export
from ...ops.math_ops import cast, sign
from .optimizer import Optimizer


@tf_export("keras.optimizers.Lion", "optimizers.Lion")
class Lion(Optimizer):
    """Lion; slot "momentum" (classic "m" accepted by `get_slot`).

    >>> tf.keras.optimizers.Lion().get_config()["beta_2"]
    0.99
    """

    _SLOT_ALIASES = {"m": "momentum"}

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
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
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError("Argument `beta_1` must be in the [0, 1] range. Otherwise, the "
                             f"optimizer degenerates to SignSGD. Received: beta_1={beta_1}.")

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums = self.add_optimizer_variables(var_list, "momentum")

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        gradient = cast(gradient, variable.dtype)
        beta_1 = cast(self.beta_1, variable.dtype)
        beta_2 = cast(self.beta_2, variable.dtype)
        m = self._momentums[self._get_variable_index(variable)]
        self.assign_sub(variable, lr * sign(m * beta_1 + gradient * (1.0 - beta_1)))
        self.assign(m, m * beta_2 + gradient * (1.0 - beta_2))

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2})
        return config
