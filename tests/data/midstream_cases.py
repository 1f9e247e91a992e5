"""Pipelines whose input fails midway, written once for both engines.

Every function takes the `tf` module to use: minitf in tests/data/test_errors_midstream.py,
TensorFlow 2.21 when that test runs this file under real TF. `results(tf)` gives, per
pipeline and parallelism, (the values delivered, the error's class name, whether the error
names the generator's ValueError).
"""


def gen():
    for i in range(10):
        yield i
    raise ValueError("boom")


def source(tf):
    return tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))


def consume(ds):
    got = []
    try:
        for x in ds:
            got.append(int(x))
    except Exception as exc:
        return [got, type(exc).__name__, "ValueError: boom" in str(exc)]
    return [got, None, False]


def pipelines(tf, n):
    def too_big(x):
        tf.debugging.assert_less(x, tf.constant(5, tf.int64), message="too big")
        return x

    def py_five(x):
        if int(x) == 5:
            raise ValueError("five")
        return x

    def double(x):
        return x * 2

    def plus_one(x):
        return x + 1

    def call_py_five(x):
        return tf.py_function(py_five, [x], tf.int64)

    def inner(i):
        def shift(x):
            return x + 100 * i
        return source(tf).map(shift)

    def repeated(x):
        return tf.data.Dataset.from_tensors(x).repeat(3)

    return {
        "map": source(tf).map(double, num_parallel_calls=n),
        "prefetch": source(tf).prefetch(n),
        "map_then_prefetch": source(tf).map(plus_one, num_parallel_calls=n).prefetch(n),
        "interleave_inner": tf.data.Dataset.range(2).interleave(
            inner, cycle_length=4, num_parallel_calls=n),
        "interleave_outer": source(tf).interleave(
            repeated, cycle_length=4, block_length=2, num_parallel_calls=n),
        "interleave_outer_sequential": source(tf).interleave(
            repeated, cycle_length=4, block_length=2),
        "map_fn_assert": tf.data.Dataset.range(10).map(too_big, num_parallel_calls=n),
        "map_fn_py_function": tf.data.Dataset.range(10).map(
            call_py_five, num_parallel_calls=n),
    }


def results(tf):
    out = {"generator": consume(source(tf))}
    for n in (1, 2, 4, tf.data.AUTOTUNE):
        for name, ds in pipelines(tf, n).items():
            out[f"{name}/{n}"] = consume(ds)
    return out


if __name__ == "__main__":  # under real TF: python midstream_cases.py
    import json

    import tensorflow as tf_module
    print(json.dumps(results(tf_module)))
