"""Nadam: Adam with Nesterov momentum, using Keras 3's momentum schedule.

    u_t = beta_1 * (1 - 0.5 * 0.96 ** t)          t = iterations + 1
    u_product *= u_t                              (one optimizer variable, once per step)
    m += (g - m) * (1 - beta_1);  v += (g ** 2 - v) * (1 - beta_2)
    m_hat = u_{t+1} * m / (1 - u_product * u_{t+1}) + (1 - u_t) * g / (1 - u_product)
    v_hat = v / (1 - beta_2 ** t)
    w -= learning_rate * m_hat / (sqrt(v_hat) + epsilon)

This is current TF's rule (TF 2.11+); classic tf.keras 2.x Nadam's numbers differ.

>>> import minitf as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.Nadam(learning_rate=0.1)
>>> _ = opt.minimize(lambda: w * w, [w])
>>> print(round(float(w.numpy()), 5))
0.89372
"""
from ...framework.tf_export import tf_export
from ...framework.variables import Variable
from ...ops.math_ops import cast, pow
from ...ops.unary_ops import sqrt, square
from .optimizer import Optimizer


@tf_export("keras.optimizers.Nadam", "optimizers.Nadam")
class Nadam(Optimizer):
    """Nadam; slots "momentum" and "velocity" ("m", "v" accepted by `get_slot`).

    >>> tf.keras.optimizers.Nadam().get_config()["beta_1"]
    0.9
    """

    _SLOT_ALIASES = {"m": "momentum", "v": "velocity"}

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
        dtype = var_list[0].dtype if var_list else "float32"
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])
        # The running product of the u_t (Keras names this variable just "variable").
        self._u_product = Variable(1.0, dtype=dtype, trainable=False, name="u_product")
        self._variables.append(self._u_product)

    def _backend_update_step(self, grads, trainable_variables, learning_rate):
        dtype = self._u_product.dtype
        step = cast(self.iterations + 1, dtype)
        self.assign(self._u_product,
                    self._u_product * self.beta_1 * (1.0 - 0.5 * pow(0.96, step)))
        super()._backend_update_step(grads, trainable_variables, learning_rate)

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = cast(learning_rate, dtype)
        gradient = cast(gradient, dtype)
        local_step = cast(self.iterations + 1, dtype)
        next_step = cast(self.iterations + 2, dtype)
        decay = cast(0.96, dtype)
        beta_1 = cast(self.beta_1, dtype)
        beta_2 = cast(self.beta_2, dtype)
        u_t = beta_1 * (1.0 - 0.5 * pow(decay, local_step))
        u_t_1 = beta_1 * (1.0 - 0.5 * pow(decay, next_step))
        u_product_t = cast(self._u_product, dtype)
        u_product_t_1 = u_product_t * u_t_1
        beta_2_power = pow(beta_2, local_step)
        index = self._get_variable_index(variable)
        m = self._momentums[index]
        v = self._velocities[index]
        self.assign_add(m, (gradient - m) * (1 - beta_1))
        self.assign_add(v, (square(gradient) - v) * (1 - beta_2))
        m_hat = u_t_1 * m / (1 - u_product_t_1) + (1 - u_t) * gradient / (1 - u_product_t)
        v_hat = v / (1 - beta_2_power)
        self.assign_sub(variable, m_hat * lr / (sqrt(v_hat) + self.epsilon))

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon})
        return config
