"""`tf.keras.export`: Keras models as SavedModels for serving, and back as layers.

* `export_archive.py`: `ExportArchive`, which chooses the endpoints (tf.functions with
  input signatures) and variables a SavedModel holds; `Model.export` is its short form
  (see minitf/saved_model/keras_export.py).
* `tfsm_layer.py`: `keras.layers.TFSMLayer`, a loaded SavedModel endpoint as an
  inference-only layer.
"""
