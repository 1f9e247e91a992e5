"""`keras.ops.rearrange`: einops' pattern language for reshape + transpose.

"b h w c -> b (h w) c" names the axes on the left, and on the right puts them
in a new order, merging those in parentheses; "(h w) c -> h w c" with `h=2`
splits one axis. It becomes one reshape (to the elementary axes), one
transpose and one reshape.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.rearrange(tf.zeros((2, 3, 4, 5)), "b h w c -> b (h w) c").shape
TensorShape([2, 12, 5])
>>> ops.rearrange(tf.reshape(tf.range(6), (6,)), "(h w) -> w h", h=2)
<tf.Tensor: shape=(3, 2), dtype=int32, numpy=
array([[0, 3],
       [1, 4],
       [2, 5]], dtype=int32)>
"""
import math
import re

import minitf as tf

from ._export import keras_ops_export
from .dtype_rules import convert


def _groups(side):
    """'b (h w) c' -> [['b'], ['h', 'w'], ['c']]."""
    tokens = re.findall(r"\(|\)|[A-Za-z_][A-Za-z0-9_]*|1", side)
    groups, current = [], None
    for token in tokens:
        if token == "(":
            current = []
        elif token == ")":
            groups.append(current)
            current = None
        elif current is not None:
            current.append(token)
        else:
            groups.append([token])
    return groups


@keras_ops_export()
def rearrange(tensor, pattern, **axes_lengths):
    """Reorder, merge and split axes as einops' `rearrange` pattern says."""
    x = convert(tensor)
    if "->" not in pattern:
        raise ValueError(f"Pattern must contain '->'. Received: pattern={pattern}")
    left, right = (_groups(side) for side in pattern.split("->"))
    if len(left) != x.shape.rank:
        raise ValueError(f"The pattern's left side names {len(left)} axes, the tensor has "
                         f"{x.shape.rank} (shape {x.shape}).")
    sizes = dict(axes_lengths)
    for group, dim in zip(left, x.shape.as_list()):
        unknown = [a for a in group if a not in sizes]
        known = math.prod(sizes[a] for a in group if a in sizes)
        if len(unknown) > 1:
            raise ValueError(f"Could not infer sizes for {unknown}: pass them as keywords.")
        if unknown:
            sizes[unknown[0]] = dim // known
    elementary = [a for group in left for a in group]
    x = tf.reshape(x, [sizes[a] for a in elementary])
    order = [a for group in right for a in group if a != "1"]
    x = tf.transpose(x, [elementary.index(a) for a in order])
    return tf.reshape(x, [math.prod(sizes.get(a, 1) for a in group) for group in right])
