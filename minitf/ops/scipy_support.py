"""SciPy, imported on first use by the ops that need it (`import minitf` needs only NumPy).

The special functions of tf.math.special (Bessel J/Y/K, Fresnel, ...), tf.math.igamma and
betainc, tf.math.sobol_sample and the matrix functions sqrtm/logm read their numbers from
SciPy, a well-kept library made for the job (its `scipy.special` is Cephes, the same
library TF's Eigen kernels follow). Without SciPy they raise an ImportError that says
how to install it.

>>> round(float(scipy_module("special", "tf.math.special.dawsn").dawsn(0.5)), 6)
0.424436
"""
import importlib

INSTALL_HINT = "pip install 'scipy>=1.11'  (or: pip install 'minitf[scipy]')"


def scipy_module(submodule, feature):
    """`scipy.<submodule>`, or ImportError naming `feature` and the install command."""
    try:
        return importlib.import_module(f"scipy.{submodule}")
    except ImportError:
        raise ImportError(
            f"{feature} needs SciPy (scipy.{submodule}), which is not installed. `import minitf` "
            f"needs only NumPy; the special functions load SciPy when first called: "
            f"{INSTALL_HINT}") from None
