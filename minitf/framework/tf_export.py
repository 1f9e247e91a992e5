"""`@tf_export("math.add", "add")`: how an op gets its public names.

TensorFlow marks public symbols with the same decorator; `minitf/__init__.py`
reads the registry and builds `tf`, `tf.math`, `tf.nn`, ... from it.

>>> import minitf as tf
>>> from minitf.framework.tf_export import REGISTRY, tf_export
>>> @tf_export("math.my_double")
... def my_double(x):
...     return 2 * x
>>> REGISTRY[-1][0]
'math.my_double'
>>> tf.math.my_double(3)  # after `import minitf`, a new name is in place at once
6
>>> _ = REGISTRY.pop(); del tf.math.my_double  # keep the example out of the real API
"""

# (dotted public name, object) in registration order.
REGISTRY = []
# Called with each name registered from now on (api_namespace.py: a subpackage imported
# after `import minitf` puts its names in place as it registers them).
_listeners = []


def tf_export(*names):
    def register(obj):
        for name in names:
            REGISTRY.append((name, obj))
            for listener in _listeners:
                listener(name, obj)
        return obj

    return register


def add_listener(listener):
    _listeners.append(listener)
