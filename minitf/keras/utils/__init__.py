"""`tf.keras.utils`: the progress bar and the helpers `fit` uses to slice data."""
