"""tf.keras.utils data helpers (Keras 3.15): PyDataset/Sequence, timeseries_dataset_from_array,
split_dataset, text/image_dataset_from_directory, the image file helpers, Config,
get_source_inputs and is_keras_tensor."""
import json
import os
import threading
import warnings

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

utils = tf.keras.utils


class Squares(utils.PyDataset):
    def __init__(self, count=5, **kwargs):
        super().__init__(**kwargs)
        self.count, self.epochs_ended, self.seen, self.threads = count, 0, [], set()

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        self.seen.append(index)
        self.threads.add(threading.get_ident())
        x = np.full((4, 1), index / 10, "float32")
        return x, x ** 2

    def on_epoch_end(self):
        self.epochs_ended += 1


def _model():
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    return model


def test_fit_reads_every_batch_of_a_py_dataset_each_epoch():
    data = Squares(workers=3, max_queue_size=2)
    history = _model().fit(data, epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3 and data.epochs_ended == 3
    assert sorted(data.seen) == sorted(list(range(5)) * 3)
    assert threading.get_ident() not in data.threads  # made by the worker threads


def test_shuffle_changes_the_batch_order_only_when_asked():
    ordered = Squares()
    _model().fit(ordered, epochs=1, shuffle=False, verbose=0)
    assert ordered.seen == [0, 1, 2, 3, 4]
    shuffled = Squares(count=30)
    _model().fit(shuffled, epochs=1, verbose=0)
    assert shuffled.seen != list(range(30)) and sorted(shuffled.seen) == list(range(30))


def test_evaluate_predict_and_the_sequence_alias():
    class Old(utils.Sequence):
        def __init__(self):  # forgets super().__init__(): a warning, default settings
            self.size = 2

        def __len__(self):
            return self.size

        def __getitem__(self, index):
            return np.ones((3, 1), "float32"), np.zeros((3, 1), "float32")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = Old()
        assert old.workers == 1  # now set: no second warning
    assert "should call `super().__init__(**kwargs)`" in str(caught[0].message)
    model = _model()
    assert np.isfinite(model.evaluate(old, verbose=0))
    assert model.predict(old, verbose=0).shape == (6, 1)


def test_py_dataset_batches_must_be_tuples():
    class Bad(utils.PyDataset):
        def __len__(self):
            return 1

        def __getitem__(self, index):
            return 5

    with pytest.raises(ValueError, match="must return a tuple or a dict"):
        _model().fit(Bad(), verbose=0)


def test_timeseries_windows_and_errors():
    ds = utils.timeseries_dataset_from_array(np.arange(10), None, sequence_length=4,
                                             sequence_stride=3, batch_size=None)
    assert [w.numpy().tolist() for w in ds] == [[0, 1, 2, 3], [3, 4, 5, 6], [6, 7, 8, 9]]
    with pytest.raises(ValueError, match="`sampling_rate` must be higher than 0"):
        utils.timeseries_dataset_from_array(np.arange(10), None, 3, sampling_rate=0)
    shuffled = utils.timeseries_dataset_from_array(np.arange(50), np.arange(50), 2,
                                                   batch_size=None, shuffle=True, seed=1)
    pairs = [(int(x[0]), int(y)) for x, y in shuffled]
    assert sorted(pairs) == [(i, i) for i in range(49)]


def test_split_dataset_sizes_and_errors():
    left, right = utils.split_dataset((np.arange(10), np.arange(10) * 2), left_size=3)
    assert [int(a) for a, _ in left] == [0, 1, 2] and int(right.cardinality()) == 7
    with pytest.raises(ValueError, match="At least one of the `left_size` or `right_size`"):
        utils.split_dataset(np.arange(4))
    with pytest.raises(ValueError, match="sum of `left_size` and `right_size` is greater"):
        utils.split_dataset(np.arange(4), 0.7, 0.5)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("utils_data")
    texts = root / "texts"
    for label, name, body in [("neg", "a", "bad film"), ("neg", "b", "awful"),
                              ("pos", "c", "good"), ("pos", "d", "great fun"),
                              ("pos", "e", "nice one"), ("pos", "f", "lovely")]:
        (texts / label).mkdir(parents=True, exist_ok=True)
        (texts / label / f"{name}.txt").write_text(body)
    images = root / "images"
    rng = np.random.default_rng(0)
    for label in ("cat", "dog"):
        (images / label).mkdir(parents=True)
        for i in range(3):
            utils.save_img(str(images / label / f"{i}.png"),
                           rng.integers(0, 256, (6, 8, 3)).astype("float32"), scale=False)
    return str(texts), str(images)


def test_text_dataset_labels_from_folders(folders):
    texts, _ = folders
    train, val = utils.text_dataset_from_directory(
        texts, batch_size=2, validation_split=0.34, subset="both", seed=7, verbose=False)
    assert train.class_names == ["neg", "pos"]
    seen = [(t, int(l)) for x, y in list(train) + list(val) for t, l in zip(x.numpy(),
                                                                            y.numpy())]
    assert sorted(seen) == [(b"awful", 0), (b"bad film", 0), (b"good", 1), (b"great fun", 1),
                            (b"lovely", 1), (b"nice one", 1)]
    assert sum(int(y.shape[0]) for _, y in val) == 2
    with pytest.raises(ValueError, match="you must provide a `seed`"):
        utils.text_dataset_from_directory(texts, validation_split=0.2, subset="training")


def test_image_dataset_and_image_files(folders, tmp_path):
    _, images = folders
    ds = utils.image_dataset_from_directory(images, image_size=(6, 8), shuffle=False,
                                            label_mode="categorical", verbose=False)
    x, y = next(iter(ds))
    assert x.shape == (6, 6, 8, 3) and x.dtype == tf.float32 and y.shape == (6, 2)
    first = utils.img_to_array(utils.load_img(os.path.join(images, "cat", "0.png")))
    np.testing.assert_array_equal(x.numpy()[0], first)
    gray = utils.load_img(os.path.join(images, "dog", "1.png"), color_mode="grayscale",
                          target_size=(3, 4), interpolation="bilinear")
    assert gray.size == (4, 3) and utils.img_to_array(gray).shape == (3, 4, 1)
    image = utils.array_to_img(np.array([[[0.0], [2.0]]]))
    assert image.mode == "L" and utils.img_to_array(image).ravel().tolist() == [0.0, 255.0]


def test_config_source_inputs_and_keras_tensors():
    config = utils.Config(units=4)
    config.rate = 0.5
    config.freeze()
    with pytest.raises(ValueError, match="frozen"):
        config.units = 5
    with pytest.raises(AttributeError, match="Did you mean 'units'"):
        config.unit
    a, b = tf.keras.Input((2,)), tf.keras.Input((3,))
    merged = tf.keras.layers.Dense(1)(tf.keras.layers.Concatenate()([a, b]))
    assert utils.get_source_inputs(merged) == [a, b]
    assert utils.is_keras_tensor(merged) and not utils.is_keras_tensor(np.ones(2))


# Run here and in real Keras with the folders' paths; the `out` dicts must be equal.
PROBE = """
utils = keras.utils
out = {}
for stride, rate, start, end in [(1, 1, None, None), (2, 3, 2, 18), (3, 1, 1, None)]:
    ds = utils.timeseries_dataset_from_array(np.arange(40).reshape(20, 2), np.arange(20) * 10, 3,
                                             sequence_stride=stride, sampling_rate=rate,
                                             batch_size=4, start_index=start, end_index=end)
    out[f"ts{stride}{rate}"] = [[np.asarray(x).tolist(), np.asarray(y).tolist()] for x, y in ds]
left, right = utils.split_dataset((np.arange(12), np.arange(12) * 2), left_size=0.25,
                                  shuffle=True, seed=3)
out["split"] = [[[int(v) for v in e] for e in part] for part in (left, right)]
left, right = utils.split_dataset(np.arange(9), right_size=4)
out["split_arr"] = [[int(e) for e in part] for part in (left, right)]
ds = utils.text_dataset_from_directory(TEXTS, shuffle=False, batch_size=4, max_length=5,
                                       label_mode="binary", verbose=False)
out["text"] = [ds.class_names] + [[[t.decode() for t in np.asarray(x).tolist()],
                                   np.asarray(y).tolist()] for x, y in ds]
out["text_val"] = sorted(t.decode() for x, _ in utils.text_dataset_from_directory(
    TEXTS, validation_split=0.5, subset="validation", seed=11, verbose=False)
    for t in np.asarray(x).tolist())
ds = utils.image_dataset_from_directory(IMAGES, image_size=(6, 8), shuffle=False,
                                        batch_size=None, verbose=False)
out["images"] = [[np.asarray(x).tolist(), int(y)] for x, y in ds]
small = utils.image_dataset_from_directory(IMAGES, image_size=(3, 4), shuffle=False,
                                           color_mode="grayscale", verbose=False)
out["small"] = [np.round(np.asarray(x), 2).tolist() for x, _ in small]
img = utils.load_img(IMAGES + "/dog/2.png", target_size=(4, 5), keep_aspect_ratio=True)
out["load"] = [list(img.size), img.mode, utils.img_to_array(img).tolist()]
arr = utils.img_to_array(utils.array_to_img(np.arange(24.0).reshape(2, 3, 4)))
out["arr"] = [arr.tolist(), utils.img_to_array(utils.array_to_img(np.ones((2, 2, 3)) * 7,
                                                                  scale=False)).tolist()]
"""


def test_same_results_as_real_keras(folders):
    texts, images = folders
    prelude = f"TEXTS, IMAGES = {texts!r}, {images!r}\n"
    theirs = run_tf_json("import json, numpy as np, keras\n" + prelude + PROBE +
                         "print(json.dumps(out))")
    scope = {"np": np, "keras": tf.keras}
    exec(prelude + PROBE, scope)
    ours = json.loads(json.dumps(scope["out"]))
    for key in theirs:
        if key == "small":  # TF's RGB -> gray decoding rounds differently from Pillow's
            np.testing.assert_allclose(ours[key], theirs[key], atol=0.5)
        else:
            assert ours[key] == theirs[key], key
