"""`tf.keras.preprocessing`: Keras 1's sequence and text helpers, which Keras 3 still ships.

`sequence.py` holds `TimeseriesGenerator`, `make_sampling_table` and `skipgrams`;
`text.py` holds `Tokenizer`, `text_to_word_sequence`, `one_hot`, `hashing_trick`
and `tokenizer_from_json`. Keras marks them deprecated: new code uses
`tf.keras.utils.timeseries_dataset_from_array` and the `TextVectorization`
layer. They are here so that older tutorials run unchanged.

In TensorFlow these are `keras/src/legacy/preprocessing/{sequence,text}.py`.
"""
