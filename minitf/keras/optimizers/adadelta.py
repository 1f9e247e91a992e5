"""Adadelta: the step's scale comes from running averages, so no learning rate is needed
in principle (Keras still multiplies by `learning_rate`, default 0.001).

    accumulated_grad = rho * accumulated_grad + (1 - rho) * g ** 2
    delta = -sqrt(accumulated_delta_var + eps) * g / sqrt(accumulated_grad + eps)
    accumulated_delta_var = rho * accumulated_delta_var + (1 - rho) * delta ** 2
    w += learning_rate * delta

>>> import minitf as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.Adadelta(learning_rate=1.0)
>>> _ = opt.minimize(lambda: w * w, [w])
>>> print(round(float(w.numpy()), 6))
0.998586
"""
from ...framework.tf_export import tf_export
from ...ops.math_ops import cast
from ...ops.unary_ops import sqrt, square
from .optimizer import Optimizer


@tf_export("keras.optimizers.Adadelta", "optimizers.Adadelta")
class Adadelta(Optimizer):
    """Adadelta; slots "accumulated_grad" and "accumulated_delta_var" (classic names
    "accum_grad" and "accum_var" are accepted by `get_slot`).

    >>> tf.keras.optimizers.Adadelta().get_config()["rho"]
    0.95
    """

    _SLOT_ALIASES = {"accum_grad": "accumulated_grad", "accum_var": "accumulated_delta_var"}

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, weight_decay=None,
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
        self.rho = rho
        self.epsilon = epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulated_grads, self._accumulated_delta_vars = self.add_optimizer_variables(
            var_list, ["accumulated_grad", "accumulated_delta_var"])

    def update_step(self, grad, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        grad = cast(grad, variable.dtype)
        rho = self.rho
        index = self._get_variable_index(variable)
        accumulated_grad = self._accumulated_grads[index]
        accumulated_delta_var = self._accumulated_delta_vars[index]

        def rms(x):
            return sqrt(x + self.epsilon)

        self.assign(accumulated_grad, rho * accumulated_grad + (1 - rho) * square(grad))
        delta_var = -(rms(accumulated_delta_var) * grad / rms(accumulated_grad))
        self.assign(accumulated_delta_var,
                    rho * accumulated_delta_var + (1 - rho) * square(delta_var))
        self.assign_add(variable, lr * delta_var)

    def get_config(self):
        config = super().get_config()
        config.update({"rho": self.rho, "epsilon": self.epsilon})
        return config
