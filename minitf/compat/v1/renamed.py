"""TF1 spellings of TF2 functions, and the names tf.compat.v1 shares with tf.

Many TF1 names became TF2 names with another spelling or home: `tf.random_normal` is
`tf.random.normal`, `tf.reduce_sum(x, keep_dims=True)` is `keepdims=True`. These are
the ones TF1 teaching programs use, each the TF2 function under its TF1 signature:

>>> import minitf as tf
>>> tf.compat.v1.reduce_sum(tf.ones([2, 3]), 1, keep_dims=True).shape
TensorShape([2, 1])
>>> tf.compat.v1.to_float(tf.constant([1, 2]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>

SHARED_WITH_TF lists the names whose object in TF 2.21's tf.compat.v1 *is* tf's
(`tf.compat.v1.matmul is tf.matmul`); `tf.compat.v1.<name>` gives minitf's `tf.<name>`.
Made with real TF 2.21: `sorted(n for n in dir(tf.compat.v1) if not n.startswith("_")
and getattr(tf.compat.v1, n) is getattr(tf, n, None) and not inspect.ismodule(...))`,
keeping the names minitf has.
"""
import sys
import types

from ...framework.tf_export import tf_export

SHARED_WITH_TF = frozenset("""
AggregationMethod Assert DType GradientTape IndexedSlices IndexedSlicesSpec Module
NoneTensorSpec OptionalSpec RaggedTensor RaggedTensorSpec RegisterGradient SparseTensor
SparseTensorSpec Tensor TensorArray TensorArraySpec TensorShape TensorSpec TypeSpec
UnconnectedGradients VariableSynchronization abs acos acosh add add_n approx_top_k argsort
as_dtype as_string asin asinh atan atan2 atanh bitcast bool broadcast_dynamic_shape
broadcast_static_shape broadcast_to cast clip_by_global_norm clip_by_norm clip_by_value complex
complex128 complex64 concat control_dependencies cos cosh cumsum custom_gradient divide double
dynamic_partition dynamic_stitch edit_distance einsum ensure_shape equal exp eye fftnd fill
fingerprint float16 float32 float64 floor function get_logger get_static_value
grad_pass_through greater greater_equal group guarantee_const half histogram_fixed_width
histogram_fixed_width_bins identity identity_n ifftnd init_scope int16 int32 int64 int8
irfftnd is_symbolic_tensor is_tensor less less_equal linspace logical_and logical_not
logical_or make_ndarray make_tensor_proto matmul maximum meshgrid minimum multiply negative
newaxis no_gradient no_op not_equal numpy_function one_hot ones parallel_stack pow print
py_function ragged_fill_empty_rows ragged_fill_empty_rows_grad random_index_shuffle range rank
realdiv recompute_grad repeat required_space_to_batch_paddings reshape reverse rfftnd roll
round saturate_cast scatter_nd searchsorted sequence_mask shape_n sigmoid sign sin sinh slice
sort space_to_batch_nd split sqrt square stack stop_gradient strided_slice string subtract
switch_case tan tanh tensor_scatter_nd_add tensor_scatter_nd_max tensor_scatter_nd_min
tensor_scatter_nd_sub tensor_scatter_nd_update tensordot tile timestamp truediv truncatediv
truncatemod type_spec_from_value uint16 uint32 uint64 uint8 unique unique_with_counts
unravel_index unstack vectorized_map zeros
""".split())


# tf.compat.v1.<module>.<name> that IS tf.<module>.<name> in TF 2.21 (made the same way).
SHARED_SUBMODULES = {
    "nn": """all_candidate_sampler approx_max_k approx_min_k atrous_conv2d atrous_conv2d_transpose
        avg_pool1d avg_pool3d batch_normalization bias_add collapse_repeated
        compute_accidental_hits compute_average_loss conv1d_transpose conv_transpose
        ctc_greedy_decoder ctc_unique_labels depthwise_conv2d_backprop_filter
        depthwise_conv2d_backprop_input elu fixed_unigram_candidate_sampler l2_loss l2_normalize
        learned_unigram_candidate_sampler local_response_normalization log_poisson_loss lrn
        max_pool1d max_pool2d max_pool3d normalize_moments relu scale_regularization_loss selu
        softsign top_k with_space_to_batch zero_fraction""",
    "math": """accumulate_n add_n approx_max_k approx_min_k atan2 betainc cumprod cumsum
        cumulative_logsumexp equal floordiv greater greater_equal igamma igammac
        invert_permutation is_finite is_inf is_nan is_non_decreasing is_strictly_increasing
        l2_normalize lbeta less less_equal logical_and logical_not logical_or logical_xor
        nextafter not_equal polygamma polyval pow segment_max segment_mean segment_min
        segment_prod segment_sum sobol_sample softsign squared_difference subtract top_k truediv
        unsorted_segment_max unsorted_segment_mean unsorted_segment_min unsorted_segment_prod
        unsorted_segment_sqrt_n unsorted_segment_sum xdivy xlog1py xlogy zero_fraction zeta""",
    "linalg": """adjoint band_part cholesky cholesky_solve cross det eigh eigh_tridiagonal eigvalsh
        einsum expm eye global_norm inv l2_normalize logdet logm lstsq lu lu_matrix_inverse
        lu_reconstruct lu_solve matrix_rank matvec normalize pinv qr set_diag slogdet solve sqrtm
        svd tensor_diag tensordot triangular_solve tridiagonal_matmul tridiagonal_solve""",
    "random": """Algorithm Generator all_candidate_sampler categorical create_rng_state
        fixed_unigram_candidate_sampler fold_in gamma get_global_generator
        learned_unigram_candidate_sampler log_uniform_candidate_sampler normal
        set_global_generator shuffle split stateless_binomial stateless_categorical
        stateless_gamma stateless_normal stateless_parameterized_truncated_normal
        stateless_poisson stateless_truncated_normal stateless_uniform truncated_normal uniform
        uniform_candidate_sampler""",
    "errors": """ABORTED ALREADY_EXISTS AbortedError AlreadyExistsError CANCELLED CancelledError
        DATA_LOSS DEADLINE_EXCEEDED DataLossError DeadlineExceededError FAILED_PRECONDITION
        FailedPreconditionError INTERNAL INVALID_ARGUMENT InternalError InvalidArgumentError
        NOT_FOUND NotFoundError OK OUT_OF_RANGE OpError OutOfRangeError PERMISSION_DENIED
        PermissionDeniedError RESOURCE_EXHAUSTED ResourceExhaustedError UNAUTHENTICATED
        UNAVAILABLE UNIMPLEMENTED UNKNOWN UnauthenticatedError UnavailableError
        UnimplementedError UnknownError""",
    "dtypes": """DType as_dtype bool cast complex complex128 complex64 double float16 float32
        float64 half int16 int32 int64 int8 saturate_cast string uint16 uint32 uint64 uint8""",
}


def _tf():
    return sys.modules["minitf"]


def missing(module, name):
    """The AttributeError of a tf.compat.v1 name minitf does not hold."""
    return AttributeError(
        f"module {module!r} has no attribute {name!r}. minitf's tf.compat.v1 holds only the "
        "teaching subset for running TF1 programs (Graph, placeholder, Session, "
        "get_variable/variable_scope, collections, initializers, train optimizers, "
        "disable_eager_execution, and the names TF 2.21's compat.v1 shares with tf): see "
        "dir(tf.compat.v1) and minitf/compat/v1/. For anything else write the TF2 spelling "
        "(tf.*), which TF's own migration guide recommends.")


def _shared_module(name, names):
    """`tf.compat.v1.<name>`: the names TF 2.21's module shares with `tf.<name>`, from minitf's."""
    full = f"{__name__.rpartition('.')[0]}.{name}"
    module = types.ModuleType(full, f"TF1's tf.{name}: the names it shares with TF2's tf.{name}.")

    def __getattr__(attr):  # noqa: N807 - PEP 562
        if attr in names:
            return getattr(getattr(_tf(), name), attr)
        raise missing(full, attr)

    module.__getattr__ = __getattr__
    module.__dir__ = lambda: sorted(set(vars(module)) | names)
    sys.modules[full] = module
    setattr(sys.modules[full.rpartition(".")[0]], name, module)


for _module, _names in SHARED_SUBMODULES.items():
    _shared_module(_module, frozenset(_names.split()))


def _keep(keepdims, keep_dims):
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'.")
    return bool(keepdims if keepdims is not None else keep_dims)


def _axis(axis, reduction_indices):
    if axis is not None and reduction_indices is not None:
        raise ValueError("Cannot specify both 'axis' and 'reduction_indices'.")
    return axis if axis is not None else reduction_indices


def _v1_reduction(name):
    def reduce(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
        return getattr(_tf().math, reduce.__name__)(
            input_tensor, _axis(axis, reduction_indices), _keep(keepdims, keep_dims))

    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = (f"TF1's `{name}`: tf.math.{name} with the old `keep_dims` and "
                      "`reduction_indices` spellings.\n\n"
                      f"    >>> int(tf.compat.v1.{name}(tf.constant([[1, 2]]), "
                      "reduction_indices=[0, 1]) > -10)\n    True\n")
    return tf_export(f"compat.v1.{name}")(reduce)


for _name in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
              "reduce_any", "reduce_all"):
    _v1_reduction(_name)


@tf_export("compat.v1.random_normal")
def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None, name=None):
    """TF1's name of `tf.random.normal`.

    >>> tf.compat.v1.random_normal([2], stddev=0.0).numpy()
    array([0., 0.], dtype=float32)
    """
    return _tf().random.normal(shape, mean, stddev, dtype or _tf().float32, seed)


@tf_export("compat.v1.random_uniform")
def random_uniform(shape, minval=0, maxval=None, dtype=None, seed=None, name=None):
    """TF1's name of `tf.random.uniform`.

    >>> tf.compat.v1.random_uniform([3]).shape
    TensorShape([3])
    """
    return _tf().random.uniform(shape, minval, maxval, dtype or _tf().float32, seed)


@tf_export("compat.v1.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None, name=None):
    """TF1's name of `tf.random.truncated_normal`.

    >>> tf.compat.v1.truncated_normal([2], stddev=0.0).numpy()
    array([0., 0.], dtype=float32)
    """
    return _tf().random.truncated_normal(shape, mean, stddev, dtype or _tf().float32, seed)


@tf_export("compat.v1.set_random_seed", "compat.v1.random.set_random_seed")
def set_random_seed(seed):
    """TF1's name of `tf.random.set_seed`.

    >>> tf.compat.v1.set_random_seed(0)
    """
    _tf().random.set_seed(seed)


@tf_export("compat.v1.to_float")
def to_float(x, name="ToFloat"):
    """`tf.cast(x, tf.float32)` (removed in TF2)."""
    return _tf().cast(x, _tf().float32)


@tf_export("compat.v1.log")
def log(x, name=None):
    """TF1's name of `tf.math.log`.

    >>> float(tf.compat.v1.log(1.0))
    0.0
    """
    return _tf().math.log(x)


@tf_export("compat.v1.constant")
def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """TF1's `tf.constant` (its `verify_shape=True` refuses a value of another shape).

    >>> tf.compat.v1.constant([1.0, 2.0])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    if verify_shape and shape is not None:
        given = _tf().constant(value, dtype=dtype)
        if given.shape.as_list() != list(shape):
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, got {given.shape}.")
    return _tf().constant(value, dtype=dtype, shape=shape, name=name)


@tf_export("compat.v1.Variable")
def Variable(initial_value=None, trainable=None, collections=None, validate_shape=True,  # noqa: N802
             caching_device=None, name=None, variable_def=None, dtype=None,
             expected_shape=None, import_scope=None, constraint=None, use_resource=None,
             synchronization=0, aggregation=0, shape=None):
    """TF1's `tf.Variable` call: a `tf.Variable` (minitf has resource variables only).

    >>> tf.compat.v1.Variable(1.0, name="v").name
    'v:0'
    """
    return _tf().Variable(initial_value, trainable=trainable, name=name, dtype=dtype,
                          constraint=constraint, shape=shape)


def _assign(ref, value, method):
    if _tf().executing_eagerly():
        return getattr(ref, method)(value)
    from .graph_mode import get_default_graph  # noqa: PLC0415

    return get_default_graph().assign_variable(
        ref, _tf().convert_to_tensor(value, dtype=ref.dtype), method)


@tf_export("compat.v1.assign")
def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """`ref = value`: in a graph the assignment's output tensor (an op to run).

    >>> v = tf.Variable(1.0); _ = tf.compat.v1.assign(v, 5.0); float(v)
    5.0
    """
    return _assign(ref, value, "assign")


@tf_export("compat.v1.assign_add")
def assign_add(ref, value, use_locking=None, name=None):
    """`ref += value` (see `assign`).

    >>> v = tf.Variable(1.0); _ = tf.compat.v1.assign_add(v, 2.0); float(v)
    3.0
    """
    return _assign(ref, value, "assign_add")


@tf_export("compat.v1.assign_sub")
def assign_sub(ref, value, use_locking=None, name=None):
    """`ref -= value` (see `assign`).

    >>> v = tf.Variable(1.0); _ = tf.compat.v1.assign_sub(v, 2.0); float(v)
    -1.0
    """
    return _assign(ref, value, "assign_sub")


@tf_export("compat.v1.gradients")
def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients="none"):
    """TF1's `tf.gradients` (its 5th argument is colocate_gradients_with_ops): d(sum of ys)/dx
    for each x, as new nodes of the graph.

    >>> with tf.compat.v1.Graph().as_default():
    ...     x = tf.compat.v1.placeholder(tf.float32, [])
    ...     (dx,) = tf.compat.v1.gradients(x * x, [x])
    ...     print(tf.compat.v1.Session().run(dx, {x: 3.0}))
    6.0
    """
    return _tf().gradients(ys, xs, grad_ys, name, gate_gradients, aggregation_method,
                           stop_gradients, unconnected_gradients)


@tf_export("compat.v1.name_scope")
class name_scope:  # noqa: N801 - TensorFlow's spelling
    """TF1's `name_scope(name, default_name=None, values=None)`: `tf.name_scope` of `name`,
    or of `default_name` when name is None.

    >>> with tf.compat.v1.name_scope(None, "block") as scope:
    ...     scope
    'block/'
    """

    def __init__(self, name, default_name=None, values=None):
        if name is None and default_name is None:
            raise ValueError("At least one of name (None) and default_name (None) must be "
                             "provided.")
        self._scope = _tf().name_scope(name if name is not None else default_name)

    def __enter__(self):
        return self._scope.__enter__()

    def __exit__(self, *exc):
        return self._scope.__exit__(*exc)
