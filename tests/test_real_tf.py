"""The real-TF environment the comparison tests use is TensorFlow 2.21 with Keras 3."""
from real_tf import require_tf, run_tf_json


def test_real_tf_is_2_21_with_keras_3():
    require_tf()
    versions = run_tf_json("""
        import json, tensorflow as tf, keras, h5py
        print(json.dumps([tf.__version__, keras.__version__]))
    """)
    assert versions[0].startswith("2.21."), versions
    assert versions[1].startswith("3."), versions
