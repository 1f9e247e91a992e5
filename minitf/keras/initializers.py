"""`tf.keras.initializers`: the starting values of weights.

An initializer is called with a shape and a dtype and returns a tensor:

>>> import minitf as tf
>>> tf.keras.initializers.Constant(0.5)(shape=(2,))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 0.5], dtype=float32)>

Random initializers draw with the stateless random ops, as Keras 3 does: the
seed is fixed when the initializer is made, so one initializer returns the
same values on every call. With `seed=None` the seed is
`random.randint(1, 10**9)` from Python's `random` module, drawn at
construction (Keras's `make_default_seed`), and the draw uses the pair
[seed, 0]. So `tf.random.set_seed` does *not* fix Keras weights;
`tf.keras.utils.set_random_seed(s)` (which seeds Python's `random` too) does:

>>> tf.keras.utils.set_random_seed(1); a = tf.keras.initializers.GlorotUniform()((2, 2))
>>> tf.keras.utils.set_random_seed(1); b = tf.keras.initializers.GlorotUniform()((2, 2))
>>> bool(tf.reduce_all(a == b))
True
>>> a                                   # Keras 3.15 on TF 2.21 gives the same numbers
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[-0.5903275 ,  0.8878101 ],
       [ 1.0738579 , -0.38398606]], dtype=float32)>

The variance-scaling family (Glorot, He, LeCun) picks the spread from the
weight's fan-in and fan-out, so that activations keep their variance from
layer to layer: `stddev = sqrt(scale / n)`, n = fan_in, fan_out or their mean.
"""
import math

import numpy as np

import minitf as tf

from ..framework import dtypes
from ..framework.tf_export import tf_export
from . import serialization
from .random import random_ops as keras_random
from .random import seed_generator

_MODULE = "keras.initializers"


def _dtype(dtype):
    return dtypes.as_dtype(dtype or "float32")


@tf_export("keras.initializers.Initializer", "keras.Initializer")
class Initializer:
    """Base class: subclasses implement `__call__(shape, dtype=None)`."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError(f"Initializer subclasses must implement the `__call__()` "
                                  f"method. Received: initializer={self}")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def clone(self):
        return self.__class__.from_config(self.get_config())


@tf_export("keras.initializers.Zeros", "keras.initializers.zeros")
class Zeros(Initializer):
    """All zeros (the default for biases).

    >>> tf.keras.initializers.Zeros()((2,))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>
    """

    def __call__(self, shape, dtype=None, **kwargs):
        return tf.zeros(shape, _dtype(dtype))


@tf_export("keras.initializers.Ones", "keras.initializers.ones")
class Ones(Initializer):
    """All ones (the default for BatchNormalization's gamma).

    >>> tf.keras.initializers.Ones()((2,))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
    """

    def __call__(self, shape, dtype=None, **kwargs):
        return tf.ones(shape, _dtype(dtype))


@tf_export("keras.initializers.Constant", "keras.initializers.constant")
class Constant(Initializer):
    """`value` broadcast to the shape: a number fills it, an array must broadcast to it.

    Keras computes `cast(value, dtype) * ones(shape, dtype)`, so a value of the
    weight's own shape is copied as is and a row is repeated down the rows; a flat
    list of the right length is NOT reshaped (that is `tf.constant_initializer`).

    >>> tf.keras.initializers.Constant(np.arange(6).reshape(2, 3))((2, 3)).numpy()
    array([[0., 1., 2.],
           [3., 4., 5.]], dtype=float32)
    >>> tf.keras.initializers.Constant([1.0, 2.0, 3.0])((2, 3)).numpy()
    array([[1., 2., 3.],
           [1., 2., 3.]], dtype=float32)
    """

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None, **kwargs):
        dtype = _dtype(dtype)
        value = tf.cast(tf.convert_to_tensor(self.value), dtype)
        if value.shape.rank == 0:
            return tf.fill(list(shape), value)
        return value * tf.ones(shape, dtype)  # TF's error if it does not broadcast

    def get_config(self):
        value = self.value
        if hasattr(value, "dtype") and hasattr(value, "tolist"):  # NumPy, as Keras 3 writes it
            value = {"class_name": "__numpy__",
                     "config": {"value": value.tolist(), "dtype": str(value.dtype)}}
        return {"value": value}

    @classmethod
    def from_config(cls, config):
        value = config.get("value", 0.0)
        if isinstance(value, dict) and value.get("class_name") == "__numpy__":
            value = np.asarray(value["config"]["value"], dtype=value["config"]["dtype"])
        return cls(value)


@tf_export("keras.initializers.Identity", "keras.initializers.identity",
           "keras.initializers.IdentityInitializer")
class Identity(Initializer):
    """`gain` times the identity matrix (2-D shapes only).

    >>> tf.keras.initializers.Identity()((2, 3)).numpy()
    array([[1., 0., 0.],
           [0., 1., 0.]], dtype=float32)
    """

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None, **kwargs):
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        return tf.eye(shape[0], shape[1], dtype=_dtype(dtype)) * self.gain

    def get_config(self):
        return {"gain": self.gain}


class RandomInitializer(Initializer):
    """An initializer with a `seed`: an int, a `keras.random.SeedGenerator` (a new draw on
    every call), or None for `make_default_seed()` taken now (as Keras 3)."""

    def __init__(self, seed=None):
        self._init_seed = seed
        if seed is None:
            seed = seed_generator.make_default_seed()
        elif isinstance(seed, dict):
            seed = seed_generator.SeedGenerator.from_config(seed.get("config", seed))
        elif not isinstance(seed, (int, seed_generator.SeedGenerator)) or isinstance(seed, bool):
            raise ValueError("`seed` argument should be an instance of `keras.random."
                             f"SeedGenerator()` or an integer. Received: seed={seed}")
        self.seed = seed

    def get_config(self):
        return {"seed": _seed_config(self._init_seed)}


def _seed_config(seed):
    """The seed as Keras serializes it: None, an int, or a SeedGenerator's config dict."""
    if isinstance(seed, seed_generator.SeedGenerator):
        return {"module": "keras.random", "class_name": "SeedGenerator",
                "config": seed.get_config(), "registered_name": None}
    return seed


@tf_export("keras.initializers.RandomNormal", "keras.initializers.random_normal")
class RandomNormal(RandomInitializer):
    """Normal draws with `mean` and `stddev` (default 0.0 and 0.05)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None, **kwargs):
        return keras_random.normal(shape, self.mean, self.stddev, _dtype(dtype), self.seed)

    def get_config(self):
        return {"seed": _seed_config(self._init_seed), "mean": self.mean,
                "stddev": self.stddev}


@tf_export("keras.initializers.RandomUniform", "keras.initializers.random_uniform")
class RandomUniform(RandomInitializer):
    """Uniform draws in [minval, maxval) (default -0.05 and 0.05)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=None, **kwargs):
        return keras_random.uniform(shape, self.minval, self.maxval, _dtype(dtype), self.seed)

    def get_config(self):
        return {"seed": _seed_config(self._init_seed), "minval": self.minval,
                "maxval": self.maxval}


@tf_export("keras.initializers.TruncatedNormal", "keras.initializers.truncated_normal")
class TruncatedNormal(RandomInitializer):
    """Normal draws redrawn when more than two standard deviations from the mean."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None, **kwargs):
        return keras_random.truncated_normal(shape, self.mean, self.stddev, _dtype(dtype),
                                             self.seed)

    def get_config(self):
        return {"seed": _seed_config(self._init_seed), "mean": self.mean,
                "stddev": self.stddev}


def _compute_fans(shape):
    """(fan_in, fan_out) of a weight shape; for conv kernels the receptive field counts.

    >>> _compute_fans((3, 3, 16, 32))
    (144, 288)
    """
    shape = tuple(shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive_field = math.prod(shape[:-2])
    return shape[-2] * receptive_field, shape[-1] * receptive_field


@tf_export("keras.initializers.VarianceScaling", "keras.initializers.variance_scaling")
class VarianceScaling(RandomInitializer):
    """Draws scaled to the weight's fans: `scale / n`, n by `mode`, shape by `distribution`.

    mode: 'fan_in', 'fan_out' or 'fan_avg'. distribution: 'truncated_normal'
    (stddev divided by .8796..., the stddev of a standard normal truncated at
    +-2), 'untruncated_normal' or 'uniform' (limit sqrt(3 * scale / n)).
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 input_axes=None, output_axes=None):
        if scale <= 0.0:
            raise ValueError("Argument `scale` must be positive float. "
                             f"Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError("Invalid `mode` argument: expected one of {'fan_in', 'fan_out', "
                             f"'fan_avg'}}. Received: mode={mode}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError("Invalid `distribution` argument: expected one of {'uniform', "
                             "'truncated_normal', 'untruncated_normal'}. "
                             f"Received: distribution={distribution}")
        super().__init__(seed)
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self.input_axes, self.output_axes = input_axes, output_axes  # Keras 3.15: fans by axes

    def __call__(self, shape, dtype=None, **kwargs):
        if self.input_axes is not None and self.output_axes is not None:
            fan_in = math.prod(shape[a] for a in self.input_axes)
            fan_out = math.prod(shape[a] for a in self.output_axes)
        else:
            fan_in, fan_out = _compute_fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}
        scale = self.scale / max(1.0, n[self.mode])
        dtype = _dtype(dtype)
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(scale) / 0.87962566103423978
            return keras_random.truncated_normal(shape, 0.0, stddev, dtype, self.seed)
        if self.distribution == "untruncated_normal":
            return keras_random.normal(shape, 0.0, math.sqrt(scale), dtype, self.seed)
        limit = math.sqrt(3.0 * scale)
        return keras_random.uniform(shape, -limit, limit, dtype, self.seed)

    def get_config(self):
        return {"seed": _seed_config(self._init_seed), "scale": self.scale, "mode": self.mode,
                "distribution": self.distribution, "input_axes": self.input_axes,
                "output_axes": self.output_axes}


def _variance_scaling(class_name, scale, mode, distribution, doc, *names):
    """Declare a named VarianceScaling preset (GlorotUniform, HeNormal, ...)."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        VarianceScaling.__init__(self, scale, mode, distribution, seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": _seed_config(self._init_seed), "input_axes": self.input_axes,
                "output_axes": self.output_axes}

    cls = type(class_name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config,
                                                 "__doc__": doc, "__module__": __name__})
    return tf_export(*names)(cls)


GlorotUniform = _variance_scaling(
    "GlorotUniform", 1.0, "fan_avg", "uniform",
    "Uniform in +-sqrt(6 / (fan_in + fan_out)): Dense's default kernel initializer.",
    "keras.initializers.GlorotUniform", "keras.initializers.glorot_uniform")
GlorotNormal = _variance_scaling(
    "GlorotNormal", 1.0, "fan_avg", "truncated_normal",
    "Truncated normal with stddev sqrt(2 / (fan_in + fan_out)).",
    "keras.initializers.GlorotNormal", "keras.initializers.glorot_normal")
HeNormal = _variance_scaling(
    "HeNormal", 2.0, "fan_in", "truncated_normal",
    "Truncated normal with stddev sqrt(2 / fan_in): for ReLU layers.",
    "keras.initializers.HeNormal", "keras.initializers.he_normal")
HeUniform = _variance_scaling(
    "HeUniform", 2.0, "fan_in", "uniform", "Uniform in +-sqrt(6 / fan_in).",
    "keras.initializers.HeUniform", "keras.initializers.he_uniform")
LecunNormal = _variance_scaling(
    "LecunNormal", 1.0, "fan_in", "truncated_normal",
    "Truncated normal with stddev sqrt(1 / fan_in): for SELU networks.",
    "keras.initializers.LecunNormal", "keras.initializers.lecun_normal")
LecunUniform = _variance_scaling(
    "LecunUniform", 1.0, "fan_in", "uniform", "Uniform in +-sqrt(3 / fan_in).",
    "keras.initializers.LecunUniform", "keras.initializers.lecun_uniform")


@tf_export("keras.initializers.Orthogonal", "keras.initializers.orthogonal",
           "keras.initializers.OrthogonalInitializer")
class Orthogonal(RandomInitializer):
    """An orthogonal matrix (rows or columns orthonormal) times `gain`, from the QR
    decomposition of a normal draw; shapes above rank 2 are flattened to
    (prod(shape[:-1]), shape[-1]).

    >>> q = tf.keras.initializers.Orthogonal(seed=1)((3, 3))
    >>> bool(tf.reduce_all(tf.abs(tf.matmul(q, q, transpose_a=True) - tf.eye(3)) < 1e-5))
    True
    """

    def __init__(self, gain=1.0, seed=None):
        super().__init__(seed)
        self.gain = gain

    def __call__(self, shape, dtype=None, **kwargs):
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        dtype = _dtype(dtype)
        rows, cols = math.prod(shape[:-1]), shape[-1]
        flat = (max(rows, cols), min(rows, cols))
        a = keras_random.normal(flat, dtype=dtype, seed=self.seed)
        q, r = tf.linalg.qr(a, full_matrices=False)
        q = q * tf.sign(tf.linalg.diag_part(r))  # makes Q unique (and uniformly distributed)
        if rows < cols:
            q = tf.transpose(q)
        return self.gain * tf.reshape(q, shape)

    def get_config(self):
        return {"seed": _seed_config(self._init_seed), "gain": self.gain}


def _window(name, length, periodic):
    """scipy.signal.get_window(name, length, fftbins=periodic) for the common windows."""
    size = length + 1 if periodic else length
    simple = {"hann": np.hanning, "hamming": np.hamming, "blackman": np.blackman,
              "bartlett": np.bartlett, "boxcar": np.ones}
    if name in simple:
        return simple[name](size)[:length]
    try:
        import scipy.signal
    except ImportError:
        raise ImportError(f"The window {name!r} needs SciPy (`pip install scipy`); "
                          f"without it use one of {sorted(simple)}.") from None
    return scipy.signal.get_window(name, length, periodic)


@tf_export("keras.initializers.STFT", "keras.initializers.stft",
           "keras.initializers.STFTInitializer")
class STFT(Initializer):
    """Conv kernels computing a short-time Fourier transform: the real (cos) or imaginary
    (-sin) parts of the DFT of one frame, times a window, for `STFTSpectrogram`.

    Shape `(frame_length, 1, fft_length // 2 + 1)`; kernel[t, 0, f] =
    cos(-2 pi t f / fft_length) * window[t] / scale, where scale is the window's
    L2 norm ('density') or L1 norm ('spectrum').

    >>> k = tf.keras.initializers.STFT("real", window=None)((4, 1, 3))
    >>> print(np.round(k.numpy()[:, 0, :], 3))
    [[ 1.  1.  1.]
     [ 1.  0. -1.]
     [ 1. -1.  1.]
     [ 1. -0. -1.]]
    """

    def __init__(self, side="real", window="hann", scaling="density", periodic=False):
        if side not in ["real", "imag"]:
            raise ValueError(f"side should be 'real' or 'imag', not {side}")
        if isinstance(window, str):
            _window(window, 1, periodic)  # fail early on an unknown window name
        if scaling is not None and scaling not in ["density", "spectrum"]:
            raise ValueError("Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                             f"Received scaling={scaling}")
        self.side, self.window, self.scaling, self.periodic = side, window, scaling, periodic

    def __call__(self, shape, dtype=None):
        dtype = _dtype(dtype)
        frame_length, _, fft_bins = shape
        time = np.arange(frame_length, dtype=np.float64).reshape(frame_length, 1, 1)
        freq = np.arange(fft_bins, dtype=np.float64).reshape(1, 1, fft_bins) / (
            (fft_bins - 1) * 2)
        args = -2 * time * freq * np.pi
        kernel = np.cos(args) if self.side == "real" else np.sin(args)
        if self.window is not None:
            win = self.window
            if isinstance(win, str):
                win = _window(win, frame_length, self.periodic)
            win = np.asarray(win, dtype=np.float64)
            if win.ndim != 1 or win.shape[-1] != frame_length:
                raise ValueError("The shape of `window` must be equal to [frame_length]."
                                 f"Received: window shape={win.shape}")
            win = win.reshape(frame_length, 1, 1)
            scale = {"density": np.sqrt(np.sum(win ** 2)), "spectrum": np.sum(np.abs(win)),
                     None: 1.0}[self.scaling]
            kernel = kernel * win / scale
        return tf.constant(kernel.astype(dtype.as_numpy_dtype))

    def get_config(self):
        return {"side": self.side, "window": self.window, "periodic": self.periodic,
                "scaling": self.scaling}


_ALL = {cls.__name__: cls for cls in (
    Zeros, Ones, Constant, Identity, RandomNormal, RandomUniform, TruncatedNormal,
    VarianceScaling, GlorotUniform, GlorotNormal, HeNormal, HeUniform, LecunNormal,
    LecunUniform, Orthogonal, STFT)}
_ALIASES = {"zeros": Zeros, "ones": Ones, "constant": Constant, "identity": Identity,
            "random_normal": RandomNormal, "random_uniform": RandomUniform,
            "truncated_normal": TruncatedNormal, "variance_scaling": VarianceScaling,
            "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
            "he_normal": HeNormal, "he_uniform": HeUniform, "lecun_normal": LecunNormal,
            "lecun_uniform": LecunUniform, "orthogonal": Orthogonal, "uniform": RandomUniform,
            "normal": RandomNormal, "one": Ones, "zero": Zeros,
            "IdentityInitializer": Identity, "OrthogonalInitializer": Orthogonal,
            "STFTInitializer": STFT, "stft": STFT}


@tf_export("keras.initializers.serialize")
def serialize(initializer):
    """The Keras 3 config dict of an initializer."""
    return serialization.serialize_keras_object(initializer, _MODULE)


@tf_export("keras.initializers.deserialize")
def deserialize(config, custom_objects=None):
    """An initializer from `serialize`'s dict (or from its class name)."""
    return serialization.deserialize_keras_object(config, {**_ALL, **_ALIASES}, "initializer",
                                                  custom_objects)


@tf_export("keras.initializers.get")
def get(identifier):
    """An initializer from a name ('glorot_uniform'), a config dict, an instance or a callable.

    >>> type(tf.keras.initializers.get("he_normal")).__name__
    'HeNormal'
    """
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier() if isinstance(identifier, type) else identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


# Implementation names (Keras keeps RandomInitializer private too): TF's namespace does
# not show them.
_RandomInitializer = RandomInitializer
del tf_export, RandomInitializer
