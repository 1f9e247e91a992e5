"""`tf.keras.backend` control flow: rnn, switch, map_fn/foldl/foldr, gradients, CTC.

`rnn(step_function, inputs, initial_states)` is the loop under Keras 2's
recurrent layers: it calls `step_function(input_t, states)` for each time step
and returns `(last_output, outputs, new_states)`. With a `mask`, a masked step
keeps the previous output (or zeros with `zero_output_for_mask=True`) and the
previous states. Here it is a Python loop over the (static) time steps, so
`GradientTape` and `tf.function` see ordinary ops.

>>> import minitf as tf
>>> K = tf.keras.backend
>>> step = lambda x_t, states: (x_t + states[0], [x_t + states[0]])   # a running sum
>>> last, outputs, states = K.rnn(step, tf.ones((1, 3, 1)), [tf.zeros((1, 1))])
>>> outputs.numpy().ravel(), last.numpy()
(array([1., 2., 3.], dtype=float32), array([[3.]], dtype=float32))
"""
import minitf as tf

from ...framework.tf_export import tf_export
from . import _SETTINGS
from .array_ops import concatenate, reverse
from .state_ops import ndim


def _tile_mask(mask_t, value):
    """A (batch,) bool mask broadcast to value's shape."""
    mask_t = tf.reshape(mask_t, [-1] + [1] * (len(value.shape) - 1))
    return tf.broadcast_to(mask_t, tf.shape(value))


def _step_masks(mask, input_length, time_steps, go_backwards):
    """The per-step (batch,) bool masks, or None."""
    if mask is not None:
        mask = tf.cast(mask, tf.bool)
        if len(mask.shape) == 3:
            mask = mask[:, :, 0]
        masks = tf.unstack(mask, axis=1)
        return masks[::-1] if go_backwards else masks
    if isinstance(input_length, (tf.Tensor, tf.Variable)):
        if go_backwards:
            rev = tf.reduce_max(input_length) - 1 - input_length
            return [tf.less(rev, t) for t in range(time_steps)]
        return [tf.greater(input_length, t) for t in range(time_steps)]
    return None


@tf_export("keras.backend.rnn")
def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None,
        unroll=False, input_length=None, time_major=False, zero_output_for_mask=False,
        return_all_outputs=True):
    """Run `step_function` over the time axis; returns (last_output, outputs, new_states)."""
    inputs = tf.convert_to_tensor(inputs)
    if len(inputs.shape) < 3:
        raise ValueError(f"Shape {inputs.shape} must have rank at least 3")
    if time_major:
        inputs = tf.transpose(inputs, [1, 0] + list(range(2, len(inputs.shape))))
        if mask is not None:
            mask = tf.transpose(mask, [1, 0] + list(range(2, len(mask.shape))))
    steps = tf.unstack(inputs, axis=1)
    masks = _step_masks(mask, input_length, len(steps), go_backwards)
    if go_backwards:
        steps = steps[::-1]
    states, constants = tuple(initial_states), tuple(constants or ())
    outputs, prev = [], None
    for t, x_t in enumerate(steps):
        output, new_states = step_function(x_t, states + constants)
        new_states = tuple(tf.nest.flatten(new_states))
        if masks is not None:
            if prev is None:
                prev = tf.zeros_like(output)
            fallback = tf.zeros_like(output) if zero_output_for_mask else prev
            output = tf.where(_tile_mask(masks[t], output), output, fallback)
            new_states = tuple(tf.where(_tile_mask(masks[t], n), n, s)
                               for n, s in zip(new_states, states))
            prev = output
        states = new_states
        outputs.append(output)
    stacked = tf.stack(outputs if return_all_outputs else outputs[-1:], axis=0)
    if not time_major:
        stacked = tf.transpose(stacked, [1, 0] + list(range(2, len(stacked.shape))))
    return outputs[-1], stacked, states


@tf_export("keras.backend.switch")
def switch(condition, then_expression, else_expression):
    """A scalar condition picks a branch (callables allowed); a tensor one picks per entry."""
    condition = tf.convert_to_tensor(condition)
    if condition.dtype != tf.bool:
        condition = tf.cast(condition, "bool")
    cond_ndim = ndim(condition)
    if not cond_ndim:
        then_fn = then_expression if callable(then_expression) else lambda: then_expression
        else_fn = else_expression if callable(else_expression) else lambda: else_expression
        return tf.cond(condition, then_fn, else_fn)
    then_expression = then_expression() if callable(then_expression) else then_expression
    else_expression = else_expression() if callable(else_expression) else else_expression
    expr_ndim = ndim(then_expression)
    if cond_ndim > expr_ndim:
        raise ValueError("Rank of `condition` should be less than or equal to rank of "
                         "`then_expression` and `else_expression`. ndim(condition)="
                         f"{cond_ndim}, ndim(then_expression)={expr_ndim}")
    if cond_ndim > 1:
        condition = tf.reshape(condition, condition.shape.as_list() + [1] * (expr_ndim - cond_ndim))
        condition = tf.broadcast_to(condition, tf.shape(then_expression))
    return tf.where(condition, then_expression, else_expression)


@tf_export("keras.backend.map_fn")
def map_fn(fn, elems, name=None, dtype=None):
    """fn applied to each slice of elems along axis 0, stacked (tf.map_fn)."""
    return tf.map_fn(fn, elems, name=name, dtype=dtype)


@tf_export("keras.backend.foldl")
def foldl(fn, elems, initializer=None, name=None):
    """fn(acc, x) over elems from first to last (tf.foldl)."""
    return tf.foldl(fn, elems, initializer=initializer, name=name)


@tf_export("keras.backend.foldr")
def foldr(fn, elems, initializer=None, name=None):
    """fn(acc, x) over elems from last to first (tf.foldr)."""
    return tf.foldr(fn, elems, initializer=initializer, name=name)


@tf_export("keras.backend.gradients")
def gradients(loss, variables):
    """Graph-mode gradients (tf.gradients): only inside a tf.function; use GradientTape eagerly."""
    return tf.gradients(loss, variables)


@tf_export("keras.backend.ctc_label_dense_to_sparse")
def ctc_label_dense_to_sparse(labels, label_lengths):
    """The first label_lengths[i] labels of each row of a dense (batch, max_len) tensor, sparse."""
    labels = tf.convert_to_tensor(labels)
    max_len = tf.shape(labels)[1]
    keep = tf.less(tf.range(max_len)[None, :], tf.reshape(label_lengths, [-1, 1]))
    indices = tf.where(keep)
    return tf.SparseTensor(indices, tf.gather_nd(labels, indices),
                           tf.cast(tf.shape(labels), tf.int64))


@tf_export("keras.backend.ctc_batch_cost")
def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """Per-sample CTC loss, shape (batch, 1); y_pred are softmax outputs, the blank is last."""
    label_length = tf.cast(tf.squeeze(label_length, axis=-1), tf.int32)
    input_length = tf.cast(tf.squeeze(input_length, axis=-1), tf.int32)
    sparse_labels = tf.cast(ctc_label_dense_to_sparse(y_true, label_length), tf.int32)
    log_probs = tf.math.log(tf.transpose(y_pred, perm=[1, 0, 2]) + _SETTINGS["epsilon"])
    loss = tf.nn.ctc_loss(sparse_labels, log_probs, None, input_length, blank_index=-1)
    return tf.expand_dims(loss, 1)


@tf_export("keras.backend.ctc_decode")
def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """Best paths of softmax outputs as dense (batch, steps) tensors padded with -1; log-probs."""
    num_samples, num_steps = y_pred.shape[0], y_pred.shape[1]
    log_probs = tf.math.log(tf.transpose(y_pred, perm=[1, 0, 2]) + _SETTINGS["epsilon"])
    input_length = tf.cast(input_length, tf.int32)
    if greedy:
        decoded, log_prob = tf.nn.ctc_greedy_decoder(log_probs, input_length)
    else:
        decoded, log_prob = tf.nn.ctc_beam_search_decoder(log_probs, input_length,
                                                          beam_width=beam_width,
                                                          top_paths=top_paths)
    dense = [tf.sparse.to_dense(tf.SparseTensor(st.indices, st.values, (num_samples, num_steps)),
                                default_value=-1) for st in decoded]
    return dense, log_prob


del tf_export, concatenate, reverse
