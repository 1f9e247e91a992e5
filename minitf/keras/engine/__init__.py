"""The Keras engine: `Layer`, symbolic `KerasTensor`s, `InputLayer`, functional and
`Sequential` models, `Model`, summaries and weight files."""
