"""tf.keras.datasets' eight downloaded datasets, loaded from small files in Keras's exact
formats (dataset_files.py): the same arrays as real Keras 3.15's loaders on the same files,
pickles read without running code, and get_file's download/extract/hash rules."""
import http.server
import json
import os
import pickle
import threading
import urllib.error

import numpy as np
import pytest

import minitf as tf
from minitf.keras.datasets import _safe_pickle
from tests.keras.datasets.dataset_files import extracted, write_all
from tests.real_tf import run_tf_json

datasets = tf.keras.datasets
# (dataset, keyword arguments of load_data). Keras's cifar10 fills preallocated arrays of
# 5 x 10,000 images, so its file is too big for a test: its batches are compared one by one.
CALLS = [
    ("mnist", {}), ("fashion_mnist", {}), ("cifar100", {}),
    ("cifar100", {"label_mode": "coarse"}), ("imdb", {}),
    ("imdb", {"num_words": 20, "skip_top": 2, "maxlen": 9, "seed": 1}),
    ("imdb", {"start_char": None, "oov_char": None, "index_from": 0, "num_words": 30}),
    ("reuters", {}), ("reuters", {"num_words": 25, "test_split": 0.4, "maxlen": 10}),
    ("boston_housing", {}), ("boston_housing", {"test_split": 0.5, "seed": 3}),
    ("california_housing", {}), ("california_housing", {"version": "small", "seed": 7}),
]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keras_downloads")
    found = write_all(str(folder / "raw"))
    for name in ("cifar10", "cifar100"):
        found[name] = extracted(found[name], str(folder / f"{name}_extracted"))
    return found


def _patch_get_file(monkeypatch, name, files):
    module = getattr(datasets, name)
    paths = files[name]
    fake = (lambda fname, origin, **kw: next(p for p in paths if p.endswith(fname))) \
        if isinstance(paths, list) else (lambda *a, **kw: paths)
    monkeypatch.setattr(module, "get_file", fake)


def _summary(result):
    (x_train, y_train), (x_test, y_test) = result
    out = []
    for a in (x_train, y_train, x_test, y_test):
        if a.dtype == object:
            out.append(["object", list(a.shape), [list(map(int, t)) for t in a]])
        else:
            out.append([str(a.dtype), list(a.shape), np.round(a.astype("float64"), 6).ravel()
                        .tolist()])
    return out


def _minitf_summaries(monkeypatch, files):
    summaries = []
    for name, kwargs in CALLS:
        with monkeypatch.context() as m:
            _patch_get_file(m, name, files)
            summaries.append(_summary(getattr(datasets, name).load_data(**kwargs)))
    return summaries


def test_loaders_equal_real_keras_on_the_same_files(files, monkeypatch):
    ours = _minitf_summaries(monkeypatch, files)
    theirs = run_tf_json(f"""
        import importlib, json, numpy as np
        files, calls = json.loads({json.dumps(json.dumps(files))}), json.loads({json.dumps(json.dumps(CALLS))})
        def summary(result):
            out = []
            for a in (a for pair in result for a in pair):
                if a.dtype == object:
                    out.append(["object", list(a.shape), [list(map(int, t)) for t in a]])
                else:
                    out.append([str(a.dtype), list(a.shape),
                                np.round(a.astype("float64"), 6).ravel().tolist()])
            return out
        results = []
        for name, kwargs in calls:
            module = importlib.import_module("keras.src.datasets." + name)
            paths = files[name]
            if isinstance(paths, list):
                module.get_file = lambda fname, origin, **kw: next(
                    p for p in paths if p.endswith(fname))
            else:
                module.get_file = lambda *a, paths=paths, **kw: paths
            results.append(summary(module.load_data(**kwargs)))
        from keras.src.datasets.cifar import load_batch
        folder = files["cifar10"] + "/cifar-10-batches-py/"
        batches = [load_batch(folder + name) for name in ("data_batch_3", "test_batch")]
        print(json.dumps([results, [[b[0].tolist(), b[1]] for b in batches]]))
    """)
    theirs, their_batches = theirs
    for (name, kwargs), a, b in zip(CALLS, ours, theirs):
        assert a == b, (name, kwargs)
    (x, y), (x_test, y_test) = _cifar10(monkeypatch, files)
    assert x[4:6].transpose(0, 3, 1, 2).tolist() == their_batches[0][0]  # batch 3 of 2 each
    assert y[4:6, 0].tolist() == their_batches[0][1]
    assert [x_test.transpose(0, 3, 1, 2).tolist(), y_test[:, 0].tolist()] == their_batches[1]


def _cifar10(monkeypatch, files):
    with monkeypatch.context() as m:
        _patch_get_file(m, "cifar10", files)
        return datasets.cifar10.load_data()


def test_shapes_dtypes_and_index_rules_without_tf(files, monkeypatch):
    _patch_get_file(monkeypatch, "cifar10", files)
    (x, y), (xt, yt) = datasets.cifar10.load_data()
    assert x.shape == (10, 32, 32, 3) and y.shape == (10, 1) and x.dtype == y.dtype == np.uint8
    assert xt.shape == (3, 32, 32, 3) and yt.dtype == np.uint8
    tf.keras.backend.set_image_data_format("channels_first")
    try:
        assert datasets.cifar10.load_data()[0][0].shape == (10, 3, 32, 32)
    finally:
        tf.keras.backend.set_image_data_format("channels_last")
    _patch_get_file(monkeypatch, "fashion_mnist", files)
    (x, y), (xt, yt) = datasets.fashion_mnist.load_data()
    assert x.shape == (4, 28, 28) and yt.shape == (2,) and x.dtype == yt.dtype == np.uint8
    _patch_get_file(monkeypatch, "imdb", files)
    (x, y), _ = datasets.imdb.load_data(num_words=10, skip_top=5, oov_char=2)
    assert x.dtype == object and all(t[0] == 2 for t in x)  # start_char 1 < skip_top: oov too
    assert all(w == 2 or 5 <= w < 10 for t in x for w in t[1:])  # skip_top/num_words -> oov
    with pytest.raises(ValueError, match="no sequence was kept. Increase maxlen"):
        datasets.imdb.load_data(maxlen=2)
    with pytest.warns(UserWarning, match=r"ignores the keyword arguments \['nb_words'\]"):
        datasets.imdb.load_data(nb_words=5)
    with pytest.raises(ValueError, match='`label_mode` must be one of `"fine"`, `"coarse"`'):
        datasets.cifar100.load_data(label_mode="medium")
    with pytest.raises(ValueError, match="Invalid `test_split` argument: 1"):
        datasets.boston_housing.load_data(test_split=1)
    _patch_get_file(monkeypatch, "california_housing", files)
    with pytest.raises(ValueError, match="must be one of 'small', 'large'"):
        datasets.california_housing.load_data(version="tiny")
    assert datasets.reuters.get_label_names()[45] == "lead"
    assert len(datasets.reuters.get_label_names()) == 46
    monkeypatch.setattr(datasets.imdb, "get_file",
                        lambda fname, origin, **kw: files["imdb_word_index"])
    assert datasets.imdb.get_word_index() == {"the": 1, "movie": 17}


class _Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


def test_pickled_parts_never_run_code(tmp_path):
    evil_npz = tmp_path / "imdb.npz"
    np.savez(evil_npz, x_train=np.array([_Evil()], dtype=object), y_train=np.zeros(1))
    with pytest.raises(pickle.UnpicklingError, match="Refusing to deserialize `posix.system`"):
        _safe_pickle.load_npz(str(evil_npz))
    evil_batch = tmp_path / "data_batch_1"
    evil_batch.write_bytes(pickle.dumps({b"data": _Evil()}))
    with pytest.raises(pickle.UnpicklingError, match="corrupted or malicious"):
        _safe_pickle.load_pickle(str(evil_batch))
    plain = tmp_path / "mnist.npz"  # mnist & co never unpickle at all
    np.savez(plain, x_train=np.array([[1]], dtype=object), y_train=np.zeros(1),
             x_test=np.zeros(1), y_test=np.zeros(1))
    with pytest.raises(ValueError, match="holds Python objects"):
        datasets.mnist.load_from(str(plain))


def test_size_bound_is_checked_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(_safe_pickle, "MAX_BYTES", 100)
    path = tmp_path / "reuters.npz"
    np.savez(path, x=np.zeros(200), y=np.zeros(1))
    with pytest.raises(ValueError, match="more than the 100 a Keras dataset file may hold"):
        _safe_pickle.load_npz(str(path))


@pytest.fixture
def server(tmp_path):
    """An HTTP server on 127.0.0.1 serving tmp_path/www (no outside network needed)."""
    root = tmp_path / "www"
    root.mkdir()
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(  # noqa: E731
        *a, directory=str(root), **k)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.RequestHandlerClass.log_message = lambda *a: None
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def test_get_file_downloads_checks_hash_and_extracts(tmp_path, server, capsys):
    root, url = server
    archive = write_all(str(root))["cifar10"]
    cache = tmp_path / "cache"
    folder = tf.keras.utils.get_file("cifar-10-batches-py-target", origin=url +
                                     os.path.basename(archive), extract=True, cache_dir=cache)
    assert folder == str(cache / "datasets" / "cifar-10-batches-py-target")
    assert (cache / "datasets" / "cifar-10-batches-py-target_archive").exists()
    assert sorted(os.listdir(os.path.join(folder, "cifar-10-batches-py")))[0] == "data_batch_1"
    assert "Downloading data from http://127.0.0.1" in capsys.readouterr().out
    path = tf.keras.utils.get_file("m.npz", origin=url + "mnist.npz", cache_dir=cache)
    assert datasets.mnist.load_from(path)[0][0].shape == (5, 28, 28)
    with pytest.raises(Exception, match=r"URL fetch failure on .*missing.npz: 404"):
        tf.keras.utils.get_file(origin=url + "missing.npz", cache_dir=cache)
    assert not (cache / "datasets" / "missing.npz").exists()  # nothing half-written stays


def test_no_network_error_says_where_to_put_the_file(tmp_path, monkeypatch):
    def offline(*args, **kwargs):
        raise urllib.error.URLError("Temporary failure in name resolution")
    monkeypatch.setattr("urllib.request.urlopen", offline)
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(Exception, match="download the file elsewhere and put it at .*mnist.npz"):
        datasets.mnist.load_data()
    assert os.listdir(tmp_path / "datasets") == []


def test_extraction_skips_members_that_escape_the_folder(tmp_path):
    import io
    import tarfile
    archive = tmp_path / "evil.tar"
    with tarfile.open(archive, "w") as tar:
        for name in ("../outside.txt", "inside.txt"):
            info = tarfile.TarInfo(name)
            info.size = 2
            tar.addfile(info, io.BytesIO(b"hi"))
        link = tarfile.TarInfo("link")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
    with pytest.warns(UserWarning, match="Skipping invalid path during archive extraction"):
        folder = tf.keras.utils.get_file("evil", origin=str(archive), extract=True,
                                         cache_dir=tmp_path / "cache")
    assert os.listdir(folder) == ["inside.txt"]
    assert not (tmp_path / "cache" / "outside.txt").exists()
