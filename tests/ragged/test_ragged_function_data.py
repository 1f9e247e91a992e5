"""RaggedTensors across tf.function and tf.data: arguments, signatures, results, retracing,
gradients, Dataset.map/batch/from_generator. One batched real-TF comparison at the end."""
import numpy as np
import pytest

import minitf as tf
from composite_compare import attempt, describe, run_in_minitf, run_in_real_tf, same
from gradcheck import check_grads

R = tf.RaggedTensor


def rt3():
    return tf.ragged.constant([[1, 2], [3], []])


# --- tf.function ---------------------------------------------------------------------------
def test_a_ragged_argument_is_traced_once_per_spec():
    @tf.function
    def double(x):
        return x * 2

    assert double(rt3()).to_list() == [[2, 4], [6], []]
    assert double(tf.ragged.constant([[1], [3, 4, 5], [6]])).to_list() == [[2], [6, 8, 10], [12]]
    assert double.experimental_get_tracing_count() == 1  # same spec: [3, None], int32
    double(tf.ragged.constant([[1], [2], [3], [4]]))  # 4 rows: another spec
    assert double.experimental_get_tracing_count() == 2
    double(tf.ragged.constant([[1]], row_splits_dtype=tf.int32))
    double(tf.ragged.constant([[1.0]]))
    assert double.experimental_get_tracing_count() == 4
    cf = double.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.int32))
    assert double.experimental_get_tracing_count() == 5
    assert double(tf.ragged.constant([[1], [2], [3], [4], [5]])).to_list() == [[2], [4], [6],
                                                                                [8], [10]]
    assert double.experimental_get_tracing_count() == 5  # served by the [None, None] trace
    assert cf(rt3()).to_list() == [[2, 4], [6], []]


def test_signatures_and_outputs_print_with_tf_s_spec_reprs():
    @tf.function
    def double(x):
        return x * 2

    cf = double.get_concrete_function(rt3())
    assert repr(cf.structured_input_signature) == \
        "((RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, tf.int64),), {})"
    out = cf.structured_outputs
    assert isinstance(out, R)
    assert str(out).startswith("tf.RaggedTensor(values=Tensor(") and \
        'shape=(4,), dtype=int64))' in str(out)
    assert out.flat_values.shape.as_list() == [None]  # the spec's, not the traced value's
    assert str(cf) == (
        "ConcreteFunction Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, "
        "tf.int64)\nOutput Type:\n  RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, "
        "tf.int64)\nCaptures:\n  None")


def test_input_signature_with_a_ragged_spec():
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    def parts(x):
        return x.flat_values, x.row_lengths(), x.nrows(), x.value_rowids()

    values, lengths, nrows, rowids = parts(rt3())
    assert values.numpy().tolist() == [1, 2, 3] and lengths.numpy().tolist() == [2, 1, 0]
    assert int(nrows) == 3 and rowids.numpy().tolist() == [0, 0, 1]
    parts(tf.ragged.constant([[1], [2, 3, 4], [5], [6]]))
    assert parts.experimental_get_tracing_count() == 1
    assert repr(parts.get_concrete_function().structured_input_signature) == \
        "((RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64),), {})"
    with pytest.raises(TypeError, match=r"Can not cast TensorSpec\(shape=\(1,\), dtype=tf.float32"):
        parts(tf.ragged.constant([[1.0]]))
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        parts(tf.constant([[1, 2]]))


def test_graph_ops_on_a_traced_partition():
    @tf.function
    def summary(x):
        return (tf.reduce_sum(x, axis=1), tf.reduce_max(x, axis=1), tf.reduce_mean(x, axis=1),
                x.to_tensor(), x.bounding_shape(), x.row_starts(), x.row_limits())

    total, top, mean, dense, bounds, starts, limits = summary(
        tf.ragged.constant([[1, 2], [3, 4, 5], [6], []]))
    assert total.numpy().tolist() == [3, 12, 6, 0]
    assert top.numpy().tolist()[:3] == [2, 5, 6]
    assert top.numpy()[3] == np.iinfo(np.int32).min  # an empty row: the identity, as TF
    assert mean.numpy().tolist()[:3] == [1.5, 4.0, 6.0] and np.isnan(mean.numpy()[3])
    assert dense.numpy().tolist() == [[1, 2, 0], [3, 4, 5], [6, 0, 0], [0, 0, 0]]
    assert bounds.numpy().tolist() == [4, 3]
    assert starts.numpy().tolist() == [0, 2, 5, 6] and limits.numpy().tolist() == [2, 5, 6, 6]


def test_a_ragged_result_built_from_traced_lengths():
    @tf.function
    def make(values, lengths):
        return R.from_row_lengths(values, lengths)

    out = make(tf.constant([1.0, 2.0, 3.0]), tf.constant([1, 2], tf.int64))
    assert out.to_list() == [[1.0], [2.0, 3.0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="do not form a valid RaggedTensor"):
        make(tf.constant([1.0, 2.0, 3.0]), tf.constant([1, 1], tf.int64))  # checked at run time

    @tf.function
    def splits(values, row_splits):
        return R.from_row_splits(values, row_splits)

    assert splits(tf.constant([5, 6]), tf.constant([0, 0, 2], tf.int64)).to_list() == \
        [[], [5, 6]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="row_splits must start at 0"):
        splits(tf.constant([5, 6]), tf.constant([1, 2], tf.int64))


def test_two_traced_partitions_are_compared_when_the_graph_runs():
    @tf.function
    def add(a, b):
        return a + b

    assert add(rt3(), tf.ragged.constant([[10, 20], [30], []])).to_list() == \
        [[11, 22], [33], []]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        add(rt3(), tf.ragged.constant([[10], [20, 30], []]))
    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(add(R.from_row_lengths(v, [2, 1]), R.from_row_lengths(v * v, [2, 1])))
    assert tape.gradient(y, v).numpy().tolist() == [3.0, 5.0, 7.0]


def test_gradients_through_ragged_values_in_a_function():
    @tf.function
    def loss(x):
        return tf.reduce_sum(tf.reduce_mean(x * x, axis=1))

    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = loss(R.from_row_lengths(v, [2, 1]))
    grad = tape.gradient(y, v)
    assert grad.numpy().tolist() == [1.0, 2.0, 6.0]  # d/dv of (v0^2+v1^2)/2 + v2^2
    check_grads(lambda a: loss(R.from_row_lengths(a, [2, 1])), v.numpy())

    @tf.function
    def dense_loss(x):
        return tf.reduce_sum(x.to_tensor() * [[1.0, 10.0], [100.0, 1000.0]])

    with tf.GradientTape() as tape:
        tape.watch(v)
        y = dense_loss(R.from_row_lengths(v, [2, 1]))
    assert tape.gradient(y, v).numpy().tolist() == [1.0, 10.0, 100.0]


def test_nest_expands_composites():
    rt = tf.ragged.constant([[1], [2, 3]])
    parts = tf.nest.flatten([rt, 5], expand_composites=True)
    assert [p.numpy().tolist() if hasattr(p, "numpy") else p for p in parts] == \
        [[1, 2, 3], [0, 1, 3], 5]
    assert tf.nest.flatten([rt, 5])[0] is rt
    back = tf.nest.pack_sequence_as([rt, 0], parts, expand_composites=True)
    assert back[0].to_list() == [[1], [2, 3]] and back[1] == 5
    doubled = tf.nest.map_structure(lambda t: t * 2, {"r": rt}, expand_composites=True)
    assert doubled["r"].row_splits.numpy().tolist() == [0, 2, 6]  # splits doubled too, as TF


def test_uses_that_need_the_splits_while_tracing_say_so():
    @tf.function
    def rows(x):
        return x[0]

    with pytest.raises(ValueError, match="needs the values of its row_splits"):
        rows(rt3())


# --- tf.data -------------------------------------------------------------------------------
def halves(n):
    return R.from_row_lengths(tf.range(n), [n // 2, n - n // 2])


def test_dataset_map_returns_ragged_elements_that_batch_and_unbatch():
    ds = tf.data.Dataset.range(4).map(halves)
    assert repr(ds.element_spec) == \
        "RaggedTensorSpec(TensorShape([2, None]), tf.int64, 1, tf.int64)"
    assert [r.to_list() for r in ds] == [[[], []], [[], [0]], [[0], [1]], [[0], [1, 2]]]
    batched = ds.batch(2)
    assert repr(batched.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, 2, None]), tf.int64, 2, tf.int64)"
    assert [b.to_list() for b in batched] == [[[[], []], [[], [0]]], [[[0], [1]], [[0], [1, 2]]]]
    assert [r.to_list() for r in batched.unbatch()] == [r.to_list() for r in ds]
    assert batched.unbatch().element_spec == ds.element_spec
    assert ds.ragged_batch(2).element_spec == batched.element_spec


def test_dataset_map_of_ragged_elements():
    ds = tf.data.Dataset.range(4).map(halves)
    assert [t.numpy().tolist() for t in ds.map(lambda r: tf.reduce_sum(r, axis=1))] == \
        [[0, 0], [0, 0], [0, 1], [0, 3]]
    assert [t.numpy().tolist() for t in ds.map(lambda r: r.to_tensor())][3] == [[0, 0], [1, 2]]
    assert [r.to_list() for r in ds.filter(lambda r: r.nrows() > 0)][1] == [[], [0]]
    pairs = tf.data.Dataset.range(3).map(halves).map(lambda r: (r * 10, r.row_lengths()))
    rt, lengths = list(pairs)[2]
    assert rt.to_list() == [[0], [10]] and lengths.numpy().tolist() == [1, 1]
    with pytest.raises(TypeError, match="`padded_batch` is only supported for datasets that "
                                        "produce tensor elements"):
        ds.padded_batch(2)


def test_ragged_iteration_sources_and_numpy():
    rt = rt3()
    assert [t.numpy().tolist() for t in tf.data.Dataset.from_tensor_slices(rt)] == \
        [[1, 2], [3], []]
    whole = tf.data.Dataset.from_tensors(rt).repeat(2).batch(2)
    assert repr(whole.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, 3, None]), tf.int32, 2, tf.int64)"
    arrays = list(tf.data.Dataset.range(4).map(halves).as_numpy_iterator())
    assert arrays[2].tolist() == [[0], [1]] and arrays[3].dtype == object


def test_from_generator_with_a_ragged_signature():
    spec = tf.RaggedTensorSpec([None, None], tf.int32)
    ds = tf.data.Dataset.from_generator(lambda: iter([rt3(), tf.ragged.constant([[5]])]),
                                        output_signature=spec)
    assert ds.element_spec == spec
    assert [r.to_list() for r in ds] == [[[1, 2], [3], []], [[5]]]
    dense = tf.data.Dataset.from_generator(lambda: iter([tf.constant([1])]),
                                           output_signature=spec)
    with pytest.raises(tf.errors.InvalidArgumentError, match="where an element of "
                                                             "RaggedTensorSpec"):
        list(dense)


def test_an_iterator_of_ragged_elements_read_inside_a_function_advances():
    @tf.function
    def take(iterator):
        return next(iterator)

    iterator = iter(tf.data.Dataset.range(3).map(halves))
    assert [take(iterator).to_list() for _ in range(3)] == [[[], []], [[], [0]], [[0], [1]]]
    assert take.experimental_get_tracing_count() == 1
    with pytest.raises(tf.errors.OutOfRangeError):
        take(iterator)


def test_a_ragged_dataset_inside_a_function():
    @tf.function
    def total(ds):
        out = tf.constant(0, tf.int64)
        for r in ds:
            out += tf.reduce_sum(r.flat_values)
        return out

    assert int(total(tf.data.Dataset.range(4).map(halves))) == 4


# --- real TF: the same cases, in one TF process --------------------------------------------
def case_retracing(tf):
    @tf.function
    def double(x):
        return x * 2

    out = [double(tf.ragged.constant([[1, 2], [3], []])),
           double(tf.ragged.constant([[1], [3, 4, 5], [6]])), double.experimental_get_tracing_count(),
           double(tf.ragged.constant([[1], [2], [3], [4]])), double.experimental_get_tracing_count()]
    cf = double.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.int32))
    out += [double.experimental_get_tracing_count(), double(tf.ragged.constant([[1]] * 5)),
            double.experimental_get_tracing_count(), cf(tf.ragged.constant([[7, 8]]))]
    out += [repr(double.get_concrete_function(tf.ragged.constant([[1]])).structured_input_signature),
            str(cf), double.pretty_printed_concrete_signatures()[:400],
            type(cf.structured_outputs).__name__]
    traced = double.get_concrete_function(tf.ragged.constant([[1, 2], [3], []]))
    out.append([t.shape.as_list() for t in tf.nest.flatten(traced.structured_outputs,
                                                           expand_composites=True)])
    return describe(out)


def case_input_signature(tf):
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    def parts(x):
        return (x.flat_values, x.row_lengths(), x.nrows(), x.value_rowids(), x.row_starts(),
                tf.reduce_sum(x, axis=1), tf.reduce_max(x, axis=1), tf.reduce_mean(x, axis=1),
                x.to_tensor(), x.bounding_shape(), x + x, tf.math.abs(-x))

    out = [parts(tf.ragged.constant([[1, 2], [-3, 4, 5], [6]])),
           parts(tf.ragged.constant([[1]] * 4)), parts.experimental_get_tracing_count(),
           repr(parts.get_concrete_function().structured_input_signature),
           attempt(lambda: parts(tf.ragged.constant([[1.0]]))),
           describe(attempt(lambda: parts(tf.constant([[1, 2]]))))[:2]]
    return describe(out)


def case_traced_partitions(tf):
    @tf.function
    def make(values, lengths):
        return tf.RaggedTensor.from_row_lengths(values, lengths)

    v = tf.constant([1.0, 2.0, 3.0])

    @tf.function
    def loss(x):
        return tf.reduce_sum(tf.reduce_mean(x * x, axis=1))

    with tf.GradientTape() as tape:
        tape.watch(v)
        y = loss(tf.RaggedTensor.from_row_lengths(v, [2, 1]))
    rt = tf.ragged.constant([[1], [2, 3]])
    out = [make(v, tf.constant([1, 2], tf.int64)), tape.gradient(y, v),
           describe(attempt(lambda: make(v, tf.constant([1, 1], tf.int64))))[:2],
           tf.nest.flatten({"r": rt, "n": 1}, expand_composites=True),
           tf.nest.pack_sequence_as(rt, [tf.constant([7, 8, 9]), tf.constant([0, 2, 3], tf.int64)],
                                    expand_composites=True),
           tf.nest.map_structure(lambda t: t * 2, [rt], expand_composites=True)]

    @tf.function
    def add(a, b):
        return a + b

    out += [add(tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[10, 20], [30]])),
            describe(attempt(lambda: add(tf.ragged.constant([[1, 2], [3]]),
                                         tf.ragged.constant([[10], [20, 30]]))))[:2]]
    return describe(out)


def case_dataset(tf):
    def halves(n):
        return tf.RaggedTensor.from_row_lengths(tf.range(n), [n // 2, n - n // 2])

    ds = tf.data.Dataset.range(4).map(halves)
    rt = tf.ragged.constant([[1, 2], [3], []])
    spec = tf.RaggedTensorSpec([None, None], tf.int32)
    gen = tf.data.Dataset.from_generator(lambda: iter([rt, tf.ragged.constant([[5]])]),
                                         output_signature=spec)
    bad = tf.data.Dataset.from_generator(lambda: iter([tf.constant([1])]), output_signature=spec)
    out = [repr(ds.element_spec), list(ds), repr(ds.batch(2).element_spec), list(ds.batch(2)),
           list(ds.batch(2).unbatch()), repr(ds.ragged_batch(2).element_spec),
           list(ds.map(lambda r: tf.reduce_sum(r, axis=1))),
           list(ds.map(lambda rows: rows.to_tensor())),
           list(ds.filter(lambda kept: kept.nrows() > 0)), list(ds.as_numpy_iterator()),
           describe(attempt(lambda: ds.padded_batch(2)))[:2],
           repr(tf.data.Dataset.from_tensor_slices(rt).element_spec),
           repr(tf.data.Dataset.from_tensors(rt).repeat(2).batch(2).element_spec),
           repr(gen.element_spec), list(gen), attempt(lambda: list(bad))]

    @tf.function
    def take(iterator):
        return next(iterator)

    iterator = iter(ds)
    out += [take(iterator), take(iterator), take.experimental_get_tracing_count()]
    return describe(out)


def case_reduce_retracing(tf):
    @tf.function(reduce_retracing=True)
    def double(x):
        return x * 2

    for n in (3, 4, 5, 6):
        double(tf.ragged.constant([[1]] * n))
    return [double.experimental_get_tracing_count(),
            double.pretty_printed_concrete_signatures(verbose=False)]


CASES = [case_retracing, case_input_signature, case_traced_partitions, case_dataset,
         case_reduce_retracing]


@pytest.fixture(scope="module")
def real_tf_results():
    return run_in_real_tf(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__)
def test_same_as_real_tf(case, real_tf_results):
    ours = run_in_minitf([case])[case.__name__]
    theirs = real_tf_results[case.__name__]
    assert same(ours, theirs), f"minitf: {ours}\nreal TF: {theirs}"
