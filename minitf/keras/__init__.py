"""`tf.keras`: layers, models, losses, metrics, optimizers and callbacks.

Importing this package imports every module and subpackage below it, which
registers the public names they mark with `@tf_export("keras.layers.Dense")`
(see `minitf/framework/tf_export.py`); `minitf/__init__.py` then builds
`tf.keras.*` from the registry.
"""
import importlib
import pkgutil

for _info in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
    importlib.import_module(_info.name)
