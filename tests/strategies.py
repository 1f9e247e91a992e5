"""Hypothesis strategies for shapes and arrays, including scalars, size-1 axes
and broadcasting pairs (the shapes where gradients usually go wrong)."""
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

small_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)


@st.composite
def broadcasting_pair(draw):
    """Two shapes that broadcast together (one may have fewer axes or size-1 axes)."""
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3,
                                                    max_side=3))
    return shapes.input_shapes


def arrays(shape, low=-2.0, high=2.0, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(low, high, size=shape)


@st.composite
def float_arrays(draw, shape=small_shapes, low=-2.0, high=2.0):
    s = draw(shape) if not isinstance(shape, tuple) else shape
    seed = draw(st.integers(0, 2**16))
    return arrays(s, low, high, seed)
