"""Adam: momentum on the gradient and on its square, with bias correction.

    t = iterations + 1
    alpha = learning_rate * sqrt(1 - beta_2 ** t) / (1 - beta_1 ** t)
    m += (g - m) * (1 - beta_1)
    v += (g ** 2 - v) * (1 - beta_2)
    v_hat = max(v_hat, v); v = v_hat                     (amsgrad only)
    w -= m * alpha / (sqrt(v) + epsilon)

>>> import minitf as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.Adam(learning_rate=0.1)
>>> _ = opt.minimize(lambda: w * w, [w])
>>> print(w.numpy(), opt.get_slot(w, "m").numpy(), opt.get_slot(w, "v").numpy())
0.9000008 0.2 0.004
"""
from ...framework.tf_export import tf_export
from ...ops.math_ops import cast, maximum, pow
from ...ops.unary_ops import sqrt, square
from .optimizer import Optimizer


@tf_export("keras.optimizers.Adam", "optimizers.Adam")
class Adam(Optimizer):
    """Adam; slots "momentum" and "velocity" (+ "velocity_hat" with amsgrad). The classic
    names "m", "v" and "vhat" are accepted by `get_slot`.

    >>> tf.keras.optimizers.Adam().get_config()["epsilon"]
    1e-07
    """

    _SLOT_ALIASES = {"m": "momentum", "v": "velocity", "vhat": "velocity_hat"}

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
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
        self.epsilon = epsilon
        self.amsgrad = amsgrad

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])
        if self.amsgrad:
            self._velocity_hats = self.add_optimizer_variables(var_list, "velocity_hat")

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = cast(learning_rate, dtype)
        gradient = cast(gradient, dtype)
        local_step = cast(self.iterations + 1, dtype)
        beta_1_power = pow(cast(self.beta_1, dtype), local_step)
        beta_2_power = pow(cast(self.beta_2, dtype), local_step)
        index = self._get_variable_index(variable)
        m = self._momentums[index]
        v = self._velocities[index]
        alpha = lr * sqrt(1 - beta_2_power) / (1 - beta_1_power)
        self.assign_add(m, (gradient - m) * (1 - self.beta_1))
        self.assign_add(v, (square(gradient) - v) * (1 - self.beta_2))
        if self.amsgrad:
            v_hat = self._velocity_hats[index]
            self.assign(v_hat, maximum(v_hat, v))
            v = v_hat
        self.assign_sub(variable, m * alpha / (sqrt(v) + self.epsilon))

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                       "amsgrad": self.amsgrad})
        return config
