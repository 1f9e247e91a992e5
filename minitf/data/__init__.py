"""`tf.data`: input pipelines (`tf.data.Dataset` and its transformations).

Importing this package imports every module below it, which registers the
public names they mark with `@tf_export("data.Dataset")`.
"""
import importlib
import pkgutil

for _info in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
    importlib.import_module(_info.name)
