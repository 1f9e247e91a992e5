"""ipywidgets views that draw what the minitf engine really did.

Each widget is one call in a notebook, and each is a thin view over a logic
object that draws nothing and is tested on its own:

    BroadcastExplorer((3, 1), (4,))       widgets/broadcast.py       BroadcastPlan
    TapeStepper(f, x)                     widgets/tape.py            TapeTrace
    GraphExplorer(tf_fn, *args)           widgets/graph.py           GraphInspection
    OptimizerRace("rosenbrock")           widgets/optimizer_race.py  Race (surfaces.py)
    PipelineTimeline({name: dataset})     widgets/pipeline.py        PipelineRun
    MemoryLayoutExplorer((3, 4))          widgets/layout.py          MemoryLayout,
                                                                     LayoutChange
    model.fit(..., callbacks=[TrainingMonitor()])
                                          widgets/training.py        TrainingLog, Throttle

Static fallback: every view has `static()`, a picture of its current state
(PNG for plots and the broadcasting grids, SVG for graphs and memory
layouts). Displaying a view puts that picture in the output next to the
live widget, so a notebook read on GitHub or nbviewer (where no kernel runs
the widget) still shows something; a lesson may also show `view.static()`
explicitly. `TrainingMonitor` shows itself when `fit` begins and replaces
that output with the final curves when it ends. Graph pictures use
Graphviz's `dot` when installed and a built-in layout otherwise (with a
one-line notice).

Errors in a control's callback are shown in the widget (with the traceback)
instead of vanishing. `python benchmarks/widgets.py` times every control
against the 150 ms budget and measures the training monitor's overhead.
(`widgets/exercises.py` and `widgets/under_the_hood.py` serve the lessons'
exercise checks and source views; `widgets/module_tree.py` draws a
`tf.Module`'s tree of modules and variables; `widgets/tensorboard_reader.py`
plots TensorBoard logs with matplotlib where TensorBoard itself cannot run.)
"""
