"""SparseTensors across tf.function and tf.data: arguments, signatures, results, retracing,
gradients, Dataset sources/map/batch/from_generator, parse_example through map. One batched
real-TF comparison at the end."""
import numpy as np
import pytest

import minitf as tf
from composite_compare import attempt, describe, run_in_minitf, run_in_real_tf, same
from gradcheck import check_grads


def st23():
    return tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])


# --- tf.function ---------------------------------------------------------------------------
def test_a_sparse_argument_is_traced_once_per_spec():
    @tf.function
    def same(x):
        return x

    out = same(st23())
    assert isinstance(out, tf.SparseTensor)
    assert out.indices.numpy().tolist() == [[0, 0], [1, 2]]
    assert out.values.numpy().tolist() == [1.0, 2.0] and out.dense_shape.numpy().tolist() == [2, 3]
    same(tf.SparseTensor([[0, 1]], [5.0], [2, 3]))  # other entries, same dense shape
    assert same.experimental_get_tracing_count() == 1
    same(tf.SparseTensor([[0, 1]], [5.0], [4, 3]))
    assert same.experimental_get_tracing_count() == 2
    cf = same.get_concrete_function(tf.SparseTensorSpec([None, 3], tf.float32))
    same(tf.SparseTensor([[0, 1]], [5.0], [7, 3]))
    assert same.experimental_get_tracing_count() == 3  # [None, 3] serves [7, 3]
    assert cf(st23()).values.numpy().tolist() == [1.0, 2.0]


def test_signatures_and_outputs_print_with_tf_s_spec_reprs():
    @tf.function
    def same(x):
        return x

    cf = same.get_concrete_function(st23())
    assert repr(cf.structured_input_signature) == \
        "((SparseTensorSpec(TensorShape([2, 3]), tf.float32),), {})"
    out = cf.structured_outputs
    assert isinstance(out, tf.SparseTensor)
    assert str(out).startswith("SparseTensor(indices=Tensor(")
    assert "shape=(2,), dtype=int64))" in str(out)
    assert out.indices.shape.as_list() == [None, 2]  # the spec's, not the traced value's
    assert same.pretty_printed_concrete_signatures() == (
        "Input Parameters:\n  x (POSITIONAL_OR_KEYWORD): SparseTensorSpec(TensorShape([2, 3]), "
        "tf.float32)\nOutput Type:\n  SparseTensorSpec(TensorShape([2, 3]), tf.float32)\n"
        "Captures:\n  None")


def test_input_signature_with_a_sparse_spec():
    @tf.function(input_signature=[tf.SparseTensorSpec([None, 3], tf.float32)])
    def dense(x):
        print("static shape", x.shape)
        return tf.sparse.to_dense(x)

    assert dense(st23()).numpy().tolist() == [[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]
    assert dense(tf.SparseTensor([[3, 1]], [5.0], [4, 3])).shape == [4, 3]
    assert dense.experimental_get_tracing_count() == 1
    assert dense.get_concrete_function().structured_outputs.shape.as_list() == [None, 3]
    with pytest.raises(TypeError, match=r"Can not cast TensorSpec\(shape=\(1, 1\), dtype=tf.int64"):
        dense(tf.SparseTensor([[0]], [1.0], [3]))
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        dense(tf.zeros([2, 3]))


def test_sparse_ops_and_a_sparse_result_inside_a_function():
    @tf.function
    def ops(x, w):
        return (tf.sparse.sparse_dense_matmul(x, w), tf.sparse.reduce_sum(x, axis=1),
                x * 10.0, tf.sparse.from_dense(tf.sparse.to_dense(x) + 1.0))

    product, sums, scaled, back = ops(st23(), tf.ones([3, 2]))
    assert product.numpy().tolist() == [[1.0, 1.0], [2.0, 2.0]]
    assert sums.numpy().tolist() == [1.0, 2.0]
    assert isinstance(scaled, tf.SparseTensor) and scaled.values.numpy().tolist() == [10.0, 20.0]
    assert tf.sparse.to_dense(back).numpy().tolist() == [[2.0, 1.0, 1.0], [1.0, 1.0, 3.0]]


def test_gradients_through_sparse_values_in_a_function():
    @tf.function
    def loss(st):
        return tf.reduce_sum(tf.sparse.to_dense(st) ** 2)

    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = loss(tf.SparseTensor([[0, 0], [1, 1], [1, 2]], v, [2, 3]))
    assert tape.gradient(y, v).numpy().tolist() == [2.0, 4.0, 6.0]
    check_grads(lambda a: loss(tf.SparseTensor([[0, 0], [1, 1], [1, 2]], a, [2, 3])),
                np.array([1.0, -2.0, 0.5]))


# --- tf.data -------------------------------------------------------------------------------
def row(n):
    return tf.sparse.from_dense(tf.reshape(tf.range(n), [1, -1]))


def dense(st):
    return tf.sparse.to_dense(st).numpy().tolist()


def test_sources_of_sparse_elements():
    tensors = tf.data.Dataset.from_tensors(st23())
    assert repr(tensors.element_spec) == "SparseTensorSpec(TensorShape([2, 3]), tf.float32)"
    assert [dense(s) for s in tensors] == [[[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]]
    slices = tf.data.Dataset.from_tensor_slices(st23())
    assert repr(slices.element_spec) == "SparseTensorSpec(TensorShape([3]), tf.float32)"
    assert [dense(s) for s in slices] == [[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Rank of input SparseTensor "
                                                             "should be > 1, but saw rank: 1"):
        tf.data.Dataset.from_tensor_slices(tf.SparseTensor([[1]], [4], [3]))


def test_dataset_map_returns_sparse_elements_that_batch_and_unbatch():
    ds = tf.data.Dataset.range(1, 4).map(row)
    assert repr(ds.element_spec) == "SparseTensorSpec(TensorShape([1, None]), tf.int64)"
    assert [dense(s) for s in ds] == [[[0]], [[0, 1]], [[0, 1, 2]]]
    batched = ds.batch(2)
    assert repr(batched.element_spec) == \
        "SparseTensorSpec(TensorShape([None, 1, None]), tf.int64)"
    assert [dense(s) for s in batched] == [[[[0, 0]], [[0, 1]]], [[[0, 1, 2]]]]
    assert [dense(s) for s in batched.unbatch()] == [[[0, 0]], [[0, 1]], [[0, 1, 2]]]
    assert ds.ragged_batch(2).element_spec == batched.element_spec  # sparse stays sparse
    assert [d.numpy().tolist() for d in ds.map(tf.sparse.to_dense)] == [[[0]], [[0, 1]],
                                                                        [[0, 1, 2]]]
    assert [a.tolist() for a in ds.as_numpy_iterator()] == [[[0]], [[0, 1]], [[0, 1, 2]]]
    with pytest.raises(TypeError, match="not a subclass of TensorSpec: `SparseTensorSpec"):
        ds.padded_batch(2)


def test_sparse_values_built_from_traced_scalars():
    ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.sparse.SparseTensor([[0]], [x], [3]))
    assert repr(ds.batch(2).element_spec) == "SparseTensorSpec(TensorShape([None, 3]), tf.int64)"
    assert [dense(s) for s in ds.batch(2)] == [[[1, 0, 0], [2, 0, 0]], [[3, 0, 0]]]


def test_from_generator_with_a_sparse_signature():
    ds = tf.data.Dataset.from_generator(
        lambda: iter([st23()]), output_signature=tf.SparseTensorSpec([None, 3], tf.float32))
    assert [dense(s) for s in ds] == [[[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]]
    wrong = tf.data.Dataset.from_generator(
        lambda: iter([st23()]), output_signature=tf.SparseTensorSpec([None, 4], tf.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="where an element of "
                                                             "SparseTensorSpec"):
        list(wrong)


def examples():
    def example(n):
        return tf.train.Example(features=tf.train.Features(feature={
            "v": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(n)))),
            "w": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5] * n))}))
    return [example(n).SerializeToString() for n in (1, 3, 0)]


FEATURES = {"v": tf.io.VarLenFeature(tf.int64),
            "r": tf.io.RaggedFeature(tf.float32, value_key="w")}


def test_parse_example_through_dataset_map():
    ds = tf.data.Dataset.from_tensor_slices(examples()).batch(2).map(
        lambda s: tf.io.parse_example(s, FEATURES))
    assert repr(ds.element_spec["v"]) == "SparseTensorSpec(TensorShape([None, None]), tf.int64)"
    assert repr(ds.element_spec["r"]) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.float32, 1, tf.int32)"
    first, second = list(ds)
    assert dense(first["v"]) == [[0, 0, 0], [0, 1, 2]]
    assert first["r"].to_list() == [[0.5], [0.5, 0.5, 0.5]] and second["r"].to_list() == [[]]
    single = tf.data.Dataset.from_tensor_slices(examples()).map(
        lambda s: tf.io.parse_single_example(s, FEATURES))
    assert [d["v"].values.numpy().tolist() for d in single] == [[0], [0, 1, 2], []]
    applied = tf.data.Dataset.from_tensor_slices(examples()).batch(2).apply(
        tf.data.experimental.parse_example_dataset(FEATURES))
    assert [d["r"].to_list() for d in applied] == [[[0.5], [0.5, 0.5, 0.5]], [[]]]
    with pytest.raises(TypeError, match="Input dataset should be a dataset of vectors of "
                                        "strings"):
        tf.data.Dataset.from_tensor_slices(examples()).apply(
            tf.data.experimental.parse_example_dataset(FEATURES))


# --- Keras: Input(sparse=True) ------------------------------------------------------------
def test_a_functional_model_takes_and_trains_on_sparse_inputs():
    x = tf.keras.Input((3,), sparse=True, name="x")
    assert repr(x) == \
        "<KerasTensor shape=(None, 3), dtype=float32, sparse=True, ragged=False, name=x>"
    model = tf.keras.Model(x, tf.keras.layers.Dense(2, kernel_initializer="ones")(x))
    st = tf.SparseTensor([[0, 1], [1, 0]], [2.0, 1.0], [2, 3])
    assert model(st).numpy().tolist() == [[2.0, 2.0], [1.0, 1.0]]
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(model(st) ** 2)
    kernel, bias = tape.gradient(y, model.trainable_variables)
    assert kernel.numpy().tolist() == [[2.0, 2.0], [8.0, 8.0], [0.0, 0.0]]
    assert bias.numpy().tolist() == [6.0, 6.0]
    model.compile("sgd", "mse")
    ds = tf.data.Dataset.from_tensor_slices((st, tf.ones([2, 2]))).batch(2)
    losses = model.fit(ds, epochs=2, verbose=0).history["loss"]
    assert losses[0] == pytest.approx(0.5) and losses[1] < losses[0]
    assert model.predict(ds.map(lambda features, label: features), verbose=0).shape == (2, 2)
    with pytest.raises(ValueError, match="`ragged=True` is not supported"):
        tf.keras.Input((None,), ragged=True)


# --- real TF: the same cases, in one TF process --------------------------------------------
def case_function(tf):
    @tf.function
    def same(x):
        return x

    st = tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    out = [same(st), same(tf.SparseTensor([[0, 1]], [5.0], [2, 3])),
           same.experimental_get_tracing_count(), same(tf.SparseTensor([[0, 1]], [5.0], [4, 3])),
           same.experimental_get_tracing_count()]
    cf = same.get_concrete_function(tf.SparseTensorSpec([None, 3], tf.float32))
    out += [same(tf.SparseTensor([[0, 1]], [5.0], [7, 3])), same.experimental_get_tracing_count(),
            repr(same.get_concrete_function(st).structured_input_signature), str(cf),
            type(cf.structured_outputs).__name__, same.pretty_printed_concrete_signatures(),
            [t.shape.as_list() for t in tf.nest.flatten(
                same.get_concrete_function(st).structured_outputs, expand_composites=True)]]

    @tf.function(input_signature=[tf.SparseTensorSpec([None, 3], tf.float32)])
    def ops(x):
        return (tf.sparse.to_dense(x), tf.sparse.reduce_sum(x, axis=1), x * 10.0,
                tf.sparse.sparse_dense_matmul(x, tf.ones([3, 2])), x.shape.as_list())

    out += [ops(st), ops(tf.SparseTensor([[3, 1]], [5.0], [4, 3])),
            ops.experimental_get_tracing_count(),
            attempt(lambda: ops(tf.SparseTensor([[0]], [1.0], [3]))),
            describe(attempt(lambda: ops(tf.zeros([2, 3]))))[:2]]
    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.function(lambda s: tf.reduce_sum(tf.sparse.to_dense(s) ** 2))(
            tf.SparseTensor([[0, 0], [1, 1], [1, 2]], v, [2, 3]))
    out.append(tape.gradient(y, v))
    return describe(out)


def case_dataset(tf):
    def row(n):
        return tf.sparse.from_dense(tf.reshape(tf.range(n), [1, -1]))

    def dense(st):
        return tf.sparse.to_dense(st)

    st = tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    ds = tf.data.Dataset.range(1, 4).map(row)
    scalars = tf.data.Dataset.range(1, 4).map(lambda x: tf.sparse.SparseTensor([[0]], [x], [3]))
    gen = tf.data.Dataset.from_generator(
        lambda: iter([st]), output_signature=tf.SparseTensorSpec([None, 3], tf.float32))
    wrong = tf.data.Dataset.from_generator(
        lambda: iter([st]), output_signature=tf.SparseTensorSpec([None, 4], tf.float32))
    out = [repr(tf.data.Dataset.from_tensors(st).element_spec),
           list(tf.data.Dataset.from_tensors(st)),
           repr(tf.data.Dataset.from_tensor_slices(st).element_spec),
           list(tf.data.Dataset.from_tensor_slices(st)),
           attempt(lambda: tf.data.Dataset.from_tensor_slices(tf.SparseTensor([[1]], [4], [3]))),
           repr(ds.element_spec), list(ds), repr(ds.batch(2).element_spec),
           [dense(s) for s in ds.batch(2)], [dense(s) for s in ds.batch(2).unbatch()],
           repr(ds.ragged_batch(2).element_spec), list(ds.map(tf.sparse.to_dense)),
           list(ds.as_numpy_iterator()), describe(attempt(lambda: ds.padded_batch(2)))[:2],
           repr(scalars.batch(2).element_spec), [dense(s) for s in scalars.batch(2)],
           repr(gen.element_spec), [dense(s) for s in gen], attempt(lambda: list(wrong))]
    return describe(out)


def case_parse_example(tf):
    def example(n):
        return tf.train.Example(features=tf.train.Features(feature={
            "v": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(n)))),
            "w": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5] * n))}))

    serialized = [example(n).SerializeToString() for n in (1, 3, 0)]
    features = {"v": tf.io.VarLenFeature(tf.int64),
                "r": tf.io.RaggedFeature(tf.float32, value_key="w")}
    source = tf.data.Dataset.from_tensor_slices(serialized)
    batched = source.batch(2).map(lambda s: tf.io.parse_example(s, features))
    single = source.map(lambda one: tf.io.parse_single_example(one, features))
    applied = source.batch(2).apply(tf.data.experimental.parse_example_dataset(features))
    spec_text = {k: repr(v) for k, v in batched.element_spec.items()}
    out = [spec_text, list(batched), {k: repr(v) for k, v in single.element_spec.items()},
           list(single), list(applied),
           describe(attempt(lambda: source.apply(
               tf.data.experimental.parse_example_dataset(features))))]
    return describe(out)


def case_keras_sparse_input(tf):
    x = tf.keras.Input((3,), sparse=True, name="x")
    model = tf.keras.Model(x, tf.keras.layers.Dense(2, kernel_initializer="ones")(x))
    st = tf.SparseTensor([[0, 1], [1, 0]], [2.0, 1.0], [2, 3])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(model(st) ** 2)
    out = [repr(x), model(st), tape.gradient(y, model.trainable_variables)]
    model.compile("sgd", "mse")
    ds = tf.data.Dataset.from_tensor_slices((st, tf.ones([2, 2]))).batch(2)
    history = model.fit(ds, epochs=2, verbose=0).history
    out += [[round(v, 5) for v in history["loss"]],
            model.predict(ds.map(lambda features, label: features), verbose=0),
            round(model.evaluate(ds, verbose=0), 5)]
    return describe(out)


def case_reduce_retracing(tf):
    @tf.function(reduce_retracing=True)
    def same(x):
        return x

    for n in (3, 4, 5):
        same(tf.SparseTensor([[0, 0]], [1.0], [n, n]))
    return [same.experimental_get_tracing_count(),
            same.pretty_printed_concrete_signatures(verbose=False)]


CASES = [case_function, case_dataset, case_parse_example, case_keras_sparse_input,
         case_reduce_retracing]


@pytest.fixture(scope="module")
def real_tf_results():
    return run_in_real_tf(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__)
def test_same_as_real_tf(case, real_tf_results):
    ours = run_in_minitf([case])[case.__name__]
    theirs = real_tf_results[case.__name__]
    assert same(ours, theirs), f"minitf: {ours}\nreal TF: {theirs}"
