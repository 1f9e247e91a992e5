"""`tf.keras.utils.audio_dataset_from_directory`: a labelled dataset of WAV files.

    main_directory/
        class_a/  a_1.wav  a_2.wav
        class_b/  b_1.wav

Each file becomes a float32 tensor of shape (samples, channels) with values
in [-1, 1) - 16-bit PCM divided by 32768, as `tf.audio.decode_wav` gives it.
Clips differ in length, so a batch is padded with zeros to its longest clip
(`padded_batch`); `output_sequence_length=n` instead cuts or zero-pads every
clip to n samples; `ragged=True` keeps each clip's own length (a RaggedTensor
batch). Labels, class names, shuffling with a seed and validation subsets
work as in `text_dataset_from_directory` (see directory_datasets.py).

>>> import minitf as tf, numpy as np, os, tempfile, wave
>>> root = tempfile.mkdtemp()
>>> for label, n in [("no", 3), ("yes", 5)]:
...     os.makedirs(os.path.join(root, label))
...     with wave.open(os.path.join(root, label, "clip.wav"), "wb") as w:
...         w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000)
...         w.writeframes(np.full(n, 16384, "<i2").tobytes())
>>> ds = tf.keras.utils.audio_dataset_from_directory(root, shuffle=False, verbose=False)
>>> audio, labels = next(iter(ds))
>>> audio.shape, labels.numpy().tolist()          # padded to the longest clip
(TensorShape([2, 5, 1]), [0, 1])
>>> audio[0, :, 0].numpy().tolist()
[0.5, 0.5, 0.5, 0.0, 0.0]

`sampling_rate` asks Keras to resample with the `tensorflow-io` package; minitf
checks the argument as Keras does, then raises the same ImportError Keras raises
when that package is missing (minitf does not resample).

In TensorFlow this is `keras/src/utils/audio_dataset_utils.py`. Like minitf's
other directory datasets, the files are read when the dataset is made (small
local folders) and only the file list is shuffled.
"""
import wave

import numpy as np

from ...framework.tf_export import tf_export
from .directory_datasets import _check_split, _index_directory, _label_array, _split

ALLOWED_FORMATS = (".wav",)


def read_wav(path, output_sequence_length=None):
    """A WAV file as float32 (samples, channels), like `tf.audio.decode_wav`."""
    with wave.open(path, "rb") as f:
        if f.getsampwidth() != 2 or f.getcomptype() != "NONE":
            raise ValueError(
                f"{path}: only 16-bit PCM WAV files can be decoded (as by "
                f"tf.audio.decode_wav); this file has {8 * f.getsampwidth()}-bit samples "
                f"({f.getcompname()}). Convert it, e.g. with `sox in.wav -b 16 out.wav`.")
        channels = f.getnchannels()
        frames = np.frombuffer(f.readframes(f.getnframes()), dtype="<i2")
    audio = (frames.astype(np.float32) / 32768.0).reshape(-1, channels)
    if output_sequence_length is not None:
        audio = audio[:output_sequence_length]
        audio = np.pad(audio, [(0, output_sequence_length - len(audio)), (0, 0)])
    return audio


def _check_arguments(labels, label_mode, class_names, ragged, output_sequence_length,
                     sampling_rate):
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(
                "The `labels` argument should be a list/tuple of integer labels, of the same "
                "size as the number of audio files in the target directory. If you wish to "
                "infer the labels from the subdirectory names in the target directory, pass "
                '`labels="inferred"`. If you wish to get a dataset that only contains audio '
                f"samples (no labels), pass `labels=None`. Received: labels={labels}")
        if class_names:
            raise ValueError('You can only pass `class_names` if `labels="inferred"`. '
                             f"Received: labels={labels}, and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", '
                         f"or None. Received: label_mode={label_mode}")
    if ragged and output_sequence_length is not None:
        raise ValueError("Cannot set both `ragged` and `output_sequence_length`")
    if sampling_rate is not None:
        if not isinstance(sampling_rate, int):
            raise ValueError("`sampling_rate` should have an integer value. "
                             f"Received: sampling_rate={sampling_rate}")
        if sampling_rate <= 0:
            raise ValueError("`sampling_rate` should be higher than 0. "
                             f"Received: sampling_rate={sampling_rate}")
        raise ImportError("To use the argument `sampling_rate`, you should install "
                          "tensorflow_io. You can install it via `pip install tensorflow-io`. "
                          "(minitf does not resample audio: resample the files beforehand.)")


def _audio_dataset(clips, labels, label_mode, class_names, batch_size, ragged,
                   output_sequence_length):
    from ... import data as tf_data
    from ...framework import dtypes
    from ...framework.function import TensorSpec
    label_values = None if label_mode is None else \
        _label_array(np.asarray(labels), label_mode, len(class_names))

    def generate():
        for i, clip in enumerate(clips):
            if ragged:  # rows: the samples; each row holds the channels (ragged_rank 1)
                clip = RaggedTensor.from_tensor(clip)
            yield clip if label_values is None else (clip, label_values[i])

    clip_spec = TensorSpec((None, None), dtypes.float32)  # decode_wav's static shape
    if ragged:
        from ...ragged.ragged_tensor import RaggedTensor
        from ...ragged.ragged_tensor_spec import RaggedTensorSpec
        clip_spec = RaggedTensorSpec((None, None), dtypes.float32, ragged_rank=1)
    signature = clip_spec if label_values is None else \
        (clip_spec, TensorSpec(label_values.shape[1:], dtypes.as_dtype(label_values.dtype)))
    dataset = tf_data.Dataset.from_generator(generate, output_signature=signature)
    if batch_size is not None:
        dataset = dataset.padded_batch(batch_size) if output_sequence_length is None and \
            not ragged else dataset.batch(batch_size)
    dataset.class_names = class_names
    return dataset


@tf_export("keras.utils.audio_dataset_from_directory")
def audio_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, batch_size=32, sampling_rate=None,
                                 output_sequence_length=None, ragged=False, shuffle=True,
                                 seed=None, validation_split=None, subset=None,
                                 follow_links=False, verbose=True):
    """Batches of (audio, label) from the `.wav` files of `directory` (see the module doc)."""
    _check_arguments(labels, label_mode, class_names, ragged, output_sequence_length,
                     sampling_rate)
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    _check_split(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, found, names = _index_directory(directory, labels, ALLOWED_FORMATS, class_names,
                                           shuffle, seed, follow_links, verbose)
    if label_mode == "binary" and len(names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={names}")
    made = []
    for part in ("training", "validation") if subset == "both" else (subset,):
        part_paths, part_labels = _split(paths, found, validation_split, part)
        if not part_paths:
            which = f"{part} " if subset == "both" else ""
            raise ValueError(f"No {which}audio files found in directory {directory}. "
                             f"Allowed format(s): {ALLOWED_FORMATS}")
        clips = [read_wav(p, output_sequence_length) for p in part_paths]
        made.append(_audio_dataset(clips, part_labels, label_mode, names, batch_size, ragged,
                                   output_sequence_length))
    return tuple(made) if subset == "both" else made[0]
