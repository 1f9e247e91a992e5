"""The op record and `apply`, the one door every op goes through.

An op is declared once: its TensorFlow name, a NumPy forward, a shape rule
and a gradient written in minitf ops (so gradients can be differentiated
again). `minitf/ops/unary_ops.py` declares `exp` like this:

    Exp = Op("Exp", np.exp, dtypes=INEXACT, shape=same_shape)

    @Exp.def_grad
    def _exp_grad(op, dy):          # d/dx exp(x) = exp(x): reuse the saved output
        return dy * op.outputs[0]

and `tf.exp(x)` is just `apply(Exp, [x])`. `apply` decides, here and nowhere
else, what running an op means:

* eager: check dtypes, run the forward on NumPy arrays, wrap the result;
* tracing inside `tf.function`: add a node to the graph being built;
* either way, every recording `GradientTape` that watches an input records the call.

In TensorFlow the same roles are split between `REGISTER_OP` (C++),
`@ops.RegisterGradient` (Python) and the eager executor.
"""
import functools

import numpy as np

from . import context, dtypes, errors, op_callbacks
from .tensor import EagerTensor

type_name = dtypes.tf_type_name  # TF's C++ names ("float", "double") used in its messages

# Kernels keep NumPy's floating-point warnings to themselves: TF quietly returns inf and
# nan for x/0, log(0) or overflow, and prints nothing. `quiet()` silences NumPy for this
# thread and returns a token; `restore(token)` puts back the caller's settings. NumPy 2
# keeps these settings in a context variable, so the pair costs ~0.1 µs where a
# `with np.errstate(all="ignore"):` block costs ~1 µs (NumPy 1 gets np.seterr).
try:
    from numpy._core._ufunc_config import _extobj_contextvar
    from numpy._core.umath import _make_extobj

    quiet = functools.partial(_extobj_contextvar.set, _make_extobj(all="ignore"))
    restore = _extobj_contextvar.reset
except ImportError:  # NumPy 1.x
    quiet = functools.partial(np.seterr, all="ignore")

    def restore(token):
        np.seterr(**token)


class Op:
    """The declaration of one operation.

    name:        TensorFlow's op name ("AddV2", "MatMul", ...), shown in errors and graphs.
    forward:     `forward(*numpy_arrays, **attrs)` -> array, or tuple of arrays.
    dtypes:      the dtypes the op accepts for its typed inputs (None: any).
    typed:       which inputs share the type `T` (default: all of them); their
                 dtypes must match exactly, since TF never promotes implicitly.
    shape:       `shape(*input_shapes, **attrs)` -> output TensorShape(s); used by
                 graph tracing and to explain a failed eager call in TF's words.
    num_outputs: how many tensors the forward returns (None: a tuple whose length
                 depends on the attributes, as for Unpack and Split).
    dtype:       the output dtype(s) without running the op (graph tracing needs
                 them): None means "the dtype of the first typed input"; a `DType`
                 (e.g. tf.bool for comparisons); or `dtype(*input_dtypes, **attrs)`
                 returning a DType, or a tuple of them for several outputs.
    saves:       the forward returns `(outputs, saved)`; `saved` (NumPy data the
                 gradient needs, e.g. argmax positions) is kept on the tape record.
    stateful:    the op has effects or randomness (assign, print, random draws): graph
                 optimizations must neither fold, merge nor drop it.
    accepts_out: the forward takes `out=`: an array that the same graph node returned
                 in an earlier run and nobody holds any more (or None). The forward
                 may write its result there (`usable_out` says when it fits) instead of
                 asking for new memory. Only the graph executor passes it.
    """

    __slots__ = ("name", "forward", "grad", "dtypes", "typed", "shape", "dtype",
                 "num_outputs", "saves", "explain", "stateful", "accepts_out")

    def __init__(self, name, forward, *, dtypes=None, typed=None, shape=None, dtype=None,
                 num_outputs=1, saves=False, explain=None, stateful=False, accepts_out=False):
        self.name = name
        self.forward = forward
        self.grad = None
        self.dtypes = dtypes
        self.typed = typed
        self.shape = shape
        self.dtype = dtype
        self.num_outputs = num_outputs
        self.saves = saves
        self.explain = explain
        self.stateful = stateful
        self.accepts_out = accepts_out

    def output_dtypes(self, input_dtypes, attrs, count):
        """The dtypes of the `count` outputs, from the dtype rule (see `dtype` above)."""
        rule = self.dtype
        if rule is None:
            first = self.typed[0] if self.typed else 0
            result = input_dtypes[first] if input_dtypes else None
        elif isinstance(rule, dtypes.DType):
            result = rule
        else:
            result = rule(*input_dtypes, **attrs)
        return result if isinstance(result, tuple) else (result,) * count

    def def_grad(self, grad_fn):
        """Decorator: `grad_fn(op, *output_grads)` -> one gradient per input (or None)."""
        self.grad = grad_fn
        return grad_fn

    def __repr__(self):
        return f"<Op {self.name}>"


def usable_out(out, shape, dtype):
    """`out` if a result of `shape` and `dtype` can be written into it, else None.

    >>> usable_out(np.zeros((2, 3), np.float32), (2, 3), np.float32) is not None
    True
    >>> usable_out(np.zeros((2, 3), np.float32), (3, 2), np.float32) is None
    True
    """
    if out is not None and out.shape == shape and out.dtype == dtype \
            and out.flags.c_contiguous and out.flags.writeable:
        return out
    return None


def silent(forward):
    """Mark a NumPy forward that meets x/0, log 0 or overflow as a matter of course.

    TensorFlow quietly returns inf/nan there. Every forward already runs with
    NumPy's floating-point warnings off (`quiet` above, in `apply` and in the
    graph executor), so this returns `forward` itself: it only documents the op.
    """
    return forward


def apply(op, inputs, attrs=None):
    """Run `op` on a list of tensors: the single entry point of every op.

    >>> from minitf.ops.unary_ops import Exp
    >>> apply(Exp, [tf.constant(0.0)])
    <tf.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    tapes = None
    if context.active:  # some thread is tracing, taping, placing or watching: look at its state
        state = context._state
        if state.graph_stack:
            outputs = state.graph_stack[-1].add_node(op, inputs, attrs or {})
            if state.op_callbacks:  # e.g. tf.debugging.enable_check_numerics
                op_callbacks.invoke(op, inputs, attrs, outputs, state.graph_stack[-1])
            return outputs
        tapes = state.tape_stack  # a list (maybe empty): the checks below are due
        device = state.device or context.default_device  # framework/device.py
    check_dtypes(op, inputs)
    token = quiet()
    try:
        if attrs:
            result = op.forward(*[t._value for t in inputs], **attrs)
        else:
            result = op.forward(*[t._value for t in inputs])
    except errors.OpError:
        raise
    except (ValueError, IndexError, TypeError, ArithmeticError, np.linalg.LinAlgError) as exc:
        raise explain_failure(op, inputs, attrs or {}, exc) from None
    except MemoryError as exc:
        raise out_of_memory(op, [t._dtype for t in inputs], attrs or {}, exc) from None
    finally:
        restore(token)
    saved = None
    if op.saves:
        result, saved = result
    if op.num_outputs == 1:
        outputs = _wrap(result)
    else:
        outputs = tuple(_wrap(r) for r in result)
    if tapes is not None:  # plain eager code (the fast path) skips both checks
        if device is not None:
            device.place(op.name, outputs)
        if tapes and op.grad is not None:
            record(op, inputs, outputs if op.num_outputs != 1 else (outputs,), attrs, saved)
        if state.op_callbacks:
            op_callbacks.invoke(op, inputs, attrs, outputs)
    return outputs


def _wrap(value):
    if type(value) is not np.ndarray:
        value = _string_scalar(value) if isinstance(value, bytes) else np.asarray(value)
    return EagerTensor(value)


def _string_scalar(value):
    """One string as a 0-d object array: np.asarray would store fixed-width bytes, whose
    trailing NUL bytes NumPy drops on reading (b'a\\x00' would come back as b'a')."""
    array = np.empty((), dtype=object)
    array[()] = value
    return array


def check_dtypes(op, inputs):
    """TF's kernel checks: the typed inputs share one dtype, and it is one the op supports."""
    typed = op.typed
    if typed is None:
        if not inputs:
            return
        first = inputs[0]._dtype
        if op.dtypes is not None and first not in op.dtypes:
            raise _bad_dtype(op, first)
        for i in range(1, len(inputs)):
            if inputs[i]._dtype is not first:
                raise _mismatch(op, i, first, inputs[i]._dtype)
        return
    if not typed:
        return
    first = inputs[typed[0]]._dtype
    if op.dtypes is not None and first not in op.dtypes:
        raise _bad_dtype(op, first)
    for i in typed[1:]:
        if inputs[i]._dtype is not first:
            raise _mismatch(op, i, first, inputs[i]._dtype)


def _mismatch(op, index, expected, got):
    return errors.op_error(
        errors.InvalidArgumentError, op.name,
        f"cannot compute {op.name} as input #{index}(zero-based) was expected to be a "
        f"{type_name(expected)} tensor but is a {type_name(got)} tensor",
        "TensorFlow never converts dtypes implicitly: use tf.cast(x, tf."
        f"{expected.name}) (or tf.cast on the other operand) so both have the same dtype.")


def _bad_dtype(op, dtype):
    allowed = ", ".join(type_name(d) for d in sorted(op.dtypes, key=_dtype_order))
    return errors.op_error(
        errors.InvalidArgumentError, op.name,
        f"Value for attr 'T' of {type_name(dtype)} is not in the list of allowed values: "
        f"{allowed}",
        f"{op.name} is not defined for {dtype.name} tensors; tf.cast the input to one of "
        "the allowed dtypes first.")


def _dtype_order(d):
    return dtypes.ALL.index(d)


def out_of_memory(op, input_dtypes, attrs, exc):
    """NumPy's MemoryError as TF's ResourceExhaustedError ("OOM when allocating tensor
    with shape[...]"), naming the op's output dtype where the rule knows it."""
    try:
        name = type_name(op.output_dtypes(input_dtypes, attrs, 1)[0])
    except Exception:  # noqa: BLE001 - no dtype rule for these inputs: NumPy's dtype
        name = str(getattr(exc, "dtype", "unknown"))
    return errors.out_of_memory(op.name, getattr(exc, "shape", ()), name)


def explain_failure(op, inputs, attrs, exc):
    """Turn a NumPy exception into TF's error class and words.

    The op's own `explain` (or its shape rule) is asked first: it raises the
    precise TF message (e.g. "Incompatible shapes: [2,3] vs. [4]").
    """
    try:
        if op.explain is not None:
            op.explain(*inputs, exc=exc, **attrs)
        elif op.shape is not None:
            op.shape(*[t.shape for t in inputs], **attrs)
    except errors.OpError as precise:
        return precise
    return errors.op_error(errors.InvalidArgumentError, op.name, str(exc))


# --- recording on tapes -------------------------------------------------------


class TapeRecord:
    """One recorded call: what the gradient function sees as `op`.

    `op.inputs`, `op.outputs` and `op.attrs` are the call's tensors and
    attributes; `op.saved` is whatever the forward chose to save; `op.type`
    is the op's TensorFlow name. During a backward pass `op.wanted[i]` says
    whether input i needs a gradient at all, and `op.received[j]` whether
    output j got one (an unused output is handed zeros), so a gradient
    function may skip work that cannot matter (TF's graph pruning has the
    same effect).
    """

    __slots__ = ("op_def", "inputs", "outputs", "attrs", "saved", "wanted", "received")

    def __init__(self, op_def, inputs, outputs, attrs, saved):
        self.op_def = op_def
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs or {}
        self.saved = saved
        self.wanted = (True,) * len(inputs)
        self.received = (True,) * len(outputs)

    @property
    def type(self):
        return self.op_def.name

    def __repr__(self):
        return f"<TapeRecord {self.op_def.name}>"


def record(op, inputs, outputs, attrs=None, saved=None):
    """Let every recording tape that watches one of `inputs` remember this call."""
    entry = None
    for tape in context._state.tape_stack:
        if tape._recording and tape._watches_any(inputs):
            if entry is None:
                entry = TapeRecord(op, tuple(inputs), tuple(outputs), attrs, saved)
            tape._add_record(entry)
