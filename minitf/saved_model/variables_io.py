"""The `variables/` directory of a SavedModel: a `tf.train.Checkpoint` of the saved object.

`variables/variables.index` and `variables/variables.data-00000-of-00001`
are exactly what `tf.train.Checkpoint(root=obj).write(".../variables/variables")`
writes, so a SavedModel's variables can be read like any checkpoint:

>>> import os, tempfile
>>> import minitf as tf
>>> module = tf.Module()
>>> module.w = tf.Variable([1.0, 2.0])
>>> path = os.path.join(tempfile.mkdtemp(), "m")
>>> tf.saved_model.save(module, path)
>>> reader = tf.train.load_checkpoint(os.path.join(path, "variables", "variables"))
>>> reader.get_tensor("w/.ATTRIBUTES/VARIABLE_VALUE")
array([1., 2.], dtype=float32)

The keys are the checkpoint's (TF's naming: the path of attribute names
that first reaches a variable); `saved_model.json` records each variable's
key. Variables that only the SavedModel's walk reaches (none, usually) are
added under `saved_model_extra/`. The bytes are minitf's checkpoint format
(see minitf/train), not TensorFlow's tensor bundle.
"""
import os

PREFIX = os.path.join("variables", "variables")


def checkpoint_keys(root, variables):
    """(the Checkpoint to write, {id(variable): its key}) for `variables` reached from `root`."""
    from ..train import Checkpoint
    from ..train.object_graph import build_graph

    checkpoint = Checkpoint(root=root)
    keys = {id(v): key for key, v in build_graph(checkpoint).variables()}
    extra = [v for v in variables if id(v) not in keys]
    if extra:
        checkpoint = Checkpoint(root=root, saved_model_extra=extra)
        keys = {id(v): key for key, v in build_graph(checkpoint).variables()}
    return checkpoint, keys


def write(checkpoint, export_dir):
    checkpoint.write(os.path.join(export_dir, PREFIX))


def read(export_dir, wanted, budget):
    """{key: array} for the (key, dtype, shape) triples `wanted`, each checked against
    the checkpoint's own index before its data is read."""
    from ..train import load_checkpoint

    prefix = os.path.join(os.fspath(export_dir), PREFIX)
    if not os.path.isfile(prefix + ".index"):
        raise ValueError(f"{prefix}.index: file is missing; the SavedModel's variables/ "
                         "directory is incomplete (copy the whole SavedModel directory).")
    reader = load_checkpoint(prefix)
    shapes, dtypes_ = reader.get_variable_to_shape_map(), reader.get_variable_to_dtype_map()
    arrays = {}
    for key, dtype, shape in wanted:
        if key not in shapes:
            raise budget.fail(f"variable key {key!r} is not in {prefix}.index")
        if list(shapes[key]) != list(shape) or dtypes_[key] is not dtype:
            raise budget.fail(f"variable {key!r} is declared {dtype.name}{list(shape)} but "
                              f"the checkpoint holds {dtypes_[key].name}{list(shapes[key])}")
        arrays[key] = reader.get_tensor(key)
    return arrays
