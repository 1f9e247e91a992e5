"""Einstein summation: `tf.einsum("ij,jk->ik", a, b)`.

>>> import minitf as tf
>>> a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
>>> tf.einsum("ij,jk->ik", a, a)
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[ 7., 10.],
       [15., 22.]], dtype=float32)>
>>> tf.einsum("ii->", a)
<tf.Tensor: shape=(), dtype=float32, numpy=5.0>

Each input axis gets a letter. A letter that appears in several inputs is
multiplied along; a letter missing from the output is summed over; `...`
stands for leading (batch) axes, which broadcast. The Einsum op takes one or
two inputs; with more, `tf.einsum` contracts them two at a time.

The gradient is itself an einsum with the subscripts permuted (TensorFlow's
`_EinsumGrad`): for z = einsum("ab,bc->ac", x, y),
dx = einsum("ac,bc->ab", dz, y) and dy = einsum("ab,ac->bc", x, dz).
A letter only x has and the output lacks ("abc,cd->ad": b) was summed away,
so its gradient is first spread back out by broadcasting.
"""
import re
from collections import Counter

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import broadcast_to, reshape
from .math_ops import conj
from .reduction_ops import reduce_sum
from .shape_rules import broadcast, broadcast_gradient_axes, dims_text

_EINSUM_TYPES = dtypes.FLOATING | dtypes.COMPLEX | {dtypes.int32, dtypes.int64}
ELLIPSIS = "..."


def _split(equation):
    """"ab,b...->a..." -> (["ab", "b..."], "a...")."""
    inputs, output = equation.split("->")
    return inputs.split(","), output


def _tokens(subscripts):
    """"ab...c" -> ["a", "b", "...", "c"]: one token per axis group."""
    return re.findall(r"\.\.\.|[a-zA-Z]", subscripts)


# --- shape rule: give every letter its size ------------------------------------------------
def _label_sizes(shapes, input_subs):
    """Map each letter to its size and collect the batch (`...`) shape of each input."""
    sizes, batches = {}, []
    for i, (subs, shape) in enumerate(zip(input_subs, shapes)):
        labels = subs.replace(ELLIPSIS, "")
        has_ellipsis = ELLIPSIS in subs
        if not has_ellipsis and shape.rank != len(labels):
            raise errors.op_error(errors.InvalidArgumentError, "Einsum",
                                  f"Expected input {i} to have rank {len(labels)} but got: "
                                  f"{shape.rank}",
                                  f"'{subs}' names {len(labels)} axes; write one letter per axis.")
        if shape.rank < len(labels):
            raise errors.op_error(errors.InvalidArgumentError, "Einsum",
                                  f"Expected input {i} to have rank at least {len(labels)} but "
                                  f"got: {shape.rank}", f"'{subs}' names {len(labels)} axes.")
        start, num_batch = subs.find(ELLIPSIS), shape.rank - len(labels)
        for index, label in enumerate(labels):
            axis = index + num_batch if has_ellipsis and index >= start else index
            known, dim = sizes.get(label), shape[axis]
            if known is not None and dim is not None and known != dim:
                raise errors.op_error(
                    errors.InvalidArgumentError, "Einsum",
                    f"Expected dimension {known} at axis {axis} of the input shaped "
                    f"{dims_text(shape)} but got dimension {dim}",
                    f"Every axis labelled '{label}' must have the same size; only axes "
                    "under '...' broadcast.")
            if known is None:
                sizes[label] = dim
        if has_ellipsis:
            batches.append(shape[start:start + num_batch])
    return sizes, batches


def _einsum_shape(*shapes, equation):
    input_subs, output_subs = _split(equation)
    if any(s.rank is None for s in shapes):
        return TensorShape(None)
    sizes, batches = _label_sizes(shapes, input_subs)
    try:
        batch = broadcast("Einsum")(*batches) if batches else TensorShape([])
    except errors.InvalidArgumentError:
        raise errors.op_error(
            errors.InvalidArgumentError, "Einsum",
            "Invalid broadcasting dimensions: "
            + " vs. ".join(dims_text(s) for s in shapes),
            "The axes under '...' broadcast like tf.add's: equal, or one of them 1.") from None
    if ELLIPSIS not in output_subs and batch.rank > 0:
        raise errors.op_error(
            errors.InvalidArgumentError, "Einsum",
            f"Output contains {batch.rank} broadcasting dimension(s) but no ellipsis (...) "
            "was found in the output subscripts.",
            "Put '...' in the output too, e.g. '...ij,...jk->...ik'.")
    dims = []
    for token in _tokens(output_subs):
        dims += batch.as_list() if token == ELLIPSIS else [sizes[token]]
    return TensorShape(dims)


# --- forward --------------------------------------------------------------------------------
def _einsum_forward(*arrays, equation):
    shape = _einsum_shape(*[TensorShape(a.shape) for a in arrays], equation=equation)
    input_subs, output_subs = _split(equation)
    if not any(ELLIPSIS in s for s in input_subs):
        output_subs = output_subs.replace(ELLIPSIS, "")
    # NumPy forbids a letter twice in the output ("i->ii" puts a vector on a
    # diagonal). Compute with each letter once, then write it onto the diagonal.
    unique = "".join(dict.fromkeys(_tokens(output_subs)))
    result = np.einsum(",".join(input_subs) + "->" + unique, *arrays)
    if unique == output_subs:
        return np.asarray(result, dtype=arrays[0].dtype)
    out = np.zeros(shape.as_list(), dtype=arrays[0].dtype)
    np.einsum(output_subs + "->" + unique, out)[...] = result  # a writeable diagonal view
    return out


Einsum = Op("Einsum", _einsum_forward, dtypes=_EINSUM_TYPES, shape=_einsum_shape)


def _einsum(inputs, equation):
    return apply(Einsum, list(inputs), {"equation": equation})


# --- gradient -------------------------------------------------------------------------------
def _axis_of(subscripts, label):
    """The axis of `label`: counted from the left before `...`, from the right after it."""
    before, _, after = subscripts.partition(ELLIPSIS)
    if label in before:
        return before.index(label)
    return after.index(label) - len(after)


def _grad_of_reduction(dy, output_subs, input_subs, input_shape, reduced):
    """Gradient of a unary einsum that sums letters away, e.g. "aabcd->ca" (b, d summed).

    Broadcast dy over the summed letters, prepended ("bdca"), then one more
    einsum "bdca->aabcd" puts every value back where it came from.
    """
    reduced = "".join(sorted(reduced))
    reduced_dims = [input_shape[_axis_of(input_subs, label)] for label in reduced]
    dy_dims = dy.shape.as_list()
    spread = broadcast_to(reshape(dy, [1] * len(reduced) + dy_dims), reduced_dims + dy_dims)
    return _einsum([spread], f"{reduced}{output_subs}->{input_subs}")


def _grad_wrt(dy, other, input_subs, other_subs, output_subs, input_shape):
    """d/dx of z = einsum("x,other->z"): einsum("z,other->x"), summed letters handled apart."""
    reduced = set(input_subs) - set(output_subs + other_subs + ".")
    kept = "".join(s for s in input_subs if s not in reduced)
    grad = _einsum([dy, other], f"{output_subs},{other_subs}->{kept}")
    if not reduced:
        return grad
    return _grad_of_reduction(grad, kept, input_subs, input_shape, reduced)


def _sum_broadcast_axes(grad, subscripts, shape):
    """Undo broadcasting of the `...` axes: sum grad down to the input's own batch shape."""
    start = subscripts.index(ELLIPSIS)
    after = len(subscripts) - start - len(ELLIPSIS)
    grad_dims = grad.shape.as_list()
    grad_batch = grad_dims[start:len(grad_dims) - after]
    own_batch = shape[start:len(shape) - after]
    if grad_batch == own_batch:
        return grad
    axes = [start + a for a in broadcast_gradient_axes(grad_batch, own_batch)]
    return reshape(reduce_sum(grad, axis=axes), shape)


@Einsum.def_grad
def _einsum_grad(op, dy):
    input_subs, output_subs = _split(op.attrs["equation"])
    if len(op.inputs) == 1:
        x, (x_subs,) = op.inputs[0], input_subs
        reduced = set(x_subs) - set(output_subs + ".")
        if not reduced:  # transposes and diagonals: run the equation backwards
            return _einsum([dy], f"{output_subs}->{x_subs}")
        return _grad_of_reduction(dy, output_subs, x_subs, x.shape.as_list(), reduced)

    x_subs, y_subs = input_subs
    if ELLIPSIS in output_subs:  # "ij,...jk->...ik": x's gradient has the batch axes too
        x_subs += "" if ELLIPSIS in x_subs else ELLIPSIS
        y_subs += "" if ELLIPSIS in y_subs else ELLIPSIS
    x, y = conj(op.inputs[0]), conj(op.inputs[1])
    x_shape, y_shape = x.shape.as_list(), y.shape.as_list()
    dx = _grad_wrt(dy, y, x_subs, y_subs, output_subs, x_shape)
    dy_ = _grad_wrt(dy, x, y_subs, x_subs, output_subs, y_shape)
    if ELLIPSIS not in output_subs:
        return dx, dy_
    return _sum_broadcast_axes(dx, x_subs, x_shape), _sum_broadcast_axes(dy_, y_subs, y_shape)


# --- the public function ----------------------------------------------------------------------
def _resolve_equation(equation, num_inputs):
    """Validate the equation and write out the output subscripts when they are implicit
    (TF's `_einsum_v2_parse_and_resolve_equation`)."""
    resolved = equation.replace(" ", "").replace(ELLIPSIS, "0")  # "0" stands for "..."
    match = re.match(r"^([a-zA-Z0,]*)(->[a-zA-Z0]*)?$", resolved)
    if not match:
        raise ValueError(f"Subscripts have incorrect format: {resolved.replace('0', '...')}")
    input_labels = match.group(1).split(",")
    if num_inputs != len(input_labels):
        raise ValueError(f'Got {num_inputs} inputs for equation "{equation}", expecting '
                         f"{len(input_labels)}")
    if match.group(2) is None:
        # Implicit output: the letters used exactly once, in alphabetical order.
        counts = Counter(match.group(1))
        output = "".join(x for x in sorted(counts) if x != "," and counts[x] == 1)
    else:
        output = match.group(2)[2:]
    if len(set(output)) != len(output):
        raise ValueError(
            f"Output subscripts contain a label appearing more than once: {equation}")
    for label in output:
        if label != "0" and label not in match.group(1):
            raise ValueError(f"Output subscripts contain the label {label} not present in "
                             "the input subscripts.")
    return [s.replace("0", ELLIPSIS) for s in input_labels], output.replace("0", ELLIPSIS)


def _pair_output(first, second, later, output):
    """Subscripts of an intermediate result: the letters still needed later, in order."""
    needed = set("".join(later) + output)
    letters = dict.fromkeys(c for c in (first + second).replace(ELLIPSIS, "") if c in needed)
    prefix = ELLIPSIS if ELLIPSIS in first + second else ""
    return prefix + "".join(letters)


@tf_export("linalg.einsum", "einsum")
def einsum(equation, *inputs, **kwargs):
    """Sum of products over the letters the output leaves out, e.g. "ij,jk->ik" = matmul.

    `optimize` is accepted and ignored: with more than two inputs minitf simply
    contracts them left to right (TensorFlow asks opt_einsum for an order).
    """
    kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for einsum: {', '.join(kwargs)}. "
                        "Valid arguments: name, optimize, greedy.")
    hint = next((t.dtype for t in inputs if isinstance(t, Tensor)), None)
    tensors = [convert_to_tensor(t, dtype_hint=hint) for t in inputs]
    input_subs, output = _resolve_equation(equation, len(tensors))
    while len(tensors) > 2:
        middle = _pair_output(input_subs[0], input_subs[1], input_subs[2:], output)
        pair = _einsum(tensors[:2], f"{input_subs[0]},{input_subs[1]}->{middle}")
        tensors, input_subs = [pair] + tensors[2:], [middle] + input_subs[2:]
    return _einsum(tensors, ",".join(input_subs) + "->" + output)
