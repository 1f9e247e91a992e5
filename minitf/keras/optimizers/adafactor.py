"""Adafactor: Adam's second moment, stored factored - for a matrix, one number per row and
one per column instead of one per entry - so the optimizer's memory grows like the sum of
the sides, not their product.

    t = iterations + 1;  rho = min(learning_rate, 1 / sqrt(t))
    alpha = max(epsilon_2, rms(w)) * rho                     (a step relative to w's size)
    beta_2 = 1 - t ** beta_2_decay;  g2 = g ** 2 + epsilon_1
    rank >= 2:  r = beta_2 r + (1 - beta_2) mean(g2, axis=-1)     (rows)
                c = beta_2 c + (1 - beta_2) mean(g2, axis=-2)     (columns)
                v = (r / mean(r)) outer c
    otherwise:  v = beta_2 v + (1 - beta_2) g2
    u = g / sqrt(v);  w -= alpha * u / max(1, rms(u) / clip_threshold)

(With `relative_step=True` and a constant learning rate, the learning rate is
first capped at 1 / sqrt(t), as in Keras.)

>>> import minitf as tf
>>> w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
>>> opt = tf.keras.optimizers.Adafactor(learning_rate=0.1)
>>> _ = opt.minimize(lambda: tf.reduce_sum(w * w), [w])
>>> [tuple(s.shape) for s in opt.variables[2:]]  # rows, columns, velocity
[(2,), (2,), (2, 2)]
"""
from ...framework.tf_export import tf_export
from ...ops.array_ops import expand_dims
from ...ops.math_ops import cast, maximum, minimum, pow
from ...ops.reduction_ops import reduce_mean
from ...ops.unary_ops import sqrt, square
from ..variables import Variable
from .optimizer import Optimizer


def _rms(x):
    return sqrt(reduce_mean(square(x)))


@tf_export("keras.optimizers.Adafactor", "optimizers.Adafactor")
class Adafactor(Optimizer):
    """Adafactor; per variable a row and a column statistic (rank >= 2) and a "velocity".

    >>> tf.keras.optimizers.Adafactor().get_config()["beta_2_decay"]
    -0.8
    """

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3,
                 clip_threshold=1.0, relative_step=True, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, weight_decay=weight_decay,
                         clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum,
                         ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor,
                         gradient_accumulation_steps=gradient_accumulation_steps, **kwargs)
        self.beta_2_decay = beta_2_decay
        self.epsilon_1 = epsilon_1
        self.epsilon_2 = epsilon_2
        self.clip_threshold = clip_threshold
        self.relative_step = relative_step

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._r, self._c, self._v = [], [], []
        for var in var_list:
            shape = tuple(var.shape)
            if len(shape) < 2:  # not factored: placeholders Keras keeps out of `variables`
                self._r.append(Variable(0.0, name=var.name, trainable=False))
                self._c.append(Variable(0.0, name=var.name, trainable=False))
            else:  # the last two axes are factored
                self._r.append(self.add_variable(shape[:-1], dtype=var.dtype, name=var.name))
                self._c.append(self.add_variable(shape[:-2] + shape[-1:], dtype=var.dtype,
                                                 name=var.name))
            self._v.append(self.add_variable_from_reference(var, name="velocity"))

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = cast(learning_rate, dtype)
        gradient = cast(gradient, dtype)
        epsilon_2 = cast(self.epsilon_2, dtype)
        one = cast(1.0, dtype)
        step = cast(self.iterations + 1, dtype)
        if not callable(self._learning_rate) and self.relative_step:
            lr = minimum(lr, 1 / sqrt(step))
        index = self._get_variable_index(variable)
        r, c, v = self._r[index], self._c[index], self._v[index]
        rho = minimum(lr, 1 / sqrt(step))
        alpha = maximum(epsilon_2, _rms(variable)) * rho
        grad_square = square(gradient) + self.epsilon_1
        beta_2 = 1 - pow(step, self.beta_2_decay)
        if len(variable.shape) >= 2:
            self.assign(r, beta_2 * r + (1 - beta_2) * reduce_mean(grad_square, axis=-1))
            self.assign(c, beta_2 * c + (1 - beta_2) * reduce_mean(grad_square, axis=-2))
            rows = expand_dims(r / reduce_mean(r, axis=-1, keepdims=True), -1)
            self.assign(v, rows * expand_dims(c, -2))
        else:
            self.assign(v, beta_2 * v + (1 - beta_2) * grad_square)
        u = gradient / sqrt(v)
        u_hat = u / maximum(one, _rms(u) / self.clip_threshold)
        self.assign_sub(variable, alpha * u_hat)

    def get_config(self):
        config = super().get_config()
        config.update({"beta_2_decay": self.beta_2_decay, "epsilon_1": self.epsilon_1,
                       "epsilon_2": self.epsilon_2, "clip_threshold": self.clip_threshold,
                       "relative_step": self.relative_step})
        return config
