"""`tf.Module`: a container that tracks the variables it holds (being written)."""
