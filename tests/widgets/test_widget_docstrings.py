"""The `>>>` examples in the widget modules run and print what they say."""
import doctest

import pytest

import widgets
from widgets import (
    _layout,
    _race_draw,
    _render,
    broadcast,
    graph,
    layout,
    optimizer_race,
    pipeline,
    surfaces,
    tape,
    tensorboard_reader,
    training,
)

MODULES = [_layout, _render, broadcast, graph, tape, optimizer_race, _race_draw, surfaces,
           pipeline, training, layout, tensorboard_reader]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", ["BroadcastExplorer", "TapeStepper", "GraphExplorer",
                                  "OptimizerRace", "PipelineTimeline", "MemoryLayoutExplorer",
                                  "TrainingMonitor"])
def test_package_docstring_lists_every_widget(name):
    assert name in widgets.__doc__
