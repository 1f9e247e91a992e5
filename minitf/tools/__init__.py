"""Command-line tools, as TensorFlow ships them: `python -m minitf.tools.saved_model_cli`."""
