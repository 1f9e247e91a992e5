"""`tf.summary.experimental.summary_scope`: the tag and name scope of a summary op.

The tag keeps the name as written (under the open name scopes); the scope
drops characters a scope name cannot hold:

>>> with tf.name_scope("outer"):
...     with tf.summary.experimental.summary_scope("a b") as (tag, scope):
...         print(repr(tag), repr(scope))
'outer/a b' 'outer/ab/'

In TensorFlow a graph (tf.function) also makes a repeated scope unique
('loss_1/'); minitf's name scopes do not, so neither does this.
"""
import contextlib
import re

from ..framework import context
from ..framework.tf_export import tf_export
from ..module import name_scope

_INVALID_SCOPE_CHARACTERS = re.compile(r"[^-_/.A-Za-z0-9]")


@tf_export("summary.experimental.summary_scope")
@contextlib.contextmanager
def summary_scope(name, default_name="summary", values=None):
    """Yield (tag, scope) for a summary called `name` (or `default_name` when name is empty)."""
    name = name or default_name
    current = context.current_name_scope().rstrip("/")
    tag = current + "/" + name if current else name
    with name_scope(_INVALID_SCOPE_CHARACTERS.sub("", name)) as scope:
        yield tag, scope
