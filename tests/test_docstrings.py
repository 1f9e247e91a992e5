"""Every `>>>` example in minitf's docstrings runs and prints what it claims."""
import doctest
import importlib
import pkgutil

import numpy as np
import pytest

import minitf

MODULES = sorted(m.name for m in pkgutil.walk_packages(minitf.__path__, "minitf."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name, extraglobs={"tf": minitf, "np": np}):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"


def test_examples_exist():
    finder = doctest.DocTestFinder(exclude_empty=True)
    count = sum(len(t.examples) for name in MODULES
                for t in finder.find(importlib.import_module(name), name))
    assert count > 100
