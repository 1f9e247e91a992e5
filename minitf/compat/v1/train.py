"""`tf.compat.v1.train`: TF1's optimizers, which add their update ops to the graph.

`optimizer.minimize(loss)` in TF1 differentiates the graph (`tf.gradients` walks
its nodes backwards), then adds one assignment per trainable variable and returns
a single operation grouping them: running it in a session takes one step.

>>> import minitf as tf
>>> with tf.compat.v1.Graph().as_default():
...     w = tf.compat.v1.get_variable("w", initializer=tf.constant(3.0))
...     step = tf.compat.v1.train.GradientDescentOptimizer(0.25).minimize(w * w)
...     with tf.compat.v1.Session() as sess:
...         sess.run(tf.compat.v1.global_variables_initializer())
...         sess.run(step)                     # w -= 0.25 * 2w
...         print(sess.run(w))
1.5

Eagerly (TF2), `minimize` takes a function returning the loss and updates at once.
TensorFlow's are in `tensorflow/python/training/optimizer.py` and its neighbours.
"""
from ...framework import context, dtypes
from ...framework.tensor import convert_to_tensor
from ...framework.tf_export import tf_export
from ...framework.variables import Variable
from .graph_mode import get_default_graph
from .variable_scopes import GraphKeys, add_to_collection, get_collection, trainable_variables


def _ops():
    from ...ops import math_ops, unary_ops  # noqa: PLC0415 - ops sit above the framework

    return math_ops.cast, unary_ops.sqrt


def _assign(variable, value, method):
    """An assignment: a node of the graph (its output), or done now when eager."""
    value = convert_to_tensor(value, dtype=variable.dtype)
    if context.executing_eagerly():
        getattr(variable, method)(value)
        return None
    return get_default_graph().assign_variable(variable, value, method)


def _group(updates, name):
    from ...ops.graph_helper_ops import NoOp  # noqa: PLC0415

    if context.executing_eagerly():
        return None
    graph = get_default_graph()
    inputs = [graph.symbolic(u) for u in updates if u is not None]
    return graph._add(NoOp, inputs, {}, (), (), name=name)


def _slot(variable, suffix, initial=0.0):
    """A non-trainable variable beside `variable` (named `<var>/<suffix>`), as TF1's slots."""
    value = convert_to_tensor(initial, dtype=variable.dtype)
    if variable.shape.rank:
        from ...ops.creation_ops import fill  # noqa: PLC0415

        value = fill(variable.shape.as_list(), value)
    slot = Variable(value, trainable=False, dtype=variable.dtype)
    slot._name = f"{variable.name.rpartition(':')[0]}/{suffix}:0"
    return slot


@tf_export("compat.v1.train.Optimizer")
class Optimizer:
    """The TF1 optimizer base: `minimize` = `compute_gradients` + `apply_gradients`.

    >>> tf.compat.v1.train.GradientDescentOptimizer(0.1).get_name()
    'GradientDescent'
    """

    GATE_NONE, GATE_OP, GATE_GRAPH = 0, 1, 2

    def __init__(self, use_locking, name):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking, self._name = use_locking, name
        self._slots = {}  # (suffix, id(variable)) -> slot variable

    def get_name(self):
        return self._name

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        """Add the ops that take one step downhill on `loss`; returns that operation."""
        grads_and_vars = self.compute_gradients(loss, var_list=var_list, grad_loss=grad_loss)
        if not [v for g, v in grads_and_vars if g is not None]:
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not "
                f"support gradients, between variables {[str(v) for _, v in grads_and_vars]} "
                f"and loss {loss}.")
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        """[(gradient, variable)] for `var_list` (default: the trainable variables)."""
        if callable(loss):
            from ...framework.tape import GradientTape  # noqa: PLC0415

            with GradientTape() as tape:
                value = loss()
                if getattr(value, "_is_variable", False):
                    value = value.value()  # read while the tape records
            var_list = list(var_list) if var_list is not None else list(tape.watched_variables())
            grads = tape.gradient(value, var_list, output_gradients=grad_loss)
            return list(zip(grads, var_list))
        if context.executing_eagerly():
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                               "function when eager execution is enabled.")
        from ...ops.gradients_ops import gradients  # noqa: PLC0415

        if getattr(loss, "_is_variable", False):
            loss = loss.value()  # a read of it: a node of the graph
        var_list = list(var_list) if var_list is not None else trainable_variables()
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients(loss, var_list, grad_ys=None if grad_loss is None else [grad_loss])
        return list(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Add (or, eagerly, do) one update per variable that has a gradient."""
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError("No gradients provided for any variable: "
                             f"{[str(v) for _, v in grads_and_vars]}.")
        self._prepare([v for _, v in pairs])
        updates = [self._apply_dense(convert_to_tensor(g, dtype=v.dtype), v) for g, v in pairs]
        updates += self._finish()
        if global_step is not None:
            updates.append(_assign(global_step, 1, "assign_add"))
        return _group(updates, name or self._name)

    def get_slot(self, var, name):
        """The slot variable `name` (e.g. "m" for Adam) kept for `var`, or None."""
        return self._slots.get((name, id(var)))

    def get_slot_names(self):
        return sorted({name for name, _ in self._slots})

    def variables(self):
        return [v for v in self._slots.values()]

    # --- subclasses -------------------------------------------------------------------
    def _prepare(self, var_list):
        pass

    def _finish(self):
        return []

    def _apply_dense(self, grad, var):
        raise NotImplementedError("An Optimizer subclass defines _apply_dense(grad, var).")

    def _get_or_make_slot(self, var, key, suffix):
        slot = self._slots.get((key, id(var)))
        if slot is None:
            slot = self._slots[(key, id(var))] = _slot(var, suffix)
        return slot

    def _hyper(self, value, var):
        return _ops()[0](value, var.dtype)


@tf_export("compat.v1.train.GradientDescentOptimizer")
class GradientDescentOptimizer(Optimizer):
    """`var -= learning_rate * grad`.

    >>> opt = tf.compat.v1.train.GradientDescentOptimizer(learning_rate=0.1)
    >>> v = tf.Variable(1.0)
    >>> opt.minimize(lambda: v * v, var_list=[v])   # eager: a step now, returns None
    >>> round(float(v), 6)
    0.8
    """

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _apply_dense(self, grad, var):
        return _assign(var, self._hyper(self._learning_rate, var) * grad, "assign_sub")


@tf_export("compat.v1.train.MomentumOptimizer")
class MomentumOptimizer(Optimizer):
    """`accum = momentum * accum + grad; var -= learning_rate * accum` (Nesterov:
    `var -= learning_rate * (grad + momentum * accum)`); slot "momentum".

    >>> v = tf.Variable(1.0)
    >>> opt = tf.compat.v1.train.MomentumOptimizer(0.1, momentum=0.9)
    >>> opt.minimize(lambda: v, var_list=[v]); opt.minimize(lambda: v, var_list=[v])
    >>> round(float(v), 6)   # 1 - 0.1 * 1 - 0.1 * 1.9
    0.71
    """

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
                 use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate, self._momentum, self._nesterov = learning_rate, momentum, use_nesterov

    def _apply_dense(self, grad, var):
        accum = self._get_or_make_slot(var, "momentum", self._name)
        momentum, lr = self._hyper(self._momentum, var), self._hyper(self._learning_rate, var)
        new = momentum * accum + grad
        kept = _assign(accum, new, "assign")
        new = new if kept is None else kept
        step = lr * (grad + momentum * new) if self._nesterov else lr * new
        return _assign(var, step, "assign_sub")


@tf_export("compat.v1.train.AdamOptimizer")
class AdamOptimizer(Optimizer):
    """TF1's Adam, as its `ApplyAdam` kernel: with t the step number,
    `lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)`, `m += (g - m) * (1 - beta1)`,
    `v += (g^2 - v) * (1 - beta2)`, `var -= lr_t * m / (sqrt(v) + epsilon)`. It keeps
    slots "m" and "v" per variable and the variables `beta1_power`, `beta2_power`.

    >>> v = tf.Variable(1.0)
    >>> tf.compat.v1.train.AdamOptimizer(0.1).minimize(lambda: v * v, var_list=[v])
    >>> round(float(v), 4)     # the first Adam step is lr * sign(g)
    0.9
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="Adam"):
        super().__init__(use_locking, name)
        self._lr, self._beta1, self._beta2, self._epsilon = learning_rate, beta1, beta2, epsilon
        self._powers = None

    def _prepare(self, var_list):
        if self._powers is None:  # scalars of the first variable's dtype, as in TF1
            dtype = var_list[0].dtype
            self._powers = tuple(Variable(convert_to_tensor(beta, dtype=dtype), trainable=False)
                                 for beta in (self._beta1, self._beta2))
            self._powers[0]._name, self._powers[1]._name = "beta1_power:0", "beta2_power:0"

    def _apply_dense(self, grad, var):
        cast, sqrt = _ops()
        m = self._get_or_make_slot(var, "m", self._name)
        v = self._get_or_make_slot(var, "v", self._name + "_1")
        beta1, beta2 = self._hyper(self._beta1, var), self._hyper(self._beta2, var)
        power1, power2 = (cast(p, var.dtype) for p in self._powers)
        lr = self._hyper(self._lr, var) * sqrt(1.0 - power2) / (1.0 - power1)
        new_m = m + (grad - m) * (1.0 - beta1)
        new_v = v + (grad * grad - v) * (1.0 - beta2)
        kept_m, kept_v = _assign(m, new_m, "assign"), _assign(v, new_v, "assign")
        if kept_m is not None:
            new_m, new_v = kept_m, kept_v
        step = lr * new_m / (sqrt(new_v) + self._hyper(self._epsilon, var))
        return _assign(var, step, "assign_sub")

    def _finish(self):
        power1, power2 = self._powers
        return [_assign(power1, power1 * self._beta1, "assign"),
                _assign(power2, power2 * self._beta2, "assign")]


@tf_export("compat.v1.train.get_global_step")
def get_global_step(graph=None):
    """The graph's global step variable (collection GLOBAL_STEP), or None.

    >>> with tf.compat.v1.Graph().as_default():
    ...     print(tf.compat.v1.train.get_global_step())
    None
    """
    found = get_collection(GraphKeys.GLOBAL_STEP)
    return found[0] if found else None


@tf_export("compat.v1.train.get_or_create_global_step", "compat.v1.train.create_global_step")
def get_or_create_global_step(graph=None):
    """An int64 counter `global_step` that `minimize(..., global_step=...)` adds 1 to.

    >>> with tf.compat.v1.Graph().as_default():
    ...     print(tf.compat.v1.train.get_or_create_global_step().name)
    global_step:0
    """
    found = get_global_step()
    if found is not None:
        return found
    step = Variable(convert_to_tensor(0, dtype=dtypes.int64), trainable=False, dtype=dtypes.int64)
    step._name = "global_step:0"
    if not context.executing_eagerly():
        add_to_collection(GraphKeys.GLOBAL_STEP, step)
    return step
