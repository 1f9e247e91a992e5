"""StringLookup and IntegerLookup against real TF 2.21 (Keras 3.15): the same snippet runs
in both, and `.keras` files move both ways with their vocabularies."""
import json
import os
import textwrap

import numpy as np

import minitf
from real_tf import require_tf, run_tf, run_tf_json

# Runs under real TF and under minitf (with `tf` bound to either); prints JSON-able results.
CASES = textwrap.dedent('''
    import numpy as np
    tf.keras.backend.clear_session()  # layer names count from 0, as in a fresh process
    L = tf.keras.layers

    def plain(value):
        if hasattr(value, "dense_shape"):  # a SparseTensor: its three parts
            return [plain(value.indices), plain(value.values), plain(value.dense_shape)]
        if hasattr(value, "to_list"):
            return plain(value.to_list())
        if hasattr(value, "numpy"):
            value = value.numpy()
        if isinstance(value, np.ndarray):
            value = value.tolist()
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if isinstance(value, bytes):
            return value.decode()
        if isinstance(value, np.generic):
            return value.item()
        return value

    def result(layer, *inputs):
        outs = [layer(x) for x in inputs]
        return {"vocab": plain(layer.get_vocabulary()), "size": layer.vocabulary_size(),
                "out": [plain(o) for o in outs], "dtype": [o.dtype.name for o in outs],
                "config": {k: v for k, v in layer.get_config().items() if k != "name"}}

    results = {}
    s = L.StringLookup()
    s.adapt(["b", "a", "c", "a", "b", "d", "a", "e", "e"])
    results["adapt"] = result(s, tf.constant(["a", "z", "d"]), [["e", "b"], ["q", "c"]], "a")
    s = L.StringLookup(max_tokens=4, mask_token="", num_oov_indices=2)
    s.adapt(tf.constant([["x", "y", ""], ["y", "w", "x"], ["v", "v", "v"]]))
    results["mask_oov2"] = result(s, tf.constant([["x", "", "unseen", "other", "v"]]))
    for mode in ["one_hot", "multi_hot", "count"]:
        s = L.StringLookup(vocabulary=["x", "y", "z"], output_mode=mode, mask_token="")
        results[mode] = result(s, tf.constant([["x", "y"], ["", "q"]]), ["z", "z"])
    s = L.StringLookup(output_mode="tf_idf")
    s.adapt(tf.constant([["a", "b", "b"], ["a", "c", "d"], ["a", "a", "e"], ["c", "e", "e"]]))
    results["tf_idf"] = result(s, tf.constant([["a", "a", "b", "zz"], ["e", "d", "c", "c"]]))
    results["tf_idf"]["idf"] = plain(s.idf_weights)
    s = L.StringLookup(output_mode="tf_idf", vocabulary=["p", "q"], idf_weights=[0.25, 2.0],
                       max_tokens=6, pad_to_max_tokens=True)
    results["tf_idf_given"] = result(s, tf.constant([["q", "p", "q", "r"]]))
    s = L.StringLookup(vocabulary=["x", "y"], mask_token="", invert=True)
    results["invert"] = result(s, tf.constant([[0, 1], [2, 3]]), [7])
    i = L.IntegerLookup()
    i.adapt(np.array([[5, 3, 3], [9, 9, 1], [1, 1, 7]]))
    results["int_adapt"] = result(i, tf.constant([3, 7, 100]), np.array([[1], [9]]))
    i = L.IntegerLookup(vocabulary=[12, 36, 1138], num_oov_indices=3, mask_token=0)
    results["int_oov3"] = result(i, tf.constant([[12, 0, 5, 1000, -4, 36]]))
    i = L.IntegerLookup(vocabulary=[12, 36], num_oov_indices=3, oov_method="farmhash")
    results["int_farmhash"] = result(i, tf.constant([12, 5, 1000, 77, 36]))
    s = L.StringLookup(num_oov_indices=3, vocabulary=["a"], salt=7)
    results["salt"] = result(s, ["a", "hello", "world", "zz", "q"])
    i = L.IntegerLookup(num_oov_indices=3, vocabulary=[1], salt=(1, 2), oov_method="farmhash")
    results["int_salt"] = result(i, tf.constant([1, 5, 77, 1000]))
    i = L.IntegerLookup(vocabulary=[4, 2], invert=True, oov_token=-9)
    results["int_invert"] = result(i, tf.constant([0, 1, 2, 3]))
    i = L.IntegerLookup(vocabulary=[4, 2], output_mode="count", pad_to_max_tokens=True,
                        max_tokens=5)
    results["int_count"] = result(i, tf.constant([[4, 4, 2, 8]]))
    for mode in ["one_hot", "multi_hot", "count"]:
        s = L.StringLookup(vocabulary=["a", "b"], output_mode=mode, sparse=True)
        results["sparse_" + mode] = result(s, tf.constant([["a", "a"], ["b", "q"]]))
    rt = tf.ragged.constant([["a", "b", "a"], ["c"], []])
    for mode in ["int", "multi_hot", "count", "one_hot"]:
        s = L.StringLookup(vocabulary=["a", "b"], output_mode=mode)
        results["ragged_" + mode] = result(s, rt)
    s = L.StringLookup(output_mode="tf_idf")
    s.adapt(rt)
    results["ragged_tf_idf"] = result(s, rt)
    results["ragged_tf_idf"]["idf"] = plain(s.idf_weights)
    ds = tf.data.Dataset.from_tensor_slices(["a", "b", "c", "b", "c", "c", "d"]).batch(3)
    s = L.StringLookup()
    s.adapt(ds)
    results["dataset"] = result(s, ["d", "c"])
    results["mapped"] = [plain(t) for t in ds.map(s)]
    print(json.dumps(results))
''')


def run_here(code):
    """Run CASES under minitf and return its JSON."""
    import contextlib
    import io
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(code, {"tf": minitf, "json": json})
    return json.loads(buffer.getvalue().strip().splitlines()[-1])


def _close(a, b, path=""):
    if isinstance(a, dict):
        assert sorted(a) == sorted(b), path
        for key in a:
            _close(a[key], b[key], f"{path}/{key}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _close(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and not isinstance(b, str):
        np.testing.assert_allclose(a, b, rtol=1e-6, err_msg=path)
    else:
        assert a == b, f"{path}: minitf {a!r} vs TF {b!r}"


def test_outputs_vocabularies_and_configs_match_real_tf():
    require_tf()
    expected = run_tf_json("import json, tensorflow as tf\n" + CASES)
    _close(run_here(CASES), expected)


SAVE = textwrap.dedent('''
    import numpy as np
    tf.keras.backend.clear_session()  # layer names count from 0, as in a fresh process
    L = tf.keras.layers
    words = tf.keras.Input(shape=(3,), dtype="string", name="words")
    ids = tf.keras.Input(shape=(2,), dtype="int64", name="ids")
    adapted = L.StringLookup(mask_token="", name="adapted")
    adapted.adapt([["b", "a", "a"], ["c", "", "b"], ["a", "d", "d"]])
    tfidf = L.StringLookup(output_mode="tf_idf", name="tfidf")
    tfidf.adapt([["b", "a", "a"], ["c", "b", "b"]])
    given = L.StringLookup(vocabulary=["a", "b"], output_mode="multi_hot", name="given")
    ints = L.IntegerLookup(name="ints")
    ints.adapt(np.array([[3, 4], [4, 5]]))
    model = tf.keras.Model([words, ids], [adapted(words), tfidf(words), given(words), ints(ids)])
''')
PROBE = ('[[o.numpy().tolist() for o in model([tf.constant([["a", "d", "zz"], ["", "b", "c"]]), '
         'tf.constant([[4, 9], [3, 5]], "int64")])]]')


def _outputs(values):
    return json.loads(json.dumps(values, default=lambda b: b.decode()))


def test_keras_files_move_both_ways_with_the_vocabulary(tmp_path):
    require_tf()
    theirs, ours = str(tmp_path / "tf.keras"), str(tmp_path / "minitf.keras")
    scope = {"tf": minitf}
    exec(SAVE, scope)
    exec(f"model.save({ours!r})", scope)
    ours_before = _outputs(eval(PROBE, scope))
    tf_side = run_tf_json("import json, tensorflow as tf\n" + SAVE + textwrap.dedent(f'''
        model.save({theirs!r})
        before = {PROBE}
        model = tf.keras.models.load_model({ours!r})
        print(json.dumps([before, {PROBE}], default=lambda b: b.decode()))
    '''))
    tf_before, tf_loaded_ours = tf_side
    _close(ours_before, tf_before)
    _close(tf_loaded_ours, tf_before)
    scope["model"] = minitf.keras.models.load_model(theirs)
    _close(_outputs(eval(PROBE, scope)), tf_before)
    vocab = scope["model"].get_layer("adapted").get_vocabulary()
    assert vocab == ["", "[UNK]", "a", "d", "b", "c"]


def test_minitf_writes_the_members_keras_writes(tmp_path):
    require_tf()
    import zipfile
    ours = str(tmp_path / "m.keras")
    scope = {"tf": minitf}
    exec(SAVE, scope)
    exec(f"model.save({ours!r})", scope)
    theirs = json.loads(run_tf("import json, zipfile, tensorflow as tf\n" + SAVE + textwrap.dedent(f'''
        model.save({str(tmp_path / "t.keras")!r})
        z = zipfile.ZipFile({str(tmp_path / "t.keras")!r})
        print(json.dumps({{n: z.read(n).decode() for n in z.namelist() if n.startswith("assets")}}))
    ''')).strip().splitlines()[-1])
    with zipfile.ZipFile(ours) as z:
        mine = {n: z.read(n).decode() for n in z.namelist() if n.startswith("assets")}
    assert mine == theirs


ERRORS = textwrap.dedent('''
    tf.keras.backend.clear_session()  # layer names count from 0, as in a fresh process
    L = tf.keras.layers
    calls = [
        "L.StringLookup(max_tokens=1)",
        "L.StringLookup(pad_to_max_tokens=True)",
        "L.StringLookup(num_oov_indices=-1)",
        "L.StringLookup(output_mode='bag')",
        "L.StringLookup(invert=True, output_mode='count')",
        "L.StringLookup(sparse=True)",
        "L.StringLookup(idf_weights=[1.0])",
        "L.StringLookup(vocabulary=['a'], output_mode='tf_idf')",
        "L.StringLookup(vocabulary=['a', 'a'])",
        "L.StringLookup(vocabulary=['a', ''], mask_token='')",
        "L.StringLookup(vocabulary=['a', '[UNK]'], invert=True)",
        "L.StringLookup(vocabulary=['a', 'b', 'c'], max_tokens=3)",
        "L.StringLookup(vocabulary=[])",
        "L.StringLookup(vocabulary='/no/such/vocab.txt')",
        "L.StringLookup(salt=(1, 2, 3))",
        "L.StringLookup(output_mode='multi_hot')(['a'])",
        "L.StringLookup(vocabulary=['a']).adapt(['a'])",
        "L.StringLookup(vocabulary=['a'], num_oov_indices=0)(['b'])",
        "L.IntegerLookup(max_tokens=0)",
        "L.IntegerLookup(num_oov_indices=-2)",
        "L.IntegerLookup(vocabulary_dtype='int32')",
        "L.IntegerLookup(salt=3)",
        "L.TextVectorization(standardize='upper')",
        "L.TextVectorization(split='comma')",
        "L.TextVectorization(ngrams='2')",
        "L.TextVectorization(output_sequence_length=2.5)",
        "L.TextVectorization(output_mode='count', output_sequence_length=3)",
        "L.TextVectorization(ragged=True, output_mode='count')",
        "L.TextVectorization(vocabulary=['a'])([['a b', 'c']])",
    ]
    out = []
    for call in calls:
        try:
            eval(call)
            out.append([call, None, None])
        except Exception as e:
            message = str(e)
            if "Exception encountered when calling" in message:  # Keras's call wrapper
                message = message.split("\\n")[2].replace("\\x1b[1m", "").replace("\\x1b[0m", "")
            out.append([call, type(e).__name__, message.splitlines()[0] if message else ""])
    print(json.dumps(out))
''')


def test_errors_match_real_tf():
    require_tf()
    expected = run_tf_json("import json, tensorflow as tf\n" + ERRORS)
    mine = run_here(ERRORS)
    for (call, their_class, their_message), (_, my_class, my_message) in zip(expected, mine):
        assert my_class == their_class, call
        if their_class in ("ValueError", "RuntimeError", "InvalidArgumentError"):
            assert my_message.startswith(their_message), (call, my_message, their_message)
