"""LossScaleOptimizer: dynamic loss scaling for float16 training.

float16 cannot hold numbers below ~6e-8, and small gradients computed in
float16 become 0 ("underflow"). So the loss is multiplied by a large scale
before the gradients are taken (`scale_loss`, which `fit` calls) and the
gradients are divided by it again before the wrapped optimizer applies them:

    finite gradients:  inner.apply(g / scale);  every `dynamic_growth_steps`
                       finite steps in a row: scale *= 2
    inf or NaN:        skip the step (the weights and the inner optimizer do
                       not change); scale /= 2

`compile` wraps the optimizer in one of these by itself when the model's
policy is 'mixed_float16' (`auto_scale_loss=True`), as Keras 3 does.

>>> import minitf as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1),
...                                              initial_scale=8.0)
>>> opt.apply([tf.constant(16.0)], [w])  # a scaled gradient: 16 / 8 = 2
>>> print(w.numpy(), opt.dynamic_scale.numpy())
0.8 8.0
>>> opt.apply([tf.constant(float("inf"))], [w])  # skipped; the scale halves
>>> print(w.numpy(), opt.dynamic_scale.numpy(), opt.iterations.numpy())
0.8 4.0 1

In TensorFlow this is `keras/src/optimizers/loss_scale_optimizer.py`.
"""
from ...framework.tf_export import tf_export
from ...ops.cond_ops import cond
from ...ops.math_ops import equal
from ...ops.reduction_ops import reduce_all
from ...ops.array_ops import stack
from ...ops.unary_ops import is_finite
from .optimizer import Optimizer

_BASE_DEFAULTS = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None,
                  "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
                  "ema_overwrite_frequency": None, "loss_scale_factor": None,
                  "gradient_accumulation_steps": None}


@tf_export("keras.optimizers.LossScaleOptimizer", "keras.mixed_precision.LossScaleOptimizer",
           "optimizers.LossScaleOptimizer")
class LossScaleOptimizer(Optimizer):
    """Wraps `inner_optimizer`; `initial_scale` 2**15, doubled after
    `dynamic_growth_steps` (2000) finite steps, halved on a non-finite one.

    >>> opt = tf.keras.optimizers.LossScaleOptimizer(tf.keras.optimizers.Adam())
    >>> opt.get_config()["inner_optimizer"]["class_name"], opt.get_config()["initial_scale"]
    ('Adam', 32768.0)
    """

    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000,
                 name=None, **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, "
                             "simply set `loss_scale_factor` directly on the `inner_optimizer`.")
        for arg_name, default in _BASE_DEFAULTS.items():
            if arg_name in kwargs:
                value = kwargs.pop(arg_name)
                if (default is None and value is not None) or value != default:
                    raise ValueError(f"LossScaleOptimizer does not support `{arg_name}`. "
                                     f"Instead, set `{arg_name}` on the `inner_optimizer`.")
        if kwargs:
            raise ValueError("LossScaleOptimizer does not support arguments: "
                             f"`{'`, `'.join(kwargs.keys())}`.")
        super().__init__(learning_rate=0.0, name=name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        self.inner_optimizer.loss_scale_factor = None

    def build(self, var_list):
        self.step_counter = self.add_variable((), dtype="int64", name="step_counter")
        self.dynamic_scale = self.add_variable((), initializer=self.initial_scale,
                                               dtype="float32", name="dynamic_scale")
        self.inner_optimizer.build(var_list)
        super().build(var_list)

    @property
    def variables(self):
        return self._variables + self.inner_optimizer.variables

    def apply(self, grads, trainable_variables=None):
        """Apply the unscaled gradients if all are finite, else skip; then adjust the scale."""
        grads = list(grads)
        if not self.built:
            self.build(trainable_variables)
        finite = self.check_finite(grads)
        cond(finite, lambda: self._apply_finite(grads, trainable_variables),
             self._skip_non_finite)

    def _apply_finite(self, grads, trainable_variables):
        scale = self.dynamic_scale
        self.inner_optimizer.apply([g if g is None else g / scale for g in grads],
                                   trainable_variables=trainable_variables)

        def upscale():
            self.step_counter.assign(0)
            self.dynamic_scale.assign(self.dynamic_scale * 2.0)
            return self.step_counter.read_value()

        def increment():
            self.step_counter.assign_add(1)
            return self.step_counter.read_value()

        cond(equal(self.step_counter, self.dynamic_growth_steps - 1), upscale, increment)
        return self.step_counter.read_value()

    def _skip_non_finite(self):
        self.step_counter.assign(0)
        self.dynamic_scale.assign(self.dynamic_scale * 0.5)
        return self.step_counter.read_value()

    def finalize_variable_values(self, var_list):
        """The inner optimizer's (its `use_ema` averages, if any)."""
        self.inner_optimizer.finalize_variable_values(var_list)

    def check_finite(self, grads):
        """A bool scalar: True when no gradient holds inf or NaN."""
        finite = [reduce_all(is_finite(g)) for g in grads if g is not None]
        return reduce_all(stack(finite))

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, learning_rate):
        self.inner_optimizer.learning_rate = learning_rate

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    def scale_loss(self, loss):
        """`loss * dynamic_scale` (the initial scale before the first step)."""
        scale = self.dynamic_scale if self.built else self.initial_scale
        return loss * scale

    def get_config(self):
        from . import lookup
        return {"name": self.name, "inner_optimizer": lookup.serialize(self.inner_optimizer),
                "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from . import lookup
        config = dict(config)
        inner = lookup.deserialize(config.pop("inner_optimizer"), custom_objects)
        return cls(inner, **config)
