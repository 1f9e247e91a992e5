"""The table of `tf.keras.backend` calls that run in minitf and in real TF 2.21 alike.

Each case is one expression over `K` (tf.keras.backend), `tf` and `np`; the
test evaluates it in both and compares value, dtype and shape.
"""
X = "tf.constant([[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]])"
B = "tf.constant([[True, False], [True, True]])"

CASES = {
    # element-wise
    "abs": f"K.abs({X})", "cos": f"K.cos({X})", "sin": f"K.sin({X})", "exp": f"K.exp({X})",
    "log": "K.log(tf.constant([1.0, 2.0, 0.5]))", "round": "K.round(tf.constant([0.5, 1.5, -2.5]))",
    "sign": f"K.sign({X})", "square": f"K.square({X})", "tanh": f"K.tanh({X})",
    "sqrt": "K.sqrt(tf.constant([-4.0, 0.0, 9.0]))", "pow": f"K.pow({X}, 2.0)",
    "clip": f"K.clip({X}, 0.0, 1.0)", "clip_swapped": f"K.clip({X}, 1.0, 0.0)",
    "clip_none": f"K.clip({X}, None, 1.0)",
    "equal": f"K.equal({X}, 0.5)", "not_equal": f"K.not_equal({X}, 0.5)",
    "greater": f"K.greater({X}, 0.5)", "greater_equal": f"K.greater_equal({X}, 0.5)",
    "less": f"K.less({X}, 0.5)", "less_equal": f"K.less_equal({X}, 0.5)",
    "maximum": f"K.maximum({X}, 0.0)", "minimum": f"K.minimum({X}, 0.0)",
    # reductions
    "argmax": f"K.argmax({X})", "argmin": f"K.argmin({X}, 0)",
    "all": f"K.all({X}, axis=1)", "any": "K.any(tf.constant([[0, 0], [0, 2]]), 1, True)",
    "sum": f"K.sum({X}, 1)", "prod": f"K.prod({X}, 0, True)", "max": f"K.max({X})",
    "min": f"K.min({X}, axis=1)", "mean": f"K.mean({X}, axis=0)", "mean_bool": f"K.mean({B})",
    "std": f"K.std({X}, 1)", "var": f"K.var({X})", "std_bool": f"K.std({B}, 0)",
    "var_bool": f"K.var({B}, keepdims=True)",
    "cumsum": f"K.cumsum({X})", "cumprod": f"K.cumprod({X}, axis=1)",
}
