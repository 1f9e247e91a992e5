"""`tf.data.Options`: settings for a whole pipeline, attached with `with_options`.

An options object is a bag of typed fields that all start unset (None, or a
nested options object). `ds.with_options(options)` attaches them; every later
transformation keeps them, and `ds.options()` merges what the pipeline's
datasets set (a later setting of the same field wins):

>>> import minitf as tf
>>> options = tf.data.Options()
>>> options.deterministic = False
>>> options.threading.private_threadpool_size = 2
>>> ds = tf.data.Dataset.range(4).with_options(options).map(lambda x: x + 1)
>>> ds.options().deterministic, ds.options().threading.private_threadpool_size
(False, 2)

In TensorFlow these fields steer the C++ runtime (thread pools, static graph
rewrites such as map-and-batch fusion, autotuning, how `tf.distribute` shards
files). minitf runs pipelines in Python threads, so it keeps, checks and merges
the fields exactly as TF does, but does not act on them: to let a parallel
`map` hand out elements as they finish, pass it `deterministic=False`.
"""
import enum
import warnings

from ..framework.tf_export import tf_export
from .dataset_ops import Dataset


def _option(name, ty, doc, default=lambda: None):
    """A property that checks its type when set (TF's `options_lib.create_option`)."""

    def get(self):
        if name not in self._options:
            self._options[name] = default()
        return self._options[name]

    def set_(self, value):
        if not isinstance(value, ty):
            raise TypeError(f'Property "{name}" must be of type {ty}, got: {value} '
                            f"(type: {type(value)})")
        self._options[name] = value

    return property(get, set_, None, doc)


class OptionsBase:
    """Typed fields, unset until assigned; unknown names raise `AttributeError`."""

    def __init__(self):
        object.__setattr__(self, "_options", {})
        object.__setattr__(self, "_mutable", True)

    def __eq__(self, other):
        if not isinstance(other, self.__class__):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n)
                   for n in set(self._options) | set(other._options))

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None

    def __setattr__(self, name, value):
        if not self._mutable:
            raise ValueError("Mutating `tf.data.Options()` returned by `tf.data.Dataset."
                             "options()` has no effect. Use `tf.data.Dataset.with_options("
                             "options)` to set or update dataset options.")
        if not hasattr(self, name):
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        object.__setattr__(self, name, value)

    def _set_mutable(self, mutable):
        object.__setattr__(self, "_mutable", mutable)
        for value in self._options.values():
            if isinstance(value, OptionsBase):
                value._set_mutable(mutable)


def merge_options(*options_list):
    """One options object: each field as the last object that set it to a non-default
    value says (nested options merge field by field; `framework_type` lists join)."""
    result_type = type(options_list[0])
    for options in options_list:
        if not isinstance(options, result_type):
            raise TypeError(f"Could not merge incompatible options of type {type(options)} "
                            f"and {result_type}.")
    default, result = result_type(), result_type()
    for options in options_list:
        for name in list(options._options):
            this, that = getattr(result, name), getattr(options, name)
            if that == getattr(default, name):
                continue
            if isinstance(this, OptionsBase):  # merged into a fresh copy, never shared
                setattr(result, name, merge_options(this, that))
            elif this == getattr(default, name):
                setattr(result, name, list(that) if isinstance(that, list) else that)
            elif name == "framework_type":
                setattr(result, name, this + that)
            elif this != that:
                warnings.warn(f"Changing the value of option field {name} from {this!r} "
                              f"to {that!r}.", stacklevel=3)
                setattr(result, name, that)
    return result


@tf_export("data.experimental.AutotuneAlgorithm")
class AutotuneAlgorithm(enum.Enum):
    """How TF's autotuner searches for parallelism and buffer sizes.

    >>> tf.data.experimental.AutotuneAlgorithm.HILL_CLIMB
    <AutotuneAlgorithm.HILL_CLIMB: 1>
    """
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


@tf_export("data.experimental.AutoShardPolicy")
class AutoShardPolicy(enum.IntEnum):
    """How `tf.distribute` splits a pipeline between workers: OFF, AUTO (by file if it
    can, else by element), FILE, DATA (every worker reads everything and keeps its
    share), HINT (where `shard(SHARD_HINT, SHARD_HINT)` says).

    >>> int(tf.data.experimental.AutoShardPolicy.DATA)
    2
    """
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


@tf_export("data.experimental.ExternalStatePolicy")
class ExternalStatePolicy(enum.Enum):
    """What saving an iterator does when a function uses external state (e.g. a random op).

    >>> tf.data.experimental.ExternalStatePolicy.FAIL
    <ExternalStatePolicy.FAIL: 2>
    """
    WARN = 0
    IGNORE = 1
    FAIL = 2


@tf_export("data.experimental.AutotuneOptions")
class AutotuneOptions(OptionsBase):
    """`options.autotune`: whether and within which budget TF tunes the pipeline.

    >>> tf.data.Options().autotune.enabled is None
    True
    """
    enabled = _option("enabled", bool, "Whether to tune the parallelism and buffer sizes.")
    cpu_budget = _option("cpu_budget", int, "CPU cores the tuner may use (None: all).")
    ram_budget = _option("ram_budget", int, "Bytes of RAM for buffers (None: half of it).")
    autotune_algorithm = _option("autotune_algorithm", AutotuneAlgorithm,
                                 "The search algorithm (an AutotuneAlgorithm).")
    initial_parallelism = _option("initial_parallelism", int,
                                  "Where autotuned parallelism starts.")
    min_parallelism = _option("min_parallelism", int, "The least parallelism it may choose.")


@tf_export("data.experimental.DistributeOptions")
class DistributeOptions(OptionsBase):
    """`options.experimental_distribute`: how a distribution strategy shards the data.

    >>> tf.data.Options().experimental_distribute.auto_shard_policy
    <AutoShardPolicy.AUTO: 0>
    """
    auto_shard_policy = _option("auto_shard_policy", AutoShardPolicy,
                                "How the input is sharded between workers.",
                                lambda: AutoShardPolicy.AUTO)
    num_devices = _option("num_devices", int, "The number of devices the data is split to.")


@tf_export("data.experimental.OptimizationOptions")
class OptimizationOptions(OptionsBase):
    """`options.experimental_optimization`: TF's static rewrites of the dataset graph.

    >>> options = tf.data.Options()
    >>> options.experimental_optimization.map_and_batch_fusion = True
    >>> options.experimental_optimization.map_and_batch_fusion
    True
    """
    apply_default_optimizations = _option("apply_default_optimizations", bool,
                                          "Whether TF's default rewrites run.")
    filter_fusion = _option("filter_fusion", bool, "Fuse consecutive filters.")
    filter_parallelization = _option("filter_parallelization", bool,
                                     "Run filter predicates in parallel.")
    inject_prefetch = _option("inject_prefetch", bool, "Add a prefetch at the end.")
    seq_interleave_prefetch = _option("seq_interleave_prefetch", bool,
                                      "Prefetch inside sequential interleaves.")
    map_and_batch_fusion = _option("map_and_batch_fusion", bool, "Fuse map then batch.")
    map_and_filter_fusion = _option("map_and_filter_fusion", bool, "Fuse map then filter.")
    map_fusion = _option("map_fusion", bool, "Fuse consecutive maps.")
    map_parallelization = _option("map_parallelization", bool,
                                  "Run stateless maps in parallel.")
    noop_elimination = _option("noop_elimination", bool, "Drop transformations that do nothing.")
    parallel_batch = _option("parallel_batch", bool, "Copy batch elements in parallel.")
    shuffle_and_repeat_fusion = _option("shuffle_and_repeat_fusion", bool,
                                        "Fuse shuffle then repeat.")


@tf_export("data.experimental.ServiceOptions")
class ServiceOptions(OptionsBase):
    """`options.experimental_service`: the tf.data service (not in minitf) reads it.

    >>> tf.data.Options().experimental_service.pinned is None
    True
    """
    pinned = _option("pinned", bool, "Whether the service pins its buffers.")


@tf_export("data.ThreadingOptions", "data.experimental.ThreadingOptions")
class ThreadingOptions(OptionsBase):
    """`options.threading`: the thread pool the pipeline runs on.

    >>> tf.data.ThreadingOptions().private_threadpool_size is None
    True
    """
    max_intra_op_parallelism = _option("max_intra_op_parallelism", int,
                                       "Threads one op may use (None: TF's default).")
    private_threadpool_size = _option("private_threadpool_size", int,
                                      "Threads of a private pool (None: the shared pool).")


@tf_export("data.Options")
class Options(OptionsBase):
    """A pipeline's options: `deterministic`, `threading`, `autotune`, and the
    `experimental_*` groups. Unset fields are None.

    >>> o = tf.data.Options()
    >>> o.deterministic is None, o.experimental_slack is None
    (True, True)
    >>> o.deterministic = 1
    Traceback (most recent call last):
    ...
    TypeError: Property "deterministic" must be of type <class 'bool'>, got: 1 (type: <class 'int'>)
    """
    autotune = _option("autotune", AutotuneOptions, "See tf.data.experimental.AutotuneOptions.",
                       AutotuneOptions)
    deterministic = _option("deterministic", bool,
                            "False: parallel stages may output elements out of order.")
    experimental_distribute = _option("experimental_distribute", DistributeOptions,
                                      "See DistributeOptions.", DistributeOptions)
    experimental_external_state_policy = _option(
        "experimental_external_state_policy", ExternalStatePolicy,
        "What to do when saving a pipeline whose functions use external state.")
    experimental_optimization = _option("experimental_optimization", OptimizationOptions,
                                        "See OptimizationOptions.", OptimizationOptions)
    experimental_slack = _option("experimental_slack", bool, "Add slack to the last prefetch.")
    experimental_symbolic_checkpoint = _option("experimental_symbolic_checkpoint", bool,
                                               "Checkpoint positions, not buffers.")
    experimental_service = _option("experimental_service", ServiceOptions,
                                   "See ServiceOptions.", ServiceOptions)
    experimental_warm_start = _option("experimental_warm_start", bool,
                                      "Start background threads before the first request.")
    dataset_name = _option("dataset_name", str, "A name for the dataset's metrics.")
    framework_type = _option("framework_type", list, "Frameworks that use the dataset.")
    threading = _option("threading", ThreadingOptions, "See tf.data.ThreadingOptions.",
                        ThreadingOptions)
    # TF's older spellings, kept as aliases of the fields above
    experimental_deterministic = property(lambda self: self.deterministic,
                                          lambda self, v: setattr(self, "deterministic", v))
    experimental_threading = property(lambda self: self.threading,
                                      lambda self, v: setattr(self, "threading", v))

    def merge(self, options):
        """A new Options: these, overridden by what `options` sets.

        >>> a, b = tf.data.Options(), tf.data.Options()
        >>> a.deterministic = True
        >>> b.experimental_slack = True
        >>> merged = a.merge(b)
        >>> merged.deterministic, merged.experimental_slack
        (True, True)
        """
        return merge_options(self, options)


def dataset_options(dataset):
    """The options of `dataset` and all the datasets it reads from, merged (inputs first)."""
    found = []
    _collect_options(dataset, found, set())
    merged = merge_options(Options(), *found) if found else Options()
    merged._set_mutable(False)
    return merged


def _collect_options(dataset, found, seen):
    if id(dataset) in seen:
        return
    seen.add(id(dataset))
    for value in vars(dataset).values():
        for child in value if isinstance(value, (list, tuple)) else (value,):
            if hasattr(child, "_generate") and hasattr(child, "element_spec"):
                _collect_options(child, found, seen)
    own = getattr(dataset, "_own_options", None)
    if own is not None:
        found.append(own)




class _OptionsDataset(Dataset):
    """`with_options`: the input's elements; its options join the pipeline's."""

    def __init__(self, dataset, options):
        if not isinstance(options, Options):
            raise TypeError(f"`options` must be a `tf.data.Options`, got {type(options).__name__}.")
        self._input = dataset
        self._own_options = merge_options(Options(), options)  # a copy: later edits
        self._element_spec = dataset.element_spec  # of `options` change nothing here

    def _cardinality(self):
        return self._input._cardinality()

    def _generate(self):
        yield from self._input._iterate()
