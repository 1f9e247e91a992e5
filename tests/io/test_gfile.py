"""tf.io.gfile on local files: GFile modes and methods, the path functions, TF's error classes
and texts; a URL scheme raises UnimplementedError. test_gfile_real_tf.py runs the same
program under real TF."""
import os

import pytest

import minitf as tf

gfile = tf.io.gfile


@pytest.fixture
def folder(tmp_path):
    with gfile.GFile(str(tmp_path / "a.txt"), "w") as f:
        f.write("hello\nworld\nlast")
    return str(tmp_path)


def test_gfile_read_modes(folder):
    path = gfile.join(folder, "a.txt")
    assert gfile.GFile(path).read() == "hello\nworld\nlast"
    assert gfile.GFile(path, "rb").read() == b"hello\nworld\nlast"
    assert gfile.GFile(path).read(3) == "hel"
    assert gfile.GFile(path).readlines() == ["hello\n", "world\n", "last"]
    assert gfile.GFile(path).readline() == "hello\n"
    assert list(gfile.GFile(path)) == ["hello\n", "world\n", "last"]
    assert list(gfile.GFile(path, "rb")) == [b"hello\n", b"world\n", b"last"]
    f = gfile.GFile(path)
    assert next(f) == "hello\n" and f.next() == "world\n"
    f = gfile.GFile(path)
    f.seek(6)
    assert (f.tell(), f.read(5), f.tell()) == (6, "world", 11)
    f.seek(2, 1)
    assert (f.tell(), f.size(), f.seekable()) == (13, 16, True)
    f.seek(-2, 2)
    assert f.read() == "st"
    f.seek(offset=3)
    assert f.read() == "lo\nworld\nlast"
    assert (f.name, f.mode) == (path, "r")
    f.close()
    assert gfile.GFile(path, "r+").read(5) == "hello"


def test_gfile_write_append_and_binary(folder):
    path = gfile.join(folder, "a.txt")
    with gfile.GFile(path, "a") as f:
        f.write("!")
    assert gfile.GFile(path).read() == "hello\nworld\nlast!"
    with gfile.GFile(gfile.join(folder, "b.bin"), "wb") as f:
        f.write(b"\x00\x01")
        f.write("str")  # str into a binary file: its UTF-8 bytes
    assert gfile.GFile(gfile.join(folder, "b.bin"), "rb").read() == b"\x00\x01str"
    with gfile.GFile(gfile.join(folder, "c.txt"), "w") as f:
        f.write(b"bytes")
        f.write("é")
    assert gfile.GFile(gfile.join(folder, "c.txt")).read() == "bytesé"
    writer = gfile.GFile(gfile.join(folder, "d.txt"), "w")
    writer.write("part")
    assert not gfile.exists(gfile.join(folder, "d.txt"))  # nothing on disk before flush/close
    writer.flush()
    assert gfile.GFile(gfile.join(folder, "d.txt")).read() == "part"
    writer.write("+more")
    assert writer.size() == 9
    writer.close()
    assert gfile.GFile(gfile.join(folder, "d.txt")).read() == "part+more"
    both = gfile.GFile(gfile.join(folder, "d.txt"), "w+")
    both.write("xyz")
    both.seek(0)
    assert both.read() == "xyz"
    both.close()
    assert sorted(os.listdir(folder)) == ["a.txt", "b.bin", "c.txt", "d.txt"]  # no temp files


def test_gfile_errors(folder):
    path = gfile.join(folder, "a.txt")
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for reading"):
        gfile.GFile(gfile.join(folder, "w.txt"), "w").read()
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for writing"):
        gfile.GFile(path, "r").write("x")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"mode is not 'r' or 'w' or 'a' or 'r\+' or 'w\+' or 'a\+'"):
        gfile.GFile(path, "x")
    missing = gfile.GFile(gfile.join(folder, "nope.txt"))  # opened lazily: no error yet
    with pytest.raises(tf.errors.NotFoundError, match="nope.txt; No such file or directory"):
        missing.read()
    for url, scheme in (("gs://bucket/x", "gs"), ("s3://bucket/x", "s3")):
        with pytest.raises(tf.errors.UnimplementedError,
                           match=f"File system scheme '{scheme}' not implemented "
                                 f"\\(file: '{url}'\\). minitf reads and writes local files"):
            gfile.exists(url)
    with pytest.raises(tf.errors.UnimplementedError):
        gfile.GFile("s3://bucket/x").read()
    assert gfile.exists("file://" + path)


def test_path_functions(folder):
    assert gfile.get_registered_schemes() == ["file", ""]
    assert (gfile.exists(gfile.join(folder, "a.txt")), gfile.exists(gfile.join(folder, "zz"))) == (True, False)
    assert (gfile.isdir(folder), gfile.isdir(gfile.join(folder, "a.txt"))) == (True, False)
    assert gfile.join("a", "b", "c") == "a/b/c" and gfile.join("a/", "b") == "a/b"
    assert gfile.join("/a", "/b") == "/b" and gfile.join("gs://bucket", "x") == "gs://bucket/x"
    gfile.mkdir(gfile.join(folder, "sub"))
    gfile.mkdir(gfile.join(folder, "sub"))  # already there: fine
    gfile.makedirs(gfile.join(folder, "x", "y", "z"))
    gfile.makedirs(gfile.join(folder, "x", "y", "z"))
    with open(os.path.join(folder, ".hidden.txt"), "w") as f:
        f.write("h")
    assert sorted(gfile.listdir(folder)) == [".hidden.txt", "a.txt", "sub", "x"]
    assert [os.path.basename(p) for p in gfile.glob(gfile.join(folder, "*.txt"))] == [
        ".hidden.txt", "a.txt"]
    assert gfile.glob(gfile.join(folder, "*.zzz")) == []
    assert gfile.glob([gfile.join(folder, "a.*"), gfile.join(folder, "x", "*")]) == [
        gfile.join(folder, "a.txt"), gfile.join(folder, "x", "y")]
    assert gfile.glob(gfile.join(folder, "*", "y")) == [gfile.join(folder, "x", "y")]
    x = gfile.join(folder, "x")
    assert list(gfile.walk(x)) == [(x, ["y"], []), (x + "/y", ["z"], []), (x + "/y/z", [], [])]
    assert [d for d, _, _ in gfile.walk(x, topdown=False)] == [x + "/y/z", x + "/y", x]
    assert list(gfile.walk(gfile.join(folder, "nope"))) == []
    seen = []
    assert list(gfile.walk(gfile.join(folder, "nope"), onerror=seen.append)) == []
    assert isinstance(seen[0], tf.errors.NotFoundError)
    info = gfile.stat(gfile.join(folder, "a.txt"))
    assert (info.length, info.is_directory, type(info.mtime_nsec)) == (16, False, int)
    assert info.mtime_nsec == os.stat(os.path.join(folder, "a.txt")).st_mtime_ns
    assert gfile.stat(x).is_directory


def test_copy_rename_remove_rmtree(folder):
    a, a2 = gfile.join(folder, "a.txt"), gfile.join(folder, "a2.txt")
    gfile.copy(a, a2)
    with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
        gfile.copy(a, a2)
    with gfile.GFile(gfile.join(folder, "b.txt"), "w") as f:
        f.write("bee")
    gfile.copy(gfile.join(folder, "b.txt"), a2, overwrite=True)
    assert gfile.GFile(a2).read() == "bee"
    with pytest.raises(tf.errors.NotFoundError, match="nope; No such file or directory"):
        gfile.copy(gfile.join(folder, "nope"), gfile.join(folder, "a3.txt"))
    gfile.rename(a2, gfile.join(folder, "a3.txt"))
    with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
        gfile.rename(gfile.join(folder, "a3.txt"), a)
    gfile.rename(gfile.join(folder, "a3.txt"), a, overwrite=True)
    assert gfile.GFile(a).read() == "bee" and not gfile.exists(a2)
    gfile.remove(gfile.join(folder, "b.txt"))
    with pytest.raises(tf.errors.NotFoundError, match="b.txt; No such file or directory"):
        gfile.remove(gfile.join(folder, "b.txt"))
    gfile.makedirs(gfile.join(folder, "x", "y"))
    with pytest.raises(tf.errors.FailedPreconditionError, match="x; Is a directory"):
        gfile.remove(gfile.join(folder, "x"))
    with pytest.raises(tf.errors.FailedPreconditionError, match="a.txt is not a directory"):
        gfile.makedirs(a)
    with pytest.raises(tf.errors.NotFoundError, match=r"Could not find directory .*a\.txt"):
        gfile.listdir(a)
    with pytest.raises(tf.errors.NotFoundError, match="q/r; No such file or directory"):
        gfile.mkdir(gfile.join(folder, "q", "r"))
    gfile.rmtree(gfile.join(folder, "x"))
    assert not gfile.exists(gfile.join(folder, "x"))
    with pytest.raises(tf.errors.NotFoundError, match="x not found"):
        gfile.rmtree(gfile.join(folder, "x"))
    with pytest.raises(tf.errors.NotFoundError, match="nope; No such file or directory"):
        gfile.stat(gfile.join(folder, "nope"))
