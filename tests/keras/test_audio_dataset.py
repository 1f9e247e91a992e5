"""keras.utils.audio_dataset_from_directory: WAV folders as (audio, label) batches, padded,
cut to output_sequence_length or ragged, with Keras 3.15's labels, subsets and errors; one
real-TF subprocess reads the same files."""
import json
import os
import wave

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

audio_dataset_from_directory = tf.keras.utils.audio_dataset_from_directory

COMMON = """
import json, os, wave
import numpy as np

CLIPS = [("down", "a.wav", 3, 1), ("down", "b.wav", 6, 1), ("up", "c.wav", 4, 1),
         ("up", "d.wav", 2, 1), ("up", "e.wav", 5, 1)]

def write_clips(root, channels=1):
    for label, name, n, _ in CLIPS:
        os.makedirs(os.path.join(root, label), exist_ok=True)
        samples = (np.arange(n * channels) * 4099 - 9000).astype("<i2")
        with wave.open(os.path.join(root, label, name), "wb") as w:
            w.setnchannels(channels); w.setsampwidth(2); w.setframerate(16000)
            w.writeframes(samples.tobytes())

def as_lists(ds):
    out = []
    for item in ds:
        parts = item if isinstance(item, tuple) else (item,)
        out.append([p.to_list() if hasattr(p, "to_list") else p.numpy().tolist()
                    for p in parts])
    return out

def run(tf, root):
    write_clips(os.path.join(root, "mono"))
    write_clips(os.path.join(root, "stereo"), channels=2)
    f = tf.keras.utils.audio_dataset_from_directory
    mono, stereo = os.path.join(root, "mono"), os.path.join(root, "stereo")
    out = {}
    out["padded"] = as_lists(f(mono, shuffle=False, batch_size=2, verbose=False))
    out["cut"] = as_lists(f(stereo, shuffle=False, batch_size=3, output_sequence_length=4,
                            label_mode="binary", verbose=False))
    out["ragged"] = as_lists(f(stereo, shuffle=False, batch_size=2, ragged=True,
                               label_mode="categorical", verbose=False))
    out["unlabelled"] = as_lists(f(mono, labels=None, shuffle=False, batch_size=None,
                                   verbose=False))
    out["list_labels"] = as_lists(f(mono, labels=[3, 1, 4, 1, 5], shuffle=False,
                                    batch_size=5, output_sequence_length=2, verbose=False))
    train, val = f(mono, validation_split=0.4, subset="both", seed=3, batch_size=5,
                   output_sequence_length=6, verbose=False)
    out["train"], out["val"] = as_lists(train), as_lists(val)
    out["class_names"] = f(mono, verbose=False).class_names
    out["spec"] = str(f(mono, shuffle=False, verbose=False).element_spec)
    return out
"""
exec(COMMON)  # noqa: S102 - shared with the real-TF run below


def test_clips_are_decoded_like_decode_wav_and_padded_per_batch(tmp_path):
    write_clips(str(tmp_path))  # noqa: F821 - defined by COMMON
    ds = audio_dataset_from_directory(str(tmp_path), shuffle=False, batch_size=2,
                                      verbose=False)
    assert ds.class_names == ["down", "up"]
    batches = list(ds)
    assert [tuple(a.shape) for a, _ in batches] == [(2, 6, 1), (2, 4, 1), (1, 5, 1)]
    first = (np.arange(3) * 4099 - 9000).astype(np.int16) / 32768.0
    np.testing.assert_array_equal(batches[0][0][0, :, 0].numpy(), np.r_[first, 0, 0, 0])
    assert [b[1].numpy().tolist() for b in batches] == [[0, 0], [1, 1], [1]]


def test_output_sequence_length_ragged_and_label_modes(tmp_path):
    write_clips(str(tmp_path), channels=2)  # noqa: F821
    cut = next(iter(audio_dataset_from_directory(
        str(tmp_path), shuffle=False, output_sequence_length=4, label_mode="categorical",
        verbose=False)))
    assert cut[0].shape == (5, 4, 2) and cut[1].numpy().tolist()[0] == [1.0, 0.0]
    ragged, _ = next(iter(audio_dataset_from_directory(str(tmp_path), shuffle=False,
                                                       ragged=True, verbose=False)))
    assert isinstance(ragged, tf.RaggedTensor)
    assert [len(clip) for clip in ragged.to_list()] == [3, 6, 4, 2, 5]


def test_a_small_model_trains_on_the_dataset(tmp_path):
    write_clips(str(tmp_path))  # noqa: F821
    ds = audio_dataset_from_directory(str(tmp_path), seed=1, batch_size=5,
                                      output_sequence_length=6, verbose=False)
    model = tf.keras.Sequential([tf.keras.Input((6, 1)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(2)])
    model.compile(tf.keras.optimizers.Adam(0.1),
                  tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(ds, epochs=5, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_errors_are_keras_errors(tmp_path):
    write_clips(str(tmp_path))  # noqa: F821
    root = str(tmp_path)
    with pytest.raises(ValueError, match="Cannot set both `ragged` and `output_sequence_length`"):
        audio_dataset_from_directory(root, ragged=True, output_sequence_length=3)
    with pytest.raises(ValueError, match="`sampling_rate` should have an integer value"):
        audio_dataset_from_directory(root, sampling_rate=8000.0)
    with pytest.raises(ValueError, match="`sampling_rate` should be higher than 0"):
        audio_dataset_from_directory(root, sampling_rate=0)
    with pytest.raises(ImportError, match="install tensorflow_io"):
        audio_dataset_from_directory(root, sampling_rate=8000)
    with pytest.raises(ValueError, match="should be a list/tuple of integer labels"):
        audio_dataset_from_directory(root, labels="folders")
    with pytest.raises(ValueError, match="must be one of"):
        audio_dataset_from_directory(root, label_mode="sparse")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="No audio files found in directory"):
        audio_dataset_from_directory(str(tmp_path / "empty"), labels=None, verbose=False)
    with wave.open(os.path.join(root, "down", "deep.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(8000)
        w.writeframes(b"\x80\x81")
    with pytest.raises(ValueError, match="only 16-bit PCM WAV files"):
        audio_dataset_from_directory(root, verbose=False)


@pytest.fixture(scope="module")
def keras_results(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("audio_tf"))
    return run_tf_json(COMMON + f"""
import tensorflow as tf
print(json.dumps(run(tf, {root!r})))
""")


def test_batches_equal_keras_3_15(keras_results, tmp_path):
    ours = json.loads(json.dumps(run(tf, str(tmp_path))))  # noqa: F821
    assert ours.keys() == keras_results.keys()
    for key in ours:
        assert ours[key] == keras_results[key], key
