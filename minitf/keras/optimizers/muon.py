"""Muon: momentum SGD whose update matrix is orthogonalised (Newton-Schulz), AdamW elsewhere.

For a 2-D weight (a Dense kernel) Muon keeps a momentum `m` and steps along an
"orthogonalised" version of it: the matrix `U V^T` of its singular value
decomposition `m = U S V^T`, all singular values pushed towards 1, so that
every direction of the update moves by about the same amount. An SVD is
slow; five steps of a quintic Newton-Schulz iteration get close enough:

    m = momentum * m + g
    G = g + momentum * m               (nesterov=True; else G = m)
    X = G / (||G||_F + 1e-7)           (transposed first if it has more rows than columns)
    5 times:  A = X X^T;  X = a X + (b A + c A A) X     (a, b, c = muon_a, muon_b, muon_c)
    w -= lr * X * sqrt(max(rows, cols)) * rms_rate     (Moonlight's scaling; rms_rate=None: none)

Every other variable takes an AdamW step (`adam_beta_1/2`, learning rate
`lr * adam_lr_ratio`): any variable that is not 2-D, embeddings (a path
containing "embedding", while `exclude_embeddings=True`) and variables whose
path matches one of the regular expressions in `exclude_layers` (usually the
output layer). Decoupled weight decay is `weight_decay` for Muon's variables
and `adam_weight_decay` for the AdamW ones.

>>> import minitf as tf
>>> kernel = tf.Variable([[1.0, 0.0], [0.0, 1.0]])
>>> opt = tf.keras.optimizers.Muon(learning_rate=0.1, weight_decay=None, rms_rate=None)
>>> _ = opt.apply([tf.constant([[2.0, 0.0], [0.0, 0.5]])], [kernel])
>>> kernel.numpy().round(2)   # gradients 2 and 0.5, yet both diagonals moved alike
array([[0.93, 0.  ],
       [0.  , 0.93]], dtype=float32)

In TensorFlow this is `keras/src/optimizers/muon.py`.
"""
import re

from ...framework.tf_export import tf_export
from ...ops.array_ops import transpose
from ...ops.linalg_norm_ops import norm
from ...ops.linalg_ops import matmul
from ...ops.math_ops import cast, pow
from ...ops.unary_ops import sqrt, square
from .optimizer import Optimizer


@tf_export("keras.optimizers.Muon", "optimizers.Muon")
class Muon(Optimizer):
    """Muon for 2-D weights, AdamW for the rest; slots "momentum" (all) and "velocity"
    (AdamW's variables only).

    >>> tf.keras.optimizers.Muon().get_config()["ns_steps"]
    5
    """

    def __init__(self, learning_rate=0.001, adam_beta_1=0.9, adam_beta_2=0.999,
                 adam_weight_decay=0.004, epsilon=1e-7, weight_decay=0.004, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, exclude_layers=None,
                 exclude_embeddings=True, muon_a=3.4445, muon_b=-4.7750, muon_c=2.0315,
                 adam_lr_ratio=1, momentum=0.95, ns_steps=5, nesterov=True, rms_rate=0.2,
                 **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, weight_decay=weight_decay,
                         clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum,
                         ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor,
                         gradient_accumulation_steps=gradient_accumulation_steps, **kwargs)
        self.adam_beta_1 = adam_beta_1
        self.adam_beta_2 = adam_beta_2
        self.epsilon = epsilon
        self.muon_a, self.muon_b, self.muon_c = muon_a, muon_b, muon_c
        self.adam_lr_ratio = adam_lr_ratio
        self.momentum = momentum
        self.ns_steps = ns_steps
        self.nesterov = nesterov
        self.exclude_embeddings = exclude_embeddings
        self.exclude_layers = exclude_layers or []
        self.adam_weight_decay = adam_weight_decay
        self.rms_rate = rms_rate

    def _should_use_adamw(self, variable):
        """True for variables that are not 2-D, embeddings, and `exclude_layers` matches."""
        if len(variable.shape) != 2:
            return True
        path = _path(variable)
        if self.exclude_embeddings and "embedding" in path.lower():
            return True
        return any(re.search(keyword, path) for keyword in self.exclude_layers)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self.momentums = [None] * len(var_list)
        self.adam_velocities = [None] * len(var_list)
        for variable in var_list:
            index = self._get_variable_index(variable)
            self.momentums[index] = self.add_variable_from_reference(variable, "momentum")
            if self._should_use_adamw(variable):
                self.adam_velocities[index] = self.add_variable_from_reference(
                    variable, "velocity")

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        m, v = self.momentums[index], self.adam_velocities[index]
        if v is not None:  # a velocity slot marks an AdamW variable
            self._adamw_update_step(gradient, variable, learning_rate * self.adam_lr_ratio,
                                    m, v)
        else:
            self._muon_update_step(gradient, variable, learning_rate, m)

    def _muon_update_step(self, gradient, variable, lr, m):
        self.assign_add(m, gradient + m * (self.momentum - 1))  # m = momentum * m + g
        g = gradient + self.momentum * m if self.nesterov else m
        update = self.zeropower_via_newtonschulz5(g, self.ns_steps)
        self.assign_sub(variable, self.lr_adjust(lr * update))

    def _adamw_update_step(self, gradient, variable, learning_rate, m, v):
        dtype = variable.dtype
        lr = cast(learning_rate, dtype)
        gradient = cast(gradient, dtype)
        local_step = cast(self.iterations + 1, dtype)
        beta_1_power = pow(cast(self.adam_beta_1, dtype), local_step)
        beta_2_power = pow(cast(self.adam_beta_2, dtype), local_step)
        alpha = lr * sqrt(1 - beta_2_power) / (1 - beta_1_power)
        self.assign_add(m, (gradient - m) * (1 - self.adam_beta_1))
        self.assign_add(v, (square(gradient) - v) * (1 - self.adam_beta_2))
        self.assign_sub(variable, (m * alpha) / (sqrt(v) + self.epsilon))

    def lr_adjust(self, x):
        """Scale a 2-D update by sqrt(max(rows, cols)) * rms_rate (arXiv:2502.16982), so
        Muon can share Adam's learning rate and weight decay; rms_rate=None: unchanged."""
        if self.rms_rate is None:
            return x
        return x * sqrt(cast(max(x.shape[0], x.shape[1]), x.dtype)) * self.rms_rate

    def zeropower_via_newtonschulz5(self, x, steps):
        """About U V^T for x = U S V^T: `steps` quintic Newton-Schulz iterations."""
        if len(x.shape) < 2:
            raise ValueError("Expected gradient or momentum to have at least 2 dimensions. "
                             f"Received: shape={tuple(x.shape)}")
        a, b, c = self.muon_a, self.muon_b, self.muon_c
        tall = x.shape[-2] > x.shape[-1]
        if tall:
            x = _transpose_last_axes(x)
        x = x / (norm(x, axis=(-2, -1), keepdims=True) + 1e-7)  # spectral norm <= 1
        for _ in range(steps):
            gram = matmul(x, _transpose_last_axes(x))
            x = a * x + matmul(b * gram + c * matmul(gram, gram), x)
        return _transpose_last_axes(x) if tall else x

    def _apply_weight_decay(self, variables):
        for variable in variables:
            if not self._use_weight_decay(variable):
                continue
            decay = self.adam_weight_decay if self._should_use_adamw(variable) \
                else self.weight_decay
            if decay is None:
                continue
            wd = cast(decay, variable.dtype)
            lr = cast(self.learning_rate, variable.dtype)
            variable.assign(variable - variable * wd * lr)

    def get_config(self):
        config = super().get_config()
        config.update({"adam_beta_1": self.adam_beta_1, "adam_beta_2": self.adam_beta_2,
                       "epsilon": self.epsilon, "exclude_layers": self.exclude_layers,
                       "muon_a": self.muon_a, "muon_b": self.muon_b, "muon_c": self.muon_c,
                       "adam_lr_ratio": self.adam_lr_ratio, "momentum": self.momentum,
                       "ns_steps": self.ns_steps, "nesterov": self.nesterov,
                       "exclude_embeddings": self.exclude_embeddings,
                       "adam_weight_decay": self.adam_weight_decay,
                       "rms_rate": self.rms_rate})
        return config


def _path(variable):
    """A Keras weight's 'layer/kernel' path; a plain tf.Variable has only its name."""
    return str(getattr(variable, "path", None) or variable.name)


def _transpose_last_axes(x):
    perm = list(range(len(x.shape)))
    perm[-2], perm[-1] = perm[-1], perm[-2]
    return transpose(x, perm)
