"""AutoGraph: `if`, `while` and `for` on tensors inside `tf.function`.

Python cannot branch on a value it does not have yet, and inside
`tf.function` a tensor has no value while the function is traced. AutoGraph
rewrites the function's source before tracing (`tf.autograph.to_code` shows
the result), so that

>>> @tf.function
... def sum_even(items):
...     total = 0
...     for x in items:
...         if x % 2 == 0:
...             total += x
...     return total

runs its `for` as a `tf.while_loop` and its `if` as a `tf.cond` when
`items` is a tensor - and as the plain Python loop it is for a list:

>>> sum_even(tf.constant([1, 2, 3, 4]))
<tf.Tensor: shape=(), dtype=int32, numpy=6>
>>> sum_even([1, 2, 3, 4])
<tf.Tensor: shape=(), dtype=int32, numpy=6>

The pieces, in the order they act:

* `conversion.py`: source -> AST -> new function, cached; fallback with a warning;
* `lowering.py`: `break`/`continue`/`return` -> flag variables;
* `transformer.py`: `and`/`or`/`not`, calls, and `if`/`while`/`for` -> functions;
* `static_analysis.py`: which variables each statement must pass along;
* `operators.py` (`ag__` in converted code), `control_flow.py`, `variables.py`:
  what the converted code calls at run time;
* `errors.py`: errors reported at your line; `api.py`: `tf.autograph.*`.

Importing this package sets `Function.converter`, the hook `tf.function`
uses to convert a function before tracing it.
"""
from ..framework.function import Function as _Function
from .api import convert as _convert
from .api import to_code, to_graph  # noqa: F401
from .ag_logging import set_verbosity, trace  # noqa: F401

_Function.converter = staticmethod(_convert)
