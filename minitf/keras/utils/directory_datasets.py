"""`tf.keras.utils.text_dataset_from_directory` / `image_dataset_from_directory`: a labelled
dataset from a folder with one subfolder per class.

    main_directory/
        class_a/  a_text_1.txt  a_text_2.txt
        class_b/  b_text_1.txt  b_text_2.txt

Class names are the sorted subfolder names, labels their positions; files are
taken in sorted order and, with `shuffle=True` (the default), shuffled with
NumPy's `RandomState(seed)` exactly as Keras does, so a seed picks the same
validation files as in Keras.

>>> import minitf as tf, os, tempfile
>>> root = tempfile.mkdtemp()
>>> for label, text in [("neg", "bad"), ("pos", "good"), ("pos", "great")]:
...     os.makedirs(os.path.join(root, label), exist_ok=True)
...     with open(os.path.join(root, label, text + ".txt"), "w") as f:
...         _ = f.write(text)
>>> ds = tf.keras.utils.text_dataset_from_directory(root, shuffle=False, verbose=False)
>>> ds.class_names
['neg', 'pos']
>>> texts, labels = next(iter(ds))
>>> texts.numpy().tolist(), labels.numpy().tolist()
([b'bad', b'good', b'great'], [0, 1, 1])

In TensorFlow this is `keras/src/utils/text_dataset_utils.py`,
`image_dataset_utils.py` and `dataset_utils.py`. Keras reads and decodes the
files inside the tf.data pipeline and shuffles the examples again there;
minitf reads them when the dataset is made (meant for small local folders) and
shuffles only the file list.
"""
import os

import numpy as np

from ...framework.tf_export import tf_export
from .io_utils import print_msg

_IMAGE_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")


def _index_directory(directory, labels, formats, class_names, shuffle, seed, follow_links,
                     verbose):
    """(file paths, labels, class names) as Keras's dataset_utils.index_directory makes them."""
    if labels == "inferred":
        subdirs = [d for d in sorted(os.listdir(directory))
                   if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
        if class_names is not None:
            if not set(class_names).issubset(set(subdirs)):
                raise ValueError("The `class_names` passed did not match the names of the "
                                 "subdirectories of the target directory. Expected: "
                                 f"{subdirs} (or a subset of it), but received: "
                                 f"class_names={class_names}")
            subdirs = list(class_names)
    else:
        subdirs = [""]
        if class_names is not None:
            raise ValueError("When `labels=None` (no labels), argument `class_names` cannot be "
                             "specified." if labels is None else "When argument `labels` is "
                             "specified, argument `class_names` cannot be specified (the "
                             "`class_names` will be the sorted list of labels).")
    filenames, found = [], []
    for index, subdir in enumerate(subdirs):
        top = os.path.join(directory, subdir)
        for root, _, files in sorted(os.walk(top, followlinks=follow_links),
                                     key=lambda x: x[0]):
            for name in sorted(files):
                if name.lower().endswith(formats):
                    filenames.append(os.path.join(subdir, os.path.relpath(
                        os.path.join(root, name), top)) if subdir else
                        os.path.relpath(os.path.join(root, name), top))
                    found.append(index)
    if labels == "inferred":
        labels, names = np.array(found, dtype="int32"), subdirs
    elif labels is None:
        names = None
    else:
        if len(labels) != len(filenames):
            raise ValueError("Expected the lengths of `labels` to match the number of files in "
                             f"the target directory. len(labels) is {len(labels)} while we "
                             f"found {len(filenames)} files in directory {directory}.")
        names = [str(label) for label in sorted(set(labels))]
    if verbose:
        print_msg(f"Found {len(filenames)} files." if labels is None else
                  f"Found {len(filenames)} files belonging to {len(names)} classes.")
    paths = [os.path.join(directory, f) for f in filenames]
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(paths)
        if labels is not None:
            labels = np.array(labels)
            np.random.RandomState(seed).shuffle(labels)
    return paths, labels, names


def _split(paths, labels, validation_split, subset):
    if not validation_split:
        return paths, labels
    count = int(validation_split * len(paths))
    if subset == "training":
        print_msg(f"Using {len(paths) - count} files for training.")
        return paths[:-count], None if labels is None else labels[:-count]
    if subset == "validation":
        print_msg(f"Using {count} files for validation.")
        return paths[-count:], None if labels is None else labels[-count:]
    raise ValueError(f'`subset` must be either "training" or "validation", received: {subset}')


def _check_split(validation_split, subset, shuffle, seed):
    if validation_split and not 0 < validation_split < 1:
        raise ValueError("`validation_split` must be between 0 and 1, received: "
                         f"{validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError('`subset` must be either "training", "validation" or "both", '
                         f"received: {subset}")
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide "
                         "a `seed` argument, to make sure that there is no overlap between the "
                         "training and validation subset.")


def _label_array(labels, label_mode, num_classes):
    if label_mode == "binary":
        return labels.astype("float32").reshape(-1, 1)
    if label_mode == "categorical":
        return np.eye(num_classes, dtype="float32")[labels]
    return labels.astype("int32")


def _dataset(values, labels, label_mode, class_names, batch_size):
    from ... import data as tf_data
    if labels is None or label_mode is None:
        dataset = tf_data.Dataset.from_tensor_slices(values)
    else:
        dataset = tf_data.Dataset.from_tensor_slices(
            (values, _label_array(np.asarray(labels), label_mode, len(class_names))))
    if batch_size is not None:
        dataset = dataset.batch(batch_size)
    dataset.class_names = class_names
    return dataset


def _check_label_mode(labels, label_mode, class_names):
    if labels not in ("inferred", None) and not isinstance(labels, (list, tuple)):
        raise ValueError("`labels` argument should be a list/tuple of integer labels, of the "
                         "same size as the number of files in the target directory. If you "
                         "wish to infer the labels from the subdirectory names in the target "
                         'directory, pass `labels="inferred"`. If you wish to get a dataset '
                         f"that only contains text/images (no labels), pass `labels=None`. "
                         f"Received: labels={labels}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", '
                         f"or None. Received: label_mode={label_mode}")


def _make(directory, labels, label_mode, class_names, shuffle, seed, validation_split, subset,
          follow_links, verbose, formats, read, batch_size):
    _check_label_mode(labels, label_mode, class_names)
    _check_split(validation_split, subset, shuffle, seed)
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    paths, found, names = _index_directory(directory, labels, formats, class_names, shuffle,
                                           seed, follow_links, verbose)
    if label_mode == "binary" and len(names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={names}")
    subsets = ("training", "validation") if subset == "both" else (subset,)
    made = []
    for part in subsets:
        part_paths, part_labels = _split(paths, found, validation_split, part)
        if not part_paths:
            raise ValueError(f"No {'text' if formats == ('.txt',) else 'image'} files found in "
                             f"directory {directory}. Allowed formats: {formats}")
        made.append(_dataset(read(part_paths), part_labels, label_mode, names, batch_size))
    return made if subset == "both" else made[0]


@tf_export("keras.utils.text_dataset_from_directory",
           "keras.preprocessing.text_dataset_from_directory")
def text_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None,
                                batch_size=32, max_length=None, shuffle=True, seed=None,
                                validation_split=None, subset=None, follow_links=False,
                                format="tf", verbose=True):
    """Batches of (text, label) from the `.txt` files of `directory` (see the module doc)."""
    def read(paths):
        texts = []
        for path in paths:
            with open(path, "rb") as f:
                text = f.read()
            texts.append(text if max_length is None else text[:max_length])
        return np.array(texts, dtype=object)

    return _make(directory, labels, label_mode, class_names, shuffle, seed, validation_split,
                 subset, follow_links, verbose, (".txt",), read, batch_size)


@tf_export("keras.utils.image_dataset_from_directory",
           "keras.preprocessing.image_dataset_from_directory")
def image_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, color_mode="rgb", batch_size=32,
                                 image_size=(256, 256), shuffle=True, seed=None,
                                 validation_split=None, subset=None, interpolation="bilinear",
                                 follow_links=False, crop_to_aspect_ratio=False,
                                 pad_to_aspect_ratio=False, data_format=None, verbose=True):
    """Batches of (image, label): float32 images resized to `image_size`, channels last.

    color_mode 'grayscale', 'rgb' or 'rgba' (1, 3 or 4 channels). Aspect-ratio cropping
    and padding are not implemented in minitf (they raise)."""
    from ... import image as tf_image, io as tf_io
    channels = {"grayscale": 1, "rgb": 3, "rgba": 4}.get(color_mode)
    if channels is None:
        raise ValueError('`color_mode` must be one of {"rgb", "rgba", "grayscale"}. '
                         f"Received: color_mode={color_mode}")
    if crop_to_aspect_ratio or pad_to_aspect_ratio:
        raise NotImplementedError("minitf's image_dataset_from_directory resizes only; "
                                  "crop_to_aspect_ratio/pad_to_aspect_ratio are not implemented. "
                                  "Crop or pad with tf.image first, or resize plainly.")

    def read(paths):
        images = []
        for path in paths:
            image = tf_io.decode_image(tf_io.read_file(path), channels=channels,
                                       expand_animations=False)
            images.append(tf_image.resize(image, image_size, method=interpolation).numpy())
        return np.stack(images).astype("float32")

    return _make(directory, labels, label_mode, class_names, shuffle, seed, validation_split,
                 subset, follow_links, verbose, _IMAGE_FORMATS, read, batch_size)
