"""`tf.GradientTape`: record operations, then run them backwards.

While a tape is active, `apply` hands it every op whose inputs it watches
(`op.record`). `gradient` walks those records in reverse - the order they
were recorded in is already a topological order, so reversing it is a valid
order for backpropagation, with no recursion - and calls each op's gradient
function with the gradient of its outputs. Gradient functions are written in
minitf ops, so an outer tape records them too: that is how second derivatives work.

>>> import minitf as tf
>>> x = tf.Variable(3.0)
>>> with tf.GradientTape() as tape:
...     y = x * x
>>> tape.gradient(y, x)
<tf.Tensor: shape=(), dtype=float32, numpy=6.0>

The tape returns gradients and changes nothing: applying them is the
optimizer's job.
"""
import contextlib
import enum

import numpy as np

from . import context, nest
from .dtypes import INEXACT
from .gradient_ops import add_n, ones_like, zeros_like
from .op import TapeRecord
from .tensor import EagerTensor, Tensor, convert_to_tensor
from .variables import ReadVariableOp


class UnconnectedGradients(enum.Enum):
    """What `gradient` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


class GradientTape:
    """Records operations for automatic differentiation.

    persistent: allow more than one `gradient`/`jacobian` call.
    watch_accessed_variables: watch every trainable Variable read inside the
        `with` block automatically (True, TF's default).
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._recording = False
        self._used = False
        self._reset_state()

    def _reset_state(self):
        self._records = []
        self._watched = {}  # id -> watched Tensor or Variable (kept alive so ids stay unique)
        self._variables = []

    # --- recording -------------------------------------------------------------
    def __enter__(self):
        self._push()
        return self

    def __exit__(self, *exc_info):
        if self._recording:
            self._pop()

    def _push(self):
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter "
                             "an already-active tape.")
        context.tape_stack.append(self)
        self._recording = True

    def _pop(self):
        context.tape_stack.remove(self)
        self._recording = False

    def watch(self, tensor):
        """Ensure `tensor` (a Tensor, Variable or nested structure of them) is traced."""
        for t in nest.flatten(tensor):
            if not (isinstance(t, Tensor) or _is_variable(t)):
                raise ValueError(
                    f"Passed in object {t!r} of type {type(t).__name__!r}, not tf.Tensor or "
                    "tf.Variable. Convert Python values with tf.constant first.")
            if id(t) not in self._watched:
                self._watched[id(t)] = t
                if _is_variable(t):
                    self._variables.append(t)

    def _watches_any(self, inputs):
        watched = self._watched
        for t in inputs:
            if id(t) in watched:
                return True
        return False

    def _add_record(self, entry):
        self._records.append(entry)
        for t in entry.outputs:
            self._watched[id(t)] = t

    def _variable_accessed(self, variable, read):
        """Called by Variable reads; links the read tensor to the variable."""
        if self._watch_accessed_variables and variable.trainable:
            self.watch(variable)
        if id(variable) in self._watched and id(read) not in self._watched:
            self._add_record(TapeRecord(ReadVariableOp, (variable,), (read,), None, None))

    @contextlib.contextmanager
    def stop_recording(self):
        """Temporarily stop recording: ops inside the block are not differentiated."""
        if not self._recording:
            raise ValueError("Tape must be recording when stop_recording is called.")
        self._pop()
        try:
            yield
        finally:
            self._push()

    def reset(self):
        """Forget everything recorded so far (the tape keeps recording)."""
        self._reset_state()

    def watched_variables(self):
        """The Variables this tape watched, in the order it first saw them."""
        return tuple(self._variables)

    def recorded_operations(self):
        """The operations the tape recorded, oldest first (a minitf extra, not in TF).

        Each entry has `.type` (the op name), `.inputs`, `.outputs`, `.attrs`
        and `.saved` (what the forward kept for the gradient). Widgets use it
        to draw the tape; real TensorFlow does not expose this list.
        """
        return list(self._records)

    # --- differentiation -----------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(sum of target) / d(each source), in the structure of `sources`.

        output_gradients: the gradient flowing into each target (default ones).
        unconnected_gradients: "none" (default) or "zero" for sources the
            target does not depend on.
        """
        self._check_usable()
        unconnected = UnconnectedGradients(unconnected_gradients)
        flat_targets = [_as_differentiable(t) for t in nest.flatten(target)]
        flat_sources = nest.flatten(sources)
        for s in flat_sources:
            if not (isinstance(s, Tensor) or _is_variable(s)):
                raise ValueError(
                    f"Argument `sources` must be Tensors or Variables; got {s!r}. Gradients "
                    "exist only for tensors the tape could have watched.")
        seeds = None
        if output_gradients is not None:
            seeds = [None if g is None else convert_to_tensor(g)
                     for g in nest.flatten(output_gradients)]
        with self._paused():
            grads = backprop(self._records, flat_targets, flat_sources, seeds, self._watched)
            result = [_finish(g, s, unconnected) for g, s in zip(grads, flat_sources)]
        self._after_use()
        return nest.pack_sequence_as(sources, result)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target[i...] / d source[j...], shaped `target.shape + source.shape`.

        TF vectorizes this with pfor; minitf runs one backward pass per
        target element, which gives the same numbers.
        """
        from ..ops import array_ops  # noqa: PLC0415 - results are assembled with ordinary ops

        self._check_usable()
        unconnected = UnconnectedGradients(unconnected_gradients)
        target = _as_differentiable(target)
        flat_sources = nest.flatten(sources)
        n = target.shape.num_elements()
        rows = [[] for _ in flat_sources]
        connected = [False] * len(flat_sources)
        with self._paused():
            for i in range(n):
                seed = array_ops.reshape(array_ops.one_hot(i, n, dtype=target.dtype), target.shape)
                grads = backprop(self._records, [target], flat_sources, [seed], self._watched)
                for k, (g, s) in enumerate(zip(grads, flat_sources)):
                    connected[k] = connected[k] or g is not None
                    rows[k].append(g if g is not None else zeros_like(_value_of(s)))
            result = []
            for row, source, linked in zip(rows, flat_sources, connected):
                shape = target.shape.concatenate(source.shape).as_list()
                if n == 0:  # an empty target: an empty jacobian, as TF returns
                    result.append(EagerTensor(np.zeros(shape, source.dtype.as_numpy_dtype)))
                elif not linked and unconnected is UnconnectedGradients.NONE:
                    result.append(None)
                else:
                    result.append(array_ops.reshape(array_ops.stack(row), shape))
        self._after_use()
        return nest.pack_sequence_as(sources, result)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example jacobians: `[batch] + target.shape[1:] + source.shape[1:]`.

        Assumes example b of `target` depends only on example b of `source`,
        as TF does; each backward pass seeds one target position across the batch.
        An unconnected (or unwatched) source gives zeros, never None, as in TF.
        """
        from ..ops import array_ops  # noqa: PLC0415

        self._check_usable()
        target = _as_differentiable(target)
        batch = target.shape[0]
        if source.shape[0] != batch:
            raise ValueError(
                f"Need first dimension of target shape ({target.shape}) and source shape "
                f"({source.shape}) to match: batch_jacobian pairs example b of one with "
                "example b of the other.")
        inner = target.shape[1:].num_elements()
        columns = []
        with self._paused():
            for j in range(inner):
                pick = array_ops.one_hot(j, inner, dtype=target.dtype)
                seed = array_ops.reshape(
                    array_ops.tile(array_ops.reshape(pick, [1, inner]), [batch, 1]), target.shape)
                (g,) = backprop(self._records, [target], [source], [seed], self._watched)
                if g is None:  # TF returns zeros here even for "none" (kept for compatibility)
                    g = zeros_like(_value_of(source))
                columns.append(array_ops.reshape(g, [batch, -1]))
            result = array_ops.reshape(
                array_ops.stack(columns, axis=1),
                [batch] + target.shape[1:].as_list() + source.shape[1:].as_list())
        self._after_use()
        return result

    # --- bookkeeping -----------------------------------------------------------------
    def _check_usable(self):
        if self._used and not self._persistent:
            raise RuntimeError(
                "A non-persistent GradientTape can only be used to compute one set of gradients "
                "(or jacobians). Create it with tf.GradientTape(persistent=True) to call "
                "gradient() more than once.")

    @contextlib.contextmanager
    def _paused(self):
        """Do not record our own backward pass (outer tapes still do)."""
        was_recording = self._recording
        if was_recording:
            self._pop()
        try:
            yield
        finally:
            if was_recording:
                self._push()

    def _after_use(self):
        self._used = True
        if not self._persistent:
            # Release the records and everything they keep alive; like TF, keep
            # answering watched_variables().
            self._records, self._watched = [], {}


def _is_variable(x):
    return getattr(x, "_is_variable", False)


def _value_of(x):
    return x._read() if _is_variable(x) else x


def _as_differentiable(t):
    if _is_variable(t):
        return t._read()
    if not isinstance(t, Tensor):
        raise ValueError(f"Argument `target` must be a Tensor or Variable, got {t!r}.")
    return t


def _finish(grad, source, unconnected):
    if not (source.dtype.is_floating or source.dtype.is_complex):
        return None  # TF: integer (and bool) sources never get a gradient
    if grad is None and unconnected is UnconnectedGradients.ZERO:
        return zeros_like(_value_of(source))
    return grad


def backprop(records, targets, sources, seeds=None, watched=None):
    """The reverse pass: gradients of sum(targets) w.r.t. each source (or None).

    watched: ids the tape watches (None: every source counts). A source the
    tape never watched gets no gradient even if a recorded op used it - only
    a target's own seed, as in TF (`tape.gradient(x, x)` is 1).

    1. Forward sweep: mark records that depend on a watched source (others cannot matter).
    2. Seed each target with ones (or the given output gradient).
    3. Walk the marked records newest-first; each output's gradient is complete
       when its producer is reached (every consumer was recorded later), so it is
       taken out of the table - freed - and handed to the op's gradient function,
       whose results are summed into the inputs' entries.
    """
    source_ids = {id(s) for s in sources}
    reaches = {i for i in source_ids if watched is None or i in watched}
    relevant = []
    for entry in records:
        for t in entry.inputs:
            # Only float (and complex) values carry gradients: integer paths are cut, as in TF.
            if id(t) in reaches and t._dtype in INEXACT:
                relevant.append(entry)
                reaches.update(id(out) for out in entry.outputs)
                break

    pending = {}  # id(tensor) -> list of gradient contributions not yet summed
    for i, t in enumerate(targets):
        if t._dtype in INEXACT:
            seed = seeds[i] if seeds is not None and seeds[i] is not None else ones_like(t)
            pending.setdefault(id(t), []).append(seed)

    for entry in reversed(relevant):
        out_grads = [_take(pending, t, source_ids) for t in entry.outputs]
        if len(out_grads) == 1:
            if out_grads[0] is None:
                continue
        elif all(g is None for g in out_grads):
            continue
        else:  # a multi-output op gets zeros for the float outputs nobody used
            entry.received = tuple(g is not None for g in out_grads)
            out_grads = [zeros_like(t) if g is None and t._dtype in INEXACT else g
                         for g, t in zip(out_grads, entry.outputs)]
        entry.wanted = tuple(id(t) in reaches and t._dtype in INEXACT for t in entry.inputs)
        in_grads = entry.op_def.grad(entry, *out_grads)
        if isinstance(in_grads, Tensor) or in_grads is None:
            in_grads = (in_grads,)
        for t, g in zip(entry.inputs, in_grads):
            if g is not None and id(t) in reaches and t._dtype in INEXACT:
                pending.setdefault(id(t), []).append(g)
    return [_sum(pending[id(s)]) if id(s) in pending else None for s in sources]


def _take(pending, t, source_ids):
    """The finished gradient of `t`, removed from the table (sources' stay for the result)."""
    parts = pending.get(id(t)) if id(t) in source_ids else pending.pop(id(t), None)
    return None if parts is None else _sum(parts)


def _sum(parts):
    if len(parts) > 1:
        parts[:] = [add_n(parts)]
    return parts[0]
