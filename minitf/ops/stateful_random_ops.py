"""`tf.random.Generator`: random numbers whose state lives in a `tf.Variable`.

A Generator is a stateless random op plus a counter. Every draw passes the
pair `[key, counter]` as the `seed` of a `tf.random.stateless_*` op, then
adds 1 to the counter, so two generators made with the same seed give the
same sequence, and each draw of one generator differs from the last:

>>> import minitf as tf
>>> g1 = tf.random.Generator.from_seed(1)
>>> g2 = tf.random.Generator.from_seed(1)
>>> a = g1.normal([3])
>>> bool(tf.reduce_all(a == g2.normal([3])))           # same seed, same sequence
True
>>> bool(tf.reduce_all(a == g1.normal([3])))           # the next draw differs
False
>>> g1.state
<tf.Variable 'StateVar:0' shape=(3,) dtype=int64, numpy=array([2, 0, 1])>

In TensorFlow the state has the same form, an int64 variable of shape [3],
but holds a Philox counter (two words) and key, and the counter advances by
the number of random bits used; minitf's state is [counter, 0, key] and the
counter counts draws. Because the state is a Variable, checkpoints save it.
"""
import enum

import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from ..framework.variables import Variable
from .array_ops import stack
from .creation_ops import zeros_like
from .random_ops import (_FULL_INT_DTYPES, stateless_normal, stateless_truncated_normal,
                         stateless_uniform)

_INT64_WORD = 2**64


@tf_export("random.Algorithm", "random.experimental.Algorithm")
class Algorithm(enum.Enum):
    """The counter-based algorithms TF offers; minitf records the choice but draws every
    algorithm's numbers from NumPy's PCG64."""

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


def _int64(value):
    """An integer of any size wrapped into int64's range, as a 64-bit word would hold it."""
    value = int(value) % _INT64_WORD
    return value - _INT64_WORD if value >= 2**63 else value


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
                             "Generator's state is the three numbers [counter, 0, key].")
        return state

    # --- making generators --------------------------------------------------------------
    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose whole sequence is decided by the integer `seed`."""
        return cls(state=[0, 0, _int64(seed)], alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy: differs every run."""
        return cls.from_seed(np.random.SeedSequence().entropy, alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        """A generator starting from a given state, e.g. another generator's `state`."""
        return cls(state=state, alg=alg)

    def reset(self, state):
        """Set the state (an int64 vector of 3)."""
        self._state_var.assign(self._checked_state(state))

    def reset_from_seed(self, seed):
        """Start over as `Generator.from_seed(seed)` would."""
        self.reset([0, 0, _int64(seed)])

    # --- what it holds ------------------------------------------------------------------
    @property
    def state(self):
        """The state variable: [counter, 0, key]."""
        return self._state_var

    @property
    def algorithm(self):
        """TF's integer code of the algorithm (1 = Philox)."""
        return self._alg

    @property
    def key(self):
        """The key: the seed this generator was made from."""
        return self._state_var.read_value()[2]

    def _next_seed(self):
        """The seed for this draw, [key, counter]; then the counter moves on by one."""
        seed = self._state_var.read_value()[::-2]  # a tensor read keeps the old value
        self._state_var.assign_add([1, 0, 0])
        return seed

    # --- drawing ------------------------------------------------------------------------
    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal values mean + z * stddev (see `tf.random.normal`)."""
        return stateless_normal(shape, self._next_seed(), mean, stddev, dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal values, any beyond 2 stddev drawn again (see `tf.random.truncated_normal`)."""
        return stateless_truncated_normal(shape, self._next_seed(), mean, stddev, dtype)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Uniform values in [minval, maxval); integers need both bounds, or neither for the
        full range of the dtype."""
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer and (minval is None) != (maxval is None):
            raise ValueError(f"For integer dtype {dtype}, minval and maxval must be both `None` "
                             f"or both non-`None`; got minval={minval} and maxval={maxval}")
        _check_integer_dtype(dtype, "StatelessRandomUniformIntV2")
        if dtype.is_integer and minval is None:
            return self.uniform_full_int(shape, dtype)
        return stateless_uniform(shape, self._next_seed(), minval, maxval, dtype)

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        """Integers drawn uniformly from the whole range of `dtype`."""
        dtype = dtypes.as_dtype(dtype)
        _check_integer_dtype(dtype, "StatelessRandomUniformFullIntV2")
        if not dtype.is_integer:
            raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                             f"({', '.join(repr(d) for d in _FULL_INT_DTYPES)}).")
        return stateless_uniform(shape, self._next_seed(), None, None, dtype)

    def make_seeds(self, count=1):
        """`count` seeds for stateless ops, as the columns of an int64 tensor [2, count].

        >>> seeds = tf.random.Generator.from_seed(1).make_seeds(2)
        >>> tf.random.stateless_uniform([3], seed=seeds[:, 0]).shape
        TensorShape([3])
        """
        keys = self.uniform_full_int([count], dtypes.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count=1):
        """`count` new, independent generators seeded from this one."""
        keys = self.uniform_full_int([count], dtypes.int64).numpy()
        return [Generator.from_seed(int(k), alg=self._alg) for k in keys]


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
