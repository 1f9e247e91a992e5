"""Random numbers: `tf.random.uniform`, `normal`, `truncated_normal`, `shuffle`,
`categorical`, and `tf.random.set_seed`.

>>> import minitf as tf
>>> tf.random.set_seed(42)
>>> a = tf.random.uniform([2])
>>> b = tf.random.uniform([2])           # the next numbers of the sequence: differs from a
>>> tf.random.set_seed(42)
>>> bool(tf.reduce_all(tf.random.uniform([2]) == a))   # set_seed restarts the sequence
True

Seed semantics and numbers (TensorFlow's, exactly)
--------------------------------------------------
minitf draws with TF's generator, Philox4x32-10 (see `philox.py`), so the same
seeds give TF's numbers. Every stateful random op runs with two seeds
`(seed, seed2)`, chosen by `get_seed(op_seed)` exactly as `tf.random.set_seed`
documents:

1. Neither a global nor an op seed: fresh numbers on every call and every run.
2. Global seed only: the op seed is drawn from `random.Random(global_seed)`
   (the same op seed TF picks), a new one for every op called, so the whole
   program replays the same sequence after `tf.random.set_seed(s)`.
   While tracing a `tf.function`, op seeds instead count 0, 1, 2, ... per
   graph (TF uses the graph's op count there, so traced numbers differ).
3. Op seed only: the global seed defaults to 87654321, so reruns repeat.
4. Both: both decide.

As in TF, the two seeds select a *kernel* that keeps a counter: `seed` is the
Philox key and `seed2` the high half of the counter. Calling
`tf.random.uniform([2], seed=1)` twice gives two different draws (A1, A2)
because each call moves the kernel's counter on by 256 blocks per value;
rerunning the program gives A1, A2 again, and `tf.random.set_seed` resets
every counter. The stateless ops (`tf.random.stateless_uniform`, ...) scramble
their seed pair into a key and counter instead, and a `tf.random.Generator`
keeps its counter and key in a `tf.Variable`.

>>> tf.random.set_seed(1)
>>> tf.random.normal([2])                # TF 2.21 prints the same numbers
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([-1.1012203,  1.5457517], dtype=float32)>

`shuffle`, `categorical` and the other distributions (`random_distribution_ops`)
still draw from NumPy's PCG64 keyed by the same integers (`numpy_generator`):
they repeat as TF's do, with other numbers.

Gradients: random draws have none, but `uniform`, `normal` and
`truncated_normal` are computed as `minval + u * (maxval - minval)` and
`mean + z * stddev` from minitf ops, as in TF, so gradients reach `minval`,
`maxval`, `mean` and `stddev` (the reparameterization trick).
"""
import itertools
import random
import weakref
import zlib

import numpy as np

from ..framework import context, dtypes, errors
from ..framework.op import Op, apply, type_name
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .dtype_rules import from_attr
from .random_shape_input import apply_random, symbolic_shape
from . import philox
from .math_ops import add, multiply, subtract
from .shape_rules import check_sizes, dims_text

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1
_MASK64 = 2**64 - 1


class _SeedState:
    """The process-wide random state TF keeps in its eager context."""

    def __init__(self):
        self.global_seed = None
        self.op_seeds = None       # random.Random(global_seed): where op seeds come from
        self.kernel_calls = {}     # (op, dtype, seed, seed2, kernel) -> calls so far
        self.graph_op_seeds = weakref.WeakKeyDictionary()  # graph -> next op seed


_state = _SeedState()
_graph_nodes = itertools.count()


@tf_export("random.set_seed")
def set_seed(seed):
    """Sets the global random seed, and restarts every random op's sequence.

    >>> tf.random.set_seed(1234)
    >>> x = tf.random.normal([3])
    >>> tf.random.set_seed(1234)
    >>> bool(tf.reduce_all(tf.random.normal([3]) == x))
    True

    `tf.random.set_seed(None)` makes random ops nondeterministic again.
    """
    _state.global_seed = None if seed is None else int(seed)
    _state.op_seeds = None if seed is None else random.Random(int(seed))
    _state.kernel_calls.clear()


def get_seed(op_seed):
    """TF's `random_seed.get_seed`: the `(seed, seed2)` a random op runs with.

    (None, None) means "nondeterministic". Follows the four cases in the
    module docstring; (0, 0) is avoided because TF's kernels read it as None.
    """
    global_seed = _state.global_seed
    if global_seed is not None:
        if op_seed is None:
            op_seed = _next_op_seed()
        seeds = global_seed % _MAXINT32, int(op_seed) % _MAXINT32
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32
    else:
        return None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _next_op_seed():
    if context.graph_stack:  # tracing: count random ops per graph, from 0
        graph = context.graph_stack[-1]
        op_seed = _state.graph_op_seeds.get(graph, 0)
        _state.graph_op_seeds[graph] = op_seed + 1
        return op_seed
    return _state.op_seeds.randint(0, _MAXINT32)


def _seed_attrs(op_seed):
    """The attributes every stateful random op carries: its two seeds, and which kernel
    (with its own call counter) runs it."""
    seed, seed2 = get_seed(op_seed)
    if context.graph_stack:
        kernel = next(_graph_nodes)  # each node of a traced graph is a kernel of its own
    elif op_seed is None:
        kernel = None  # a fresh op seed: this kernel runs once, no counter to keep
    else:
        kernel = "eager"  # eager calls with the same seeds share one kernel and its counter
    return {"seed": seed, "seed2": seed2, "kernel": kernel}


def _kernel_stream(op_name, dtype, seed, seed2, kernel, count):
    """The Philox (key, counter) for this call of the kernel `(op, dtype, seed, seed2)`,
    as TF's GuardedPhiloxRandom: the key and counter come from the two seeds, and
    every call moves the kernel's counter on by 256 blocks per output value."""
    if seed is None:  # no seed anywhere: a fresh random stream, as TF's (0, 0) kernels
        seed, seed2 = (int(w) for w in np.random.SeedSequence().generate_state(2, np.uint64))
    key, counter = philox.key_counter_from_op_seeds(seed, seed2)
    if kernel is None:
        return key, counter
    state_key = (op_name, dtype, seed, seed2, kernel)
    skip = _state.kernel_calls.get(state_key, 0)
    _state.kernel_calls[state_key] = skip + count * philox.RESERVED_BLOCKS_PER_OUTPUT
    return key, philox.counter_from_int(philox.counter_to_int(counter) + skip)


def numpy_generator(op_name, *words):
    """The NumPy generator that a call keyed by integers `words` draws from."""
    key = [zlib.crc32(op_name.encode())] + [int(w) & _MASK64 for w in words]
    return np.random.Generator(np.random.PCG64(key))


def _kernel_generator(op_name, dtype, seed, seed2, kernel):
    """The generator for this call of the kernel `(op, dtype, seed, seed2)`: the
    kernel's call counter is part of the key, and advances."""
    if seed is None:
        return np.random.default_rng()  # no seed anywhere: fresh OS entropy
    calls = 0
    if kernel is not None:
        key = (op_name, dtype, seed, seed2, kernel)
        calls = _state.kernel_calls.get(key, 0)
        _state.kernel_calls[key] = calls + 1
    return numpy_generator(op_name, seed, seed2, calls)


# --- arguments --------------------------------------------------------------------------
def shape_argument(op_name, shape):
    """A `shape` argument (list, tuple, TensorShape, int tensor) as a tuple of ints; or,
    inside tf.function, an int vector tensor whose value only the running graph knows
    (then use `apply_random`, see random_shape_input.py)."""
    if context.active and context.graph_stack:  # tracing: maybe a value not known yet
        dynamic = symbolic_shape(op_name, shape)
        if dynamic is not None:
            return dynamic
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    # As TF's shape_tensor: no int32 hint, so a size past 2**31 makes an int64 vector
    # (an int32 hint would wrap 2**32 + 2 around to 2).
    empty = isinstance(shape, (list, tuple)) and not shape
    shape = convert_to_tensor(shape, dtype=dtypes.int32 if empty else None)
    if shape.shape.num_elements() == 0:
        return ()
    if shape.dtype not in (dtypes.int32, dtypes.int64):
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Value for attr 'T' of {type_name(shape.dtype)} is not in the list of allowed "
            "values: int32, int64", "A shape lists whole numbers of elements, e.g. [2, 3].")
    if shape.shape.rank != 1:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"shape must be a vector of {{int32,int64}}, got shape {dims_text(shape.shape)}",
            "Pass the shape as a list, e.g. [3] rather than 3.")
    return tuple(check_sizes(op_name, [int(d) for d in shape.numpy()]))


def check_dtype(dtype, allowed):
    """TF's Python-side dtype check, a ValueError naming the accepted dtypes."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in allowed:
        names = ", ".join(repr(d) for d in allowed)
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"({names}).")
    return dtype


FLOAT_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)
_UNIFORM_DTYPES = FLOAT_DTYPES + (dtypes.int32, dtypes.int64)


def check_int_range(op_name, minval, maxval):
    """The integer kernels' checks: scalar bounds with minval < maxval."""
    for name, bound in (("minval", minval), ("maxval", maxval)):
        if np.ndim(bound) != 0:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"{name} must be 0-D, got shape {dims_text(np.shape(bound))}",
                                  "Integer uniform draws take one lower and one upper bound.")
    if not minval < maxval:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"Need minval < maxval, got {minval} >= {maxval}",
                              "Integers are drawn from [minval, maxval), which must not be empty.")


def output_shape(*input_shapes, shape, **attrs):
    """Shape rule of the random ops: the `shape` attribute."""
    return TensorShape(shape)


# --- uniform ----------------------------------------------------------------------------
def _size(shape):
    return int(np.prod(shape, dtype=np.int64))


def _uniform_forward(shape, dtype, seed, seed2, kernel):
    stream = _kernel_stream("RandomUniform", dtype, seed, seed2, kernel, _size(shape))
    return philox.uniform_float(*stream, shape, dtype.as_numpy_dtype)


def _uniform_int_forward(minval, maxval, shape, dtype, seed, seed2, kernel):
    check_int_range("RandomUniformInt", minval, maxval)
    stream = _kernel_stream("RandomUniformInt", dtype, seed, seed2, kernel, _size(shape))
    return philox.uniform_int(*stream, shape, dtype.as_numpy_dtype, minval, maxval)


RandomUniform = Op("RandomUniform", _uniform_forward, shape=output_shape,
                   dtype=from_attr("dtype"), stateful=True)  # no gradient
RandomUniformInt = Op("RandomUniformInt", _uniform_int_forward,
                      dtypes={dtypes.int32, dtypes.int64}, shape=output_shape,
                      dtype=from_attr("dtype"), stateful=True)


def scale_uniform(unit, minval, maxval):
    """minval + u * (maxval - minval), written in minitf ops so gradients reach the bounds."""
    return add(multiply(unit, subtract(maxval, minval)), minval)


def uniform_bounds(minval, maxval, dtype):
    """TF's checks of the bounds: integers need maxval; floats default it to 1."""
    if maxval is None:
        if dtype.is_integer:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        maxval = 1
    trivial = type(minval) is int and minval == 0 and type(maxval) is int and maxval == 1
    return (convert_to_tensor(minval, dtype=dtype), convert_to_tensor(maxval, dtype=dtype),
            trivial)


@tf_export("random.uniform")
def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Random values drawn uniformly from [minval, maxval).

    Floats default to [0, 1); integers need `maxval`. u ~ U[0, 1) is scaled as
    minval + u * (maxval - minval), so float bounds may be tensors that broadcast.

    >>> tf.random.uniform([2, 3]).shape
    TensorShape([2, 3])
    >>> tf.random.uniform([4], minval=0, maxval=10, dtype=tf.int32).dtype
    tf.int32
    """
    dtype = check_dtype(dtype, _UNIFORM_DTYPES)
    minval, maxval, trivial = uniform_bounds(minval, maxval, dtype)
    dims = shape_argument("RandomUniform", shape)
    attrs = dict(shape=dims, dtype=dtype, **_seed_attrs(seed))
    if dtype.is_integer:
        return apply_random(RandomUniformInt, [minval, maxval], attrs)
    unit = apply_random(RandomUniform, [], attrs)
    return unit if trivial else scale_uniform(unit, minval, maxval)


# --- normal and truncated normal ----------------------------------------------------------
def _normal_forward(shape, dtype, seed, seed2, kernel):
    stream = _kernel_stream("RandomStandardNormal", dtype, seed, seed2, kernel, _size(shape))
    return philox.normal(*stream, shape, dtype.as_numpy_dtype)


def _truncated_normal_forward(shape, dtype, seed, seed2, kernel):
    stream = _kernel_stream("TruncatedNormal", dtype, seed, seed2, kernel, _size(shape))
    return philox.truncated_normal(*stream, shape, dtype.as_numpy_dtype)


RandomStandardNormal = Op("RandomStandardNormal", _normal_forward, shape=output_shape,
                          dtype=from_attr("dtype"), stateful=True)
TruncatedNormal = Op("TruncatedNormal", _truncated_normal_forward, shape=output_shape,
                     dtype=from_attr("dtype"), stateful=True)


def scale_normal(z, mean, stddev):
    """mean + z * stddev, in minitf ops: the gradient reaches mean and stddev."""
    return add(multiply(z, stddev), mean)


def _normal_like(op, shape, mean, stddev, dtype, seed):
    mean = convert_to_tensor(mean, dtype=dtype)
    stddev = convert_to_tensor(stddev, dtype=dtype)
    dtype = check_dtype(dtype, FLOAT_DTYPES)
    attrs = dict(shape=shape_argument(op.name, shape), dtype=dtype, **_seed_attrs(seed))
    return scale_normal(apply_random(op, [], attrs), mean, stddev)


@tf_export("random.normal")
def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Random values from a normal distribution: mean + z * stddev with z ~ N(0, 1).

    >>> tf.random.normal([1000], mean=5.0, stddev=0.1, seed=1).shape
    TensorShape([1000])
    """
    return _normal_like(RandomStandardNormal, shape, mean, stddev, dtypes.as_dtype(dtype), seed)


@tf_export("random.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal values, but any draw more than 2 stddev from the mean is drawn again.

    Used to initialise weights without rare huge values.

    >>> x = tf.random.truncated_normal([1000], seed=1)
    >>> bool(tf.reduce_all(tf.abs(x) <= 2.0))
    True
    """
    return _normal_like(TruncatedNormal, shape, mean, stddev, dtypes.as_dtype(dtype), seed)


# --- shuffle ------------------------------------------------------------------------------
def _shuffle_forward(value, dtype, seed, seed2, kernel):
    if value.ndim == 0:
        return value
    return _kernel_generator("RandomShuffle", dtype, seed, seed2, kernel).permutation(value)


RandomShuffle = Op("RandomShuffle", _shuffle_forward, typed=(),
                   shape=lambda value, **attrs: value, stateful=True)  # no gradient, as in TF


@tf_export("random.shuffle")
def shuffle(value, seed=None, name=None):
    """The tensor with its first axis randomly reordered (rows stay intact).

    >>> tf.random.shuffle([[1, 2], [3, 4], [5, 6]], seed=1).shape
    TensorShape([3, 2])
    """
    value = convert_to_tensor(value)
    return apply(RandomShuffle, [value], {"dtype": value.dtype, **_seed_attrs(seed)})


# --- categorical --------------------------------------------------------------------------
def gumbel_max_samples(rng, logits, num_samples, dtype):
    """Class indices drawn with probabilities softmax(logits), by the Gumbel-max trick:
    argmax(logits + g) with g ~ Gumbel(0, 1) is a draw from softmax(logits)."""
    batch, classes = logits.shape
    noise = rng.gumbel(size=(batch, num_samples, classes))
    scores = logits.astype(np.float64)[:, None, :] + noise
    return np.argmax(scores, axis=-1).astype(dtype.as_numpy_dtype)


def _multinomial_forward(logits, num_samples, output_dtype, seed, seed2, kernel):
    rng = _kernel_generator("Multinomial", output_dtype, seed, seed2, kernel)
    return gumbel_max_samples(rng, logits, num_samples, output_dtype)


def _multinomial_shape(logits, num_samples, **attrs):
    return TensorShape([logits[0] if logits.rank else None, num_samples])


Multinomial = Op("Multinomial", _multinomial_forward, dtypes=dtypes.FLOATING,
                 shape=_multinomial_shape, dtype=from_attr("output_dtype"), stateful=True)


def check_logits(op_name, logits, num_samples, dtype):
    """The checks TF's Multinomial kernel makes, raising TF's errors."""
    dtype = check_dtype(dtypes.int64 if dtype is None else dtype, (dtypes.int32, dtypes.int64))
    if not logits.dtype.is_floating:
        raise errors.op_error(
            errors.NotFoundError, op_name,
            f"Could not find device for node: {{{{node {op_name}}}}} = {op_name}"
            f"[T=DT_{logits.dtype.name.upper()}, output_dtype=DT_{dtype.name.upper()}]",
            "Logits are log-probabilities: pass floats, e.g. tf.cast(logits, tf.float32).")
    if logits.shape.rank != 2:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"logits should be a matrix, got shape {dims_text(logits.shape)}",
                              "Give logits as [batch_size, num_classes]; for one distribution "
                              "use [[...]].")
    num_samples = convert_to_tensor(num_samples, dtype=dtypes.int32)
    known = symbolic_shape(op_name, [num_samples]) if context.graph_stack else None
    if known is not None and type(known) is not tuple:
        return num_samples, dtype  # a scalar tensor, read when the graph runs
    num_samples = known[0] if known is not None else int(num_samples.numpy())
    if num_samples < 0:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"num_samples should be non-negative, got {num_samples}",
                              "num_samples counts the draws per row.")
    if logits.shape[1] == 0:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              "num_classes should be positive, got 0",
                              "There must be at least one class to draw.")
    return num_samples, dtype


@tf_export("random.categorical")
def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """Draws class indices: row i of the result holds `num_samples` draws from
    softmax(logits[i]). `logits` is [batch_size, num_classes]; the result is int64.

    >>> tf.random.categorical(tf.math.log([[0.5, 0.5]]), 5).shape
    TensorShape([1, 5])
    """
    logits = convert_to_tensor(logits)
    num_samples, dtype = check_logits("Multinomial", logits, num_samples, dtype)
    attrs = {"num_samples": num_samples, "output_dtype": dtype, **_seed_attrs(seed)}
    if type(num_samples) is not int:  # known only when the graph runs: an input, as TF's
        attrs["num_samples"] = None
        return apply(MultinomialByTensor, [logits, num_samples], attrs)
    return apply(Multinomial, [logits], attrs)


MultinomialByTensor = Op(
    "Multinomial", lambda logits, n, num_samples, **attrs: _multinomial_forward(
        logits, int(n), **attrs), dtypes=dtypes.FLOATING, typed=(0,), stateful=True,
    shape=lambda logits, n, **attrs: _multinomial_shape(logits, None),
    dtype=lambda *in_dtypes, output_dtype, **attrs: output_dtype)


# --- stateless ops: the numbers are a pure function of (shape, seed) --------------------------
_STATELESS_DTYPES = FLOAT_DTYPES + (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)
_FULL_INT_DTYPES = (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)


def stateless_seed(seed):
    """The `seed` of a stateless op as an int tensor of shape [2], checked like TF."""
    seed = convert_to_tensor(seed, dtype_hint=dtypes.int64)
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        raise errors.op_error(
            errors.InvalidArgumentError, "StatelessRandomGetKeyCounter",
            f"Value for attr 'Tseed' of {type_name(seed.dtype)} is not in the list of allowed "
            "values: int32, int64", "A seed is a pair of integers, e.g. seed=[1, 2].")
    if seed.shape != TensorShape([2]):
        raise errors.op_error(
            errors.InvalidArgumentError, "StatelessRandomGetKeyCounter",
            f"seed must have shape [2], not {dims_text(seed.shape)}",
            "A stateless op takes a pair of integers, e.g. seed=[1, 2].")
    return seed


def _stateless_stream(seed):
    """The Philox (key, counter) of a stateless op: TF's scrambling of the seed pair."""
    return philox.key_counter_from_seed(int(seed[0]), int(seed[1]))


def _stateless_uniform_forward(seed, shape, dtype):
    return philox.uniform_float(*_stateless_stream(seed), shape, dtype.as_numpy_dtype)


def _stateless_uniform_int_forward(seed, minval, maxval, shape, dtype):
    check_int_range("StatelessRandomUniformIntV2", minval, maxval)
    return philox.uniform_int(*_stateless_stream(seed), shape, dtype.as_numpy_dtype,
                              minval, maxval)


def _stateless_full_int_forward(seed, shape, dtype):
    return philox.uniform_full_int(*_stateless_stream(seed), shape, dtype.as_numpy_dtype)


def _stateless_normal_forward(seed, shape, dtype):
    return philox.normal(*_stateless_stream(seed), shape, dtype.as_numpy_dtype)


def _stateless_truncated_forward(seed, shape, dtype):
    return philox.truncated_normal(*_stateless_stream(seed), shape, dtype.as_numpy_dtype)


# Not stateful: the same seed always gives the same numbers, so a graph may fold or merge them.
StatelessRandomUniformV2 = Op("StatelessRandomUniformV2", _stateless_uniform_forward,
                              typed=(), shape=output_shape, dtype=from_attr("dtype"))
StatelessRandomUniformIntV2 = Op("StatelessRandomUniformIntV2", _stateless_uniform_int_forward,
                                 typed=(1, 2), shape=output_shape, dtype=from_attr("dtype"))
StatelessRandomUniformFullIntV2 = Op("StatelessRandomUniformFullIntV2",
                                     _stateless_full_int_forward, typed=(), shape=output_shape,
                                     dtype=from_attr("dtype"))
StatelessRandomNormalV2 = Op("StatelessRandomNormalV2", _stateless_normal_forward, typed=(),
                             shape=output_shape, dtype=from_attr("dtype"))
StatelessTruncatedNormalV2 = Op("StatelessTruncatedNormalV2", _stateless_truncated_forward,
                                typed=(), shape=output_shape, dtype=from_attr("dtype"))


def _stateless_uniform_checks(minval, maxval, dtype):
    dtype = check_dtype(dtype, _STATELESS_DTYPES)
    if dtype.is_integer and (minval is None) != (maxval is None):
        raise ValueError(f"For integer `dtype` argument {dtype}, argument `minval` and `maxval` "
                         f"must be both None or not None. Got `minval`={minval} and "
                         f"`maxval`={maxval}.")
    if dtype.is_unsigned and minval is not None:
        raise ValueError(f"Argument `dtype` got invalid value {dtype} when argument `minval` is "
                         "not None. Please don't use unsigned integers in this case.")
    return dtype


@tf_export("random.stateless_uniform")
def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                      alg="auto_select"):
    """Uniform values in [minval, maxval) determined entirely by `seed` (a pair of ints).

    The same shape and seed always give the same numbers, in any program.
    Integer dtypes need both bounds, or neither (then the full range is drawn).

    >>> a = tf.random.stateless_uniform([3], seed=[1, 2])
    >>> bool(tf.reduce_all(a == tf.random.stateless_uniform([3], seed=[1, 2])))
    True
    """
    dtype = _stateless_uniform_checks(minval, maxval, dtype)
    attrs = {"shape": shape_argument("StatelessRandomUniformV2", shape), "dtype": dtype}
    seed = stateless_seed(seed)
    if dtype.is_integer and minval is None:
        return apply_random(StatelessRandomUniformFullIntV2, [seed], attrs)
    minval, maxval, trivial = uniform_bounds(minval, maxval, dtype)
    if dtype.is_integer:
        return apply_random(StatelessRandomUniformIntV2, [seed, minval, maxval], attrs)
    unit = apply_random(StatelessRandomUniformV2, [seed], attrs)
    return unit if trivial else scale_uniform(unit, minval, maxval)


def _stateless_normal_like(op, shape, seed, mean, stddev, dtype):
    mean = convert_to_tensor(mean, dtype=dtype)
    stddev = convert_to_tensor(stddev, dtype=dtype)
    dtype = check_dtype(dtype, FLOAT_DTYPES)
    attrs = {"shape": shape_argument(op.name, shape), "dtype": dtype}
    return scale_normal(apply_random(op, [stateless_seed(seed)], attrs), mean, stddev)


@tf_export("random.stateless_normal")
def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                     alg="auto_select"):
    """Normal values mean + z * stddev, with z determined entirely by `seed` (a pair of ints).

    >>> tf.random.stateless_normal([2, 2], seed=[7, 0]).shape
    TensorShape([2, 2])
    """
    return _stateless_normal_like(StatelessRandomNormalV2, shape, seed, mean, stddev,
                                  dtypes.as_dtype(dtype))


@tf_export("random.stateless_truncated_normal")
def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None, alg="auto_select"):
    """Truncated normal values (redrawn beyond 2 stddev) determined entirely by `seed`.

    >>> bool(tf.reduce_all(tf.abs(tf.random.stateless_truncated_normal([500], [1, 2])) <= 2))
    True
    """
    return _stateless_normal_like(StatelessTruncatedNormalV2, shape, seed, mean, stddev,
                                  dtypes.as_dtype(dtype))
