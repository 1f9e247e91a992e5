"""CTC decoders in `tf.nn`: from per-step class scores to label sequences.

* `ctc_greedy_decoder` takes the best class at every step, merges repeats and
  drops blanks: fast, and optimal only when one path dominates.
* `ctc_beam_search_decoder` keeps the `beam_width` most probable label *prefixes*
  (each the sum over all its paths) and extends them step by step.

>>> import minitf as tf
>>> logits = tf.math.log([[[0.1, 0.9]], [[0.6, 0.4]]])   # [steps, batch, classes]; blank last
>>> (decoded,), neg_sum_logits = tf.nn.ctc_greedy_decoder(logits, [2])
>>> tf.sparse.to_dense(decoded).numpy()
array([[0]])

Both return a list of SparseTensors (one per path: indices [n, 2], int64 values,
dense_shape [batch, longest]) and a [batch, paths] tensor of scores, as TF's
CTCGreedyDecoder and CTCBeamSearchDecoder kernels do; neither has a gradient.
The beam search follows TF's CPU kernel step for step (its prefix tree, its
pruning and when it revives a pruned prefix), so the same beams win ties of
probability only where TF's heap happens to order them the same way.
"""
import math

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import concat
from .math_ops import cast, where
from .sparse_tensor import SparseTensor

_ZERO = -math.inf  # log(0)


def _check_inputs(op_name, inputs, sequence_length):
    if inputs.ndim != 3:
        raise errors.op_error(errors.InvalidArgumentError, op_name, "inputs is not a 3-Tensor",
                              "inputs is [max_time, batch_size, num_classes].")
    if sequence_length.ndim != 1 or sequence_length.shape[0] != inputs.shape[1]:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              "len(sequence_length) != batch_size.  len(sequence_length):  "
                              f"{sequence_length.size} batch_size: {inputs.shape[1]}",
                              "Give one length per example.")
    for b, length in enumerate(sequence_length):
        if length > inputs.shape[0]:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"sequence_length({b}) <= {inputs.shape[0]}",
                                  "No example can be longer than max_time.")


def _sparse_parts(paths):
    """Label lists -> (indices, values, dense_shape) of one SparseTensor, all int64."""
    indices = [[b, i] for b, path in enumerate(paths) for i in range(len(path))]
    values = [label for path in paths for label in path]
    longest = max((len(p) for p in paths), default=0)
    return (np.array(indices, np.int64).reshape(-1, 2), np.array(values, np.int64),
            np.array([len(paths), longest], np.int64))


def _decoder_shapes(inputs, sequence_length, paths=1, **attrs):
    batch = inputs.dims[1] if inputs.rank else None
    sparse = [TensorShape([None, 2]), TensorShape([None]), TensorShape([2])]
    return tuple(sparse * paths) + (TensorShape([batch, paths]),)


def _decoder_dtypes(inputs, sequence_length, paths=1, **attrs):
    return (dtypes.int64,) * (3 * paths) + (inputs,)


def _decoded(outputs, paths):
    return [SparseTensor(*outputs[3 * i:3 * i + 3]) for i in range(paths)], outputs[-1]


# --- greedy ------------------------------------------------------------------------------------
def _greedy_forward(inputs, sequence_length, merge_repeated, paths=1):
    _check_inputs("CTCGreedyDecoder", inputs, sequence_length)
    blank = inputs.shape[2] - 1
    decoded, scores = [], np.zeros((inputs.shape[1], 1), inputs.dtype)
    for b in range(inputs.shape[1]):
        best = np.argmax(inputs[:sequence_length[b], b], axis=-1)   # first maximum
        scores[b, 0] = -inputs[np.arange(len(best)), b, best].sum()
        sequence, previous = [], None
        for label in best.tolist():
            if label != blank and not (merge_repeated and label == previous):
                sequence.append(label)
            previous = label                       # a blank separates two repeats
        decoded.append(sequence)
    return _sparse_parts(decoded) + (scores,)


CTCGreedyDecoder = Op("CTCGreedyDecoder", _greedy_forward, dtypes={dtypes.float32, dtypes.float64},
                      typed=(0,), num_outputs=4, shape=_decoder_shapes, dtype=_decoder_dtypes)


def _blank_last(inputs, blank_index):
    """TF's renumbering: the blank class moves last; returns a function for the labels."""
    num_classes = inputs.shape[-1]
    if blank_index is None or blank_index == -1 or blank_index == num_classes - 1:
        return inputs, None
    blank = blank_index + num_classes if blank_index < 0 else blank_index
    inputs = concat([inputs[:, :, :blank], inputs[:, :, blank + 1:],
                     inputs[:, :, blank:blank + 1]], 2)
    return inputs, blank


@tf_export("nn.ctc_greedy_decoder")
def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """Best class per step, repeats merged (if merge_repeated), blanks dropped.

    inputs: [max_time, batch_size, num_classes] logits; sequence_length [batch_size].
    blank_index: the blank class (default: the last one; negative counts from the end).
    Returns ([SparseTensor of int64 labels], neg_sum_logits [batch_size, 1]): minus the
    sum over steps of each step's largest logit.

    >>> (decoded,), score = tf.nn.ctc_greedy_decoder(tf.math.log([[[0.1, 0.9]]]), [1],
    ...                                              blank_index=0)
    >>> decoded.values.numpy(), score.numpy().round(4)
    (array([1]), array([[0.1054]], dtype=float32))
    """
    inputs = convert_to_tensor(inputs)
    sequence_length = cast(convert_to_tensor(sequence_length), dtypes.int32)
    inputs, moved_blank = _blank_last(inputs, blank_index)
    outputs = apply(CTCGreedyDecoder, [inputs, sequence_length],
                    {"merge_repeated": bool(merge_repeated)})
    (decoded,), scores = _decoded(outputs, 1)
    if moved_blank is not None:  # labels above the blank move back up by one
        values = decoded.values
        decoded = SparseTensor(decoded.indices,
                               where(values >= moved_blank, values + 1, values),
                               decoded.dense_shape)
    return [decoded], scores


# --- beam search ---------------------------------------------------------------------------------
class _Probability:
    """Log-probabilities of a prefix: ending in a blank, ending in its last label, total."""

    __slots__ = ("blank", "label", "total")

    def __init__(self):
        self.reset()

    def reset(self):
        self.blank = self.label = self.total = _ZERO

    def copy(self):
        p = _Probability()
        p.blank, p.label, p.total = self.blank, self.label, self.total
        return p


class _Beam:
    """One node of the prefix tree: a label prefix, as TF's BeamEntry."""

    __slots__ = ("parent", "label", "children", "oldp", "newp")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, None
        self.oldp, self.newp = _Probability(), _Probability()

    def active(self):
        return self.newp.total != _ZERO

    def labels(self):
        out, node = [], self
        while node.parent is not None:
            out.append(node.label)
            node = node.parent
        return out[::-1]


def _log_sum_exp(a, b):
    if a == _ZERO:
        return b
    if b == _ZERO:
        return a
    high = max(a, b)
    return high + math.log1p(math.exp(-abs(a - b)))


class _Leaves:
    """TF's TopN of beams: at most `width`, smallest at the bottom."""

    def __init__(self, width):
        self.width, self.items = width, []

    def bottom(self):
        return min(self.items, key=lambda beam: beam.newp.total)

    def is_candidate(self, probability):
        return probability.total > _ZERO and (
            len(self.items) < self.width or probability.total > self.bottom().newp.total)

    def push(self, beam):
        if len(self.items) == self.width:
            bottom = self.bottom()
            bottom.newp.reset()          # it leaves the search, inactive
            self.items.remove(bottom)
        self.items.append(beam)

    def extract(self):
        items, self.items = sorted(self.items, key=lambda beam: -beam.newp.total), []
        return items


def _extend_label_probabilities(beam, scores):
    """Pass 1: the prefix stays (its last label repeats, or a blank follows)."""
    if beam.parent is not None:
        if beam.parent.active():
            parent = beam.parent.oldp
            previous = parent.blank if beam.label == beam.parent.label else parent.total
            beam.newp.label = _log_sum_exp(beam.oldp.label, previous)
        else:
            beam.newp.label = beam.oldp.label
        beam.newp.label += scores[beam.label]
    beam.newp.blank = beam.oldp.total + scores[-1]
    beam.newp.total = _log_sum_exp(beam.newp.blank, beam.newp.label)


def _extend_children(beam, scores, leaves):
    """Pass 2: the prefix grows by one label."""
    if beam.children is None:
        beam.children = [_Beam(beam, label) for label in range(len(scores) - 1)]
    for child in beam.children:
        if child.active():
            continue
        child.newp.blank = _ZERO
        previous = beam.oldp.blank if child.label == beam.label else beam.oldp.total
        child.newp.label = child.newp.total = scores[child.label] + previous
        if leaves.is_candidate(child.newp):
            leaves.push(child)
        else:
            child.oldp.reset()
            child.newp.reset()


def _beam_search(steps, beam_width, top_paths):
    """TF's CTCBeamSearchDecoder on one example: steps [time, classes] of logits."""
    root = _Beam(None, -1)
    root.newp.total = root.newp.blank = 0.0
    leaves = _Leaves(beam_width)
    leaves.push(root)
    for row in steps:
        shifted = row.astype(np.float64) - row.max()
        scores = (shifted - np.log(np.exp(shifted).sum())).tolist()     # log-softmax
        branches = leaves.extract()
        for beam in branches:
            beam.oldp = beam.newp.copy()
        for beam in branches:
            _extend_label_probabilities(beam, scores)
            leaves.push(beam)
        for beam in branches:
            if leaves.is_candidate(beam.oldp):
                _extend_children(beam, scores, leaves)
    best = leaves.extract()
    if len(best) < top_paths:
        raise errors.op_error(errors.InvalidArgumentError, "CTCBeamSearchDecoder",
                              "Less leaves in the beam search than requested.",
                              "Ask for fewer top_paths.")
    return [beam.labels() for beam in best[:top_paths]], [b.newp.total for b in best[:top_paths]]


def _beam_forward(inputs, sequence_length, beam_width, paths, merge_repeated=False):
    _check_inputs("CTCBeamSearchDecoder", inputs, sequence_length)
    if paths > beam_width:
        raise errors.op_error(errors.InvalidArgumentError, "CTCBeamSearchDecoder",
                              "requested more paths than the beam width.",
                              "top_paths cannot exceed beam_width.")
    found = [_beam_search(inputs[:sequence_length[b], b], beam_width, paths)
             for b in range(inputs.shape[1])]
    outputs = []
    for i in range(paths):
        outputs.extend(_sparse_parts([labels[i] for labels, _ in found]))
    scores = np.array([probs for _, probs in found], inputs.dtype).reshape(-1, paths)
    return tuple(outputs) + (scores,)


CTCBeamSearchDecoder = Op("CTCBeamSearchDecoder", _beam_forward,
                          dtypes={dtypes.float32, dtypes.float64}, typed=(0,), num_outputs=None,
                          shape=_decoder_shapes, dtype=_decoder_dtypes)


@tf_export("nn.ctc_beam_search_decoder")
def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """The top_paths most probable label sequences, by a beam search over prefixes.

    inputs: [max_time, batch_size, num_classes] logits, the blank being the last class;
    repeats are not merged in the output (TF 2's merge_repeated=False). Returns
    (decoded: a list of top_paths SparseTensors, log_probabilities [batch, top_paths]):
    each prefix's log-probability summed over its paths, as far as the beam kept them.

    >>> logits = tf.zeros([2, 1, 2])          # classes {0, blank}, all paths equally likely
    >>> decoded, log_probs = tf.nn.ctc_beam_search_decoder(logits, [2], top_paths=2)
    >>> [d.values.numpy().tolist() for d in decoded], log_probs.numpy().round(4)
    ([[0], []], array([[-0.2877, -1.3863]], dtype=float32))
    """
    inputs = convert_to_tensor(inputs)
    sequence_length = cast(convert_to_tensor(sequence_length), dtypes.int32)
    top_paths = int(top_paths)
    outputs = apply(CTCBeamSearchDecoder, [inputs, sequence_length],
                    {"beam_width": int(beam_width), "paths": top_paths})
    return _decoded(outputs, top_paths)
