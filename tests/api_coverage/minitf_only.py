"""Names minitf shows that TF 2.21 does not have at that path, each with the reason.

Each entry is (reason, [fnmatch pattern on the full name, ...]). The coverage
test fails on any minitf-only name not listed here: a learner who uses it writes
code that real TensorFlow rejects, so each one must be a choice, said out loud.
Reasons start with one of:

* "minitf extra:" - teaching-only, on purpose; its docstring says it is minitf's.
* "Keras 2:" - a tf.keras 2 name Keras 3 dropped, kept so older course code runs.
* "TF 1:" - a TF 1 name TF 2 only has elsewhere (`tf.log` is `tf.math.log`).
  Real TF 2.21 raises AttributeError for it: a fidelity gap, to remove.
* "Misplaced:" - a Keras/TF name exposed in a namespace where TF does not have it.
* "Leak:" - an implementation import visible in a package's namespace (TF
  hides its internals): a fidelity gap, to remove (`del` it, or import it under
  a leading underscore).
"""
# Package namespace -> the tf.* ops it imports and leaves visible.
_LEAKED_IMPORTS = {
    # lesson 24 shows reduce_values and Loss.__call__, which use these, with line numbers
    "keras.losses": "cast convert_to_tensor divide_no_nan logical_and reduce_sum size",
}

MINITF_ONLY = [
    ("minitf extra: small datasets shipped with minitf (no download), for the lessons",
     ["tf.keras.datasets.digits", "tf.keras.datasets.iris", "tf.keras.datasets.reviews",
      "tf.keras.datasets.synthetic", "tf.keras.datasets.wine"]),
    ("minitf extra: per-stage pipeline timings for the tf.data timeline widget",
     ["tf.data.experimental.record_timings"]),
    ("minitf extra: turns enable_debug_mode off again (TF has no way back)",
     ["tf.data.experimental.disable_debug_mode"]),
    ("Keras 2: DenseFeatures (feature columns into a model), removed in Keras 3",
     ["tf.keras.layers.DenseFeatures"]),
    ("Keras 2: LocallyConnected1D/2D, removed in Keras 3",
     ["tf.keras.layers.LocallyConnected1D", "tf.keras.layers.LocallyConnected2D"]),
    ("Keras 2: AbstractRNNCell, removed in Keras 3 (a cell is any Layer with state_size)",
     ["tf.keras.layers.AbstractRNNCell"]),
    ("Keras 2: keras.metrics.accuracy (the function), removed in Keras 3",
     ["tf.keras.metrics.accuracy"]),
    ("Keras 2: tf.keras.InputLayer; Keras 3 has it only as tf.keras.layers.InputLayer",
     ["tf.keras.InputLayer"]),
    ("Keras 2: the long loss-function names; TF 2.21's tf.losses/tf.metrics have only "
     "the short ones (mse, mae, ...), standalone Keras 3 has them under keras.losses",
     ["tf.losses.kl_divergence", "tf.losses.log_cosh", "tf.losses.mean_*",
      "tf.metrics.mean_*"]),
    ("TF 1: tf.tensor_strided_slice_update is tf.raw_ops.TensorStridedSliceUpdate in TF 2",
     ["tf.tensor_strided_slice_update"]),
    ("TF 1: tf.saved_model.signature_constants/tag_constants are tf.compat.v1 modules; "
     "TF 2 has their values as tf.saved_model.SERVING and "
     "tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY",
     ["tf.saved_model.signature_constants", "tf.saved_model.tag_constants"]),
    ("Leak: helpers of minitf.keras.losses, kept public because lesson 24 shows their "
     "source (show_source) under these names",
     ["tf.keras.losses.reduce_values", "tf.keras.losses.reduce_weighted_values"]),
    ("Leak: tf.* ops imported into minitf.keras.losses, kept because lesson 24 shows the "
     "code that uses them (show_source, with line numbers)",
     [f"tf.{space}.{name}" for space, names in _LEAKED_IMPORTS.items()
      for name in names.split()]),
]

# Names TF 2.21 has whose kind (module/class/function/constant) differs in minitf.
KIND_DIFFERS = [
    ("minitf's tf.device is the context-manager class; TF's is a function returning one "
     "(same use in `with tf.device(...)`; isinstance checks differ)", ["tf.device"]),
    ("minitf's tf.summary.record_if is the context-manager class; TF's is a function "
     "returning one (same use in `with`)", ["tf.summary.record_if"]),
]
