"""The bottom layer: dtypes, shapes, Tensor, Variable, the op record and `apply`, the tape."""
