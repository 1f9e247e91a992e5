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

R = "tf.reshape(tf.range(24.0), (2, 3, 4))"
IMG = "tf.reshape(tf.range(8.0), (1, 2, 2, 2))"
VOL = "tf.reshape(tf.range(8.0), (1, 2, 2, 2, 1))"
CASES.update({
    # shapes and arrays
    "arange": "K.arange(5)", "arange_float": "K.arange(1, 4, 0.5, dtype='float32')",
    "arange_negative": "K.arange(-3)", "reshape": f"K.reshape({X}, (3, 2))",
    "flatten": f"K.flatten({R})", "batch_flatten": f"K.batch_flatten({R})",
    "expand_dims": f"K.expand_dims({X})", "squeeze": "K.squeeze(tf.ones((2, 1, 3)), 1)",
    "permute_dimensions": f"K.permute_dimensions({R}, (2, 0, 1))", "transpose": f"K.transpose({R})",
    "reverse": f"K.reverse({R}, 1)", "reverse_list": f"K.reverse({R}, [0, 2])",
    "tile": "K.tile(tf.constant([1, 2]), 3)", "tile_list": f"K.tile({X}, [2, 1])",
    "stack": f"K.stack([{X}, {X}], axis=1)", "concatenate": f"K.concatenate([{X}, {X}])",
    "concatenate_0": f"K.concatenate([{X}, {X}], axis=0)",
    "gather": f"K.gather({X}, [1, 1, 0])", "one_hot": "K.one_hot(tf.constant([0, 2]), 3)",
    "repeat": f"K.repeat({X}, 2)", "repeat_elements": f"K.repeat_elements({R}, 2, axis=1)",
    "dot": f"K.dot({X}, tf.ones((3, 2)))", "dot_3d": f"K.dot({R}, tf.ones((3, 4, 2)))",
    "batch_dot_2d": f"K.batch_dot({X}, {X})", "batch_dot_axes": f"K.batch_dot({R}, {R}, axes=(1, 1))",
    "batch_dot_3d_2d": f"K.batch_dot({R}, tf.ones((2, 4)))",
    "batch_dot_2d_3d": f"K.batch_dot(tf.ones((2, 3)), {R})",
    "batch_dot_4d": "K.batch_dot(tf.ones((2, 3, 4, 5)), tf.ones((2, 5, 2)))",
    "temporal_padding": f"K.temporal_padding({R}, (1, 2))",
    "spatial_2d_padding": f"K.spatial_2d_padding({IMG}, ((1, 0), (0, 2)))",
    "spatial_2d_padding_cf": f"K.spatial_2d_padding({IMG}, data_format='channels_first')",
    "spatial_3d_padding": f"K.spatial_3d_padding({VOL})",
    "resize_images": f"K.resize_images({IMG}, 2, 3, 'channels_last')",
    "resize_images_cf": f"K.resize_images({IMG}, 2, 1, 'channels_first', 'bilinear')",
    "resize_volumes": f"K.resize_volumes({VOL}, 2, 1, 2, 'channels_last')",
    "stop_gradient": f"K.stop_gradient({X})", "stop_gradient_list": f"list(K.stop_gradient([{X}]))",
})
