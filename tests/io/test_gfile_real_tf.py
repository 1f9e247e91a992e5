"""One tf.io.gfile program run by real TF 2.21 and by minitf, each in a fresh folder: the
same results, error classes and messages (folder replaced by <D>; one TF subprocess)."""
import json
import textwrap

import pytest

import minitf
from real_tf import run_tf_json

PROGRAM = textwrap.dedent("""
    G = tf.io.gfile
    P = lambda *parts: G.join(D, *parts)
    with G.GFile(P("a.txt"), "w") as f:
        f.write("hello\\nworld\\nlast")
    record("read", lambda: G.GFile(P("a.txt")).read())
    record("read_bytes", lambda: G.GFile(P("a.txt"), "rb").read())
    record("readlines", lambda: G.GFile(P("a.txt")).readlines())
    record("iterate", lambda: list(G.GFile(P("a.txt"))))
    def positions():
        f = G.GFile(P("a.txt"))
        f.seek(6)
        out = [f.tell(), f.read(5), f.tell()]
        f.seek(2, 1)
        out += [f.tell(), f.size(), f.readline()]
        f.seek(-3, 2)
        return out + [f.read(), f.readline()]
    record("positions", positions)
    def append():
        with G.GFile(P("a.txt"), "a") as f:
            f.write("!")
            f.write(b"?")
        return G.GFile(P("a.txt"), "rb").read()
    record("append", append)
    record("read_on_write", lambda: G.GFile(P("w.txt"), "w").read())
    record("write_on_read", lambda: G.GFile(P("a.txt")).write("x"))
    record("bad_mode", lambda: G.GFile(P("a.txt"), "x"))
    record("missing", lambda: G.GFile(P("nope.txt")).read())
    record("mkdir_missing_parent", lambda: G.mkdir(P("q", "r")))
    record("makedirs", lambda: [G.makedirs(P("x", "y", "z")), G.makedirs(P("x", "y", "z")),
                                G.mkdir(P("x"))])
    record("makedirs_file", lambda: G.makedirs(P("a.txt")))
    record("listdir", lambda: sorted(G.listdir(D)))
    record("listdir_missing", lambda: G.listdir(P("zz")))
    record("glob", lambda: [p.replace(D, "<D>") for p in sorted(G.glob(P("*")))])
    record("walk", lambda: [(d.replace(D, "<D>"), s, f) for d, s, f in G.walk(P("x"))])
    record("walk_up", lambda: [d.replace(D, "<D>") for d, _, _ in G.walk(D, topdown=False)])
    record("copy", lambda: [G.copy(P("a.txt"), P("a2.txt")), G.GFile(P("a2.txt")).read()])
    record("copy_exists", lambda: G.copy(P("a.txt"), P("a2.txt")))
    record("copy_missing", lambda: G.copy(P("nope"), P("a3.txt")))
    record("rename_exists", lambda: G.rename(P("a2.txt"), P("a.txt")))
    record("rename", lambda: [G.rename(P("a2.txt"), P("a.txt"), overwrite=True),
                              G.exists(P("a2.txt"))])
    record("stat", lambda: [G.stat(P("a.txt")).length, G.stat(P("a.txt")).is_directory,
                            G.stat(P("x")).is_directory])
    record("stat_missing", lambda: G.stat(P("nope")))
    record("remove_dir", lambda: G.remove(P("x")))
    record("remove_missing", lambda: G.remove(P("nope")))
    record("rmtree", lambda: [G.rmtree(P("x")), G.exists(P("x"))])
    record("rmtree_missing", lambda: G.rmtree(P("x")))
    record("s3", lambda: G.exists("s3://bucket/x"))
    record("join", lambda: [G.join("a", "b", "c"), G.join("a/", "b"), G.join("/a", "/b")])
""")

RECORDER = textwrap.dedent("""
    import json, tempfile
    D = tempfile.mkdtemp()
    RESULTS = {}

    def record(name, thunk):
        try:
            value = thunk()
            RESULTS[name] = value.decode("latin-1") if isinstance(value, bytes) else value
        except Exception as e:
            RESULTS[name] = ["raised", type(e).__name__, str(e).replace(D, "<D>")]
""")


@pytest.fixture(scope="module")
def real():
    return run_tf_json("import tensorflow as tf\n" + RECORDER + PROGRAM
                       + "\nprint(json.dumps(RESULTS))")


@pytest.fixture(scope="module")
def ours():
    space = {"tf": minitf}
    exec(RECORDER + PROGRAM, space)
    return json.loads(json.dumps(space["RESULTS"]))


NAMES = [line.split('"')[1] for line in PROGRAM.splitlines() if 'record("' in line]
# minitf adds one sentence that teaches after TF's text.
TAUGHT = {"s3"}


@pytest.mark.parametrize("name", NAMES)
def test_gfile_matches_real_tf(real, ours, name):
    if name in TAUGHT:
        assert ours[name][:2] == real[name][:2]
        assert ours[name][2].startswith(real[name][2]) and len(ours[name][2]) > len(
            real[name][2])
    else:
        assert ours[name] == real[name], name
