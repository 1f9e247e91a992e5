"""FTRL-Proximal ("Follow The Regularized Leader"), used for wide sparse linear models.

With p = -learning_rate_power (0.5 by default) and accum' = accum + g ** 2:

    linear += g + 2 * l2_shrinkage * w - (accum' ** p - accum ** p) / learning_rate * w
    quadratic = accum' ** p / learning_rate + 2 * (l2 + beta / (2 * learning_rate))
    w = (clip(linear, -l1, l1) - linear) / quadratic
    accum = accum'

>>> import minitf as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.Ftrl(learning_rate=0.1)
>>> _ = opt.minimize(lambda: w * w, [w])
>>> print(round(float(w.numpy()), 5))
0.74505
"""
from ...framework.tf_export import tf_export
from ...ops.clip_ops import clip_by_value
from ...ops.math_ops import cast, pow
from ...ops.unary_ops import square
from .optimizer import Optimizer


@tf_export("keras.optimizers.Ftrl", "optimizers.Ftrl")
class Ftrl(Optimizer):
    """FTRL; slots "accumulator" (starting at 0.1) and "linear".

    >>> tf.keras.optimizers.Ftrl().get_config()["learning_rate_power"]
    -0.5
    """

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
                 beta=0.0, weight_decay=None, clipnorm=None, clipvalue=None,
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
        for arg, value in [("initial_accumulator_value", initial_accumulator_value),
                           ("l1_regularization_strength", l1_regularization_strength),
                           ("l2_regularization_strength", l2_regularization_strength),
                           ("l2_shrinkage_regularization_strength",
                            l2_shrinkage_regularization_strength)]:
            if value < 0.0:
                raise ValueError(f"`{arg}` needs to be positive or zero. Received: "
                                 f"{arg}={value}.")
        if learning_rate_power > 0.0:
            raise ValueError("`learning_rate_power` needs to be negative or zero. Received: "
                             f"learning_rate_power={learning_rate_power}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulators, self._linears = self.add_optimizer_variables(
            var_list, ["accumulator", "linear"],
            initializer=[self.initial_accumulator_value, "zeros"])

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        gradient = cast(gradient, variable.dtype)
        index = self._get_variable_index(variable)
        accum = self._accumulators[index]
        linear = self._linears[index]
        lr_power = self.learning_rate_power
        l2_reg = self.l2_regularization_strength + self.beta / (2.0 * lr)
        grad_to_use = gradient + 2 * self.l2_shrinkage_regularization_strength * variable
        new_accum = accum + square(gradient)
        self.assign_add(linear, grad_to_use - (pow(new_accum, -lr_power)
                                               - pow(accum, -lr_power)) / lr * variable)
        quadratic = pow(new_accum, -lr_power) / lr + 2 * l2_reg
        l1 = self.l1_regularization_strength
        linear_clipped = clip_by_value(linear, -l1, l1)
        self.assign(variable, (linear_clipped - linear) / quadratic)
        self.assign(accum, new_accum)

    def get_config(self):
        config = super().get_config()
        config.update({
            "learning_rate_power": self.learning_rate_power,
            "initial_accumulator_value": self.initial_accumulator_value,
            "l1_regularization_strength": self.l1_regularization_strength,
            "l2_regularization_strength": self.l2_regularization_strength,
            "l2_shrinkage_regularization_strength": self.l2_shrinkage_regularization_strength,
            "beta": self.beta})
        return config
