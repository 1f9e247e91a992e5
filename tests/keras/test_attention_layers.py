"""Attention layers: parameter counts by hand, numbers against TF 2.21 and NumPy,
masks, gradients, functional models, configs and errors."""
import numpy as np
import pytest

import minitf as tf
from tests.gradcheck import check_grads

keras = tf.keras
L = tf.keras.layers
RNG = np.random.default_rng(3)


def pattern(shape, scale=0.1):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.7 + 0.3) * scale * 10).reshape(shape).astype("float32")


Q, V, K = pattern((2, 3, 4)), pattern((2, 5, 4), 0.07), pattern((2, 5, 4), 0.05)
QUERY_MASK = np.array([[1, 1, 0], [1, 1, 1]], bool)
VALUE_MASK = np.array([[1, 1, 1, 0, 0], [1, 0, 1, 1, 1]], bool)

# layer, how it is called -> [(shape, sum(y), sum(y * pattern)) per output], params;
# inputs and weights from `pattern`: all verified against TF 2.21.
TF_CASES = [
    ("L.Attention()", lambda l: l([Q, V]), [((2, 3, 4), 2.127177, 4.737206)], 0),
    ("L.Attention(use_scale=True)", lambda l: l([Q, V, K], return_attention_scores=True),
     [((2, 3, 4), 1.382709, 0.864845), ((2, 3, 5), 6.0, 0.357303)], 1),
    ("L.Attention(score_mode='concat', use_scale=True)", lambda l: l([Q, V]),
     [((2, 3, 4), 1.522097, 0.281646)], 2),
    ("L.Attention()", lambda l: l([Q, pattern((2, 3, 4), 0.07)], use_causal_mask=True,
                                  return_attention_scores=True),
     [((2, 3, 4), 1.312923, 7.342873), ((2, 3, 3), 6.0, -0.522009)], 0),
    ("L.Attention()", lambda l: l([Q, V], mask=[QUERY_MASK, VALUE_MASK]),
     [((2, 3, 4), 2.018086, 3.819531)], 0),
    ("L.AdditiveAttention()", lambda l: l([Q, V, K], return_attention_scores=True),
     [((2, 3, 4), 3.468123, 0.523087), ((2, 3, 5), 6.0, 0.503543)], 4),
    ("L.AdditiveAttention(use_scale=False)", lambda l: l([Q, V]),
     [((2, 3, 4), 7.496118, 0.878227)], 0),
    ("L.MultiHeadAttention(num_heads=2, key_dim=3)",
     lambda l: l(Q, V, return_attention_scores=True),
     [((2, 3, 4), 15.735638, 1.198158), ((2, 2, 3, 5), 12.000002, 0.438659)], 118),
    (("L.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=2, output_shape=5, "
      "use_bias=False)"), lambda l: l(Q, V, K), [((2, 3, 5), 0.101123, 0.097221)], 84),
    ("L.MultiHeadAttention(num_heads=1, key_dim=2)", lambda l: l(Q, Q, use_causal_mask=True),
     [((2, 3, 4), 12.661699, 7.212633)], 42),
]


@pytest.mark.parametrize("expr,call,expected,count", TF_CASES)
def test_numbers_match_tensorflow(expr, call, expected, count):
    layer = eval(expr)
    call(layer)
    layer.set_weights([pattern(w.shape, 0.05 + 0.01 * i) for i, w in enumerate(layer.weights)])
    ys = call(layer)
    ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    assert layer.count_params() == count
    for y, (shape, total, weighted) in zip(ys, expected, strict=True):
        y = y.numpy()
        assert y.shape == shape
        np.testing.assert_allclose([y.sum(), (y * pattern(y.shape)).sum()], [total, weighted],
                                   rtol=1e-5, atol=2e-6)


def test_multi_head_attention_masks_match_tensorflow():
    mha = L.MultiHeadAttention(2, 2)
    mha(Q, V)
    mha.set_weights([pattern(w.shape, 0.05 + 0.01 * i) for i, w in enumerate(mha.weights)])
    y, scores = mha(Q, V, value_mask=VALUE_MASK, return_attention_scores=True)
    with pytest.warns(UserWarning, match="ignores the `query_mask` argument"):
        same = mha(Q, V, query_mask=QUERY_MASK, value_mask=VALUE_MASK)
    y2 = mha(Q, V, attention_mask=np.tril(np.ones((2, 3, 5), bool)))
    sums = [float((t.numpy() * pattern(t.shape)).sum()) for t in (y, scores, y2)]
    np.testing.assert_allclose(sums, [2.238137, 0.250193, 3.029461], rtol=1e-5, atol=2e-6)
    np.testing.assert_allclose(same.numpy(), y.numpy())
    assert np.all(scores.numpy()[0, :, :, 3:] == 0.0)  # masked values: weight exactly 0


@pytest.mark.parametrize("num_heads,key_dim,value_dim,out,dims,count", [
    (2, 3, None, None, (4, 4, 4), 3 * (4 * 2 * 3 + 2 * 3) + (2 * 3 * 4 + 4)),
    (4, 8, 2, 6, (5, 7, 3), (5 * 4 * 8 + 32) + (3 * 4 * 8 + 32) + (7 * 4 * 2 + 8)
     + (4 * 2 * 6 + 6)),
])
def test_multi_head_attention_parameter_counts(num_heads, key_dim, value_dim, out, dims, count):
    dq, dv, dk = dims
    mha = L.MultiHeadAttention(num_heads, key_dim, value_dim=value_dim, output_shape=out)
    y = mha(tf.zeros([1, 2, dq]), tf.zeros([1, 3, dv]), key=tf.zeros([1, 3, dk]))
    assert mha.count_params() == count and y.shape == (1, 2, out or dq)


def test_dot_attention_matches_numpy():
    q, v = RNG.normal(size=(2, 3, 4)), RNG.normal(size=(2, 5, 4))
    y = L.Attention()([q.astype("float32"), v.astype("float32")]).numpy()
    scores = q @ v.transpose(0, 2, 1)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    np.testing.assert_allclose(y, weights @ v, rtol=1e-5, atol=1e-6)


def test_gradients_match_finite_differences():
    att = L.AdditiveAttention(dtype="float64")
    att([tf.zeros([1, 2, 3], tf.float64), tf.zeros([1, 4, 3], tf.float64)])

    def additive(q, v, scale):
        object.__setattr__(att, "scale", scale)
        return att([q, v])

    check_grads(additive, RNG.normal(size=(1, 2, 3)), RNG.normal(size=(1, 4, 3)),
                RNG.normal(size=(3,)), rtol=1e-4)
    mha = L.MultiHeadAttention(2, 2, dtype="float64")
    mha(tf.zeros([1, 2, 3], tf.float64), tf.zeros([1, 3, 3], tf.float64))
    check_grads(lambda q, v: mha(q, v, use_causal_mask=False), RNG.normal(size=(1, 2, 3)),
                RNG.normal(size=(1, 3, 3)), rtol=1e-4)


def test_functional_model_and_tf_function():
    tokens = keras.Input((6, 8))
    attended = L.MultiHeadAttention(num_heads=2, key_dim=4)(tokens, tokens)
    pooled = L.GlobalAveragePooling1D()(L.Add()([tokens, attended]))
    model = keras.Model(tokens, L.Dense(1)(pooled))
    assert model.count_params() == 3 * (8 * 2 * 4 + 8) + (2 * 4 * 8 + 8) + 9
    x = RNG.normal(size=(2, 6, 8)).astype("float32")
    np.testing.assert_allclose(tf.function(model)(tf.constant(x)).numpy(), model(x).numpy(),
                               rtol=1e-5, atol=1e-6)
    q = keras.Input((3, 4))
    out, weights = L.Attention()([q, q], return_attention_scores=True)
    assert tuple(out.shape) == (None, 3, 4) and tuple(weights.shape) == (None, 3, 3)


def test_configs():
    config = L.Attention(use_scale=True, name="a").get_config()
    assert list(config.items())[3:] == [("use_scale", True), ("score_mode", "dot"),
                                        ("dropout", 0.0), ("seed", None)]
    assert list(L.AdditiveAttention().get_config())[3:] == ["use_scale", "dropout", "seed"]
    mha = L.MultiHeadAttention(2, 3, output_shape=5)
    config = mha.get_config()
    assert list(config)[3:10] == ["num_heads", "key_dim", "value_dim", "dropout", "use_bias",
                                  "output_shape", "attention_axes"]
    assert config["value_dim"] == 3
    assert L.MultiHeadAttention.from_config(config).get_config() == config


def test_dropout_on_weights_only_in_training():
    att = L.Attention(dropout=0.5)
    q = np.ones((1, 2, 3), "float32")
    np.testing.assert_allclose(att([q, q]).numpy(), q)
    tf.random.set_seed(0)
    assert not np.allclose(att([q, q], training=True).numpy(), q)


@pytest.mark.parametrize("make,error,message", [
    (lambda: L.Attention(score_mode="x"), ValueError, "Invalid value for argument score_mode"),
    (lambda: L.Attention()(tf.zeros([1, 2, 3])), ValueError, "must be called on a list"),
    (lambda: L.Attention()([tf.zeros([1, 2, 3])] * 2, mask=[None]), ValueError,
     "mask must be a list of length 2"),
    (lambda: L.MultiHeadAttention(2, 3)(tf.zeros([1, 2, 4])), ValueError, "needs `value`"),
    (lambda: L.MultiHeadAttention(2, 3, attention_axes=(1, 2)), NotImplementedError,
     "attention_axes"),
    (lambda: L.MultiHeadAttention(2, 3)(tf.zeros([1, 2, 2, 4]), tf.zeros([1, 2, 2, 4])),
     ValueError, "rank-3 inputs"),
])
def test_errors(make, error, message):
    with pytest.raises(error, match=message):
        make()
