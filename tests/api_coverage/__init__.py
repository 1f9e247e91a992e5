"""TensorFlow 2.21's public names and how many of them minitf implements (coverage.py).

A package (with this file) so pytest puts `tests/`, not this folder, on sys.path:
`coverage.py` here must not hide the `coverage` package that measures test coverage.
"""
