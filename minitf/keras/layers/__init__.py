"""`tf.keras.layers`: one module per family (core, regularization, normalization, merge, ...)."""
