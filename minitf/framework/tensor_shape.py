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
    """The shape of a tensor: a tuple of sizes, any of them (or the rank) possibly unknown."""

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if type(dims) is tuple and all(type(d) is int and d >= 0 for d in dims):
            self._dims = dims  # the fast path: a NumPy array's shape
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif dims is None:
            self._dims = None
        elif isinstance(dims, (str, bytes)):
            raise TypeError(f"Failed to convert '{dims!r}' to a shape: a shape is one size "
                            "(e.g. 10) or a list of sizes (e.g. [None, 10]).")
        elif hasattr(dims, "__index__") and not hasattr(dims, "__len__"):
            self._dims = (_dimension(dims),)
        else:
            if hasattr(dims, "numpy"):  # an int tensor, e.g. tf.shape(x)
                dims = dims.numpy().tolist()
            self._dims = tuple(_dimension(d) for d in dims)

    @classmethod
    def from_numpy_shape(cls, dims):
        """The shape of a NumPy array, trusted as it is (the eager fast path)."""
        shape = object.__new__(cls)
        shape._dims = dims
        return shape

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

    def is_subtype_of(self, other):
        """True if this shape is at least as specific as `other` (TF's name for the rule
        loop shape invariants use): same rank, and equal wherever `other` is known.

        >>> tf.TensorShape([2, 3]).is_subtype_of(tf.TensorShape([None, 3]))
        True
        """
        other = as_shape(other)
        if other.rank is None:
            return True
        if self.rank != other.rank:
            return False
        return all(b is None or a == b for a, b in zip(self._dims, other._dims))

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

    def most_specific_compatible_shape(self, other):
        """The most specific shape both could be: dims that differ become None."""
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self._dims, other._dims)])

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def assert_same_rank(self, other):
        other = as_shape(other)
        if self.rank is not None and other.rank is not None and self.rank != other.rank:
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_has_rank(self, rank):
        if self.rank not in (None, rank):
            raise ValueError(f"Shape {self} must have rank {rank}")

    def with_rank(self, rank):
        """This shape with rank `rank` (an unknown rank becomes `rank` unknown dims)."""
        if self._dims is None:
            return TensorShape([None] * rank)
        self.assert_has_rank(rank)
        return self

    def with_rank_at_least(self, rank):
        if self.rank is not None and self.rank < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank):
        if self.rank is not None and self.rank > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

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


def _dimension(value):
    """One dimension: None (unknown) or a non-negative int, checked like TF's `Dimension`."""
    if value is None:
        return None
    if not hasattr(value, "__index__") or isinstance(value, bool):
        raise TypeError("Dimension value must be integer or None or have an __index__ method, "
                        f"got value '{value!r}' with type '{type(value)!r}'")
    value = value.__index__()
    if value < 0:
        raise ValueError(f"Dimension {value} must be >= 0: a shape lists sizes, and -1 "
                         "(\"infer this one\") only works in tf.reshape.")
    return value


def as_shape(shape):
    """A `TensorShape` from a TensorShape, list, tuple, int or None."""
    if isinstance(shape, TensorShape):
        return shape
    return TensorShape(shape)
