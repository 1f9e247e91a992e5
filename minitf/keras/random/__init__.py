"""`tf.keras.random`: Keras 3's random ops (normal, uniform, randint, dropout, ...) and
`SeedGenerator`. See `random_ops.py` for how seeds work."""
