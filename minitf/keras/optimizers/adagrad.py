"""Adagrad: each coordinate's step shrinks with the sum of its squared gradients.

    accumulator += g ** 2
    w -= learning_rate * g / sqrt(accumulator + epsilon)

>>> import minitf as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.Adagrad(learning_rate=0.1)
>>> _ = opt.minimize(lambda: w * w, [w])
>>> print(opt.get_slot(w, "accumulator").numpy())
4.1
"""
from ...framework.tf_export import tf_export
from ...ops.math_ops import cast
from ...ops.unary_ops import sqrt, square
from .optimizer import Optimizer


@tf_export("keras.optimizers.Adagrad", "optimizers.Adagrad")
class Adagrad(Optimizer):
    """Adagrad; slot "accumulator" starts at `initial_accumulator_value` (0.1).

    >>> tf.keras.optimizers.Adagrad().get_config()["initial_accumulator_value"]
    0.1
    """

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
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
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulators = self.add_optimizer_variables(
            var_list, "accumulator", initializer=self.initial_accumulator_value)

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        gradient = cast(gradient, variable.dtype)
        accumulator = self._accumulators[self._get_variable_index(variable)]
        self.assign_add(accumulator, square(gradient))
        self.assign_sub(variable, lr * gradient / sqrt(accumulator + self.epsilon))

    def get_config(self):
        config = super().get_config()
        config.update({"initial_accumulator_value": self.initial_accumulator_value,
                       "epsilon": self.epsilon})
        return config
