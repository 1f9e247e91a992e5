"""Sampled losses for many classes: `tf.nn.sampled_softmax_loss` and `tf.nn.nce_loss`.

With 100,000 classes a full softmax costs 100,000 logits per example. A
sampled loss computes the logits of the true class(es) and of `num_sampled`
classes drawn by a candidate sampler (log-uniform by default), subtracts
log(expected count) from each (which corrects for the sampling), and then
uses a softmax (sampled_softmax_loss) or one sigmoid per logit (nce_loss).
TF's `_compute_sampled_logits`, step by step:

    logits = inputs @ weights[ids].T + biases[ids]   (ids = true classes, then sampled)
    logits -= log(expected counts)
    labels = [1/num_true for true columns, 0 for sampled ones]

With `remove_accidental_hits`, a sampled class equal to a true class gets
-FLT_MAX added to its logit, so it drops out of the softmax. Gradients reach
`weights`, `biases` and `inputs` (the sampled ids do not need one).

>>> import minitf as tf
>>> weights, biases = tf.ones([10, 3]), tf.zeros([10])
>>> labels, inputs = tf.constant([[2], [7]]), tf.ones([2, 3])
>>> sampled = tf.random.uniform_candidate_sampler(tf.cast(labels, tf.int64), 1, 4, True, 10,
...                                               seed=1)
>>> tf.nn.sampled_softmax_loss(weights, biases, labels, inputs, 4, 10,
...                            sampled_values=sampled).shape
TensorShape([2])

Numbers equal TF's for the same `sampled_values` (tests check them against
real TF); without them the sampled classes differ from TF's draws.
"""
from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import concat, expand_dims, reshape
from .creation_ops import ones_like, stop_gradient, zeros_like
from .gather_ops import gather
from .linalg_ops import matmul
from .math_ops import cast, log
from .nn_losses import sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits
from .random_candidate_ops import compute_accidental_hits, log_uniform_candidate_sampler
from .reduction_ops import reduce_sum
from .scatter_ops import scatter_nd


def _lookup(params, ids):
    """TF's embedding_lookup with partition_strategy "div": a list of shards is one table
    split into consecutive row blocks."""
    if isinstance(params, (list, tuple)):
        params = concat(list(params), axis=0) if len(params) > 1 else params[0]
    return gather(params, ids)


def _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes,
                            num_true, sampled_values, remove_accidental_hits, seed=None):
    inputs = convert_to_tensor(inputs)
    labels = cast(convert_to_tensor(labels), dtypes.int64)
    labels_flat = reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True,
                                                       num_classes, seed=seed)
    sampled, true_expected, sampled_expected = (stop_gradient(s) for s in sampled_values)
    sampled = cast(sampled, dtypes.int64)
    n_true = labels_flat.shape[0]
    all_w = cast(_lookup(weights, concat([labels_flat, sampled], 0)), inputs.dtype)
    all_b = cast(_lookup(biases, concat([labels_flat, sampled], 0)), inputs.dtype)
    true_w, sampled_w = all_w[:n_true], all_w[n_true:]
    sampled_logits = matmul(inputs, sampled_w, transpose_b=True) + all_b[n_true:]
    dim = true_w.shape[-1]
    rows = expand_dims(inputs, 1) * reshape(true_w, [-1, num_true, dim])
    true_logits = reduce_sum(rows, axis=2) + reshape(all_b[:n_true], [-1, num_true])
    if remove_accidental_hits:
        hits = compute_accidental_hits(labels, sampled, num_true=num_true)
        where = concat([reshape(cast(hits.indices, dtypes.int64), [-1, 1]),
                        reshape(hits.ids, [-1, 1])], 1)
        sampled_logits = sampled_logits + scatter_nd(
            where, cast(hits.weights, sampled_logits.dtype),
            [labels.shape[0], int(num_sampled)])
    true_logits = true_logits - log(cast(true_expected, true_logits.dtype))
    sampled_logits = sampled_logits - log(cast(sampled_expected, sampled_logits.dtype))
    logits = concat([true_logits, sampled_logits], 1)
    out_labels = concat([ones_like(true_logits) / num_true, zeros_like(sampled_logits)], 1)
    return logits, stop_gradient(out_labels)


@tf_export("nn.sampled_softmax_loss")
def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                         sampled_values=None, remove_accidental_hits=True, seed=None,
                         name="sampled_softmax_loss"):
    """The softmax cross-entropy over the true class and `num_sampled` sampled classes
    (module docstring), one loss per example. For training only: evaluate with the full
    softmax.

    weights: [num_classes, dim] (or a list of row blocks); biases: [num_classes];
    labels: int [batch, num_true]; inputs: [batch, dim].
    """
    logits, labels = _compute_sampled_logits(weights, biases, labels, inputs, num_sampled,
                                             num_classes, num_true, sampled_values,
                                             remove_accidental_hits, seed)
    return softmax_cross_entropy_with_logits(labels=labels, logits=logits)


@tf_export("nn.nce_loss")
def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, name="nce_loss"):
    """Noise-contrastive estimation: a sigmoid cross-entropy per logit (true classes
    labelled 1/num_true, sampled ones 0), summed per example.

    >>> w, b = tf.zeros([5, 2]), tf.zeros([5])
    >>> s = tf.random.all_candidate_sampler([[0]], 1, 5, True)
    >>> loss = tf.nn.nce_loss(w, b, [[0]], tf.ones([1, 2]), 5, 5, sampled_values=s)
    >>> round(float(loss[0]), 4)                   # 6 logits of 0: 6 * log(2)
    4.1589
    """
    logits, labels = _compute_sampled_logits(weights, biases, labels, inputs, num_sampled,
                                             num_classes, num_true, sampled_values,
                                             remove_accidental_hits)
    return reduce_sum(sigmoid_cross_entropy_with_logits(labels=labels, logits=logits), axis=1)
