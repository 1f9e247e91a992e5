"""`tf.keras.callbacks`: objects `fit`, `evaluate` and `predict` call at every step."""
