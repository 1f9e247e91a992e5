"""The table of `tf.keras.backend` calls that run in minitf and in real TF 2.21 alike.

Each case is one expression over `backend` (tf.keras.backend), `tf` and `np`; the
test evaluates it in both and compares value, dtype and shape.
"""
X = "tf.constant([[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]])"
B = "tf.constant([[True, False], [True, True]])"

CASES = {
    # element-wise
    "abs": f"backend.abs({X})",
    "cos": f"backend.cos({X})",
    "sin": f"backend.sin({X})",
    "exp": f"backend.exp({X})",
    "log": "backend.log(tf.constant([1.0, 2.0, 0.5]))",
    "round": "backend.round(tf.constant([0.5, 1.5, -2.5]))",
    "sign": f"backend.sign({X})", "square": f"backend.square({X})", "tanh": f"backend.tanh({X})",
    "sqrt": "backend.sqrt(tf.constant([-4.0, 0.0, 9.0]))", "pow": f"backend.pow({X}, 2.0)",
    "clip": f"backend.clip({X}, 0.0, 1.0)", "clip_swapped": f"backend.clip({X}, 1.0, 0.0)",
    "clip_none": f"backend.clip({X}, None, 1.0)",
    "equal": f"backend.equal({X}, 0.5)", "not_equal": f"backend.not_equal({X}, 0.5)",
    "greater": f"backend.greater({X}, 0.5)", "greater_equal": f"backend.greater_equal({X}, 0.5)",
    "less": f"backend.less({X}, 0.5)", "less_equal": f"backend.less_equal({X}, 0.5)",
    "maximum": f"backend.maximum({X}, 0.0)", "minimum": f"backend.minimum({X}, 0.0)",
    # reductions
    "argmax": f"backend.argmax({X})", "argmin": f"backend.argmin({X}, 0)",
    "all": f"backend.all({X}, axis=1)",
    "any": "backend.any(tf.constant([[0, 0], [0, 2]]), 1, True)",
    "sum": f"backend.sum({X}, 1)",
    "prod": f"backend.prod({X}, 0, True)",
    "max": f"backend.max({X})",
    "min": f"backend.min({X}, axis=1)",
    "mean": f"backend.mean({X}, axis=0)",
    "mean_bool": f"backend.mean({B})",
    "std": f"backend.std({X}, 1)", "var": f"backend.var({X})", "std_bool": f"backend.std({B}, 0)",
    "var_bool": f"backend.var({B}, keepdims=True)",
    "cumsum": f"backend.cumsum({X})", "cumprod": f"backend.cumprod({X}, axis=1)",
}

CASES.update({
    # variables, constants, shapes and dtypes
    "variable": "backend.variable([1, 2])",
    "variable_int": "backend.variable([1, 2], dtype='int32')",
    "constant": "backend.constant(1)", "constant_shape": "backend.constant(2, shape=(2, 1))",
    "zeros": "backend.zeros((2, 3))",
    "zeros_empty": "backend.zeros((2, 0))",
    "ones": "backend.ones((1, 2), 'int32')",
    "eye": "backend.eye(3)",
    "zeros_like": f"backend.zeros_like({X})",
    "ones_like": f"backend.ones_like({X}, 'int32')",
    "get_value": "backend.get_value(backend.variable([1, 2]))", "eval": f"backend.eval({X})",
    "batch_get_value": "backend.batch_get_value([backend.variable([1, 2]), backend.constant(3)])",
    "update": "backend.update(backend.variable([1, 2]), [5.0, 6.0])",
    "update_add": "backend.update_add(backend.variable([1, 2]), [1.0, 1.0])",
    "update_sub": "backend.update_sub(backend.variable([1, 2]), [1.0, 1.0])",
    "moving_average_update": "backend.moving_average_update(backend.variable([1, 2]), [3, 3], 0.9)",
    "count_params": "backend.count_params(backend.zeros((2, 3)))",
    "int_shape": "backend.int_shape(backend.zeros((2, 3)))",
    "ndim": f"backend.ndim({X})",
    "shape": f"backend.shape({X})",
    "cast": f"backend.cast({X}, 'int32')",
    "cast_to_floatx_list": "backend.cast_to_floatx([1, 2])",
    "cast_to_floatx": "backend.cast_to_floatx(tf.constant([1, 2]))",
    "to_dense": "backend.to_dense(tf.SparseTensor([[0, 1]], [3.0], [2, 2]))",
    "is_sparse": "backend.is_sparse(tf.SparseTensor([[0, 1]], [3.0], [2, 2]))",
})

R = "tf.reshape(tf.range(24.0), (2, 3, 4))"
IMG = "tf.reshape(tf.range(8.0), (1, 2, 2, 2))"
VOL = "tf.reshape(tf.range(8.0), (1, 2, 2, 2, 1))"
CASES.update({
    # shapes and arrays
    "arange": "backend.arange(5)", "arange_float": "backend.arange(1, 4, 0.5, dtype='float32')",
    "arange_negative": "backend.arange(-3)", "reshape": f"backend.reshape({X}, (3, 2))",
    "flatten": f"backend.flatten({R})", "batch_flatten": f"backend.batch_flatten({R})",
    "expand_dims": f"backend.expand_dims({X})", "squeeze": "backend.squeeze(tf.ones((2, 1, 3)), 1)",
    "permute_dimensions": f"backend.permute_dimensions({R}, (2, 0, 1))",
    "transpose": f"backend.transpose({R})",
    "reverse": f"backend.reverse({R}, 1)", "reverse_list": f"backend.reverse({R}, [0, 2])",
    "tile": "backend.tile(tf.constant([1, 2]), 3)", "tile_list": f"backend.tile({X}, [2, 1])",
    "stack": f"backend.stack([{X}, {X}], axis=1)",
    "concatenate": f"backend.concatenate([{X}, {X}])",
    "concatenate_0": f"backend.concatenate([{X}, {X}], axis=0)",
    "gather": f"backend.gather({X}, [1, 1, 0])",
    "one_hot": "backend.one_hot(tf.constant([0, 2]), 3)",
    "repeat": f"backend.repeat({X}, 2)",
    "repeat_elements": f"backend.repeat_elements({R}, 2, axis=1)",
    "dot": f"backend.dot({X}, tf.ones((3, 2)))", "dot_3d": f"backend.dot({R}, tf.ones((3, 4, 2)))",
    "batch_dot_2d": f"backend.batch_dot({X}, {X})",
    "batch_dot_axes": f"backend.batch_dot({R}, {R}, axes=(1, 1))",
    "batch_dot_3d_2d": f"backend.batch_dot({R}, tf.ones((2, 4)))",
    "batch_dot_2d_3d": f"backend.batch_dot(tf.ones((2, 3)), {R})",
    "batch_dot_4d": "backend.batch_dot(tf.ones((2, 3, 4, 5)), tf.ones((2, 5, 2)))",
    "temporal_padding": f"backend.temporal_padding({R}, (1, 2))",
    "spatial_2d_padding": f"backend.spatial_2d_padding({IMG}, ((1, 0), (0, 2)))",
    "spatial_2d_padding_cf": f"backend.spatial_2d_padding({IMG}, data_format='channels_first')",
    "spatial_3d_padding": f"backend.spatial_3d_padding({VOL})",
    "resize_images": f"backend.resize_images({IMG}, 2, 3, 'channels_last')",
    "resize_images_cf": f"backend.resize_images({IMG}, 2, 1, 'channels_first', 'bilinear')",
    "resize_volumes": f"backend.resize_volumes({VOL}, 2, 1, 2, 'channels_last')",
    "stop_gradient": f"backend.stop_gradient({X})",
    "stop_gradient_list": f"list(backend.stop_gradient([{X}]))",
})

P = "tf.constant([[0.7, 0.2, 0.1], [0.0, 1.0, 0.0]])"
T = "tf.constant([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])"
CASES.update({
    # activations, losses, normalization
    "relu": f"backend.relu({X})", "relu_alpha": f"backend.relu({X}, alpha=0.1)",
    "relu_max6": f"backend.relu({X} * 4, max_value=6.0)",
    "relu_all": f"backend.relu({X}, 0.5, 1.0, 0.3)",
    "relu_threshold": f"backend.relu({X}, threshold=1.0)",
    "elu": f"backend.elu({X})",
    "elu_alpha": f"backend.elu({X}, 0.5)",
    "sigmoid": f"backend.sigmoid({X})", "hard_sigmoid": f"backend.hard_sigmoid({X} * 3)",
    "softmax": f"backend.softmax({X})", "softmax_axes": f"backend.softmax({R}, axis=[1, 2])",
    "softplus": f"backend.softplus({X})", "softsign": f"backend.softsign({X})",
    "l2_normalize": f"backend.l2_normalize({X}, axis=1)",
    "l2_normalize_all": f"backend.l2_normalize({X})",
    "in_top_k": f"backend.in_top_k({P}, tf.constant([0, 2]), 1)",
    "bias_add": f"backend.bias_add({R}, tf.constant([1.0, 2.0, 3.0, 4.0]))",
    "bias_add_cf": f"backend.bias_add({R}, tf.constant([1.0, 2.0, 3.0]), 'channels_first')",
    "bias_add_full": f"backend.bias_add({R}, tf.ones((3, 4)))",
    "bias_add_full_cf":
        f"backend.bias_add({R}, tf.reshape(tf.range(12.0), (4, 3)), 'channels_first')",
    "batch_normalization": f"backend.batch_normalization({X}, 0.5, 2.0, 0.1, 3.0)",
    "binary_crossentropy": f"backend.binary_crossentropy({T}, {P})",
    "binary_crossentropy_logits": f"backend.binary_crossentropy({T}, {X}, from_logits=True)",
    "binary_focal": f"backend.binary_focal_crossentropy({T}, {P})",
    "binary_focal_balanced": f"backend.binary_focal_crossentropy({T}, {X}, True, 0.3, 1.5, True)",
    "categorical_crossentropy": f"backend.categorical_crossentropy({T}, {P} * 2)",
    "categorical_crossentropy_logits": f"backend.categorical_crossentropy({T}, {X}, True)",
    "categorical_crossentropy_axis0": f"backend.categorical_crossentropy({T}, {P} + 0.1, axis=0)",
    "categorical_focal": f"backend.categorical_focal_crossentropy({T}, {P})",
    "categorical_focal_logits": f"backend.categorical_focal_crossentropy({T}, {X}, 0.5, 1.0, True)",
    "sparse_cce": f"backend.sparse_categorical_crossentropy(tf.constant([0, 2]), {P})",
    "sparse_cce_logits":
        f"backend.sparse_categorical_crossentropy(tf.constant([[0], [2]]), {X}, True)",
    "sparse_cce_3d":
        f"backend.sparse_categorical_crossentropy(tf.constant([[0, 1, 2], [3, 3, 0]]), {R}, True)",
    "sparse_cce_axis":
        f"backend.sparse_categorical_crossentropy(tf.constant([[0, 1, 2, 0], [1, 1, 2, 2]]), "
        f"{R}, True, axis=1)",
    "sparse_cce_ignore":
        f"backend.sparse_categorical_crossentropy(tf.constant([0, 2]), {P}, ignore_class=2)",
})

SEQ = "tf.reshape(tf.range(10.0), (1, 5, 2))"
IM = "tf.reshape(tf.range(32.0) / 10, (1, 4, 4, 2))"
V3 = "tf.reshape(tf.range(32.0) / 10, (1, 2, 4, 4, 1))"
KER = "tf.reshape(tf.range(16.0) / 10, (2, 2, 2, 2))"
CASES.update({
    # convolution and pooling (channels_last: TF's CPU kernels refuse NCHW)
    "conv1d": f"backend.conv1d({SEQ}, tf.ones((2, 2, 3)))",
    "conv1d_causal":
        f"backend.conv1d({SEQ}, tf.ones((2, 2, 3)), padding='causal', dilation_rate=2)",
    "conv1d_same_strided": f"backend.conv1d({SEQ}, tf.ones((3, 2, 1)), strides=2, padding='same')",
    "conv2d": f"backend.conv2d({IM}, {KER})",
    "conv2d_same": f"backend.conv2d({IM}, {KER}, (2, 2), 'same')",
    "conv2d_dilated": f"backend.conv2d({IM}, {KER}, dilation_rate=(2, 2))",
    "conv3d": f"backend.conv3d({V3}, tf.ones((1, 2, 2, 1, 2)))",
    "conv2d_transpose": f"backend.conv2d_transpose({IM}, {KER}, (1, 8, 8, 2), (2, 2), 'same')",
    "conv2d_transpose_none": f"backend.conv2d_transpose({IM}, {KER}, (None, 5, 5, 2))",
    "conv2d_transpose_dilated":
        f"backend.conv2d_transpose({IM}, {KER}, (1, 6, 6, 2), dilation_rate=(2, 2))",
    "depthwise_conv2d": f"backend.depthwise_conv2d({IM}, tf.ones((2, 2, 2, 2)), padding='same')",
    "separable_conv2d": f"backend.separable_conv2d({IM}, tf.ones((2, 2, 2, 1)), {KER}[:1, :1])",
    "pool2d": f"backend.pool2d({IM}, (2, 2), (2, 2))",
    "pool2d_avg_same": f"backend.pool2d({IM}, (3, 3), (2, 2), 'same', pool_mode='avg')",
    "pool3d": f"backend.pool3d({V3}, (2, 2, 2), (1, 2, 2))",
    "pool3d_avg": f"backend.pool3d({V3}, (1, 2, 2), (1, 1, 1), 'same', pool_mode='avg')",
})

STEP1 = "lambda x, s: (tf.tanh(x * 0.5 + s[0]), [tf.tanh(x * 0.5 + s[0]) + s[0]])"
MASK = "tf.constant([[True, False, True], [False, True, True]])"
Y_PRED = "tf.nn.softmax(tf.reshape(tf.range(30.0) % 7 - 3.0, (2, 5, 3)) * 0.7)"
CASES.update({
    # control flow and CTC
    "rnn": f"backend.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))])",
    "rnn_backwards": f"backend.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], go_backwards=True)",
    "rnn_mask": f"backend.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], mask={MASK})",
    "rnn_mask_zero":
        f"backend.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], mask={MASK}, "
        f"zero_output_for_mask=True)",
    "rnn_mask_backwards": f"backend.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], True, {MASK})",
    "rnn_two_states_constants": "backend.rnn(lambda x, s: (x + s[0] * s[1], [x + s[0] * s[1]]), "
                                f"{R} / 10, [tf.zeros((2, 4)) + 0.1], constants=[tf.ones((2, "
                                f"4)) * 0.5])",
    "rnn_last_only":
        f"backend.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], return_all_outputs=False)",
    "rnn_time_major": f"backend.rnn({STEP1}, {R} / 10, [tf.zeros((3, 4))], time_major=True)",
    "rnn_input_length":
        f"backend.rnn({STEP1}, {R} / 10, [tf.zeros((2, 4))], input_length=tf.constant([1, 3]))",
    "switch_scalar": f"backend.switch(tf.constant(False), {X}, -{X})",
    "switch_callable": f"backend.switch(tf.constant(1), lambda: {X} * 2, lambda: {X})",
    "switch_tensor": f"backend.switch({X} > 0, {X}, tf.zeros_like({X}))",
    "switch_broadcast": f"backend.switch(tf.constant([[True], [False]]), {X}, -{X})",
    "switch_rank2_in_3":
        f"backend.switch(tf.constant([[True, False, True], [False, True, True]]), {R}, -{R})",
    "map_fn": f"backend.map_fn(lambda r: r * 2, {X})",
    "foldl": f"backend.foldl(lambda a, r: a + r, {X})",
    "foldr":
        "backend.foldr(lambda a, r: a * 2 + r, tf.constant([1.0, 2.0, 3.0]), tf.constant(0.0))",
    "ctc_label_dense_to_sparse": "tf.sparse.to_dense(backend.ctc_label_dense_to_sparse("
                                 "tf.constant([[1, 2, 0], [2, 0, 0]]), tf.constant([3, 1])))",
    "ctc_batch_cost": f"backend.ctc_batch_cost(tf.constant([[0, 1, 0], [1, 1, 0]]), {Y_PRED}, "
                      "tf.constant([[5], [4]]), tf.constant([[3], [2]]))",
    "ctc_decode_greedy": f"backend.ctc_decode({Y_PRED}, tf.constant([5, 4]))",
    "ctc_decode_beam": f"backend.ctc_decode({Y_PRED}, tf.constant([5, 4]), False, 5, 2)",
})
