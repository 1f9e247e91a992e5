"""Stochastic gradient descent, with optional momentum and Nesterov momentum.

Without momentum: `w -= learning_rate * g`. With momentum (Keras 3's form):

    m = momentum * m - learning_rate * g
    w += m                                          (nesterov=False)
    w += momentum * m - learning_rate * g           (nesterov=True)

>>> import minitf as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
>>> for _ in range(2):
...     _ = opt.minimize(lambda: w * w, [w])
>>> print(w.numpy(), opt.get_slot(w, "momentum").numpy())
0.46 -0.34
"""
from ...framework.tf_export import tf_export
from ...ops.math_ops import cast
from .optimizer import Optimizer


@tf_export("keras.optimizers.SGD", "optimizers.SGD")
class SGD(Optimizer):
    """Gradient descent (with momentum): slot "momentum" when momentum > 0.

    >>> tf.keras.optimizers.SGD().get_config()["learning_rate"]
    0.009999999776482582
    """

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, weight_decay=weight_decay,
                         clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum,
                         ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor,
                         gradient_accumulation_steps=gradient_accumulation_steps, **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1]. Write it as a float, "
                             "e.g. momentum=0.9.")
        self.momentum = momentum
        self.nesterov = nesterov

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self.momentums = []
        if self.momentum != 0:
            self.momentums = self.add_optimizer_variables(variables, "momentum")

    def update_step(self, gradient, variable, learning_rate):
        learning_rate = cast(learning_rate, variable.dtype)
        gradient = cast(gradient, variable.dtype)
        if self.momentum == 0:
            self.assign_sub(variable, gradient * learning_rate)
            return
        m = self.momentums[self._get_variable_index(variable)]
        momentum = cast(self.momentum, variable.dtype)
        self.assign(m, m * momentum - gradient * learning_rate)
        if self.nesterov:
            self.assign_add(variable, m * momentum - gradient * learning_rate)
        else:
            self.assign_add(variable, m)

    def get_config(self):
        config = super().get_config()
        config.update({"momentum": self.momentum, "nesterov": self.nesterov})
        return config
