"""`tf.random.Generator`: random numbers whose state lives in a `tf.Variable`.

A Generator is a Philox stream (see `philox.py`) whose position is a
variable: the state [counter lo, counter hi, key] holds a 128-bit counter and
the key. A draw of n values reads the stream from the counter, then moves the
counter on by 256 blocks per value (TF's reservation, so no two draws
overlap). Two generators made with the same seed give the same sequence, and
each draw of one generator differs from the last:

>>> import minitf as tf
>>> g1 = tf.random.Generator.from_seed(1)
>>> g2 = tf.random.Generator.from_seed(1)
>>> a = g1.normal([3])
>>> bool(tf.reduce_all(a == g2.normal([3])))           # same seed, same sequence
True
>>> bool(tf.reduce_all(a == g1.normal([3])))           # the next draw differs
False
>>> g1.state                                           # 1 + 2 draws * 3 values * 256
<tf.Variable 'StateVar:0' shape=(3,) dtype=int64, numpy=array([1537,    0,    0])>

This is TensorFlow's layout and arithmetic, so the numbers are TF's:
`from_seed(1)` starts at counter 1 with key 0, as `tf.random.create_rng_state`
says. Because the state is a Variable, checkpoints save it.
"""
import enum

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from ..framework.variables import Variable
from . import philox
from .array_ops import stack
from .creation_ops import zeros_like
from .dtype_rules import from_attr
from .random_shape_input import apply_random
from .random_ops import (_FULL_INT_DTYPES, FLOAT_DTYPES, check_dtype, check_int_range,
                         output_shape, scale_normal, scale_uniform, shape_argument,
                         uniform_bounds)

_INT64_WORD = 2**64


@tf_export("random.Algorithm", "random.experimental.Algorithm")
class Algorithm(enum.Enum):
    """The counter-based algorithms TF offers. minitf draws every algorithm's numbers
    with Philox (TF's CPU choice for PHILOX and AUTO_SELECT)."""

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _algorithm(alg):
    """`alg` (None, a name, a number or an Algorithm) as TF's integer code."""
    if alg is None:
        return Algorithm.PHILOX.value
    if isinstance(alg, Algorithm):
        return alg.value
    if isinstance(alg, str) and alg.upper() in Algorithm.__members__:
        return Algorithm[alg.upper()].value
    if isinstance(alg, int) and alg in (a.value for a in Algorithm):
        return alg
    raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are philox "
                     "for the Philox algorithm, threefry for the ThreeFry algorithm, and "
                     "auto_select for auto-selection.")


def rng_state_words(seed, size):
    """`create_rng_state`'s rule: an int seed cut into `size` 64-bit words, lowest first
    (read as int64); a list taken as the words, cut to `size` or padded with zeros on
    the left (so a short seed lands in the key, not the counter)."""
    if isinstance(seed, (int, np.integer)):
        seed = int(seed)
        words = [(seed >> (64 * i)) & (2**64 - 1) for i in range(size)]
    else:  # a list may mix words above 2**63 with small ones: keep Python ints exact
        seed = seed.numpy() if hasattr(seed, "numpy") else seed
        words = np.asarray(seed, dtype=object).reshape([-1]).tolist()
    words = [w - 2**64 if w >= 2**63 else w for w in (int(w) % 2**64 for w in words)][:size]
    return [0] * (size - len(words)) + words


# --- the stateful kernels: draws that read a Generator's state ------------------------------
def _stream(state):
    """The Philox key and counter held in a state [counter lo, counter hi, key]."""
    lo, hi, key = (int(w) % 2**64 for w in state)
    return (key & 0xFFFFFFFF, key >> 32), philox.counter_from_int(lo | hi << 64)


def _skip_forward(state, delta):
    """The state after `delta` blocks: the 128-bit counter advances, the key stays."""
    lo, hi, key = (int(w) % 2**64 for w in state)
    counter = ((lo | hi << 64) + delta) % 2**128
    return np.array(rng_state_words([counter & (2**64 - 1), counter >> 64, key], 3), np.int64)


RngSkip = Op("RngSkip", _skip_forward, typed=(), shape=lambda state, delta: state,
             dtype=dtypes.int64)  # pure here: the Variable's assign makes the effect
RngSkipByShape = Op(
    "RngSkip", lambda state, shape: _skip_forward(state, int(np.prod(shape, dtype=np.int64))
                                                  * philox.RESERVED_BLOCKS_PER_OUTPUT),
    typed=(), shape=lambda state, shape: state, dtype=dtypes.int64)
def _stateful_draw(name, draw):
    """The op that draws with `philox.<draw>` from a Generator's state; it only reads the
    state (`Generator._draw` applies RngSkip after it to move the counter on)."""
    return Op(name, lambda s, shape, dtype: draw(*_stream(s), shape, dtype.as_numpy_dtype),
              typed=(), shape=output_shape, dtype=from_attr("dtype"))


StatefulUniform = _stateful_draw("StatefulUniform", philox.uniform_float)
StatefulStandardNormalV2 = _stateful_draw("StatefulStandardNormalV2", philox.normal)
StatefulTruncatedNormal = _stateful_draw("StatefulTruncatedNormal", philox.truncated_normal)
StatefulUniformFullInt = _stateful_draw("StatefulUniformFullInt", philox.uniform_full_int)

def _uniform_int_forward(state, minval, maxval, shape, dtype):
    check_int_range("StatefulUniformInt", minval, maxval)
    return philox.uniform_int(*_stream(state), shape, dtype.as_numpy_dtype, minval, maxval)


StatefulUniformInt = Op("StatefulUniformInt", _uniform_int_forward, typed=(1, 2),
                        shape=output_shape, dtype=from_attr("dtype"))


def _check_integer_dtype(dtype, op_name):
    """The stateless integer kernels exist for int32, int64, uint32 and uint64 only."""
    if dtype.is_integer and dtype not in _FULL_INT_DTYPES:
        allowed = ", ".join(d.name for d in _FULL_INT_DTYPES)
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"Value for attr 'dtype' of {dtype.name} is not in the list of "
                              f"allowed values: {allowed}",
                              "Draw int32 or int64 numbers and tf.cast them if needed.")


@tf_export("random.Generator", "random.experimental.Generator")
class Generator:
    """A random number generator whose state is a `tf.Variable` (see the module docstring).

    Make one with `Generator.from_seed(seed)` (reproducible) or
    `Generator.from_non_deterministic_state()`; `tf.random.get_global_generator()`
    returns a shared one.

    >>> g = tf.random.Generator.from_seed(42)
    >>> g.uniform([2, 3]).shape
    TensorShape([2, 3])
    """

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state, alg = copy_from.state.numpy(), copy_from.algorithm
        elif state is None:
            raise ValueError("A Generator needs a starting state: use "
                             "tf.random.Generator.from_seed(seed) or "
                             "tf.random.Generator.from_non_deterministic_state().")
        self._alg = _algorithm(alg)
        self._state_var = Variable(self._checked_state(state), dtype=dtypes.int64,
                                   trainable=False, name="StateVar")

    @staticmethod
    def _checked_state(state):
        state = np.asarray(state).astype(np.int64)
        if state.shape != (3,):
            raise ValueError(f"Shapes {TensorShape(state.shape)} and [3] are incompatible: a "
                             "Generator's state is the three numbers [counter lo, counter hi, "
                             "key].")
        return state

    # --- making generators --------------------------------------------------------------
    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose whole sequence is decided by the integer `seed` (its state is
        `tf.random.create_rng_state(seed, alg)`)."""
        return cls(state=rng_state_words(seed, 3), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy: differs every run."""
        words = np.random.SeedSequence().generate_state(3, np.uint64)
        return cls(state=rng_state_words(words, 3), alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        """A generator starting from a given state, e.g. another generator's `state`."""
        return cls(state=state, alg=alg)

    def reset(self, state):
        """Set the state (an int64 vector of 3)."""
        self._state_var.assign(self._checked_state(state))

    def reset_from_seed(self, seed):
        """Start over as `Generator.from_seed(seed)` would."""
        self.reset(rng_state_words(seed, 3))

    # --- what it holds ------------------------------------------------------------------
    @property
    def state(self):
        """The state variable: [counter lo, counter hi, key]."""
        return self._state_var

    @property
    def algorithm(self):
        """TF's integer code of the algorithm (1 = Philox)."""
        return self._alg

    @property
    def key(self):
        """The Philox key: the last word of the state."""
        return self._state_var.read_value()[-1]

    def _draw(self, op, shape, dtype, inputs=()):
        """Run `op` on the current state, then move the counter past what it used."""
        dims = shape_argument(op.name, shape)
        state = self._state_var.read_value()
        out = apply_random(op, [state, *inputs], {"shape": dims, "dtype": dtype})
        if type(dims) is tuple:
            count = int(np.prod(dims, dtype=np.int64))
            self._state_var.assign(apply(RngSkip, [state], {
                "delta": count * philox.RESERVED_BLOCKS_PER_OUTPUT}))
        else:  # a shape only the running graph knows: the skip takes it as an input
            self._state_var.assign(apply(RngSkipByShape, [state, dims]))
        return out

    # --- drawing ------------------------------------------------------------------------
    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal values mean + z * stddev (see `tf.random.normal`)."""
        dtype = check_dtype(dtype, FLOAT_DTYPES)
        mean, stddev = (convert_to_tensor(v, dtype=dtype) for v in (mean, stddev))
        return scale_normal(self._draw(StatefulStandardNormalV2, shape, dtype), mean, stddev)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal values, any beyond 2 stddev drawn again (see `tf.random.truncated_normal`)."""
        dtype = check_dtype(dtype, FLOAT_DTYPES)
        mean, stddev = (convert_to_tensor(v, dtype=dtype) for v in (mean, stddev))
        return scale_normal(self._draw(StatefulTruncatedNormal, shape, dtype), mean, stddev)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Uniform values in [minval, maxval); integers need both bounds, or neither for the
        full range of the dtype."""
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer and (minval is None) != (maxval is None):
            raise ValueError(f"For integer dtype {dtype}, minval and maxval must be both `None` "
                             f"or both non-`None`; got minval={minval} and maxval={maxval}")
        _check_integer_dtype(dtype, "StatefulUniformInt")
        if dtype.is_integer and minval is None:
            return self.uniform_full_int(shape, dtype)
        minval, maxval, trivial = uniform_bounds(minval, maxval, dtype)
        if dtype.is_integer:
            return self._draw(StatefulUniformInt, shape, dtype, [minval, maxval])
        unit = self._draw(StatefulUniform, shape, check_dtype(dtype, FLOAT_DTYPES))
        return unit if trivial else scale_uniform(unit, minval, maxval)

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        """Integers drawn uniformly from the whole range of `dtype`."""
        dtype = dtypes.as_dtype(dtype)
        _check_integer_dtype(dtype, "StatefulUniformFullInt")
        if not dtype.is_integer:
            raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                             f"({', '.join(repr(d) for d in _FULL_INT_DTYPES)}).")
        return self._draw(StatefulUniformFullInt, shape, dtype)

    def make_seeds(self, count=1):
        """`count` seeds for stateless ops, as the columns of an int64 tensor [2, count].

        >>> seeds = tf.random.Generator.from_seed(1).make_seeds(2)
        >>> tf.random.stateless_uniform([3], seed=seeds[:, 0]).shape
        TensorShape([3])
        """
        keys = self.uniform_full_int([count], dtypes.int64)
        return stack([keys, zeros_like(keys)])

    def _next_seed(self):
        """A fresh stateless seed [key, 0] drawn from this generator (not TF API: minitf's
        augmentation layers feed it to their own kernels)."""
        return self.make_seeds(1)[:, 0]

    def split(self, count=1):
        """`count` new, independent generators: each has a key drawn from this one and
        counter 0."""
        keys = self.uniform_full_int([count], dtypes.int64).numpy()
        return [Generator(state=[0, 0, int(k)], alg=self._alg) for k in keys]


_global_generator = None


@tf_export("random.get_global_generator", "random.experimental.get_global_generator")
def get_global_generator():
    """The process-wide Generator (made from non-deterministic state on first use)."""
    global _global_generator
    if _global_generator is None:
        _global_generator = Generator.from_non_deterministic_state()
    return _global_generator


@tf_export("random.set_global_generator", "random.experimental.set_global_generator")
def set_global_generator(generator):
    """Replace the process-wide Generator, e.g. with `Generator.from_seed(1)`."""
    global _global_generator
    _global_generator = generator
