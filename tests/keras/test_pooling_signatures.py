"""The pooling layers' constructors take the arguments Keras 3 gives them.

In Keras 3.15 `MaxPooling2D()` defaults to a 2x2 window, while the average
poolings have no default: `AveragePooling2D()` is a TypeError.
"""
import inspect

import pytest

import minitf as tf

from real_tf import run_tf_json

NAMES = ["MaxPooling1D", "MaxPooling2D", "MaxPooling3D",
         "AveragePooling1D", "AveragePooling2D", "AveragePooling3D"]


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("Average")])
def test_average_pooling_needs_a_pool_size(name):
    layer_class = getattr(tf.keras.layers, name)
    with pytest.raises(TypeError, match=f"^{name}.__init__\\(\\) missing 1 required "
                                        "positional argument: 'pool_size'$"):
        layer_class()
    layer = layer_class(2, padding="same")
    assert layer.pool_size == (2,) * int(name[-2]) and layer.strides == layer.pool_size
    assert type(layer).from_config(layer.get_config()).pool_size == layer.pool_size


def test_max_pooling_keeps_its_default_window():
    assert tf.keras.layers.MaxPooling2D().pool_size == (2, 2)
    assert tf.keras.layers.MaxPooling1D().pool_size == (2,)


def test_signatures_match_real_tf():
    code = ("import inspect, json, tensorflow as tf\n"
            f"print(json.dumps([str(inspect.signature(getattr(tf.keras.layers, n).__init__)) "
            f"for n in {NAMES!r}]))")
    ours = [str(inspect.signature(getattr(tf.keras.layers, n).__init__)) for n in NAMES]
    theirs = run_tf_json(code)
    # Keras writes the 2-D and 3-D max-pooling defaults as tuples; minitf as one int
    # (which it expands to the same tuple)
    ours = [s.replace("pool_size=2,", "pool_size=P,") for s in ours]
    theirs = [s.replace("pool_size=(2, 2),", "pool_size=P,").replace(
        "pool_size=(2, 2, 2),", "pool_size=P,").replace("pool_size=2,", "pool_size=P,")
        for s in theirs]
    assert ours == theirs
