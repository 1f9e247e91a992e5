"""The real-TF comparisons of tests/signal/test_*.py in ONE TF subprocess (TF's start-up is
the slow part): each file gives a TF_SNIPPET that sets `result` and a check_against_tf(result)
that compares it with minitf; every file also has its own TF-free tests."""
import pytest

import test_fft
import test_fftnd
import test_keras_istft
import test_spectral_dct
import test_windows_frames
from real_tf import run_tf_json

MODULES = {m.__name__: m for m in (test_fft, test_fftnd, test_keras_istft, test_spectral_dct,
                                   test_windows_frames)}


@pytest.fixture(scope="module")
def real_tf_results():
    code = ["import json", "out = {}"]
    for name, module in MODULES.items():
        code += ["namespace = {}", f"exec({module.TF_SNIPPET!r}, namespace)",
                 f"out[{name!r}] = namespace['result']"]
    code.append("print(json.dumps(out))")
    return run_tf_json("\n".join(code))


@pytest.mark.parametrize("name", sorted(MODULES))
def test_equals_real_tf(real_tf_results, name):
    MODULES[name].check_against_tf(real_tf_results[name])
