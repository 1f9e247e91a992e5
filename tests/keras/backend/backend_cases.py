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

CASES.update({
    # variables, constants, shapes and dtypes
    "variable": "K.variable([1, 2])", "variable_int": "K.variable([1, 2], dtype='int32')",
    "constant": "K.constant(1)", "constant_shape": "K.constant(2, shape=(2, 1))",
    "zeros": "K.zeros((2, 3))", "zeros_empty": "K.zeros((2, 0))", "ones": "K.ones((1, 2), 'int32')",
    "eye": "K.eye(3)", "zeros_like": f"K.zeros_like({X})", "ones_like": f"K.ones_like({X}, 'int32')",
    "get_value": "K.get_value(K.variable([1, 2]))", "eval": f"K.eval({X})",
    "batch_get_value": "K.batch_get_value([K.variable([1, 2]), K.constant(3)])",
    "update": "K.update(K.variable([1, 2]), [5.0, 6.0])",
    "update_add": "K.update_add(K.variable([1, 2]), [1.0, 1.0])",
    "update_sub": "K.update_sub(K.variable([1, 2]), [1.0, 1.0])",
    "moving_average_update": "K.moving_average_update(K.variable([1, 2]), [3, 3], 0.9)",
    "count_params": "K.count_params(K.zeros((2, 3)))", "int_shape": "K.int_shape(K.zeros((2, 3)))",
    "ndim": f"K.ndim({X})", "shape": f"K.shape({X})", "cast": f"K.cast({X}, 'int32')",
    "cast_to_floatx_list": "K.cast_to_floatx([1, 2])", "cast_to_floatx": "K.cast_to_floatx(tf.constant([1, 2]))",
    "to_dense": "K.to_dense(tf.SparseTensor([[0, 1]], [3.0], [2, 2]))",
    "is_sparse": "K.is_sparse(tf.SparseTensor([[0, 1]], [3.0], [2, 2]))",
})
