"""The `>>>` examples in the widget modules run and print what they say."""
import doctest

import pytest

from widgets import _layout, _render, broadcast, graph, tape


@pytest.mark.parametrize("module", [_layout, _render, broadcast, graph, tape],
                         ids=lambda m: m.__name__)
def test_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
