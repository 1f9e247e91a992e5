"""TextVectorization against real TF 2.21 (Keras 3.15): one snippet runs in both; `.keras`
files move both ways with their vocabularies and tf_idf weights."""
import json
import textwrap

import minitf
from real_tf import require_tf, run_tf_json
from test_lookup_real_tf import _close, run_here

CASES = textwrap.dedent('''
    import numpy as np
    tf.keras.backend.clear_session()  # layer names count from 0, as in a fresh process
    L = tf.keras.layers

    def plain(value):
        if hasattr(value, "to_list"):
            return plain(value.to_list())
        if hasattr(value, "numpy"):
            value = value.numpy()
        if isinstance(value, np.ndarray):
            value = value.tolist()
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if isinstance(value, np.generic):
            return value.item()
        return value

    def result(layer, *inputs):
        outs = [layer(x) for x in inputs]
        return {"vocab": plain(layer.get_vocabulary()), "out": [plain(o) for o in outs],
                "dtype": [o.dtype.name for o in outs], "shape": [list(o.shape) for o in outs],
                "config": {k: v for k, v in layer.get_config().items() if k != "name"}}

    texts = ["The cat sat on the mat.", "The dog ate my homework!", "A cat, a dog; a bird?",
             "Héllo wörld... It's 9:30 (a.m.)", "tabs\\tand\\nnewlines  here"]
    results = {}
    t = L.TextVectorization()
    t.adapt(texts)
    results["default"] = result(t, ["the cat ate a bird", "unknown words only", ""],
                                [["A CAT"], ["my mat"]], "dog")
    t = L.TextVectorization(max_tokens=8, output_sequence_length=6, ngrams=2)
    t.adapt(tf.data.Dataset.from_tensor_slices(texts).batch(2))
    results["ngrams"] = result(t, ["the cat sat on the mat and more words here"])
    t = L.TextVectorization(split="character", standardize="lower", output_mode="count")
    t.adapt(texts[:3])
    results["chars"] = result(t, ["Cat!", "zzz é"])
    t = L.TextVectorization(output_mode="tf_idf", ngrams=(1, 3))
    t.adapt(np.array(texts))
    results["tf_idf"] = result(t, ["the cat sat on the mat", "a a a dog"])
    t = L.TextVectorization(output_mode="multi_hot", standardize="strip_punctuation",
                            max_tokens=6, pad_to_max_tokens=True)
    t.adapt(texts)
    results["multi_hot"] = result(t, [["The cat."], ["a b c"]])
    t = L.TextVectorization(split=None, vocabulary=["a b", "c"], standardize=None)
    results["no_split"] = result(t, ["a b", "c", "d"], [["a b"], ["zz"]])
    t = L.TextVectorization(ragged=True, vocabulary=["a", "b"])
    results["ragged"] = result(t, ["a b a", "b", ""])
    print(json.dumps(results))
''')


def test_outputs_vocabularies_and_configs_match_real_tf():
    require_tf()
    expected = run_tf_json("import json, tensorflow as tf\n" + CASES)
    _close(run_here(CASES), expected)


SAVE = textwrap.dedent('''
    tf.keras.backend.clear_session()  # layer names count from 0, as in a fresh process
    L = tf.keras.layers
    texts = ["good movie", "bad movie", "good good fun", "bad plot twist"]
    seq = L.TextVectorization(output_sequence_length=4, name="seq")
    seq.adapt(texts)
    bag = L.TextVectorization(output_mode="tf_idf", ngrams=2, name="bag")
    bag.adapt(texts)
    text = tf.keras.Input(shape=(1,), dtype="string")
    model = tf.keras.Model(text, [seq(text), bag(text)])
''')
PROBE = '[o.numpy().tolist() for o in model(tf.constant([["good plot"], ["movie twist bad x"]]))]'


def test_keras_files_move_both_ways(tmp_path):
    require_tf()
    theirs, ours = str(tmp_path / "tf.keras"), str(tmp_path / "minitf.keras")
    scope = {"tf": minitf}
    exec(SAVE, scope)
    exec(f"model.save({ours!r})", scope)
    ours_before = eval(PROBE, scope)
    tf_before, tf_loaded_ours = run_tf_json("import json, tensorflow as tf\n" + SAVE +
                                            textwrap.dedent(f'''
        model.save({theirs!r})
        before = {PROBE}
        model = tf.keras.models.load_model({ours!r})
        print(json.dumps([before, {PROBE}]))
    '''))
    _close(ours_before, tf_before)
    _close(tf_loaded_ours, tf_before)
    vocabulary = scope["seq"].get_vocabulary()
    scope["model"] = minitf.keras.models.load_model(theirs)
    _close(eval(PROBE, scope), tf_before)
    assert scope["model"].get_layer("seq").get_vocabulary() == vocabulary
