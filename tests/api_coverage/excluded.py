"""TF 2.21 names minitf leaves out on purpose, each with the reason (coverage.py).

Each entry is (reason, [fnmatch pattern on the full name, ...]). An excluded name
is not counted at all. This is not a to-do list: a name belongs here only when
minitf, a NumPy engine on one CPU for learners, should not have it - not when it
is merely missing. A name that only "can wait" stays in the count as missing.
"""
_TPU = ["tf.tpu", "tf.distribute.TPUStrategy", "tf.distribute.experimental.TPUStrategy",
        "tf.distribute.cluster_resolver.TPUClusterResolver", "tf.saved_model.TPU"]
_CLUSTER = ["tf.distribute.MultiWorkerMirroredStrategy", "tf.distribute.ParameterServerStrategy",
            "tf.distribute.experimental.MultiWorkerMirroredStrategy",
            "tf.distribute.experimental.ParameterServerStrategy",
            "tf.distribute.cluster_resolver.GCEClusterResolver",
            "tf.distribute.cluster_resolver.Kubernetes*",
            "tf.distribute.cluster_resolver.SlurmClusterResolver", "tf.distribute.Server",
            "tf.distribute.coordinator", "tf.distribute.experimental.coordinator",
            "tf.distribute.experimental.rpc", "tf.config.experimental_connect_to_*",
            "tf.train.ClusterDef", "tf.train.ClusterSpec", "tf.train.JobDef",
            "tf.train.ServerDef"]
_QUANTIZED_DTYPES = ["qint8", "qint16", "qint32", "quint8", "quint16"]

EXCLUDED = [
    ("quantized integer dtypes exist only for TF's quantized C++ kernels (TFLite, TPU); "
     "NumPy has no such type and no TF 2 Python API creates tensors of them",
     [f"tf.{space}{name}" for space in ("", "dtypes.") for name in _QUANTIZED_DTYPES]
     + ["tf.dtypes.QUANTIZED_DTYPES"]),
    ("handle dtypes of TF's C++ runtime (resource variables, dataset variants); minitf's "
     "variables and datasets are Python objects, so no tensor has these dtypes",
     ["tf.resource", "tf.variant", "tf.dtypes.resource", "tf.dtypes.variant"]),
    ("tf.raw_ops is ~1,500 generated wrappers of TF's C++ kernels (AddV2, MatMul, ...); "
     "minitf's ops are the Python functions under tf, tf.math, tf.nn, ...",
     ["tf.raw_ops"]),
    ("compilers, converters and C++ plug-ins of the TF runtime (XLA, MLIR, TF Lite, DTensor "
     "meshes, custom-op libraries); minitf is an interpreter on NumPy with no C++ side",
     ["tf.xla", "tf.mlir", "tf.lite", "tf.dtensor", "tf.sysconfig", "tf.load_library",
      "tf.load_op_library", "tf.config.experimental.*_mlir_bridge",
      "tf.config.optimizer.*_jit"]),
    ("needs Cloud TPU hardware and XLA; minitf runs on the CPU (its TPUStrategy says so)",
     _TPU),
    ("needs several machines talking gRPC (workers, parameter servers, cluster managers); "
     "minitf runs in one process - MirroredStrategy over logical CPUs teaches the idea",
     _CLUSTER),
    ("tf.distribute.NcclAllReduce needs NVIDIA GPUs and the NCCL library",
     ["tf.distribute.NcclAllReduce"]),
    ("TF 2.21 registers no kernel for these ops on any device: every call raises "
     "NotFoundError ('<no registered kernels>'); tf.GradientTape over tf.nn.conv2d gives "
     "both gradients", ["tf.conv2d_backprop_filter_v2", "tf.conv2d_backprop_input_v2"]),
    ("LinearOperator* is a 21-class structured-matrix framework that TensorFlow Probability "
     "builds on; course code uses dense matrices and tf.linalg's functions",
     ["tf.linalg.LinearOperator*"]),
    ("keras.applications is a zoo of ImageNet models whose pretrained weights are "
     "downloads of 10-500 MB; at NumPy speed they are not runnable in a lesson",
     ["tf.keras.applications"]),
    ("Keras 3's bridges to the JAX, Flax and PyTorch backends and their tools (Orbax "
     "checkpoints, JAX's distribution API, Flax NNX); minitf is the TensorFlow side only",
     ["tf.keras.layers.JaxLayer", "tf.keras.layers.FlaxLayer",
      "tf.keras.layers.TorchModuleWrapper", "tf.keras.callbacks.OrbaxCheckpoint",
      "tf.keras.distribution", "tf.keras.config.is_nnx_enabled"]),
    ("int4/int8/float8 weight quantization for large-model inference (GPTQ, AWQ); NumPy "
     "has no int4 or float8, and the point of it is speed on accelerators",
     ["tf.keras.quantizers", "tf.keras.Quantizer", "tf.keras.dtype_policies.AWQDTypePolicy",
      "tf.keras.dtype_policies.GPTQDTypePolicy", "tf.keras.dtype_policies.Int4DTypePolicy",
      "tf.keras.dtype_policies.Quantized*"]),
    ("flash attention is a fused GPU/TPU attention kernel (cuDNN, Pallas); there is no such "
     "kernel to switch on a NumPy CPU engine",
     ["tf.keras.config.*flash_attention*"]),
    ("the tf.data service runs pipelines on separate dispatcher and worker servers over gRPC "
     "(and distributed_save writes through them); minitf runs a pipeline in one process",
     ["tf.data.experimental.service", "tf.data.experimental.distributed_save"]),
    ("TF's C++ dataset graph and iterator state: get_model_proto returns the autotuner's "
     "protobuf model, make_saveable_from_iterator a TF1 SaveableObject of iterator state; "
     "minitf's pipelines are Python generators with neither",
     ["tf.data.experimental.get_model_proto",
      "tf.data.experimental.make_saveable_from_iterator"]),
    ("to_variant/from_variant convert a dataset to and from a scalar tf.variant tensor; "
     "minitf has no variant dtype (see tf.variant above), a dataset is a Python object",
     ["tf.data.experimental.to_variant", "tf.data.experimental.from_variant"]),
    ("bfloat16 and tf.dtypes.experimental's float8/int4/int2 types are not NumPy types: TF "
     "takes them from ml_dtypes, whose arrays NumPy sees as opaque (kind 'V', not 'f'), so "
     "each would need every op family's dtype rules and kernels taught; TF 2.21 itself only "
     "casts the experimental ones (its math refuses them), and bfloat16 is an accelerator "
     "storage type (mixed_bfloat16) with no speed-up on NumPy",
     ["tf.bfloat16", "tf.dtypes.bfloat16", "tf.dtypes.experimental"]),
    ("tfdbg2's dump (enable_dump_debug_info) writes DebugEvent protobuf files for TensorBoard's "
     "Debugger V2; their proto ships only inside TensorFlow (not in the tensorboard package "
     "minitf writes summaries with), so minitf cannot write them without hand-rolled protobuf; "
     "tf.debugging.enable_check_numerics finds the first Inf/NaN, its main use",
     ["tf.debugging.experimental"]),
]
