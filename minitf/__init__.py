"""minitf: TensorFlow 2 that a learner can read.

`import minitf as tf` gives TensorFlow 2's API, built on NumPy in plain
Python. This file only assembles the public namespace: every op module marks
its public names with `@tf_export("math.exp", "exp")`, and the loop at the
bottom puts them into `tf`, `tf.math`, `tf.nn`, `tf.linalg`, ... - the way
TensorFlow generates its own API modules.

>>> import minitf as tf
>>> tf.math.exp(tf.constant(0.0))
<tf.Tensor: shape=(), dtype=float32, numpy=1.0>
"""
from . import ops  # noqa: F401 - imports every op family, registering its names
from .framework import function as _function  # noqa: F401 - registers tf.function, tf.config
from . import autograph  # noqa: F401 - tf.autograph; sets tf.function's AutoGraph converter
from . import grappler  # noqa: F401 - tf.grappler, tf.config.optimizer; sets Function.optimizer
from .framework import config_devices as _config_devices  # noqa: F401 - tf.device, tf.config
from .framework import traceback_utils as _traceback_utils  # tf.debugging's traceback filtering
from . import module  # noqa: F401 - tf.Module
# tf.data, tf.keras, tf.summary, tf.saved_model, tf.train, tf.io, tf.distribute and
# tf.feature_column are imported on first use: see __getattr__ below.
from .framework import errors as _errors, nest as _nest
from .framework.context import executing_eagerly
from .framework.custom_gradient import custom_gradient
from .framework.dtypes import (DType, as_dtype, bool, complex64,  # noqa: A004
                               complex128, double, float16, float32, float64, half, int8, int16,
                               int32, int64, string, uint8, uint16, uint32, uint64)
from .framework.tape import GradientTape, UnconnectedGradients
from .framework.tensor import Tensor
from .framework.tensor_shape import TensorShape
from .framework import api_namespace as _api
from .framework.variables import Variable, VariableAggregation, VariableSynchronization
from .ops.slicing_ops import newaxis

__version__ = "0.1.0"


def __getattr__(name):  # PEP 562: tf.keras, tf.data, ... are imported on first use
    return _api.lazy_attribute(name)


def __dir__():
    return _api.public_dir()


_api.go_live()
_traceback_utils.install()  # errors show the learner's frames, not minitf's (see the module)
_module = _api.namespace
_module("dtypes").__dict__.update(
    {d.name: d for d in (float16, float32, float64, int8, int16, int32, int64, uint8, uint16,
                         uint32, uint64, bool, complex64, complex128, string)},
    DType=DType, as_dtype=as_dtype, double=double, half=half)
_module("errors").__dict__.update(
    {k: v for k, v in vars(_errors).items()
     if isinstance(v, type) and issubclass(v, Exception) or k.isupper()},
    __doc__=_errors.__doc__)
_module("nest").__dict__.update(
    {k: getattr(_nest, k) for k in ("flatten", "pack_sequence_as", "map_structure",
                                   "assert_same_structure", "is_nested")})
