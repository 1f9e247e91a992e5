"""`@tf_export("math.add", "add")`: how an op gets its public names.

TensorFlow marks public symbols with the same decorator; `minitf/__init__.py`
reads the registry and builds `tf`, `tf.math`, `tf.nn`, ... from it.

>>> from minitf.framework.tf_export import REGISTRY, tf_export
>>> @tf_export("math.my_double")
... def my_double(x):
...     return 2 * x
>>> REGISTRY[-1][0]
'math.my_double'
>>> _ = REGISTRY.pop()  # keep the example out of the real registry
"""

# (dotted public name, object) in registration order.
REGISTRY = []


def tf_export(*names):
    def register(obj):
        for name in names:
            REGISTRY.append((name, obj))
        return obj

    return register
