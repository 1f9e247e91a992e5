"""MelSpectrogram and STFTSpectrogram: numbers, shapes, dtypes, configs and `.keras` files
against real Keras 3.15 (one TF subprocess), plus TF-free checks of the recipe.

Real Keras's STFTSpectrogram needs SciPy for a window given by name, and TF's test
environment has none: the comparisons pass the window as an array (np.hanning(n), which is
scipy's symmetric "hann") or None; minitf's "hann" is checked against that array here.
Real TF cannot run data_format="channels_first" on a CPU (its Conv2D is NHWC only there):
minitf can, and gives the channels_last numbers transposed (tested here).
"""
import json

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

L = tf.keras.layers

SETUP = """
import numpy as np
rng = np.random.RandomState(0)
wave = rng.randn(2, 600).astype("float32")
stereo = rng.randn(2, 90, 2).astype("float32")
"""
# (id, expression): each builds a layer and calls it; evaluated by real Keras and by minitf
CASES = [
    ("mel", "L.MelSpectrogram(fft_length=128, sequence_stride=64, num_mel_bins=10, "
            "sampling_rate=8000)(wave)"),
    ("mel_unbatched", "L.MelSpectrogram(fft_length=128, sequence_stride=50, num_mel_bins=6, "
                      "sampling_rate=8000)(wave[1])"),
    ("mel_power", "L.MelSpectrogram(fft_length=64, sequence_stride=32, sequence_length=48, "
                  "num_mel_bins=8, window='hamming', power_to_db=False, mag_exp=1.0, "
                  "min_freq=100.0, max_freq=3000.0, sampling_rate=8000)(wave)"),
    ("mel_db", "L.MelSpectrogram(fft_length=64, sequence_stride=16, num_mel_bins=5, window=None, "
               "top_db=20.0, ref_power=10.0, sampling_rate=4000)(wave.astype('float64'))"),
    ("mel_f16", "L.MelSpectrogram(fft_length=64, sequence_stride=32, num_mel_bins=4, "
                "dtype='float16', sampling_rate=8000)(wave)"),
    ("mel_matrix", "L.MelSpectrogram().linear_to_mel_weight_matrix(6, 17, 8000, 50.0, 3500.0)"),
    ("stft_log", "L.STFTSpectrogram(frame_length=16, frame_step=8, window=np.hanning(16))(stereo)"),
    ("stft_mag", "L.STFTSpectrogram(mode='magnitude', frame_length=12, frame_step=5, "
                 "fft_length=32, window=None, padding='same')(stereo)"),
    ("stft_psd", "L.STFTSpectrogram(mode='psd', frame_length=16, window=np.hanning(16), "
                 "scaling='spectrum', expand_dims=True)(stereo)"),
    ("stft_real", "L.STFTSpectrogram(mode='real', frame_length=8, frame_step=3, window=None, "
                  "scaling=None)(stereo)"),
    ("stft_imag", "L.STFTSpectrogram(mode='imag', frame_length=8, window=np.hanning(8), "
                  "padding='same')(stereo)"),
    ("stft_angle", "L.STFTSpectrogram(mode='angle', frame_length=8, window=None)(stereo[:, :, :1])"),
    ("stft_stft", "L.STFTSpectrogram(mode='stft', frame_length=8, frame_step=4, window=None, "
                  "expand_dims=True)(stereo)"),
    ("stft_f64", "L.STFTSpectrogram(frame_length=8, window=None, dtype='float64')(stereo)"),
    ("stft_kernel", "(lambda l: (l.build((None, 90, 1)), l.weights[0])[1])("
                    "L.STFTSpectrogram(frame_length=6, fft_length=8, window=np.hanning(6)))"),
]
SHAPES = [  # (layer expression, input shape) for compute_output_shape
    ("L.MelSpectrogram(sequence_stride=256)", (None, 16000)),
    ("L.MelSpectrogram(sequence_stride=256)", (511,)),
    ("L.MelSpectrogram(sequence_stride=100, num_mel_bins=7)", (3, None)),
    ("L.STFTSpectrogram(frame_length=16, window=None)", (None, 100, 3)),
    ("L.STFTSpectrogram(mode='stft', frame_length=16, window=None, padding='same')", (2, 100, 3)),
    ("L.STFTSpectrogram(frame_length=16, window=None, expand_dims=True)", (None, None, 2)),
    ("L.STFTSpectrogram(frame_length=16, window=None, data_format='channels_first')",
     (4, 2, 100)),
]
CONFIGS = ["L.MelSpectrogram()", "L.MelSpectrogram(fft_length=512, sequence_length=400, "
           "window='hamming', max_freq=None, sampling_rate=22050, name='mel')",
           "L.STFTSpectrogram(window=None)",
           "L.STFTSpectrogram(mode='psd', frame_length=100, frame_step=30, fft_length=128, "
           "window=None, periodic=True, scaling=None, padding='same', expand_dims=True, "
           "data_format='channels_first', trainable=False)"]
ERRORS = ["L.MelSpectrogram(fft_length=10, sequence_length=20)",
          "L.STFTSpectrogram(frame_step=300)", "L.STFTSpectrogram(frame_step=0)",
          "L.STFTSpectrogram(fft_length=100)", "L.STFTSpectrogram(mode='cqt')",
          "L.STFTSpectrogram(scaling='power')", "L.STFTSpectrogram(padding='causal')",
          "L.STFTSpectrogram(window=None)(np.zeros((1, 300, 1), 'int32'))",
          "L.STFTSpectrogram(window=None)(np.zeros((300, 1), 'float32'))"]
# A model with both layers: built, saved and reloaded by each side.
MODEL = """
def make_model():
    inputs = keras.Input((600,))
    mel = keras.layers.MelSpectrogram(fft_length=128, sequence_stride=64, num_mel_bins=10,
                                      sampling_rate=8000, name="mel")(inputs)
    spec = keras.layers.STFTSpectrogram(mode="magnitude", frame_length=8, frame_step=4,
                                        window=None, name="stft")(mel)
    outputs = keras.layers.Dense(3, kernel_initializer="ones", name="head")(
        keras.layers.Flatten()(spec))
    return keras.Model(inputs, outputs)
"""
EVALUATOR = """
import json
def describe(r):
    a = np.asarray(r.numpy() if hasattr(r, "numpy") else r)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "value": a.astype("float64").tolist()}
def attempt(expr):
    try:
        return [None, str(eval(expr))]
    except Exception as e:
        return [type(e).__name__, str(e)]
out = {"cases": {k: describe(eval(expr)) for k, expr in CASES},
       "shapes": [[None if d is None else int(d) for d in eval(e).compute_output_shape(s)]
                  for e, s in SHAPES],
       "configs": [eval(e).get_config() for e in CONFIGS],
       "errors": [attempt(e)[0] for e in ERRORS]}
"""
TF_CODE = f"""
import os, sys, warnings
warnings.simplefilter("ignore")
import tensorflow as tf, keras
L = keras.layers
{SETUP}
CASES, SHAPES, CONFIGS, ERRORS = {CASES!r}, {SHAPES!r}, {CONFIGS!r}, {ERRORS!r}
{EVALUATOR}
{MODEL}
folder = sys.argv[1]
ours = keras.saving.load_model(os.path.join(folder, "minitf.keras"))
out["minitf_file"] = describe(ours(wave))
out["minitf_file_config"] = [ours.get_layer("mel").get_config(),
                             ours.get_layer("stft").get_config()]
model = make_model()
model.get_layer("head").set_weights([np.linspace(-1, 1, 3 * model.get_layer("head").kernel.shape[0])
                                     .reshape(-1, 3).astype("float32"), np.zeros(3, "float32")])
model.save(os.path.join(folder, "keras.keras"))
out["keras_file"] = describe(model(wave))
print(json.dumps(out))
"""


def _minitf_scope():
    scope = {"np": np, "L": L, "keras": tf.keras}
    exec(SETUP, scope)
    return scope


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("audio_files")
    scope = _minitf_scope()
    exec(MODEL, scope)
    scope["make_model"]().save(str(folder / "minitf.keras"))
    return folder


@pytest.fixture(scope="module")
def real(files):
    require_tf()
    return run_tf_json(f"import sys; sys.argv = ['-', {str(files)!r}]\n" + TF_CODE)


@pytest.fixture(scope="module")
def ours():
    scope = _minitf_scope()
    scope.update(CASES=CASES, SHAPES=SHAPES, CONFIGS=CONFIGS, ERRORS=ERRORS)
    exec(EVALUATOR, scope)
    return scope["out"]


def _assert_close(got, want, where, rtol=2e-4, atol=2e-4):
    assert got["dtype"] == want["dtype"], f"{where}: {got['dtype']} != {want['dtype']}"
    assert got["shape"] == want["shape"], f"{where}: {got['shape']} != {want['shape']}"
    if got["dtype"] == "float16":
        rtol, atol = 2e-3, 5e-2
    np.testing.assert_allclose(np.array(got["value"]), np.array(want["value"]), rtol=rtol,
                               atol=atol, err_msg=where)


@pytest.mark.parametrize("key", [k for k, _ in CASES])
def test_values_dtypes_and_shapes_equal_keras(real, ours, key):
    got, want = ours["cases"][key], real["cases"][key]
    if key == "stft_angle":  # a bin whose imaginary part is ~0 may give pi or -pi: compare
        turn = np.angle(np.exp(1j * (np.array(got["value"]) - np.array(want["value"]))))
        got = dict(got, value=np.abs(turn).tolist())  # the angles' difference on the circle
        want = dict(want, value=np.zeros_like(turn).tolist())
        return _assert_close(got, want, key, atol=2e-3)  # the phase of near-0 bins is noisy
    _assert_close(got, want, key)


def test_output_shapes_configs_and_errors_equal_keras(real, ours):
    assert ours["shapes"] == real["shapes"]
    assert ours["configs"] == json.loads(json.dumps(real["configs"]))
    assert ours["errors"] == real["errors"]


def test_keras_files_both_ways(real, files):
    """minitf's file loads in real Keras with the same outputs; Keras's file loads here."""
    scope = _minitf_scope()
    exec(MODEL, scope)
    mine = scope["make_model"]()
    _assert_close(json.loads(json.dumps(_describe(mine(scope["wave"])))), real["minitf_file"],
                  "minitf file in Keras", rtol=1e-4)
    assert real["minitf_file_config"] == [mine.get_layer("mel").get_config(),
                                          mine.get_layer("stft").get_config()]
    theirs = tf.keras.models.load_model(str(files / "keras.keras"))
    assert [type(layer).__name__ for layer in theirs.layers[1:3]] == ["MelSpectrogram",
                                                                      "STFTSpectrogram"]
    _assert_close(_describe(theirs(scope["wave"])), real["keras_file"], "Keras file in minitf",
                  rtol=1e-4)


def _describe(r):
    a = np.asarray(r.numpy())
    return {"dtype": a.dtype.name, "shape": list(a.shape), "value": a.astype("float64").tolist()}


# --- TF-free ---------------------------------------------------------------------------------
def _numpy_mel(x, fft, stride, bins, rate):
    """The recipe with NumPy alone: centred periodic-Hann frames, |rfft|^2, mel matrix, dB."""
    padded = np.pad(x, [(0, 0), (fft // 2, fft // 2)], mode="reflect")
    count = 1 + (padded.shape[1] - fft) // stride
    frames = np.stack([padded[:, i * stride:i * stride + fft] for i in range(count)], 1)
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(fft) / fft)
    power = np.abs(np.fft.rfft(frames * window, axis=-1)) ** 2
    matrix = tf.signal.linear_to_mel_weight_matrix(bins, fft // 2 + 1, rate, 20.0,
                                                   rate / 2).numpy()
    db = 10 * np.log10(np.maximum(power @ matrix, 1e-10))
    return np.maximum(db, db.max() - 80.0).swapaxes(-1, -2)


def test_mel_spectrogram_is_the_numpy_recipe():
    x = np.random.RandomState(1).randn(2, 500)
    layer = L.MelSpectrogram(fft_length=128, sequence_stride=32, num_mel_bins=12,
                             sampling_rate=8000)
    got = layer(x)
    assert got.dtype == tf.float32 and got.shape == (2, 12, 16)
    np.testing.assert_allclose(got.numpy(), _numpy_mel(x, 128, 32, 12, 8000), atol=2e-3)


def test_mel_matrix_equals_tf_signal():
    ours = L.MelSpectrogram().linear_to_mel_weight_matrix(8, 33, 8000, 30.0, 3900.0)
    np.testing.assert_allclose(
        ours.numpy(), tf.signal.linear_to_mel_weight_matrix(8, 33, 8000, 30.0, 3900.0).numpy(),
        atol=1e-5)


def test_stft_spectrogram_is_an_rfft_of_frames():
    x = np.random.RandomState(2).randn(2, 40, 3).astype("float32")
    layer = L.STFTSpectrogram(mode="stft", frame_length=8, frame_step=4, window="hann")
    got = layer(x).numpy()  # (batch, frames, channels * 2 * bins)
    window = np.hanning(8)
    window = window / np.sqrt((window ** 2).sum())
    frames = np.stack([x[:, i * 4:i * 4 + 8] for i in range(9)], 1)  # (2, 9, 8, 3)
    spectrum = np.fft.rfft(frames * window[:, None], axis=2)  # (2, 9, 5, 3)
    want = np.concatenate([spectrum.real, spectrum.imag], 2).transpose(0, 1, 3, 2)
    np.testing.assert_allclose(got, want.reshape(2, 9, 30), atol=1e-5)
    hann = layer.weights[0].numpy()
    layer_array = L.STFTSpectrogram(mode="stft", frame_length=8, frame_step=4,
                                    window=np.hanning(8))
    layer_array(x)
    np.testing.assert_allclose(layer_array.weights[0].numpy(), hann)


def test_channels_first_is_channels_last_transposed():
    x = np.random.RandomState(5).randn(2, 50, 3).astype("float32")
    for expand in (False, True):
        last = L.STFTSpectrogram(frame_length=16, frame_step=8, expand_dims=expand)(x)
        first = L.STFTSpectrogram(frame_length=16, frame_step=8, expand_dims=expand,
                                  data_format="channels_first")(x.transpose(0, 2, 1))
        # (batch, time, channels * bins) -> (batch, channels * bins, time);
        # expanded: (batch, time, bins, channels) -> (batch, channels, time, bins)
        want = last.numpy().transpose((0, 3, 1, 2) if expand else (0, 2, 1))
        np.testing.assert_allclose(first.numpy(), want, rtol=1e-5, atol=1e-5)


def test_stft_kernels_train_and_can_be_frozen():
    x = tf.constant(np.random.RandomState(3).randn(4, 32, 1).astype("float32"))
    layer = L.STFTSpectrogram(mode="magnitude", frame_length=8, window=None)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x))
    grads = tape.gradient(loss, layer.trainable_weights)
    assert len(grads) == 2 and all(g is not None and g.shape == (8, 1, 5) for g in grads)
    frozen = L.STFTSpectrogram(frame_length=8, window=None, trainable=False)
    frozen(x)
    assert frozen.trainable_weights == [] and len(frozen.non_trainable_weights) == 2


def test_layers_in_a_model_dataset_map_and_tf_function():
    wave = np.random.RandomState(4).randn(6, 300).astype("float32")
    mel = L.MelSpectrogram(fft_length=64, sequence_stride=32, num_mel_bins=8,
                           sampling_rate=8000)
    inputs = tf.keras.Input((300,))
    outputs = L.Dense(1)(L.Flatten()(mel(inputs)))
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(wave, np.zeros((6, 1), "float32"), epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    mapped = tf.data.Dataset.from_tensor_slices(wave).batch(3).map(mel)
    np.testing.assert_allclose(next(iter(mapped)).numpy(), mel(wave[:3]).numpy(), atol=1e-4)
    traced = tf.function(mel)(tf.constant(wave[:2]))
    np.testing.assert_allclose(traced.numpy(), mel(wave[:2]).numpy(), atol=1e-4)


def test_config_round_trips():
    for layer in (L.MelSpectrogram(fft_length=256, window="hamming", top_db=60.0),
                  L.STFTSpectrogram(mode="angle", frame_length=32, frame_step=8,
                                    padding="same", data_format="channels_first")):
        clone = type(layer).from_config(layer.get_config())
        assert clone.get_config() == layer.get_config()


def test_bad_arguments_teach():
    with pytest.raises(ValueError, match="`fft_length` must be greater than or equal"):
        L.MelSpectrogram(fft_length=256, sequence_length=512)
    with pytest.raises(ValueError, match="Output mode is invalid"):
        L.STFTSpectrogram(mode="power")
    with pytest.warns(UserWarning, match="power of two"):
        L.STFTSpectrogram(frame_length=10, fft_length=12, window=None)
    with pytest.raises(TypeError, match="Expected `float16`, `float32` or `float64`"):
        L.STFTSpectrogram(window=None)(np.zeros((1, 300, 1), "int32"))
