"""RMSprop: divide the step by a running root-mean-square of recent gradients.

    velocity = rho * velocity + (1 - rho) * g ** 2
    average_gradient = rho * average_gradient + (1 - rho) * g        (centered only)
    denominator = velocity + epsilon          (centered: velocity - average_gradient**2 + eps)
    increment = learning_rate * g / sqrt(denominator)
    momentum = momentum_coef * momentum + increment; w -= momentum    (momentum > 0)
    w -= increment                                                    (otherwise)

Current TF puts epsilon *inside* the square root (classic tf.keras 2.x added it
outside); minitf follows current TF.

>>> import minitf as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.RMSprop(learning_rate=0.1)
>>> _ = opt.minimize(lambda: w * w, [w])
>>> print(round(float(w.numpy()), 4))
0.6838
"""
from ...framework.tf_export import tf_export
from ...ops.math_ops import cast
from ...ops.unary_ops import sqrt, square
from .optimizer import Optimizer


@tf_export("keras.optimizers.RMSprop", "optimizers.RMSprop")
class RMSprop(Optimizer):
    """RMSprop; slots "velocity", plus "momentum" (momentum > 0) and "average_gradient"
    (centered=True). Classic slot names "rms" and "mg" are accepted by `get_slot`.

    >>> tf.keras.optimizers.RMSprop().get_config()["rho"]
    0.9
    """

    _SLOT_ALIASES = {"rms": "velocity", "mg": "average_gradient"}

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, weight_decay=None, clipnorm=None, clipvalue=None,
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
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._velocities = self.add_optimizer_variables(var_list, "velocity")
        self._momentums = []
        if self.momentum > 0:
            self._momentums = self.add_optimizer_variables(var_list, "momentum")
        self._average_gradients = []
        if self.centered:
            self._average_gradients = self.add_optimizer_variables(var_list,
                                                                   "average_gradient")

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        gradient = cast(gradient, variable.dtype)
        index = self._get_variable_index(variable)
        velocity = self._velocities[index]
        rho = self.rho
        self.assign(velocity, rho * velocity + (1 - rho) * square(gradient))
        if self.centered:
            average_grad = self._average_gradients[index]
            self.assign(average_grad, rho * average_grad + (1 - rho) * gradient)
            denominator = velocity - square(average_grad) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = lr * gradient / sqrt(denominator)
        if self.momentum > 0:
            momentum = self._momentums[index]
            self.assign(momentum, self.momentum * momentum + increment)
            self.assign_sub(variable, momentum)
        else:
            self.assign_sub(variable, increment)

    def get_config(self):
        config = super().get_config()
        config.update({"rho": self.rho, "momentum": self.momentum, "epsilon": self.epsilon,
                       "centered": self.centered})
        return config
