"""ipywidgets views that draw what the minitf engine really did."""
