"""`tf.feature_column`: describe how raw columns of a table become model inputs.

Importing this package imports every module below it, which registers the
public names they mark with `@tf_export("feature_column.numeric_column")`.
"""
import importlib
import pkgutil

for _info in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
    importlib.import_module(_info.name)
