"""tf.autodiff: tf.autodiff.ForwardAccumulator (forward-mode derivatives) and
tf.autodiff.GradientTape (tf.GradientTape under its other name).

>>> import minitf as tf
>>> x = tf.constant([1.0, 2.0])
>>> with tf.autodiff.ForwardAccumulator(primals=x, tangents=tf.constant([1.0, 0.0])) as acc:
...     y = x * x
>>> acc.jvp(y)            # J @ tangent: how y moves when x moves along the tangent
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 0.], dtype=float32)>

TensorFlow pushes the tangents forward op by op as the computation runs. minitf gets the
same numbers from its reverse mode, by the "double backward" trick: with u a dummy
output gradient, the tape gives g(u) = J^T u, which is linear in u; the gradient of
sum(g(u) * tangent) with respect to u is then J @ tangent. (It costs two backward passes
where TF's forward mode costs one forward pass.)
"""
from ..framework import nest
from ..framework.tape import GradientTape, UnconnectedGradients
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .creation_ops import zeros_like
from .reduction_ops import reduce_sum

tf_export("autodiff.GradientTape")(GradientTape)


def _value(x):
    return x._read() if getattr(x, "_is_variable", False) else x


@tf_export("autodiff.ForwardAccumulator")
class ForwardAccumulator:
    """Inside `with`, record the computation; then `jvp(target)` is the derivative of
    `target` along `tangents` (a structure like `primals`: tensors or variables).

    >>> v = tf.Variable(2.0)
    >>> with tf.autodiff.ForwardAccumulator(v, 1.0) as acc:
    ...     y = v * v
    >>> acc.jvp(y)
    <tf.Tensor: shape=(), dtype=float32, numpy=4.0>
    """

    def __init__(self, primals, tangents):
        self._primals = nest.flatten(primals)
        self._tangents = [convert_to_tensor(t, dtype=_value(p).dtype)
                          for p, t in zip(self._primals, nest.flatten(tangents))]
        self._tape = GradientTape(persistent=True, watch_accessed_variables=False)

    def __enter__(self):
        self._tape.__enter__()
        for p in self._primals:
            self._tape.watch(p)
        return self

    def __exit__(self, *exc_info):
        return self._tape.__exit__(*exc_info)

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The tangent of each tensor in `primals` (a structure of tensors computed inside
        the `with` block): None for one that does not depend on the primals (zeros with
        unconnected_gradients="zero")."""
        unconnected = UnconnectedGradients(unconnected_gradients)
        result = [self._one(t, unconnected) for t in nest.flatten(primals)]
        return nest.pack_sequence_as(primals, result)

    def _one(self, target, unconnected):
        for p, t in zip(self._primals, self._tangents):
            if _value(p) is target or p is target:
                return t
        tangent = None
        if target.dtype.is_floating or target.dtype.is_complex:
            u = zeros_like(target)  # the dummy output gradient (its value does not matter)
            with GradientTape() as outer:
                outer.watch(u)
                grads = self._tape.gradient(target, self._primals, output_gradients=u)
                pieces = [reduce_sum(g * t) for g, t in zip(grads, self._tangents)
                          if g is not None]
                total = pieces[0] if pieces else None
                for piece in pieces[1:]:
                    total = total + piece
            if total is not None:
                tangent = outer.gradient(total, u)
        if tangent is None and unconnected is UnconnectedGradients.ZERO:
            return zeros_like(target)
        return tangent
