"""The op families, one module each; every op's forward, shape rule and gradient sit together.

Importing this package imports every family, which registers the public
names they mark with `@tf_export` (see `minitf/framework/tf_export.py`).
"""
import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
