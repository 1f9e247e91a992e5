"""Keras 3's top-level helpers: `keras.version`, `keras.device`, `keras.name_scope`,
`keras.SymbolicScope`, `keras.RematScope` and `keras.remat`.

`keras.name_scope` sets the *path* of the Keras variables made inside it
(Keras 3 names a weight plainly and keeps its place in `path`):

>>> import minitf as tf
>>> with tf.keras.name_scope("blk"):
...     v = tf.keras.Variable(1.0, name="v")
...     dense = tf.keras.layers.Dense(2, name="proj")
...     dense.build((None, 3))
...     with tf.keras.name_scope("inner"):
...         w = tf.keras.Variable(1.0, name="w")
>>> v.path, dense.kernel.path, w.path
('blk/v', 'blk/proj/kernel', 'blk/inner/w')
>>> with tf.keras.name_scope("a"):
...     with tf.keras.name_scope("b", override_parent="c"):   # an absolute parent
...         print(tf.keras.Variable(1.0, name="q").path)
c/b/q

`keras.remat(f)` is rematerialization (gradient checkpointing): on the
TensorFlow backend it is `tf.recompute_grad(f)` - the gradient runs `f`
again instead of keeping its intermediate values:

>>> f = tf.keras.remat(lambda x: tf.sin(x) * x)
>>> x = tf.constant(1.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = f(x)
>>> round(float(tape.gradient(y, x)), 4)    # cos(1)*1 + sin(1)
1.3818

`keras.version()` is the Keras whose API minitf follows (and whose `.keras`
file format it writes): "3.15.1", the Keras that TensorFlow 2.21 installs.
"""
import collections
import math

from ..framework.tf_export import tf_export
from .engine import call_context


@tf_export("keras.version")
def version():
    """The Keras version minitf follows: '3.15.1' (`tf.keras.__version__` too)."""
    from .saving.keras_file import KERAS_VERSION
    return KERAS_VERSION


@tf_export("keras.device")
def device(device_name):
    """A context manager placing the work inside on `device_name` ("cpu:0", "gpu:0").

    On Keras's TensorFlow backend this is `tf.device(device_name)`. minitf runs
    on the CPU; a GPU name is accepted, as TensorFlow's soft placement does.
    """
    from ..framework.device import device as tf_device
    if device_name is not None and not isinstance(device_name, str) and \
            not hasattr(device_name, "to_string"):
        raise ValueError(f"Expecting a string device name. Got "
                         f"{type(device_name)}({device_name})")
    return tf_device(device_name)


@tf_export("keras.name_scope")
class name_scope(call_context.name_scope):  # noqa: N801 - Keras's spelling
    """`name_scope(name, caller=None, deduplicate=True, override_parent=None)`.

    Sets the path of Keras variables made inside (see the module docstring) and,
    as Keras's TensorFlow backend does, opens a `tf.name_scope(name)` for ops.
    """

    def __init__(self, name, caller=None, deduplicate=True, override_parent=None):
        super().__init__(name, caller=caller, deduplicate=deduplicate,
                         override_parent=override_parent)
        from ..module import name_scope as tf_name_scope
        self._tf_name_scope = tf_name_scope(name)

    def __enter__(self):
        super().__enter__()
        if self._pop_on_exit:
            self._tf_name_scope.__enter__()
        return self

    def __exit__(self, *exc):
        popped = self._pop_on_exit
        super().__exit__(*exc)
        if popped:
            self._tf_name_scope.__exit__(*exc)
        return False


_SYMBOLIC = [None]  # the innermost open SymbolicScope


@tf_export("keras.SymbolicScope")
class SymbolicScope:
    """Scope to indicate the symbolic stage (Keras opens it while it infers output
    shapes with `compute_output_spec`); `in_symbolic_scope()` asks whether one is open.

    >>> from minitf.keras.scopes import in_symbolic_scope
    >>> with tf.keras.SymbolicScope():
    ...     print(in_symbolic_scope())
    True
    >>> in_symbolic_scope()
    False
    """

    def __enter__(self):
        self.original_scope = _SYMBOLIC[0]
        _SYMBOLIC[0] = self
        return self

    def __exit__(self, *args, **kwargs):
        _SYMBOLIC[0] = self.original_scope


def in_symbolic_scope():
    return _SYMBOLIC[0] is not None


def get_symbolic_scope():
    return _SYMBOLIC[0]


@tf_export("keras.remat")
def remat(f):
    """`f` with rematerialization: its gradient recomputes `f` (`tf.recompute_grad`)."""
    from ..ops.gradients_ops import recompute_grad
    return recompute_grad(f)


RematMode = collections.namedtuple("RematMode", ["mode", "output_size_threshold",
                                                 "layer_names"])
_REMAT = []  # the open RematScopes, innermost last


@tf_export("keras.RematScope")
class RematScope:
    """Rematerialize the layers *created* inside (gradient checkpointing).

    `mode`: "full" (every layer's call), "activations" (only the `activation`
    of layers that have one), "larger_than" (layers whose output has more
    than `output_size_threshold` elements), "list_of_layers" (the layers named
    in `layer_names`) or None (off). A layer keeps the mode of the scope it was
    made in; its call then runs through `keras.remat`.

    >>> with tf.keras.RematScope(mode="full"):
    ...     layer = tf.keras.layers.Dense(2, activation="relu")
    >>> layer._remat_mode.mode
    'full'
    """

    def __init__(self, mode="full", output_size_threshold=1024, layer_names=None):
        if mode not in {"full", "activations", "larger_than", "list_of_layers", None}:
            raise ValueError(f"Invalid mode '{mode}'. Supported modes are: 'full', "
                             "'activations', 'larger_than', 'list_of_layers', or  None.")
        self.mode = mode
        self.output_size_threshold = output_size_threshold
        self.layer_names = layer_names or []
        self._pop_on_exit = False

    def __enter__(self):
        _REMAT.append(self)
        self._pop_on_exit = True
        return self

    def __exit__(self, *args, **kwargs):
        if self._pop_on_exit:
            _REMAT.pop()


def get_current_remat_mode():
    """The innermost RematScope's settings as a `RematMode`, or None."""
    if not _REMAT:
        return None
    scope = _REMAT[-1]
    return RematMode(scope.mode, scope.output_size_threshold, scope.layer_names)


def rematerialized_call(layer, call, args, kwargs):
    """`call`, or `call` under `keras.remat`, as the layer's RematMode says (Keras 3.15's
    Layer/Operation.rematerialized_call): "full" always; "larger_than" when the output
    spec has more than the threshold's elements; "list_of_layers" by name;
    "activations": the layer's `activation` only, for the duration of the call."""
    mode = layer._remat_mode
    if mode.mode == "activations" and getattr(layer, "activation", None) is not None:
        def activation_rematerialized(*a, **k):
            original = layer.activation
            layer.activation = remat(original)
            try:
                return call(*a, **k)
            finally:
                layer.activation = original
        return activation_rematerialized
    if mode.mode == "list_of_layers" and layer.name in mode.layer_names:
        return remat(call)
    if mode.mode == "full":
        return remat(call)
    if mode.mode == "larger_than":
        from ..framework import nest
        spec = layer.compute_output_spec(*args, **kwargs)
        size = sum(math.prod(d or 1 for d in x.shape) for x in nest.flatten(spec)
                   if hasattr(x, "shape"))
        if size and size > mode.output_size_threshold:
            return remat(call)
    return call
