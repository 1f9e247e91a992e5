"""What every widget view shares: a VBox that also carries a static picture.

A view is a thin `ipywidgets.VBox` over a logic object. Two things make it
pleasant in a notebook:

* `static()` returns a `Picture` of the current state. `_repr_mimebundle_`
  puts it beside the live widget, so a notebook read on GitHub (where no
  kernel runs the widget) still shows the picture, while JupyterLab shows
  the live widget.
* Every control's callback runs through `guard`: an exception is shown in
  the widget's error area (with its traceback) instead of vanishing into
  the browser console.
"""
import traceback
from html import escape

import ipywidgets as widgets

from ._render import Picture

# ipywidgets gives a slider's or dropdown's description a fixed 80 px and cuts a longer one
# short ("learning r…"); this style lets the description take the width it needs.
FULL_DESCRIPTION = {"description_width": "initial"}
SHORT_DESCRIPTION = 10  # characters that surely fit in 80 px


def cut_descriptions(view):
    """Descriptions in `view` (and the widgets inside it) that ipywidgets would cut short:
    longer than SHORT_DESCRIPTION characters, on a control with the fixed 80 px label.

    >>> slider = widgets.FloatSlider(description="learning rate")
    >>> cut_descriptions(widgets.VBox([slider]))
    ['learning rate']
    >>> slider.style.description_width = FULL_DESCRIPTION["description_width"]
    >>> cut_descriptions(widgets.VBox([slider]))
    []
    """
    found, stack = [], [view]
    while stack:
        w = stack.pop()
        stack.extend(getattr(w, "children", ()))
        if isinstance(w, (widgets.Checkbox, widgets.Button, widgets.ToggleButton)):
            continue  # their text is not in the 80 px label
        style = getattr(w, "style", None)
        description = getattr(w, "description", "") or ""
        if len(description) > SHORT_DESCRIPTION and \
                getattr(style, "description_width", "") != "initial":
            found.append(description)
    return found


class ExplorerView(widgets.VBox):
    """Base class of the widget views (subclasses define `static()` and `refresh()`)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.error = widgets.HTML(value="")

    def guard(self, callback):
        """`callback` wrapped so its errors are shown in the widget, not swallowed."""

        def guarded(*args, **kwargs):
            try:
                result = callback(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - shown to the learner, in full
                self.error.value = (
                    f'<pre style="color:#b00020; white-space:pre-wrap">'
                    f"{escape(''.join(traceback.format_exception(exc)))}</pre>")
                return None
            self.error.value = ""
            return result

        return guarded

    def static(self):
        """A `Picture` of the current state (for notebooks read without a kernel)."""
        return Picture(text=f"<{type(self).__name__}>")

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = super()._repr_mimebundle_(include=include, exclude=exclude) or {}
        picture = self.static()._repr_mimebundle_()
        for key, value in picture.items():
            if key != "text/plain":
                bundle.setdefault(key, value)
        bundle["text/plain"] = picture["text/plain"]
        return bundle
