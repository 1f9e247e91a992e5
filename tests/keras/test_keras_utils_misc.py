"""tf.keras.utils.get_file (copies of local files; downloads: tests/keras/datasets), the top-level tf.keras base-class
aliases and the keras.preprocessing.image namespace."""
import hashlib

import pytest

import minitf as tf

keras = tf.keras


def test_get_file_copies_once_and_checks_hashes(tmp_path, capsys):
    source = tmp_path / "numbers.txt"
    source.write_text("1 2 3")
    digest = hashlib.sha256(b"1 2 3").hexdigest()
    cache = tmp_path / "cache"
    path = keras.utils.get_file(origin=f"file://{source}", file_hash=digest, cache_dir=cache)
    assert path == str(cache / "datasets" / "numbers.txt") and open(path).read() == "1 2 3"
    assert "Downloading data from file://" in capsys.readouterr().out
    assert keras.utils.get_file(origin=str(source), cache_dir=cache) == path
    assert capsys.readouterr().out == ""  # cached: nothing copied
    (cache / "datasets" / "numbers.txt").write_text("stale")
    keras.utils.get_file("numbers.txt", origin=str(source), md5_hash=hashlib.md5(
        b"1 2 3").hexdigest(), cache_dir=cache)
    assert open(path).read() == "1 2 3" and "hash does not match" in capsys.readouterr().out
    with pytest.raises(ValueError, match="Incomplete or corrupted file detected"):
        keras.utils.get_file("other.txt", origin=str(source), file_hash="0" * 64,
                             cache_dir=cache)


def test_get_file_refuses_paths_and_a_missing_origin(tmp_path):
    with pytest.raises(ValueError, match="Paths are no longer accepted"):
        keras.utils.get_file("a/b.txt", origin="file:///etc/hostname", cache_dir=tmp_path)
    with pytest.raises(ValueError, match='specify the "origin"'):
        keras.utils.get_file("x")


def test_top_level_aliases():
    assert keras.Optimizer is keras.optimizers.Optimizer
    assert keras.Initializer is keras.initializers.Initializer
    assert keras.Regularizer is keras.regularizers.Regularizer
    assert isinstance(keras.Input((2,)), keras.KerasTensor)
    assert keras.preprocessing.image.load_img is keras.utils.load_img
    assert keras.preprocessing.image.save_img is keras.utils.save_img

    @keras.saving.register_keras_serializable(package="KU")
    def twice(x):
        return 2 * x

    try:
        assert keras.utils.get_custom_objects()["KU>twice"] is twice
    finally:
        del keras.utils.get_custom_objects()["KU>twice"]
