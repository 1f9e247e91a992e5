"""Lamb: Adam's step, rescaled per variable by the ratio of the weight norm to the step norm
("layer-wise adaptive moments", made for very large batches).

    t = iterations + 1
    m += (g - m) * (1 - beta_1);  v += (g ** 2 - v) * (1 - beta_2)
    update = (m / (1 - beta_1 ** t)) / (sqrt(v / (1 - beta_2 ** t)) + epsilon)
    ratio = ||w|| / ||update||   (1 when either norm is 0)
    w -= ratio * learning_rate * update

>>> import minitf as tf
>>> w = tf.Variable([3.0, 4.0])
>>> opt = tf.keras.optimizers.Lamb(learning_rate=0.1)
>>> _ = opt.minimize(lambda: tf.reduce_sum(w * w), [w])
>>> print(w.numpy())  # ||w|| = 5 and ||update|| ~ sqrt(2): a step of 0.1 * 5 / sqrt(2)
[2.6464465 3.6464467]
"""
from ...framework.tf_export import tf_export
from ...ops.math_ops import cast, greater, pow, where
from ...ops.reduction_ops import reduce_sum
from ...ops.unary_ops import sqrt, square
from .optimizer import Optimizer


@tf_export("keras.optimizers.Lamb", "optimizers.Lamb")
class Lamb(Optimizer):
    """Lamb; slots "momentum" and "velocity", as Adam.

    >>> tf.keras.optimizers.Lamb().get_config()["epsilon"]
    1e-07
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None,
                 loss_scale_factor=None, gradient_accumulation_steps=None, name=None,
                 **kwargs):
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

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = cast(learning_rate, dtype)
        gradient = cast(gradient, dtype)
        step = cast(self.iterations + 1, dtype)
        beta_1_power = pow(cast(self.beta_1, dtype), step)
        beta_2_power = pow(cast(self.beta_2, dtype), step)
        m = self._momentums[self._get_variable_index(variable)]
        v = self._velocities[self._get_variable_index(variable)]
        self.assign_add(m, (gradient - m) * (1 - self.beta_1))
        self.assign_add(v, (square(gradient) - v) * (1 - self.beta_2))
        update = (m / (1.0 - beta_1_power)) / (sqrt(v / (1.0 - beta_2_power)) + self.epsilon)
        w_norm = sqrt(reduce_sum(square(variable)))
        g_norm = sqrt(reduce_sum(square(update)))
        one = cast(1.0, dtype)
        ratio = where(greater(w_norm, 0), where(greater(g_norm, 0), w_norm / g_norm, one), one)
        self.assign_sub(variable, ratio * lr * update)

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon})
        return config
