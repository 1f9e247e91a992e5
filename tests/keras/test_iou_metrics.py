"""tf.math.confusion_matrix and the IoU metrics, against NumPy by hand."""
import numpy as np
import pytest

import minitf as tf


def numpy_cm(labels, predictions, n, weights=None):
    cm = np.zeros((n, n))
    np.add.at(cm, (np.asarray(labels), np.asarray(predictions)),
              1.0 if weights is None else np.asarray(weights, float))
    return cm


def numpy_iou(cm, targets):
    tp = np.diag(cm)
    union = cm.sum(0) + cm.sum(1) - tp
    occurred = (union[targets] > 1e-9).sum()
    return np.sum(tp[targets] / (union[targets] + 1e-7)) / (occurred + 1e-7)


# --- confusion_matrix -----------------------------------------------------------------------
def test_confusion_matrix_counts_pairs_like_numpy():
    rng = np.random.default_rng(0)
    labels, preds = rng.integers(0, 4, 50), rng.integers(0, 4, 50)
    cm = tf.math.confusion_matrix(labels, preds)
    assert cm.dtype == tf.int32 and cm.shape == (4, 4)
    np.testing.assert_array_equal(cm.numpy(), numpy_cm(labels, preds, 4))
    weights = rng.random(50).astype("float32")
    weighted = tf.math.confusion_matrix(labels, preds, num_classes=6, weights=weights,
                                        dtype=tf.float32)
    assert weighted.shape == (6, 6)
    np.testing.assert_allclose(weighted.numpy(), numpy_cm(labels, preds, 6, weights),
                               rtol=1e-6)


def test_confusion_matrix_in_a_tf_function():
    @tf.function
    def cm(labels, predictions):
        return tf.math.confusion_matrix(labels, predictions, num_classes=3)

    out = cm(tf.constant([0, 1, 2, 2]), tf.constant([2, 1, 0, 2]))
    np.testing.assert_array_equal(out.numpy(), numpy_cm([0, 1, 2, 2], [2, 1, 0, 2], 3))

    @tf.function
    def unsized(labels, predictions):
        return tf.math.confusion_matrix(labels, predictions)

    with pytest.raises(ValueError, match="pass num_classes"):
        unsized(tf.constant([0, 1]), tf.constant([1, 1]))


@pytest.mark.parametrize("labels, predictions, message", [
    ([-1, 0], [0, 1], "`labels` contains negative values"),
    ([0, 1], [0, -2], "`predictions` contains negative values"),
    ([0, 3], [0, 1], "`labels` out of bound"),
    ([0, 1], [0, 5], "`predictions` out of bound"),
])
def test_confusion_matrix_rejects_bad_ids(labels, predictions, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.math.confusion_matrix(labels, predictions, num_classes=3)


def test_confusion_matrix_wants_vectors():
    with pytest.raises(ValueError, match="1-D labels"):
        tf.math.confusion_matrix([[0, 1]], [[0, 1]])


# --- the metrics ----------------------------------------------------------------------------
def test_mean_iou_accumulates_batches_like_numpy():
    rng = np.random.default_rng(1)
    m = tf.keras.metrics.MeanIoU(num_classes=5)
    labels, preds = rng.integers(0, 5, (3, 40)), rng.integers(0, 5, (3, 40))
    for batch in range(3):
        m.update_state(labels[batch], preds[batch])
    cm = numpy_cm(labels.ravel(), preds.ravel(), 5)
    np.testing.assert_allclose(m.total_cm.numpy(), cm)
    assert float(m.result()) == pytest.approx(numpy_iou(cm, list(range(5))), rel=1e-6)
    m.reset_state()
    assert float(m.result()) == 0.0 and m.name == "mean_io_u"


def test_a_class_that_never_occurs_is_left_out_of_the_mean():
    m = tf.keras.metrics.MeanIoU(num_classes=4)
    m.update_state([0, 0, 1], [0, 0, 1])  # classes 2 and 3 never appear
    assert float(m.result()) == pytest.approx(1.0, abs=1e-6)


def test_iou_of_target_classes_with_weights_and_images():
    rng = np.random.default_rng(2)
    labels, preds = rng.integers(0, 3, (2, 4, 4)), rng.integers(0, 3, (2, 4, 4))
    weights = rng.random((2, 4, 4)).astype("float32")
    m = tf.keras.metrics.IoU(num_classes=3, target_class_ids=[0, 2])
    m.update_state(labels, preds, sample_weight=weights)
    cm = numpy_cm(labels.ravel(), preds.ravel(), 3, weights.ravel())
    assert float(m.result()) == pytest.approx(numpy_iou(cm, [0, 2]), rel=1e-5)
    with pytest.raises(ValueError, match="out of range"):
        tf.keras.metrics.IoU(num_classes=3, target_class_ids=[3])


def test_ignore_class_drops_those_pixels():
    m = tf.keras.metrics.MeanIoU(num_classes=2, ignore_class=255)
    m.update_state([0, 1, 255, 255], [0, 1, 1, 0])
    np.testing.assert_allclose(m.total_cm.numpy(), [[1, 0], [0, 1]])
    assert float(m.result()) == pytest.approx(1.0, abs=1e-6)


def test_one_hot_and_binary_variants():
    y_true = np.eye(3)[[2, 0, 1, 0]]
    y_pred = np.array([[0.2, 0.3, 0.5], [0.1, 0.2, 0.7], [0.5, 0.3, 0.1], [0.1, 0.4, 0.5]])
    weights = [0.1, 0.2, 0.3, 0.4]
    cm = numpy_cm([2, 0, 1, 0], y_pred.argmax(-1), 3, weights)
    one_hot = tf.keras.metrics.OneHotIoU(num_classes=3, target_class_ids=[0, 2])
    one_hot.update_state(y_true, y_pred, sample_weight=weights)
    assert float(one_hot.result()) == pytest.approx(numpy_iou(cm, [0, 2]), rel=1e-5)
    mean = tf.keras.metrics.OneHotMeanIoU(num_classes=3)
    mean.update_state(y_true, y_pred, sample_weight=weights)
    assert float(mean.result()) == pytest.approx(numpy_iou(cm, [0, 1, 2]), rel=1e-5)
    binary = tf.keras.metrics.BinaryIoU(threshold=0.3)
    binary.update_state([0, 1, 0, 1], [0.1, 0.2, 0.4, 0.7], sample_weight=[0.2, 0.3, 0.4, 0.1])
    cm = numpy_cm([0, 1, 0, 1], [0, 0, 1, 1], 2, [0.2, 0.3, 0.4, 0.1])
    assert float(binary.result()) == pytest.approx(numpy_iou(cm, [0, 1]), rel=1e-5)


def test_configs_round_trip():
    for metric in [tf.keras.metrics.MeanIoU(num_classes=3, ignore_class=0),
                   tf.keras.metrics.IoU(num_classes=4, target_class_ids=[1, 3]),
                   tf.keras.metrics.BinaryIoU(target_class_ids=[1], threshold=0.7),
                   tf.keras.metrics.OneHotIoU(num_classes=3, target_class_ids=[0]),
                   tf.keras.metrics.OneHotMeanIoU(num_classes=3)]:
        config = metric.get_config()
        assert type(metric).from_config(config).get_config() == config


def test_mean_iou_in_fit_and_inside_a_graph():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(64, 4)).astype("float32")
    y = (x[:, 0] > 0).astype("int64")
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(2)])
    tf.keras.backend.clear_session()  # unnamed metrics count up per program: mean_io_u first
    model.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True), metrics=[tf.keras.metrics.MeanIoU(2, sparse_y_pred=False)])
    history = model.fit(x, y, epochs=2, batch_size=16, verbose=0)
    assert "mean_io_u" in history.history
    m = tf.keras.metrics.MeanIoU(2, sparse_y_pred=False)
    m.update_state(y, model.predict(x, verbose=0))  # by hand, on the final weights
    results = model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)
    assert results["mean_io_u"] == pytest.approx(float(m.result()), rel=1e-5)
    assert 0.0 <= history.history["mean_io_u"][-1] <= 1.0
