"""ipywidgets views that draw what the minitf engine really did.

Each widget is one call in a notebook, and each is a thin view over a logic
object that draws nothing and is tested on its own:

    BroadcastExplorer((3, 1), (4,))      widgets/broadcast.py   BroadcastPlan
    TapeStepper(f, x)                    widgets/tape.py        TapeTrace
    GraphExplorer(tf_fn, *args)          widgets/graph.py       GraphInspection

Static fallback: every view has `static()`, a picture of its current state
(PNG for the broadcasting grids, SVG for graphs). Displaying a view puts that
picture in the output next to the live widget, so a notebook read on GitHub
or nbviewer (where no kernel runs the widget) still shows something; a
lesson may also show `view.static()` explicitly. Graph pictures use
Graphviz's `dot` when installed and a built-in layout otherwise (with a
one-line notice). `python benchmarks/widgets.py` times every control.
"""
