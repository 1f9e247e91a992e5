"""The tf.nn ops of test_nn_statistics.py, test_nn_ctc.py and the other test_nn_* files
against real TF 2.21: every expression below runs in minitf and, all
in one TF subprocess, in real TF; values (to float32 rounding), dtypes, shapes and error
classes must agree."""
import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

X = "tf.constant([[1., -2., 3.], [0.5, 0., -1.]])"
P = "tf.constant([[0.1, 0.5, 0.4], [0.3, 0.3, 0.3], [0.2, 0.2, 0.6]])"
BN = "tf.constant([[1., 0., 1.], [1., 4., 2.], [0., 1., 2.], [2., 2., 3.]])"
IMG = "tf.reshape(tf.range(1., 9.), [1, 1, 2, 4])"
LOG = "tf.constant(np.random.default_rng(0).normal(size=(5, 2, 4)).astype(np.float32))"
LOG6 = "tf.constant(np.random.default_rng(1).normal(size=(6, 3, 5)).astype(np.float32))"
LAB = "tf.constant([[1, 2, 0], [3, 3, 0]])"
SP = "tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1]], [1, 2, 3, 3], [2, 3])"
SP1 = "tf.SparseTensor([[0, 0], [0, 1], [0, 2]], [1, 1, 1], [1, 3])"
TAB = "tf.reshape(tf.range(10.), [5, 2])"
IDX = "[[0, 0], [0, 1], [1, 0], [3, 0]]"
IDS = f"tf.SparseTensor({IDX}, tf.constant([1, 3, 0, 1], tf.int64), [5, 2])"
WTS = f"tf.SparseTensor({IDX}, [2.0, 0.5, 1.0, 3.0], [5, 2])"
IDX2 = "[[0, 0], [0, 1], [1, 0], [3, 0], [3, 1]]"
IDS2 = f"tf.SparseTensor({IDX2}, tf.constant([1, -1, 0, 1, 2], tf.int64), [5, 2])"
WTS2 = f"tf.SparseTensor({IDX2}, [2.0, 0.5, 1.0, 0.0, -1.0], [5, 2])"
IM = "tf.constant(np.random.default_rng(0).normal(size=(1, 4, 5, 2)).astype(np.float32))"
KER = "tf.constant(np.random.default_rng(1).normal(size=(2, 3, 2)).astype(np.float32))"
FLT = "tf.constant(np.random.default_rng(2).normal(size=(2, 2, 3, 2)).astype(np.float32))"
S2B_X = "tf.constant(np.random.default_rng(0).normal(size=(2, 9, 8, 3)).astype(np.float32))"
S2B_CONV = ("lambda i, n, p: tf.nn.convolution(i, tf.constant(np.random.default_rng(1).normal("
            "size=(3, 2, 3, 4)).astype(np.float32)), padding=p)")
CELL = ("tf.keras.layers.SimpleRNNCell(3, kernel_initializer='ones', "
        "recurrent_initializer='ones')")
RX = "tf.constant([[0.1, 0.2, 0.3], [1.0, -1.0, 0.5]])"
RH = "[tf.constant([[0.5, -0.5, 0.0], [0.0, 0.0, 1.0]])]"
KLOG = f"tf.transpose({LOG}, [1, 0, 2])"
CASES = {
    "stats:sufficient": f"tf.nn.sufficient_statistics({X}, [0])",
    "stats:sufficient_shift": f"tf.nn.sufficient_statistics({X}, [0, 1], shift=1.0, keepdims=True)",
    "stats:sufficient_int": "tf.nn.sufficient_statistics(tf.constant([[1, 2], [3, 4]]), [0])",
    "stats:weighted": f"tf.nn.weighted_moments({X}, [1], [[1., 2., 0.], [1., 1., 1.]])",
    "stats:weighted_keep": f"tf.nn.weighted_moments({X}, [0], [[1.], [3.]], keepdims=True)",
    "stats:weighted_zero": f"tf.nn.weighted_moments({X}, [1], tf.zeros([2, 3]))",
    "stats:weighted_f16":
        f"tf.nn.weighted_moments(tf.cast({X}, tf.float16), [1], tf.ones([2, 3], tf.float16))",
    "stats:bngn": f"tf.nn.batch_norm_with_global_normalization({X}, *{BN}, 0.001, True)",
    "stats:bngn_noscale": f"tf.nn.batch_norm_with_global_normalization({X}, *{BN}, 0.001, False)",
    "loss:average": "tf.nn.compute_average_loss([1., 2., 3.])",
    "loss:average_gbs": "tf.nn.compute_average_loss([1., 2., 3.], global_batch_size=6)",
    "loss:average_weight": "tf.nn.compute_average_loss([1., 2., 3.], sample_weight=[1., 0., 2.])",
    "loss:average_rows": "tf.nn.compute_average_loss([[1., 2.], [3., 4.]], sample_weight=[1., 2.])",
    "loss:average_scalar_weight": "tf.nn.compute_average_loss([1., 2., 3.], sample_weight=2.0)",
    "loss:average_zero": "tf.nn.compute_average_loss([1., 2., 3.], global_batch_size=0)",
    "loss:average_int": "tf.nn.compute_average_loss(tf.constant([1, 2, 3]))",
    "loss:average_float_gbs": "tf.nn.compute_average_loss([1.], global_batch_size=2.5)",
    "loss:average_neg_gbs": "tf.nn.compute_average_loss([1.], global_batch_size=-1)",
    "loss:average_rank0": "tf.nn.compute_average_loss(2.0)",
    "loss:scale_reg": "tf.nn.scale_regularization_loss([tf.constant(3.), tf.constant(1.)])",
    "act:crelu": f"tf.nn.crelu({X})",
    "act:crelu_axis": f"tf.nn.crelu({X}, axis=0)",
    "act:crelu_int": "tf.nn.crelu(tf.constant([1, -2]))",
    "loss:poisson": "tf.nn.log_poisson_loss([0., 1., 3.], [0.5, -1., 2.])",
    "loss:poisson_full": "tf.nn.log_poisson_loss([0., 1., 3.], [0.5, -1., 2.], "
                         "compute_full_loss=True)",
    "loss:poisson_shape": "tf.nn.log_poisson_loss([0., 1.], [0.5, -1., 2.])",
    "lrn:values": f"tf.nn.lrn({IMG}, depth_radius=1, bias=1., alpha=0.5, beta=0.75)",
    "lrn:default": "tf.nn.local_response_normalization(tf.reshape(tf.range(1., 9.), [1, 1, 1, 8]))",
    "lrn:f16": "tf.nn.lrn(tf.ones([1, 1, 1, 3], tf.float16))",
    "lrn:rank3": "tf.nn.lrn(tf.ones([1, 2, 3]))",
    "lrn:f64": "tf.nn.lrn(tf.ones([1, 1, 1, 3], tf.float64))",
    "topk:in_top_k": f"tf.nn.in_top_k([0, 2, 1], {P}, 1)",
    "topk:in_top_k_2": f"tf.nn.in_top_k(tf.constant([0, 2, 1], tf.int64), {P}, 2)",
    "topk:in_top_k_bad": "tf.nn.in_top_k([5, 0, 1], [[0.1, 0.5], [float('nan'), 0.5], "
                         "[float('inf'), 0.5]], 2)",
    "topk:in_top_k_f64": "tf.nn.in_top_k([0], tf.constant([[0.1, 0.5]], tf.float64), 1)",
    "topk:approx_max": "tf.nn.approx_max_k([[1., 5., 3., 2.], [4., 0., 9., 1.]], 2)",
    "topk:approx_max_ties": "tf.nn.approx_max_k([[1., 5., 5., 2.]], 2)",
    "topk:approx_max_f16": "tf.nn.approx_max_k(tf.constant([[1., 5., 3.]], tf.float16), 2)",
    "topk:approx_max_int": "tf.nn.approx_max_k(tf.constant([[1, 5, 3]]), 2)",
    "topk:approx_max_big_k": "tf.nn.approx_max_k([[1., 5., 3.]], 4)",
    # on a CPU, TF 2.21 runs these two only through XLA
    "topk:approx_min_xla": "tf.function(lambda v: tf.nn.approx_min_k(v, 2), jit_compile=True)("
                           "tf.constant([[1., 5., 1., 2.], [4., 0., 9., 1.]]))",
    "topk:approx_max_axis_xla": "tf.function(lambda v: tf.nn.approx_max_k(v, 2, "
                                "reduction_dimension=1), jit_compile=True)("
                                "tf.reshape(tf.range(24.), [2, 3, 4]))",
    # test_nn_ctc.py
    "ctc:dense": f"tf.nn.ctc_loss({LAB}, {LOG}, [2, 2], [5, 4])",
    "ctc:dense_blank_last": f"tf.nn.ctc_loss({LAB}, {LOG}, [2, 2], [5, 4], blank_index=-1)",
    "ctc:dense_blank_2": f"tf.nn.ctc_loss([[1, 3, 0], [3, 3, 0]], {LOG}, [2, 2], [5, 4], "
                         "blank_index=2)",
    "ctc:dense_batch_major": f"tf.nn.ctc_loss({LAB}, tf.transpose({LOG}, [1, 0, 2]), [2, 2], "
                             "[5, 4], logits_time_major=False)",
    "ctc:dense_f16": f"tf.nn.ctc_loss({LAB}, tf.cast({LOG}, tf.float16), [2, 2], [5, 4])",
    "ctc:dense_f64": f"tf.nn.ctc_loss({LAB}, tf.cast({LOG}, tf.float64), [2, 2], [5, 4])",
    "ctc:dense_empty_label": f"tf.nn.ctc_loss({LAB}, {LOG}, [0, 1], [5, 4])",
    "ctc:dense_unique": f"tf.nn.ctc_loss({LAB}, {LOG}, [2, 2], [5, 4], "
                        f"unique=tf.nn.ctc_unique_labels({LAB}))",
    "ctc:sparse_blank_0": f"tf.nn.ctc_loss({SP}, {LOG}, None, [5, 4], blank_index=0)",
    "ctc:sparse_blank_last": f"tf.nn.ctc_loss({SP}, {LOG}, None, [5, 4], blank_index=-1)",
    "ctc:sparse_impossible": f"tf.nn.ctc_loss({SP1}, {LOG}[:3, :1], None, [3], blank_index=0)",
    "ctc:sparse_too_long": f"tf.nn.ctc_loss({SP1}, {LOG}[:2, :1], None, [2], blank_index=0)",
    "ctc:sparse_no_blank": f"tf.nn.ctc_loss({SP}, {LOG}, None, [5, 4])",
    "ctc:grad": f"grad(lambda x: tf.nn.ctc_loss({LAB}, x, [2, 2], [5, 4]), {LOG})",
    "ctc:grad_sparse": f"grad(lambda x: tf.nn.ctc_loss({SP}, x, None, [5, 4], blank_index=1), "
                       f"{LOG})",
    "ctc:greedy": f"tf.nn.ctc_greedy_decoder({LOG}, [5, 4])",
    "ctc:greedy_no_merge": f"tf.nn.ctc_greedy_decoder({LOG}, [5, 4], merge_repeated=False)",
    "ctc:greedy_blank_0": f"tf.nn.ctc_greedy_decoder({LOG}, [5, 4], blank_index=0)",
    "ctc:beam": f"tf.nn.ctc_beam_search_decoder({LOG}, [5, 4], beam_width=3, top_paths=2)",
    "ctc:beam_narrow": f"tf.nn.ctc_beam_search_decoder({LOG6}, [6, 5, 6], beam_width=2, "
                       "top_paths=2)",
    "ctc:beam_wide": f"tf.nn.ctc_beam_search_decoder({LOG6}, [6, 5, 6], top_paths=4)",
    "ctc:beam_uniform": "tf.nn.ctc_beam_search_decoder(tf.zeros([2, 1, 2]), [2], top_paths=2)",
    "ctc:beam_too_many": f"tf.nn.ctc_beam_search_decoder({LOG}, [5, 4], beam_width=2, "
                         "top_paths=3)",
    "ctc:unique": "tf.nn.ctc_unique_labels([[3, 4, 4, 3], [1, 1, 2, 0]])",
    "ctc:collapse": "tf.nn.collapse_repeated([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]], [5, 2])",
    # test_nn_embedding.py
    "emb:lookup": f"tf.nn.embedding_lookup({TAB}, [[0, 4], [2, 2]])",
    "emb:lookup_div2": f"tf.nn.embedding_lookup([{TAB}[:3], {TAB}[3:]], [4, 0, 3, 2, 1])",
    "emb:lookup_div3": f"tf.nn.embedding_lookup([{TAB}[:2], {TAB}[2:4], {TAB}[4:]], [4, 2, 0])",
    "emb:lookup_uneven": f"tf.nn.embedding_lookup([{TAB}[:2], {TAB}[2:]], [0, 1, 2, 3, 4])",
    "emb:lookup_max_norm": f"tf.nn.embedding_lookup({TAB}, [0, 4], max_norm=5.0)",
    "emb:lookup_max_norm_3d": "tf.nn.embedding_lookup(tf.reshape(tf.range(12.), [3, 2, 2]), "
                              "[[0], [2]], max_norm=5.0)",
    "emb:lookup_empty": "tf.nn.embedding_lookup([], [0])",
    "emb:lookup_grad": f"grad(lambda t: tf.nn.embedding_lookup([t[:3], t[3:]], [4, 4, 1], "
                       f"max_norm=6.0), {TAB})",
    "emb:sparse_sum": f"tf.nn.embedding_lookup_sparse({TAB}, {IDS}, None, combiner='sum')",
    "emb:sparse_mean": f"tf.nn.embedding_lookup_sparse({TAB}, {IDS}, {WTS})",
    "emb:sparse_sqrtn": f"tf.nn.embedding_lookup_sparse({TAB}, {IDS}, {WTS}, combiner='sqrtn')",
    "emb:sparse_sqrtn_plain": f"tf.nn.embedding_lookup_sparse({TAB}, {IDS}, None, "
                              "combiner='sqrtn')",
    "emb:sparse_max_norm": f"tf.nn.embedding_lookup_sparse({TAB}, {IDS}, {WTS}, max_norm=3.0)",
    "emb:sparse_split": f"tf.nn.embedding_lookup_sparse([{TAB}[:3], {TAB}[3:]], {IDS}, {WTS})",
    "emb:sparse_bad_combiner": f"tf.nn.embedding_lookup_sparse({TAB}, {IDS}, None, 'max')",
    "emb:sparse_dense_ids": f"tf.nn.embedding_lookup_sparse({TAB}, tf.constant([[1]]), None)",
    "emb:safe_sum": f"tf.nn.safe_embedding_lookup_sparse({TAB}, {IDS2}, None, combiner='sum')",
    "emb:safe_mean": f"tf.nn.safe_embedding_lookup_sparse({TAB}, {IDS2}, {WTS2})",
    "emb:safe_w_sum": f"tf.nn.safe_embedding_lookup_sparse({TAB}, {IDS2}, {WTS2}, "
                      "combiner='sum')",
    "emb:safe_sqrtn": f"tf.nn.safe_embedding_lookup_sparse({TAB}, {IDS2}, None, "
                      "combiner='sqrtn')",
    "emb:safe_default": f"tf.nn.safe_embedding_lookup_sparse({TAB}, {IDS2}, {WTS2}, "
                        "default_id=4)",
    "emb:safe_max_norm": f"tf.nn.safe_embedding_lookup_sparse({TAB}, {IDS2}, {WTS2}, "
                         "max_norm=2.0)",
    "emb:safe_3d": "tf.nn.safe_embedding_lookup_sparse(" + TAB + ", tf.SparseTensor([[0, 0, 0], "
                   "[0, 1, 1], [1, 0, 0]], tf.constant([1, 2, 4], tf.int64), [2, 2, 3]))",
    "emb:safe_none": f"tf.nn.safe_embedding_lookup_sparse(None, {IDS2})",
    "emb:safe_grad": f"grad(lambda t: tf.nn.safe_embedding_lookup_sparse(t, {IDS2}, {WTS2}, "
                     f"combiner='sqrtn') * [[1., 2.]], {TAB})",
    # test_nn_image_ops.py
    "morph:dilation": f"tf.nn.dilation2d({IM}, {KER}, [1, 1, 1, 1], 'VALID', 'NHWC', [1, 1, 1, 1])",
    "morph:dilation_same": f"tf.nn.dilation2d({IM}, {KER}, [1, 2, 2, 1], 'SAME', 'NHWC', "
                           "[1, 2, 1, 1])",
    "morph:erosion": f"tf.nn.erosion2d({IM}, {KER}, [1, 2, 1, 1], 'SAME', 'NHWC', [1, 1, 2, 1])",
    "morph:dilation_int": f"tf.nn.dilation2d(tf.cast({IM} * 4, tf.int32), tf.cast({KER} * 4, "
                          "tf.int32), [1, 1, 1, 1], 'VALID', 'NHWC', [1, 1, 1, 1])",
    "morph:dilation_nchw": f"tf.nn.dilation2d({IM}, {KER}, [1, 1, 1, 1], 'VALID', 'NCHW', "
                           "[1, 1, 1, 1])",
    "morph:dilation_depth": f"tf.nn.dilation2d({IM}, {KER}[:, :, :1], [1, 1, 1, 1], 'VALID', "
                            "'NHWC', [1, 1, 1, 1])",
    "morph:dilation_batch_stride": f"tf.nn.dilation2d({IM}, {KER}, [2, 1, 1, 1], 'VALID', "
                                   "'NHWC', [1, 1, 1, 1])",
    "morph:grad": f"[grad(lambda v: tf.nn.erosion2d(v, {KER}, [1, 2, 1, 1], 'SAME', 'NHWC', "
                  f"[1, 1, 2, 1]), {IM}), grad(lambda k: tf.nn.dilation2d({IM}, k, [1, 1, 1, 1], "
                  f"'VALID', 'NHWC', [1, 1, 1, 1]), {KER})]",
    "iso:plain": "tf.nn.isotonic_regression([[1., 3., 2., 4.], [4., 1., 2., 0.]])",
    "iso:increasing": "tf.nn.isotonic_regression([[1., 3., 2., 4.], [4., 1., 2., 0.]], "
                      "decreasing=False)",
    "iso:axis0": "tf.nn.isotonic_regression([[1., 3.], [3., 2.], [2., 5.]], axis=0)",
    "iso:ties": "tf.nn.isotonic_regression([[2., 2., 2., 1.]])",
    "iso:int": "tf.nn.isotonic_regression(tf.constant([[1, 3, 2]]))",
    "iso:int8": "tf.nn.isotonic_regression(tf.constant([[1, 3, 2]], tf.int8))",
    "iso:f16": "tf.nn.isotonic_regression(tf.constant([[1., 3, 2]], tf.float16))",
    "iso:random": "tf.nn.isotonic_regression(tf.constant(np.random.default_rng(5).normal("
                  "size=(2, 3, 9)).astype(np.float32)), axis=1)",
    "iso:grad": "grad(lambda y: tf.nn.isotonic_regression(y)[0] * [[1., 2., 3., 4., 5.]], "
                "tf.constant([[1., 3., 2., 4., 0.5]]))",
    "atrous_t:valid": f"tf.nn.atrous_conv2d_transpose({IM}, {FLT}, [1, 6, 7, 3], 2, 'VALID')",
    "atrous_t:same": f"tf.nn.atrous_conv2d_transpose({IM}, {FLT}, [1, 4, 5, 3], 2, 'SAME')",
    "atrous_t:rate3": f"tf.nn.atrous_conv2d_transpose({IM}, {FLT}, [1, 4, 5, 3], 3, 'SAME')",
    "atrous_t:rate1": f"tf.nn.atrous_conv2d_transpose({IM}, {FLT}, [1, 5, 6, 3], 1, 'VALID')",
    "atrous_t:rate0": f"tf.nn.atrous_conv2d_transpose({IM}, {FLT}, [1, 5, 6, 3], 0, 'VALID')",
    "atrous_t:bad_out": f"tf.nn.atrous_conv2d_transpose({IM}, {FLT}, [1, 5, 6, 4], 2, 'VALID')",
    # test_nn_experimental.py (stateless_dropout's numbers are minitf's own: random_ops.py)
    "exp:general_dropout": "tf.nn.experimental.general_dropout(tf.reshape(tf.range(1., 9.), "
                           "[2, 4]), 0.4, lambda shape, dtype: tf.reshape(tf.cast(tf.range(8), "
                           "dtype) / 8.0, shape))",
    "exp:general_dropout_noise": "tf.nn.experimental.general_dropout(tf.ones([2, 4]), 0.5, "
                                 "lambda shape, dtype: tf.reshape(tf.cast(tf.range(4), dtype) "
                                 "/ 4.0, shape), noise_shape=[1, 4])",
    "exp:stateless_rate_1": "tf.nn.experimental.stateless_dropout(tf.ones([2]), 1.0, [1, 2])",
    "exp:stateless_int": "tf.nn.experimental.stateless_dropout(tf.ones([2], tf.int32), 0.5, "
                         "[1, 2])",
    # test_nn_with_space_to_batch.py
    "s2b:same": f"tf.nn.with_space_to_batch({S2B_X}, [2, 3], 'SAME', {S2B_CONV}, [3, 2])",
    "s2b:valid": f"tf.nn.with_space_to_batch({S2B_X}, [2, 3], 'VALID', {S2B_CONV})",
    "s2b:pool": f"tf.nn.with_space_to_batch({S2B_X}, [2, 2], 'VALID', lambda i, n, p: "
                "tf.nn.max_pool2d(i, 2, 1, p))",
    "s2b:no_filter": f"tf.nn.with_space_to_batch({S2B_X}, [2, 2], 'SAME', {S2B_CONV})",
    "s2b:bad_padding": f"tf.nn.with_space_to_batch({S2B_X}, [2, 2], 'FULL', {S2B_CONV})",
    # test_nn_rnn_cell_wrappers.py (TF 2.21: Keras 2's wrappers around a Keras 3 cell)
    "rnn:residual": f"tf.nn.RNNCellResidualWrapper({CELL})({RX}, {RH})",
    "rnn:residual_fn": f"tf.nn.RNNCellResidualWrapper({CELL}, lambda i, o: i * o)({RX}, {RH})",
    "rnn:device": f"tf.nn.RNNCellDeviceWrapper({CELL}, '/cpu:0')({RX}, {RH})",
    "rnn:dropout_keep_all": f"tf.nn.RNNCellDropoutWrapper({CELL})({RX}, {RH})",
    "rnn:sizes": f"[tf.nn.RNNCellResidualWrapper({CELL}).state_size, "
                 f"tf.nn.RNNCellDropoutWrapper({CELL}).output_size]",
    "rnn:bad_keep": f"tf.nn.RNNCellDropoutWrapper({CELL}, output_keep_prob=-0.5)",
    "rnn:variational_no_dtype": f"tf.nn.RNNCellDropoutWrapper({CELL}, "
                                "variational_recurrent=True)",
    "rnn:not_a_cell": "tf.nn.RNNCellResidualWrapper(3)",
    # tests/keras/test_ops_ctc.py
    "kops:ctc_loss": f"tf.keras.ops.ctc_loss({LAB}, {KLOG}, [2, 2], [5, 4])",
    "kops:ctc_loss_f64": f"tf.keras.ops.ctc_loss({LAB}, tf.cast({KLOG}, tf.float64), [2, 2], "
                         "[5, 4])",
    "kops:ctc_loss_mask": f"tf.keras.ops.nn.ctc_loss({LAB}, {KLOG}, [2, 2], [5, 4], "
                          "mask_index=3)",
    "kops:greedy": f"tf.keras.ops.ctc_decode({KLOG}, [5, 4])",
    "kops:greedy_no_merge": f"tf.keras.ops.ctc_decode({KLOG}, [5, 4], merge_repeated=False, "
                            "mask_index=2)",
    "kops:beam": f"tf.keras.ops.nn.ctc_decode({KLOG}, [5, 4], strategy='beam_search', "
                 "top_paths=2)",
    "kops:beam_mask": f"tf.keras.ops.ctc_decode({KLOG}, [5, 4], strategy='beam_search', "
                      "beam_width=3, top_paths=3, mask_index=2)",
    "kops:bad_strategy": f"tf.keras.ops.ctc_decode({KLOG}, [5, 4], strategy='max')",
}

# Fractional pooling draws its pooling sequences from TF's random generator, which minitf's
# is not: real TF's outputs, sequences and gradient come back, and minitf pools the same
# input over TF's sequences (test_fractional_pooling_over_tf_sequences).
FRACTIONAL = {f"{name}:{overlapping}:{pseudo}": f"pool_and_grad(tf.nn.fractional_{name}_pool, "
              f"{overlapping}, {pseudo})"
              for name in ("max", "avg") for overlapping in (False, True)
              for pseudo in (False, True)}
FRACTIONAL_INPUT = ("tf.constant(np.random.default_rng(4).normal(size=(2, 7, 9, 3))"
                    ".astype(np.float32))")

PLAIN = """
def plain(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "dense_shape"):
        return {"sparse": [plain(value.indices), plain(value.values), plain(value.dense_shape)]}
    array = np.asarray(value.numpy())
    return {"dtype": value.dtype.name, "shape": list(array.shape),
            "values": np.where(np.isnan(array), "nan", array).tolist()
            if array.dtype.kind == "f" else array.tolist()}


def grad(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tf.convert_to_tensor(tape.gradient(y, x))   # TF: IndexedSlices for a gather


def pool_and_grad(fn, overlapping, pseudo_random):
    x = """ + FRACTIONAL_INPUT + """
    with tf.GradientTape() as tape:
        tape.watch(x)
        out, rows, cols = fn(x, [1.0, 1.6, 1.4, 1.0], pseudo_random, overlapping, seed=5)
        loss = tf.reduce_sum(out * tf.reshape(tf.range(tf.size(out), dtype=tf.float32),
                                              tf.shape(out)))
    return [out, rows, cols, tape.gradient(loss, x)]


def run(code):
    try:
        return plain(eval(code))
    except Exception as exc:  # the error class is part of the behaviour compared
        return {"error": type(exc).__name__}
"""
exec(PLAIN)


def same(mine, theirs):
    if isinstance(theirs, dict) and "values" in theirs and isinstance(mine, dict):
        if mine.get("dtype") != theirs["dtype"] or mine.get("shape") != theirs["shape"]:
            return False
        if theirs["dtype"].startswith(("float", "bfloat")):
            a, b = (np.array(v["values"], dtype=object) for v in (mine, theirs))
            nan_a, nan_b = a == "nan", b == "nan"
            if (nan_a != nan_b).any():
                return False
            tol = 2e-3 if theirs["dtype"] == "float16" else 2e-6
            return np.allclose(np.where(nan_a, 0, a).astype(float),
                               np.where(nan_b, 0, b).astype(float), rtol=tol, atol=tol)
        return mine["values"] == theirs["values"]
    if isinstance(theirs, dict) and isinstance(mine, dict):
        return mine.keys() == theirs.keys() and all(same(mine[k], theirs[k]) for k in theirs)
    if isinstance(theirs, list) and isinstance(mine, list):
        return len(mine) == len(theirs) and all(same(a, b) for a, b in zip(mine, theirs))
    if isinstance(theirs, float) and isinstance(mine, float):
        return np.isclose(mine, theirs, rtol=2e-6)
    return mine == theirs


@pytest.fixture(scope="module")
def real():
    lines = "\n".join(f"out[{k!r}] = run({v!r})" for k, v in {**CASES, **FRACTIONAL}.items())
    return run_tf_json(f"""
import json, numpy as np, tensorflow as tf
{PLAIN}
out = {{}}
{lines}
print(json.dumps(out))
""")


@pytest.mark.parametrize("key", sorted(CASES))
def test_same_as_real_tf(real, key):
    mine = run(CASES[key])
    assert same(mine, real[key]), (CASES[key], mine, real[key])


@pytest.mark.parametrize("key", sorted(FRACTIONAL))
def test_fractional_pooling_over_tf_sequences(real, key):
    from minitf.ops.nn_fractional_pool_ops import (_avg_grad_forward, _max_grad_forward,
                                                   pool)
    mode, overlapping, _ = key.split(":")
    out, rows, cols, grad = real[key]
    rows, cols = np.array(rows["values"]), np.array(cols["values"])
    x = eval(FRACTIONAL_INPUT).numpy()
    mine, where = pool(x, rows, cols, overlapping == "True", mode)
    dy = np.arange(mine.size, dtype=np.float32).reshape(mine.shape)
    mine_grad = _max_grad_forward(dy, where, 7, 9) if mode == "max" else \
        _avg_grad_forward(dy, rows, cols, 7, 9, overlapping == "True")
    assert same(plain(tf.constant(mine)), out) and same(plain(tf.constant(mine_grad)), grad)
    assert rows[0] == 0 and rows[-1] == 7 and len(rows) == 5 and set(np.diff(rows)) <= {1, 2}


def test_comparison_can_fail():
    assert not same(run("tf.constant([1., 2.])"), run("tf.constant([1., 2.5])"))
    assert not same(run("tf.constant([1, 2])"), run("tf.constant([1., 2.])"))
    assert not same(run("tf.constant([1., float('nan')])"), run("tf.constant([1., 2.])"))
    assert not same(run("tf.nn.lrn(tf.ones([3]))"), run("tf.nn.lrn(tf.ones([1, 1, 1, 3]))"))
