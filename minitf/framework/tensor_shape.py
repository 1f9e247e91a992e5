"""`tf.TensorShape`: a shape whose rank or dimensions may be unknown (`None`).

Eager tensors always have fully known shapes; unknown dimensions appear in
`tf.function` signatures (`tf.TensorSpec([None, 3])`) and traced graphs.

>>> import minitf as tf
>>> s = tf.TensorShape([None, 3])
>>> s, s.rank, s.is_fully_defined()
(TensorShape([None, 3]), 2, False)
>>> print(tf.TensorShape([2, 3]))
(2, 3)
"""


class TensorShape:
    __slots__ = ("_dims",)

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif dims is None:
            self._dims = None
        elif isinstance(dims, int) or hasattr(dims, "__index__") and not hasattr(dims, "__len__"):
            self._dims = (int(dims),)
        else:
            self._dims = tuple(None if d is None else int(d) for d in dims)
            if any(d is not None and d < 0 for d in self._dims):
                raise ValueError(
                    f"Dimension {min(d for d in self._dims if d is not None)} must be >= 0: "
                    "a shape lists sizes, and -1 (\"infer this one\") only works in tf.reshape."
                )

    # --- questions ----------------------------------------------------------
    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def is_fully_defined(self):
        return self._dims is not None and None not in self._dims

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_compatible_with(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def merge_with(self, other):
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def assert_has_rank(self, rank):
        if self.rank not in (None, rank):
            raise ValueError(f"Shape {self} must have rank {rank}")

    # --- sequence behaviour -------------------------------------------------
    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            return TensorShape(None) if isinstance(key, slice) else None
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __bool__(self):
        return self._dims is not None

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return hash(self._dims)

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return as_shape(other).concatenate(self)

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self._dims)})"

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"

    def __reduce__(self):
        return TensorShape, (self.dims,)


def as_shape(shape):
    """A `TensorShape` from a TensorShape, list, tuple, int or None."""
    if isinstance(shape, TensorShape):
        return shape
    return TensorShape(shape)
