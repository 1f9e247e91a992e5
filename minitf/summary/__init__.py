"""`tf.summary`: write scalars, histograms, images, text, audio and graphs that
TensorBoard reads.

>>> import tempfile
>>> writer = tf.summary.create_file_writer(tempfile.mkdtemp())
>>> with writer.as_default():
...     for step in range(3):
...         _ = tf.summary.scalar("loss", 1.0 / (step + 1), step=step)

The files are real TensorBoard event files, written through the `tensorboard`
package's protocol buffers (an extra: `pip install 'minitf[lab]'`). Start
TensorBoard on the log directory (`tensorboard --logdir logs`, or in Jupyter
`%load_ext tensorboard` then `%tensorboard --logdir logs`) to see them.

* `summary_writer.py`: writers, the default writer and step, `record_if`;
* `summary_ops.py`: `scalar`, `histogram`, `text`, `image`, `audio`, `write`;
* `plugin_data.py`: the tensor each TensorBoard plugin reads, in NumPy;
* `graph_summary.py`: `graph`, `trace_on` / `trace_export`.
"""
from . import graph_summary, summary_ops, summary_writer  # noqa: F401 - register tf.summary.*
from . import summary_scope as _summary_scope  # noqa: F401 - summary.experimental.summary_scope
