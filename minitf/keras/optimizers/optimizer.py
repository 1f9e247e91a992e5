"""The `Optimizer` base class: what every optimizer does around its update rule.

An optimizer step (`apply_gradients`) is, as in Keras 3 (TF 2.21's tf.keras):

1. on the first call, `build(var_list)` creates the *slot variables* (momentum,
   velocity, ...) - one per model variable and slot name;
2. `None` gradients are dropped with a warning (all `None`: `ValueError`);
3. gradients are clipped (`clipnorm`, `global_clipnorm` or `clipvalue`);
4. weight decay shrinks each variable: `w -= w * weight_decay * lr`;
5. the subclass's `update_step(gradient, variable, learning_rate)` runs for each
   variable - the only part that differs between SGD, Adam, ...;
6. `iterations` goes up by one.

All of it is minitf ops and `Variable.assign*`, so a training step wrapped in
`tf.function` traces into one graph (slots are created during the first trace).

Slot variables are inspectable: `opt.get_slot(var, "momentum")` returns the
slot of a model variable and `opt.get_slot_names()` lists the names. Names are
Keras 3's ("momentum", "velocity"); the classic tf.keras names ("m", "v",
"rms", ...) are accepted as aliases (see each optimizer's `_SLOT_ALIASES`).

>>> import minitf as tf
>>> w = tf.Variable([1.0, 2.0], name="w")
>>> opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
>>> opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
<tf.Variable 'iteration:0' shape=() dtype=int64, numpy=1>
>>> opt.get_slot(w, "momentum")
<tf.Variable 'w_0_momentum:0' shape=(2,) dtype=float32, numpy=array([-0.1, -0.1], dtype=float32)>
"""
import re
import warnings

import numpy as np

from ...framework import dtypes, errors
from ...framework.tape import GradientTape
from ...framework.tensor import convert_to_tensor
from ...framework.tf_export import tf_export
from ...framework.variables import Variable
from ...module import _on_assign
from ...ops.array_ops import stack
from ...ops.clip_ops import clip_by_norm, clip_by_value
from ...ops.cond_ops import cond
from ...ops.math_ops import cast, equal, minimum, not_equal
from ...ops.reduction_ops import reduce_sum
from ...ops.unary_ops import sqrt, square
from ..utils.naming import to_snake_case
from . import schedules

_NAME_COUNTS = {}


def _auto_name(class_name):
    """'Adam' -> 'adam', then 'adam_1', ...; 'AdamW' -> 'adam_w', 'RMSprop' -> 'rm_sprop'
    (Keras's `auto_name`: its snake case, then numbered)."""
    base = to_snake_case(class_name)
    count = _NAME_COUNTS.get(base, 0)
    _NAME_COUNTS[base] = count + 1
    return base if count == 0 else f"{base}_{count}"


@tf_export("keras.optimizers.Optimizer", "optimizers.Optimizer", "keras.Optimizer")
class Optimizer:
    """Base class of Keras optimizers; subclasses define `build` and `update_step`.

    learning_rate: a Python float (stored in a non-trainable variable you can
        change: `opt.learning_rate = 0.01`), a `LearningRateSchedule` (called
        with `iterations`), or a callable of no arguments. The classic keyword
        `lr` is accepted as an alias (real TF 2.21 rejects it).
    weight_decay, clipnorm, clipvalue, global_clipnorm, loss_scale_factor: as in Keras 3.

    A minimal SGD written as a subclass:

    >>> class MySGD(tf.keras.optimizers.Optimizer):
    ...     def __init__(self, learning_rate=0.1, name=None, **kwargs):
    ...         super().__init__(learning_rate=learning_rate, name=name, **kwargs)
    ...     def update_step(self, gradient, variable, learning_rate):
    ...         variable.assign_sub(gradient * tf.cast(learning_rate, variable.dtype))
    >>> w = tf.Variable(3.0)
    >>> MySGD().minimize(lambda: w * w, [w]).numpy()
    np.int64(1)
    >>> print(w.numpy())
    2.4
    """

    _SLOT_ALIASES = {}  # classic tf.keras slot name -> Keras 3 slot name

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if "lr" in kwargs:  # classic tf.keras spelling (Keras 3 rejects it)
            warnings.warn("The `lr` argument is deprecated, use `learning_rate` instead.",
                          stacklevel=3)
            learning_rate = kwargs.pop("lr")
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.")
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        if gradient_accumulation_steps:
            raise NotImplementedError(
                "minitf's optimizers do not implement `gradient_accumulation_steps` (real "
                "TF 2.21 does); leave it at its default, None.")
        if use_ema:
            _check_ema_args(ema_momentum, ema_overwrite_frequency)
        clip_args = [a for a in (clipnorm, clipvalue, global_clipnorm) if a is not None]
        if len(clip_args) > 1:
            raise ValueError(
                "Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. "
                f"Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                f"global_clipnorm={global_clipnorm}")
        self.name = name or _auto_name(type(self).__name__)
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self.use_ema = use_ema
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._index = {}  # id(model variable) -> position in _trainable_variables
        self._slots = {}  # id(model variable) -> {slot name: slot variable}
        self._iterations = Variable(0, dtype=dtypes.int64, trainable=False, name="iteration")
        self._variables.append(self._iterations)
        self._learning_rate = self._make_learning_rate(learning_rate)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if _on_assign:  # a checkpoint restore waits for attributes to appear (tf.train)
            _on_assign[0](self, name, value)

    def _make_learning_rate(self, learning_rate):
        if isinstance(learning_rate, schedules.LearningRateSchedule) or callable(learning_rate):
            return learning_rate
        if not isinstance(learning_rate, float):
            raise ValueError(
                "Argument `learning_rate` should be float, or an instance of "
                "LearningRateSchedule, or a callable (that takes in the current iteration "
                "value and returns the corresponding learning rate value). Received instead: "
                f"learning_rate={learning_rate} Write the number as a float, e.g. "
                f"{learning_rate}.0 rather than {learning_rate}.")
        variable = Variable(learning_rate, dtype=dtypes.float32, trainable=False,
                            name="learning_rate")
        self._variables.append(variable)
        return variable

    # --- the learning rate -------------------------------------------------------------
    @property
    def learning_rate(self):
        """The current learning rate: the variable, or the schedule's value at `iterations`."""
        lr = self._learning_rate
        if isinstance(lr, schedules.LearningRateSchedule):
            return lr(self._iterations)
        if isinstance(lr, Variable):
            return lr
        return lr()

    @learning_rate.setter
    def learning_rate(self, learning_rate):
        if isinstance(learning_rate, schedules.LearningRateSchedule) or callable(learning_rate):
            if isinstance(self._learning_rate, Variable):
                self._variables.remove(self._learning_rate)
            self._learning_rate = learning_rate
        elif isinstance(self._learning_rate, Variable):
            self._learning_rate.assign(learning_rate)
        else:
            raise TypeError(
                "This optimizer was created with a `LearningRateSchedule` object as its "
                "`learning_rate` constructor argument, hence its learning rate is not "
                "settable. If you need the learning rate to be settable, you should "
                "instantiate the optimizer with a float `learning_rate` argument.")

    lr = learning_rate  # classic tf.keras alias: `opt.lr`

    @property
    def iterations(self):
        """How many steps were applied: an int64 variable (`apply` adds one each time)."""
        return self._iterations

    @property
    def variables(self):
        """All the optimizer's variables: iteration, learning rate, then the slots."""
        return self._variables[:]

    # --- slot variables ------------------------------------------------------------------
    def build(self, var_list):
        """Remember the model variables; subclasses then add their slots."""
        var_list = list(var_list)
        for i, variable in enumerate(var_list):
            self._index[id(variable)] = i
            self._slots.setdefault(id(variable), {})
        self._trainable_variables = var_list
        self.built = True
        if self.use_ema:  # first, before the subclass's slots (Keras's order)
            self._model_variables_moving_average = self.add_optimizer_variables(
                var_list, "average")

    def add_variable(self, shape, initializer="zeros", dtype=None, aggregation="none",
                     name=None):
        """A new non-trainable optimizer variable, filled with 0 ("zeros") or a number."""
        fill = 0.0 if initializer == "zeros" else float(initializer)
        dtype = dtypes.as_dtype(dtype or "float32")
        shape = [int(d) for d in shape]
        variable = Variable(np.full(shape, fill, dtype=dtype.as_numpy_dtype),
                            trainable=False, name=name)
        self._variables.append(variable)
        if _on_assign:  # a checkpoint restore waits for this slot (tf.train, deferred)
            _on_assign[0](self, "_variables", variable)
        return variable

    def add_variable_from_reference(self, reference_variable, name=None, initializer="zeros"):
        """A slot for `reference_variable`: same shape and dtype, named '<var>_<name>'."""
        name = name or "var"
        prefix = str(reference_variable.name).replace("/", "_").replace(":", "_")
        slot = self.add_variable(reference_variable.shape, initializer,
                                 reference_variable.dtype, name=f"{prefix}_{name}")
        self._slots.setdefault(id(reference_variable), {})[name] = slot
        return slot

    def add_optimizer_variables(self, trainable_variables, name, initializer="zeros"):
        """One slot per variable for each name; returns a list (or a tuple of lists)."""
        names = [name] if isinstance(name, str) else list(name)
        inits = initializer if isinstance(initializer, (list, tuple)) else \
            [initializer] * len(names)
        result = tuple([] for _ in names)
        for variable in trainable_variables:  # interleaved, as Keras orders them
            for i, (slot_name, init) in enumerate(zip(names, inits)):
                result[i].append(self.add_variable_from_reference(variable, slot_name, init))
        return result[0] if isinstance(name, str) else result

    def get_slot_names(self):
        """The slot names this optimizer keeps per variable (after `build`)."""
        for slots in self._slots.values():
            if slots:
                return list(slots)
        return []

    def get_slot(self, var, slot_name):
        """The slot variable `slot_name` of model variable `var` (a minitf convenience,
        also classic tf.keras's API; in Keras 3 slots live in lists like `_momentums`)."""
        slots = self._slots.get(id(var))
        if slots is None:
            raise KeyError(
                f"Variable {var.name} is not known to optimizer '{self.name}'. Slots exist "
                "only for variables the optimizer has updated (or was built with).")
        name = self._SLOT_ALIASES.get(slot_name, slot_name)
        if name not in slots:
            raise KeyError(f"Unknown slot '{slot_name}' for optimizer '{self.name}'. Known "
                           f"slots: {list(slots)}.")
        return slots[name]

    def _get_variable_index(self, variable):
        return self._index[id(variable)]

    def assign(self, variable, value):
        variable.assign(value)

    def assign_add(self, variable, value):
        variable.assign_add(value)

    def assign_sub(self, variable, value):
        variable.assign_sub(value)

    # --- applying gradients ------------------------------------------------------------
    def update_step(self, gradient, variable, learning_rate):
        """The update rule for one variable; every optimizer defines it."""
        raise NotImplementedError(
            f"{type(self).__name__} must define update_step(gradient, variable, "
            "learning_rate): the rule that changes `variable` given its gradient.")

    def apply_gradients(self, grads_and_vars, name=None, **kwargs):
        """Apply `(gradient, variable)` pairs; returns the `iterations` variable."""
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            return self._iterations
        grads, trainable_variables = zip(*grads_and_vars)
        self.apply(grads, trainable_variables)
        return self._iterations

    def apply(self, grads, trainable_variables=None):
        """Update `trainable_variables` with `grads` (Keras 3's spelling of a step)."""
        grads = list(grads)
        if not grads:
            return
        if trainable_variables is None:
            trainable_variables = self._built_variables()
        else:
            trainable_variables = list(trainable_variables)
            if not self.built:
                self.build(trainable_variables)
                self.built = True
            self._check_variables_are_known(trainable_variables)
        grads, trainable_variables = _filter_empty_gradients(grads, trainable_variables)
        grads = [self._checked_gradient(g, v) for g, v in zip(grads, trainable_variables)]
        if self.loss_scale_factor is not None:
            grads = [g / self.loss_scale_factor for g in grads]
        grads = self._clip_gradients(grads)
        self._apply_weight_decay(trainable_variables)
        self._backend_update_step(grads, trainable_variables, self.learning_rate)
        if self.use_ema:
            self._update_ema()
        for variable in trainable_variables:
            if variable.constraint is not None:
                variable.assign(variable.constraint(variable))
        self._iterations.assign_add(1)

    def _built_variables(self):
        """The variables `build` was given: what `apply(grads)` without variables updates."""
        if not self.built:
            raise ValueError(
                "When passing `grads` without `variables`, the optimizer must already "
                "be built on a list of variables. Call "
                "`optimizer.build(trainable_variables)` first. ")
        return self._trainable_variables

    def _backend_update_step(self, grads, trainable_variables, learning_rate):
        for grad, variable in zip(grads, trainable_variables):
            self.update_step(grad, variable, learning_rate)

    # --- the exponential moving average of the weights (use_ema=True) -----------------------
    def _update_ema(self):
        """average = m * average + (1 - m) * variable, with m = 0 on the very first step (so
        the average starts at the weights); every `ema_overwrite_frequency` steps the
        weights are overwritten with their averages. Keras 3's order: after the update,
        before the constraints, on all variables the optimizer was built with."""
        not_first_step = not_equal(self.iterations, 0)
        for variable, average in zip(self._trainable_variables,
                                     self._model_variables_moving_average):
            momentum = cast(not_first_step, variable.dtype) * self.ema_momentum
            average.assign(momentum * average + (1 - momentum) * variable)
        if self.ema_overwrite_frequency:
            overwrite = equal((self.iterations + 1) % self.ema_overwrite_frequency, 0)
            cond(overwrite, lambda: self._overwrite_model_variables_with_average_value(
                self._trainable_variables), lambda: None)

    def _overwrite_model_variables_with_average_value(self, trainable_variables):
        if len(trainable_variables) != len(self._model_variables_moving_average):
            raise ValueError(
                f"The length of model variables ({len(trainable_variables)}) to override "
                "does not match the length of model variables stored in the optimizer "
                f"({len(self._model_variables_moving_average)}). Please check if the "
                "optimizer was called on your model.")
        for variable, average in zip(trainable_variables,
                                     self._model_variables_moving_average):
            variable.assign(average)

    def finalize_variable_values(self, var_list):
        """End of `fit`: with `use_ema=True` the weights take their moving averages."""
        if self.use_ema:
            self._overwrite_model_variables_with_average_value(var_list)

    def _check_variables_are_known(self, variables):
        for v in variables:
            if id(v) not in self._index:
                raise ValueError(
                    f"Unknown variable: {v!r}. This optimizer can only be called for the "
                    "variables it was originally built with. When working with a new set of "
                    "variables, you should recreate a new optimizer instance.")

    def _checked_gradient(self, grad, variable):
        grad = convert_to_tensor(grad)
        if grad.dtype is not variable.dtype:
            grad = cast(grad, variable.dtype)
        if not variable.shape.is_compatible_with(grad.shape):
            raise errors.op_error(
                errors.InvalidArgumentError, "AssignSubVariableOp",
                f"Cannot update variable with shape {_dims(variable.shape)} using a Tensor "
                f"with shape {_dims(grad.shape)}, shapes must be equal.",
                f"The gradient for '{variable.name}' must have the variable's shape; check "
                "that each gradient is paired with its own variable.")
        return grad

    def _clip_gradients(self, grads):
        if self.clipnorm and self.clipnorm > 0:
            return [clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            return clip_by_global_norm(grads, self.global_clipnorm)
        if self.clipvalue and self.clipvalue > 0:
            return [clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        return grads

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Exempt variables (or those whose name contains one of `var_names`) from decay."""
        if self.built:
            raise ValueError("`exclude_from_weight_decay()` can only be configured before "
                             "the optimizer is built.")
        self._exclude_ids = {id(v) for v in var_list or []}
        self._exclude_pattern = re.compile("|".join(set(var_names))) if var_names else None

    def _use_weight_decay(self, variable):
        if id(variable) in getattr(self, "_exclude_ids", ()):
            return False
        pattern = getattr(self, "_exclude_pattern", None)
        return pattern is None or re.search(pattern, variable.name) is None

    def _apply_weight_decay(self, variables):
        if self.weight_decay is None:
            return
        for variable in variables:
            if self._use_weight_decay(variable):
                lr = cast(self.learning_rate, variable.dtype)
                wd = cast(self.weight_decay, variable.dtype)
                variable.assign_sub(variable * wd * lr)

    def scale_loss(self, loss):
        """`loss * loss_scale_factor` when one is set: `fit` differentiates the scaled loss
        and `apply` divides the gradients by the factor again (Keras 3)."""
        if self.loss_scale_factor is not None:
            return loss * self.loss_scale_factor
        return loss

    # --- the classic tf.keras API ----------------------------------------------------------
    def compute_gradients(self, loss, var_list, tape=None):
        """`(gradient, variable)` pairs of `loss` (a callable, or a tensor with its tape)."""
        if not callable(loss) and tape is None:
            raise ValueError(
                "`tape` is required when a `Tensor` loss is passed. Received: "
                f"loss={loss}, tape={tape}. Pass the GradientTape that recorded the loss, "
                "or pass the loss as a function (e.g. `lambda: loss_fn()`).")
        tape = tape if tape is not None else GradientTape()
        if callable(loss):
            with tape:
                if not callable(var_list):
                    tape.watch(var_list)
                loss = loss()
        if callable(var_list):
            var_list = var_list()
        var_list = list(var_list)
        grads = tape.gradient(loss, var_list)
        return list(zip(grads, var_list))

    def minimize(self, loss, var_list, tape=None):
        """One step downhill: compute the gradients of `loss`, then apply them.

        `loss` is a callable returning the loss (recorded on a new tape), or a
        tensor together with the `tape` that recorded it. Returns `iterations`.
        """
        grads_and_vars = self.compute_gradients(loss, var_list, tape)
        return self.apply_gradients(grads_and_vars)

    # --- configuration -------------------------------------------------------------------
    def get_config(self):
        """The constructor arguments as a dict (`from_config` rebuilds the optimizer)."""
        lr = self._learning_rate
        if isinstance(lr, schedules.LearningRateSchedule):
            lr = schedules.serialize(lr)
        elif isinstance(lr, Variable):
            lr = float(lr.numpy())
        return {"name": self.name, "learning_rate": lr, "weight_decay": self.weight_decay,
                "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm,
                "clipvalue": self.clipvalue, "use_ema": self.use_ema,
                "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency,
                "loss_scale_factor": self.loss_scale_factor,
                "gradient_accumulation_steps": self.gradient_accumulation_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = schedules.deserialize(config["learning_rate"],
                                                            custom_objects)
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__module__.replace('minitf.', '')}.{type(self).__name__} " \
               f"name={self.name!r}>"


def _check_ema_args(ema_momentum, ema_overwrite_frequency):
    if ema_momentum > 1 or ema_momentum < 0:
        raise ValueError("`ema_momentum` must be in the range [0, 1]. "
                         f"Received: ema_momentum={ema_momentum}")
    if ema_overwrite_frequency and (not isinstance(ema_overwrite_frequency, int)
                                    or ema_overwrite_frequency < 1):
        raise ValueError("`ema_overwrite_frequency` must be an integer >= 1 or None. "
                         f"Received: ema_overwrite_frequency={ema_overwrite_frequency}")


def _filter_empty_gradients(grads, variables):
    kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
    if not kept:
        raise ValueError(
            "No gradients provided for any variable. (Each gradient was None: the loss "
            "does not depend on these variables, or was computed outside the tape.)")
    missing = [v.name for g, v in zip(grads, variables) if g is None]
    if missing:
        warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the "
                      "loss. If using `model.compile()`, did you forget to provide a `loss` "
                      "argument?")
    return [g for g, _ in kept], [v for _, v in kept]


def clip_by_global_norm(value_list, clip_norm):
    """Scale all tensors together so that their joint L2 norm is at most `clip_norm`."""
    use_norm = sqrt(reduce_sum(stack([reduce_sum(square(v)) for v in value_list])))
    scale_for_finite = clip_norm * minimum(1.0 / use_norm, 1.0 / clip_norm)
    scale = scale_for_finite + (use_norm - use_norm)  # NaN if the norm is inf or NaN
    return [v * cast(scale, v.dtype) for v in value_list]


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"

