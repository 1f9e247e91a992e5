"""Keras 3's preprocessing layers: raw features (numbers, ids, strings) in, model-ready numbers out.

A preprocessing layer holds *state learned from data* rather than trained
weights: `Normalization.adapt(data)` measures a mean and variance,
`Discretization.adapt` finds bin boundaries, the lookups (StringLookup,
IntegerLookup, TextVectorization) build a vocabulary. That state is saved with
the model, and the layers run the same way eagerly, inside a model, and inside
`tf.data.Dataset.map` (traced into a graph).

One module per layer (or per family); `tf.keras.layers.*` exports them.
`keras/__init__.py` imports every module of this package, so the imports below
only say what is here.
"""
from . import category_encoding, discretization, hashed_crossing, hashing  # noqa: F401
from . import feature_space, normalization, rescaling  # noqa: F401
from . import integer_lookup, string_lookup, text_vectorization  # noqa: F401  (P2: lookups, text)
from . import image_color, image_geometric, image_resizing  # noqa: F401  (K1: image layers)
from . import image_color_more  # noqa: F401  (K1: invert, grayscale, solarization)
from . import pipeline  # noqa: F401  (K1: Pipeline)
from . import image_color_hsv, image_random_size  # noqa: F401  (KA2: hue, height, ...)
from . import image_color_jitter  # noqa: F401  (KA2: RandomColorJitter, Equalization)
from . import image_erase_blur  # noqa: F401  (KA2: RandomErasing, RandomGaussianBlur)
from . import max_num_bounding_boxes  # noqa: F401  (KA2)
from . import image_mixing  # noqa: F401  (KAUG: MixUp, CutMix)
from . import image_warp_layers  # noqa: F401  (KAUG: RandomPerspective, RandomElasticTransform)
from . import image_clahe  # noqa: F401  (KAUG: ContrastLimitedAdaptiveHistogramEqualization)
from . import image_policies  # noqa: F401  (KAUG: RandAugment, AugMix)
