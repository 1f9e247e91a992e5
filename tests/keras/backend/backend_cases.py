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

P = "tf.constant([[0.7, 0.2, 0.1], [0.0, 1.0, 0.0]])"
T = "tf.constant([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])"
CASES.update({
    # activations, losses, normalization
    "relu": f"K.relu({X})", "relu_alpha": f"K.relu({X}, alpha=0.1)",
    "relu_max6": f"K.relu({X} * 4, max_value=6.0)", "relu_all": f"K.relu({X}, 0.5, 1.0, 0.3)",
    "relu_threshold": f"K.relu({X}, threshold=1.0)", "elu": f"K.elu({X})", "elu_alpha": f"K.elu({X}, 0.5)",
    "sigmoid": f"K.sigmoid({X})", "hard_sigmoid": f"K.hard_sigmoid({X} * 3)",
    "softmax": f"K.softmax({X})", "softmax_axes": f"K.softmax({R}, axis=[1, 2])",
    "softplus": f"K.softplus({X})", "softsign": f"K.softsign({X})",
    "l2_normalize": f"K.l2_normalize({X}, axis=1)", "l2_normalize_all": f"K.l2_normalize({X})",
    "in_top_k": f"K.in_top_k({P}, tf.constant([0, 2]), 1)",
    "bias_add": f"K.bias_add({R}, tf.constant([1.0, 2.0, 3.0, 4.0]))",
    "bias_add_cf": f"K.bias_add({R}, tf.constant([1.0, 2.0, 3.0]), 'channels_first')",
    "bias_add_full": f"K.bias_add({R}, tf.ones((3, 4)))",
    "bias_add_full_cf": f"K.bias_add({R}, tf.reshape(tf.range(12.0), (4, 3)), 'channels_first')",
    "batch_normalization": f"K.batch_normalization({X}, 0.5, 2.0, 0.1, 3.0)",
    "binary_crossentropy": f"K.binary_crossentropy({T}, {P})",
    "binary_crossentropy_logits": f"K.binary_crossentropy({T}, {X}, from_logits=True)",
    "binary_focal": f"K.binary_focal_crossentropy({T}, {P})",
    "binary_focal_balanced": f"K.binary_focal_crossentropy({T}, {X}, True, 0.3, 1.5, True)",
    "categorical_crossentropy": f"K.categorical_crossentropy({T}, {P} * 2)",
    "categorical_crossentropy_logits": f"K.categorical_crossentropy({T}, {X}, True)",
    "categorical_crossentropy_axis0": f"K.categorical_crossentropy({T}, {P} + 0.1, axis=0)",
    "categorical_focal": f"K.categorical_focal_crossentropy({T}, {P})",
    "categorical_focal_logits": f"K.categorical_focal_crossentropy({T}, {X}, 0.5, 1.0, True)",
    "sparse_cce": f"K.sparse_categorical_crossentropy(tf.constant([0, 2]), {P})",
    "sparse_cce_logits": f"K.sparse_categorical_crossentropy(tf.constant([[0], [2]]), {X}, True)",
    "sparse_cce_3d": f"K.sparse_categorical_crossentropy(tf.constant([[0, 1, 2], [3, 3, 0]]), {R}, True)",
    "sparse_cce_axis": f"K.sparse_categorical_crossentropy(tf.constant([[0, 1, 2, 0], [1, 1, 2, 2]]), {R}, True, axis=1)",
    "sparse_cce_ignore": f"K.sparse_categorical_crossentropy(tf.constant([0, 2]), {P}, ignore_class=2)",
})

SEQ = "tf.reshape(tf.range(10.0), (1, 5, 2))"
IM = "tf.reshape(tf.range(32.0) / 10, (1, 4, 4, 2))"
V3 = "tf.reshape(tf.range(32.0) / 10, (1, 2, 4, 4, 1))"
KER = "tf.reshape(tf.range(16.0) / 10, (2, 2, 2, 2))"
CASES.update({
    # convolution and pooling (channels_last: TF's CPU kernels refuse NCHW)
    "conv1d": f"K.conv1d({SEQ}, tf.ones((2, 2, 3)))",
    "conv1d_causal": f"K.conv1d({SEQ}, tf.ones((2, 2, 3)), padding='causal', dilation_rate=2)",
    "conv1d_same_strided": f"K.conv1d({SEQ}, tf.ones((3, 2, 1)), strides=2, padding='same')",
    "conv2d": f"K.conv2d({IM}, {KER})", "conv2d_same": f"K.conv2d({IM}, {KER}, (2, 2), 'same')",
    "conv2d_dilated": f"K.conv2d({IM}, {KER}, dilation_rate=(2, 2))",
    "conv3d": f"K.conv3d({V3}, tf.ones((1, 2, 2, 1, 2)))",
    "conv2d_transpose": f"K.conv2d_transpose({IM}, {KER}, (1, 8, 8, 2), (2, 2), 'same')",
    "conv2d_transpose_none": f"K.conv2d_transpose({IM}, {KER}, (None, 5, 5, 2))",
    "conv2d_transpose_dilated": f"K.conv2d_transpose({IM}, {KER}, (1, 6, 6, 2), dilation_rate=(2, 2))",
    "depthwise_conv2d": f"K.depthwise_conv2d({IM}, tf.ones((2, 2, 2, 2)), padding='same')",
    "separable_conv2d": f"K.separable_conv2d({IM}, tf.ones((2, 2, 2, 1)), {KER}[:1, :1])",
    "pool2d": f"K.pool2d({IM}, (2, 2), (2, 2))",
    "pool2d_avg_same": f"K.pool2d({IM}, (3, 3), (2, 2), 'same', pool_mode='avg')",
    "pool3d": f"K.pool3d({V3}, (2, 2, 2), (1, 2, 2))",
    "pool3d_avg": f"K.pool3d({V3}, (1, 2, 2), (1, 1, 1), 'same', pool_mode='avg')",
})

STEP = "lambda x, s: (tf.tanh(x * 0.5 + s[0]), [tf.tanh(x * 0.5 + s[0]) * s[1]])"
INIT = "[tf.zeros((2, 4)) + 0.1, tf.ones((2, 4)) * 0.9]"
STEP1 = "lambda x, s: (tf.tanh(x * 0.5 + s[0]), [tf.tanh(x * 0.5 + s[0]) + s[0]])"
MASK = "tf.constant([[True, False, True], [False, True, True]])"
Y_PRED = "tf.nn.softmax(tf.reshape(tf.range(30.0) % 7 - 3.0, (2, 5, 3)) * 0.7)"
CASES.update({
    # control flow and CTC
    "rnn": f"K.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))])",
    "rnn_backwards": f"K.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], go_backwards=True)",
    "rnn_mask": f"K.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], mask={MASK})",
    "rnn_mask_zero": f"K.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], mask={MASK}, zero_output_for_mask=True)",
    "rnn_mask_backwards": f"K.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], True, {MASK})",
    "rnn_two_states_constants": "K.rnn(lambda x, s: (x + s[0] * s[1], [x + s[0] * s[1]]), "
                                f"{R} / 10, [tf.zeros((2, 4)) + 0.1], constants=[tf.ones((2, 4)) * 0.5])",
    "rnn_last_only": f"K.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], return_all_outputs=False)",
    "rnn_time_major": f"K.rnn({STEP1}, {R} / 10, [tf.zeros((3, 4))], time_major=True)",
    "rnn_input_length": f"K.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], input_length=tf.constant([1, 3]))",
    "switch_scalar": f"K.switch(tf.constant(False), {X}, -{X})",
    "switch_callable": f"K.switch(tf.constant(1), lambda: {X} * 2, lambda: {X})",
    "switch_tensor": f"K.switch({X} > 0, {X}, tf.zeros_like({X}))",
    "switch_broadcast": f"K.switch(tf.constant([[True], [False]]), {X}, -{X})",
    "switch_rank2_in_3": f"K.switch(tf.constant([[True, False, True], [False, True, True]]), {R}, -{R})",
    "map_fn": f"K.map_fn(lambda r: r * 2, {X})",
    "foldl": f"K.foldl(lambda a, r: a + r, {X})",
    "foldr": "K.foldr(lambda a, r: a * 2 + r, tf.constant([1.0, 2.0, 3.0]), tf.constant(0.0))",
    "ctc_label_dense_to_sparse": "tf.sparse.to_dense(K.ctc_label_dense_to_sparse("
                                 "tf.constant([[1, 2, 0], [2, 0, 0]]), tf.constant([3, 1])))",
    "ctc_batch_cost": f"K.ctc_batch_cost(tf.constant([[0, 1, 0], [1, 1, 0]]), {Y_PRED}, "
                      "tf.constant([[5], [4]]), tf.constant([[3], [2]]))",
    "ctc_decode_greedy": f"K.ctc_decode({Y_PRED}, tf.constant([5, 4]))",
    "ctc_decode_beam": f"K.ctc_decode({Y_PRED}, tf.constant([5, 4]), False, 5, 2)",
})
