"""Bad input: TF's error classes and texts, naming the element, row or file."""
import pytest

import minitf as tf

D = tf.data.Dataset


def test_from_tensor_slices_mismatched_rows():
    # verified against TF 2.21: ValueError "Dimensions 3 and 2 are not compatible"
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        D.from_tensor_slices(([1, 2, 3], [1, 2]))
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        D.from_tensor_slices({"a": [1, 2, 3], "b": [1, 2]})
    with pytest.raises(ValueError, match="only supported for rank >= 1"):
        D.from_tensor_slices(5)
    with pytest.raises(ValueError, match="non-rectangular"):
        D.from_tensor_slices([[1], [2, 3]])


def test_generator_wrong_dtype_shape_structure():
    # message texts verified against TF 2.21 (InvalidArgumentError wrapping TypeError)
    sig = tf.TensorSpec((2,), tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"yielded an element of shape \(3,\) where an element of shape "
                             r"\(2,\) was expected.*element 1"):
        list(D.from_generator(lambda: iter([[1, 2], [1, 2, 3]]), output_signature=sig))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="The expected type was int32, but the yielded element was a"):
        list(D.from_generator(lambda: iter(["a"]), output_signature=tf.TensorSpec((), tf.int32)))
    pair = (tf.TensorSpec((), tf.int32), tf.TensorSpec((), tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"The expected structure was \(tf.int32, tf.int32\), but the "
                             "yielded element was 1"):
        list(D.from_generator(lambda: iter([1]), output_signature=pair))


def test_missing_files():
    with pytest.raises(tf.errors.NotFoundError, match="nonexist.txt; No such file or directory"):
        tf.io.read_file("/tmp/nonexist.txt")
    ds = tf.data.TextLineDataset("/tmp/nonexist.txt")  # opened lazily, like TF
    with pytest.raises(tf.errors.NotFoundError, match=r"\[Op:IteratorGetNext\]"):
        list(ds)


def test_malformed_csv_rows_name_row_and_field():
    # verified against TF 2.21
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Field 2 in record 0 is not a valid int32: x"):
        tf.io.decode_csv("1,2,x", record_defaults=[[0], [0], [0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expect 3 fields but have 2 in record 1"):
        tf.io.decode_csv(["1,2,3", "4,5"], record_defaults=[[0], [0], [0]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Field 1 is required but missing in record 0!"):
        tf.io.decode_csv("1,,3", record_defaults=[[0], tf.constant([], tf.int32), [0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not a valid int32: 1.5"):
        tf.io.decode_csv("1.5,2", record_defaults=[[0], [0]])
    with pytest.raises(ValueError, match="unsupported type"):
        tf.io.decode_csv("1.5,2", record_defaults=[tf.float64, tf.int64])
    with pytest.raises(tf.errors.InvalidArgumentError, match="'OUT_TYPE' of bool"):
        tf.io.decode_csv("true,2", record_defaults=[[False], [0]])


def test_bad_arguments():
    # verified against TF 2.21
    with pytest.raises(tf.errors.InvalidArgumentError, match="Batch size must be greater than zero"):
        D.range(3).batch(0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="buffer_size must be greater than zero"):
        D.range(3).shuffle(0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Window size must be greater than zero"):
        D.range(3).window(0)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Index must be between 0 and 1 \(currently index = 2\)"):
        D.range(5).shard(2, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of shards must be greater"):
        D.range(5).shard(0, 0)
    with pytest.raises(TypeError, match="Invalid input to `zip`"):
        D.zip(D.range(2), 2)
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        D.range(3).concatenate(D.from_tensor_slices([1.0]))


def test_batching_elements_of_different_shapes():
    gen = D.from_generator(lambda: iter([[1], [2, 3]]), output_signature=tf.TensorSpec([None], tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot batch tensors with different shapes in component 0. First "
                             r"element had shape \[1\] and element 1 had shape \[2\]"):
        list(gen.batch(2))


def test_map_function_errors():
    with pytest.raises(TypeError, match="must return tensors"):
        D.range(3).map(lambda x: None)
    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type int32 that does not "
                                        "match type float32 of argument 'x'"):  # as TF 2.21
        D.range(3).map(lambda x: tf.cast(x, tf.float32) + tf.constant(1, tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="could not correctly convert"):
        list(D.from_tensor_slices(["1", "x"]).map(tf.strings.to_number))


def test_more_argument_errors_as_tensorflow():
    # verified against TF 2.21
    with pytest.raises(TypeError, match="you need to provide either the `output_signature` "
                                        "argument or the `output_types` argument"):
        D.from_generator(lambda: iter([1]))
    with pytest.raises(TypeError, match="Cannot convert 'a' to EagerTensor of dtype int64"):
        D.range(3).take("a")
    with pytest.raises(TypeError, match="Cannot convert 2.0 to EagerTensor of dtype int64"):
        D.range(3).take(2.0)
    with pytest.raises(ValueError, match="matching leading dimension. Encountered both 2 and 3"):
        D.from_tensors(([1, 2], [1, 2, 3])).unbatch()
