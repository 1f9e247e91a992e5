"""`tf.keras.utils.FeatureSpace`: a whole table of raw features -> one model-ready vector.

A FeatureSpace names a preprocessing layer for each column of a structured
table ("float_normalized" -> Normalization, "string_categorical" ->
StringLookup, "integer_hashed" -> Hashing, ...), `adapt`s them all on a
dataset of dicts, one-hot encodes the categorical ones, hashes the feature
`crosses`, and concatenates everything (in sorted name order, crosses last):

>>> import minitf as tf
>>> raw = {"age": [20., 40., 60.], "city": ["paris", "rome", "paris"]}
>>> space = tf.keras.utils.FeatureSpace(
...     {"age": "float_normalized", "city": "string_categorical"})
>>> space.adapt(tf.data.Dataset.from_tensor_slices(raw))
>>> space(raw).numpy().round(3)       # age standardized, then [OOV, paris, rome] one-hot
array([[-1.225,  0.   ,  1.   ,  0.   ],
       [ 0.   ,  0.   ,  0.   ,  1.   ],
       [ 1.225,  0.   ,  1.   ,  0.   ]], dtype=float32)

The same space works inside `Dataset.map(space)`, and as the front of a model:
`get_inputs()` is a dict of `Input`s (shape (1,), one per feature) and
`get_encoded_features()` the encoded tensor built from them.

In TensorFlow this is `keras/src/layers/preprocessing/feature_space.py`.
"""
import minitf as tf

from ....framework.tf_export import tf_export
from ...engine.base_layer import Layer
from ...saving.object_registration import GLOBAL_CUSTOM_NAMES, GLOBAL_CUSTOM_OBJECTS
from .. import serialization
from .category_encoding import CategoryEncoding
from .data_layer import DataLayer
from .discretization import Discretization
from .hashed_crossing import HashedCrossing
from .hashing import Hashing
from .normalization import Normalization
from .rescaling import Rescaling

_MODULE = "keras.src.layers.preprocessing.feature_space"  # where Keras keeps these classes


def _auto_name(prefix):
    from ... import backend
    return backend._unique_name(prefix)


def _lookup_layers():
    """StringLookup and IntegerLookup (their own module; imported when first needed)."""
    from .integer_lookup import IntegerLookup
    from .string_lookup import StringLookup
    return StringLookup, IntegerLookup


# --- what each feature and cross is ----------------------------------------------------------
class Cross:
    """Two or more features crossed by hashing into `crossing_dim` bins."""

    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        if output_mode not in {"int", "one_hot"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             f"{{'int', 'one_hot'}}. Received: output_mode={output_mode}")
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self):
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {"feature_names": self.feature_names, "crossing_dim": self.crossing_dim,
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Feature:
    """A feature: its input dtype, its preprocessing layer, and how to encode the result."""

    def __init__(self, dtype, preprocessor, output_mode):
        if output_mode not in {"int", "one_hot", "float"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             "{'int', 'one_hot', 'float'}. Received: "
                             f"output_mode={output_mode}")
        self.dtype = dtype
        if isinstance(preprocessor, dict):
            preprocessor = serialization.deserialize(preprocessor)
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self):
        return {"dtype": self.dtype, "preprocessor": serialization.serialize(self.preprocessor),
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _serialize(obj):
    return {"module": _MODULE, "class_name": type(obj).__name__, "config": obj.get_config(),
            "registered_name": type(obj).__name__}


def _deserialize(config, expected):
    if isinstance(config, dict) and config.get("class_name") == expected.__name__:
        return expected.from_config(config.get("config") or {})
    raise ValueError(f"Expected a serialized {expected.__name__}; received {str(config)[:200]}")


# --- two small layers of Keras's own (saved under these names in .keras files) ---------------
class TFDConcat(Layer):
    """Concatenate a list of tensors along `axis`."""

    def __init__(self, axis, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, xs):
        return tf.concat(list(xs), axis=self.axis)

    def compute_output_shape(self, input_shapes):
        shapes = [tuple(s) for s in input_shapes]
        sizes = [s[self.axis] for s in shapes]
        total = None if any(d is None for d in sizes) else sum(sizes)
        out = list(shapes[0])
        out[self.axis] = total
        return tuple(out)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


class TFDIdentity(DataLayer):
    """The preprocessor of a plain "float" feature: its input, unchanged."""

    def call(self, x):
        return x

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


for _cls in (TFDConcat, TFDIdentity):  # Keras files name them by class: resolvable on load
    _cls.__module__ = _MODULE
    GLOBAL_CUSTOM_OBJECTS.setdefault(_cls.__name__, _cls)
    GLOBAL_CUSTOM_NAMES.setdefault(_cls, _cls.__name__)


# --- the FeatureSpace --------------------------------------------------------------------------
@tf_export("keras.utils.FeatureSpace")
class FeatureSpace(Layer):
    """Preprocess and encode a dict of raw features with one layer per feature."""

    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        name = name or _auto_name("float")
        return Feature("float32", TFDIdentity(dtype="float32", name=f"{name}_preprocessor"),
                       "float")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        name = name or _auto_name("float_rescaled")
        return Feature("float32", Rescaling(scale=scale, offset=offset,
                                            name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_normalized(cls, name=None):
        name = name or _auto_name("float_normalized")
        return Feature("float32", Normalization(axis=-1, name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot", name=None):
        name = name or _auto_name("float_discretized")
        layer = Discretization(num_bins=num_bins, bin_boundaries=bin_boundaries,
                               name=f"{name}_preprocessor")
        return Feature("float32", layer, output_mode)

    @classmethod
    def integer_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot",
                            name=None):
        name = name or _auto_name("integer_categorical")
        layer = _lookup_layers()[1](name=f"{name}_preprocessor", max_tokens=max_tokens,
                                    num_oov_indices=num_oov_indices)
        return Feature("int32", layer, output_mode)

    @classmethod
    def string_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot",
                           name=None):
        name = name or _auto_name("string_categorical")
        layer = _lookup_layers()[0](name=f"{name}_preprocessor", max_tokens=max_tokens,
                                    num_oov_indices=num_oov_indices)
        return Feature("string", layer, output_mode)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or _auto_name("string_hashed")
        return Feature("string", Hashing(name=f"{name}_preprocessor", num_bins=num_bins),
                       output_mode)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or _auto_name("integer_hashed")
        return Feature("int32", Hashing(name=f"{name}_preprocessor", num_bins=num_bins),
                       output_mode)

    def __init__(self, features, output_mode="concat", crosses=None, crossing_dim=32,
                 hashing_dim=32, num_discretization_bins=32, name=None):
        super().__init__(name=name)
        if not features:
            raise ValueError("The `features` argument cannot be None or empty.")
        self.crossing_dim, self.hashing_dim = crossing_dim, hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {name: self._standardize_feature(name, value)
                         for name, value in features.items()}
        self.crosses = [self._standardize_cross(c, set(features), crossing_dim)
                        for c in crosses or []]
        self.crosses_by_name = {cross.name: cross for cross in self.crosses}
        if output_mode not in {"dict", "concat"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             f"{{'dict', 'concat'}}. Received: output_mode={output_mode}")
        self.output_mode = output_mode
        self.inputs = {name: tf.keras.Input(shape=(1,), dtype=f.dtype, name=name)
                       for name, f in self.features.items()}
        self.preprocessors = {name: f.preprocessor for name, f in self.features.items()}
        self.encoded_features = None
        self.crossers = {c.name: HashedCrossing(c.crossing_dim, name=c.name)
                         for c in self.crosses}
        self.one_hot_encoders = {}
        self._is_adapted = False
        self.concat = None
        self._preprocessed_features_names = None
        self._crossed_features_names = None
        self._sublayers_built = False

    def _standardize_feature(self, name, feature):
        if isinstance(feature, Feature):
            return feature
        if isinstance(feature, dict):
            return _deserialize(feature, Feature)
        makers = {"float": lambda: self.float(name=name),
                  "float_normalized": lambda: self.float_normalized(name=name),
                  "float_rescaled": lambda: self.float_rescaled(name=name),
                  "float_discretized": lambda: self.float_discretized(
                      name=name, num_bins=self.num_discretization_bins),
                  "integer_categorical": lambda: self.integer_categorical(name=name),
                  "string_categorical": lambda: self.string_categorical(name=name),
                  "integer_hashed": lambda: self.integer_hashed(self.hashing_dim, name=name),
                  "string_hashed": lambda: self.string_hashed(self.hashing_dim, name=name)}
        if not isinstance(feature, str) or feature not in makers:
            raise ValueError(f"Invalid feature type: {feature}")
        return makers[feature]()

    @staticmethod
    def _standardize_cross(cross, feature_set, crossing_dim):
        if isinstance(cross, dict):
            cross = _deserialize(cross, Cross)
        if isinstance(cross, Cross):
            return cross
        if not crossing_dim:
            raise ValueError("When specifying `crosses`, the argument `crossing_dim` "
                             "(dimensionality of the crossing space) should be specified as "
                             "well.")
        for key in cross:
            if key not in feature_set:
                raise ValueError("All features referenced in the `crosses` argument should be "
                                 "present in the `features` dict. Received unknown features: "
                                 f"{cross}")
        return Cross(cross, crossing_dim=crossing_dim)

    # --- adapt ------------------------------------------------------------------------------
    def _list_adaptable_preprocessors(self):
        names = []
        for name in self.features:
            preprocessor = self.preprocessors[name]
            if isinstance(preprocessor, Normalization) and preprocessor.input_mean is not None:
                continue  # given mean and variance: nothing to learn
            if getattr(preprocessor, "_has_input_vocabulary", False):
                continue  # a lookup with its vocabulary given
            if hasattr(preprocessor, "adapt"):
                names.append(name)
        return names

    def adapt(self, dataset):
        """Adapt every adaptable preprocessor on its column of `dataset` (of dicts)."""
        if not isinstance(dataset, tf.data.Dataset):
            if not isinstance(dataset, dict):
                raise ValueError("`adapt()` can only be called on a tf.data.Dataset or a dict "
                                 f"of arrays/lists. Received instead: {dataset} (of type "
                                 f"{type(dataset)})")
            dataset = tf.data.Dataset.from_tensor_slices(dataset)
        for name in self._list_adaptable_preprocessors():
            column = dataset.map(lambda x, name=name: x[name])
            first = next(iter(column))
            if len(first.shape) == 0:  # unbatched scalars: batch them
                column = column.batch(32)
            if len(first.shape) in (0, 1):  # one value per example: a feature axis of 1
                column = column.map(lambda x: tf.expand_dims(x, -1))
            self.preprocessors[name].adapt(column)
        self._is_adapted = True
        self.get_encoded_features()  # finish building: the encoders and the concat
        self.built = True
        self._sublayers_built = True

    def get_inputs(self):
        self._check_if_built()
        return self.inputs

    def get_encoded_features(self):
        self._check_if_adapted()
        if self.encoded_features is None:
            preprocessed = self._preprocess_features(self.inputs)
            crossed = self._cross_features(preprocessed)
            self.encoded_features = self._merge_features(preprocessed, crossed)
        return self.encoded_features

    # --- the three steps: preprocess, cross, merge --------------------------------------------
    def _preprocess_features(self, features):
        return {name: self.preprocessors[name](features[name]) for name in features}

    def _cross_features(self, features):
        return {cross.name: self.crossers[cross.name]([features[n] for n in cross.feature_names])
                for cross in self.crosses}

    def _merge_features(self, preprocessed, crossed):
        if not self._preprocessed_features_names:
            self._preprocessed_features_names = sorted(preprocessed)
            self._crossed_features_names = sorted(crossed)
        names = self._preprocessed_features_names + self._crossed_features_names
        values = [preprocessed[n] for n in self._preprocessed_features_names] + \
            [crossed[n] for n in self._crossed_features_names]
        if not self._sublayers_built:
            self._make_encoders(names, values)
        encoded = {}
        for name, value in zip(names, values):
            encoder = self.one_hot_encoders.get(name)
            encoded[name] = encoder(value) if encoder else value
        if self.output_mode == "dict":
            return encoded
        for name in names:
            dtype = tf.as_dtype(encoded[name].dtype)
            if dtype.is_integer or dtype == tf.string:
                raise ValueError(f"Cannot concatenate features because feature '{name}' has "
                                 f"not been encoded (it has dtype {dtype.name}). Consider "
                                 "using `output_mode='dict'`.")
        if self.concat is None:
            self.concat = TFDConcat(axis=-1)
        return self.concat([encoded[name] for name in names])

    def _make_encoders(self, names, values):
        """A multi-hot CategoryEncoding for each feature or cross with output_mode one_hot."""
        specs = [self.features[n] for n in self._preprocessed_features_names] + \
            [self.crosses_by_name[n] for n in self._crossed_features_names]
        for name, value, spec in zip(names, values, specs):
            if spec.output_mode != "one_hot":
                continue
            dtype = tf.as_dtype(value.dtype)
            if not dtype.is_integer:
                raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. Thus its "
                                 "preprocessor should return an integer dtype. Instead it "
                                 f"returns a {dtype.name} dtype.")
            preprocessor = self.preprocessors.get(name) or self.crossers.get(name)
            self.one_hot_encoders[name] = CategoryEncoding(
                num_tokens=_cardinality(name, preprocessor), output_mode="multi_hot")

    def _check_if_adapted(self):
        if not self._is_adapted:
            if self._list_adaptable_preprocessors():
                raise ValueError("You need to call `.adapt(dataset)` on the FeatureSpace "
                                 "before you can start using it.")
            self._is_adapted = True

    def _check_if_built(self):
        if not self._sublayers_built:
            self._check_if_adapted()
            self.get_encoded_features()
            self._sublayers_built = True

    # --- calling on data ------------------------------------------------------------------------
    def __call__(self, data):
        self._check_if_built()
        if not isinstance(data, dict):
            raise ValueError("A FeatureSpace can only be called with a dict. Received: "
                             f"data={data} (of type {type(data)}")
        data = {key: tf.convert_to_tensor(value) for key, value in data.items()}
        rebatched = False
        for name, x in data.items():
            if x.shape.rank == 0:  # one example: a batch of one, undone at the end
                data[name] = tf.reshape(x, (1, 1))
                rebatched = True
            elif x.shape.rank == 1:
                data[name] = tf.expand_dims(x, -1)
        preprocessed = self._preprocess_features(data)
        crossed = self._cross_features(preprocessed)
        merged = self._merge_features(preprocessed, crossed)
        if rebatched:
            if self.output_mode == "concat":
                return tf.squeeze(merged, axis=0)
            return {name: tf.squeeze(x, axis=0) if x.shape.rank == 2 and x.shape[0] == 1
                    else x for name, x in merged.items()}
        return merged

    # --- configuration and saving -------------------------------------------------------------
    def get_config(self):
        return {"features": {name: _serialize(f) for name, f in self.features.items()},
                "output_mode": self.output_mode,
                "crosses": [_serialize(c) for c in self.crosses],
                "crossing_dim": self.crossing_dim, "hashing_dim": self.hashing_dim,
                "num_discretization_bins": self.num_discretization_bins}

    @classmethod
    def from_config(cls, config):
        space = cls(**config)
        # each preprocessor came back built from its own build_config; the adapted
        # state (weights, vocabularies) is read into them next, as Keras's
        # `build_from_config` + `load_own_variables` do
        space._is_adapted = space.built = True
        return space

    def get_build_config(self):
        """Each preprocessor's build_config, by feature name (what Keras writes)."""
        return {name: serialization.serialize(f.preprocessor).get("build_config", {})
                for name, f in self.features.items()}

    compiled = False  # a FeatureSpace file holds no compile() arguments

    def save(self, filepath):
        """Write the FeatureSpace (configs, adapted weights, vocabularies) to a .keras file;
        `tf.keras.models.load_model` reads it back."""
        from ...saving import keras_file
        self._check_if_built()
        keras_file.save_model(self, filepath)


def _cardinality(name, preprocessor):
    """How many ids a categorical preprocessor can return (the one-hot size)."""
    string_lookup, integer_lookup = _lookup_layers()
    if isinstance(preprocessor, (integer_lookup, string_lookup)):
        return preprocessor.vocabulary_size()
    if isinstance(preprocessor, CategoryEncoding):
        return preprocessor.num_tokens
    if isinstance(preprocessor, (Discretization, HashedCrossing, Hashing)):
        return preprocessor.num_bins
    raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. However it isn't a "
                     "standard feature and the dimensionality of its output space is not "
                     "known, thus it cannot be one-hot encoded. Try using `output_mode='int'`.")

