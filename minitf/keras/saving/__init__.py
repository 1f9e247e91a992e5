"""`tf.keras.saving`: Keras 3's files (`.keras`, `.weights.h5`), read safely.

* `object_registration.py`: which class names a config may use
  (`register_keras_serializable`, `custom_objects`, `CustomObjectScope`).
* `budget.py`: how many weight values a config may ask for while loading.
* every file is written to a temporary name, then renamed (`framework/atomic_file.py`,
  shared with `tf.train` checkpoints).
* `h5_weights.py`: the `.weights.h5` layout (`layers/dense/vars/0`, ...).
* `keras_file.py`: the `.keras` zip (`config.json`, `metadata.json`,
  `model.weights.h5`).
* `file_editor.py`: `KerasFileEditor`, a file's weights as a tree to inspect and edit.
"""
