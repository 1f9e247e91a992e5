"""`tf.train.Example` and friends: TensorFlow's record format for features.

An `Example` is a protocol buffer: a map from feature names to a `Feature`,
and each `Feature` holds one list - of bytes, of floats (float32) or of
int64s. A `SequenceExample` adds `feature_lists`: for each name, a list of
`Feature`s (one per time step). TensorFlow declares them in
`tensorflow/core/example/feature.proto` and `example.proto`:

    message BytesList { repeated bytes value = 1; }
    message FloatList { repeated float value = 1 [packed = true]; }
    message Int64List { repeated int64 value = 1 [packed = true]; }
    message Feature { oneof kind { BytesList bytes_list = 1; FloatList float_list = 2;
                                   Int64List int64_list = 3; } }
    message Features { map<string, Feature> feature = 1; }
    message FeatureList { repeated Feature feature = 1; }
    message FeatureLists { map<string, FeatureList> feature_list = 1; }
    message Example { Features features = 1; }
    message SequenceExample { Features context = 1; FeatureLists feature_lists = 2; }

minitf declares the same messages (same package `tensorflow`, same field
numbers) below and lets Google's `protobuf` library make the classes, so
encoding and decoding are protobuf's own: `SerializeToString()` gives the
bytes TensorFlow gives, and TensorFlow reads ours. Only the schema is written
here, never the wire format. In TensorFlow these classes come from the
`protoc`-generated `example_pb2` / `feature_pb2` modules.

>>> import minitf as tf
>>> example = tf.train.Example(features=tf.train.Features(feature={
...     "age": tf.train.Feature(int64_list=tf.train.Int64List(value=[42]))}))
>>> example.SerializeToString()
b'\\n\\x0e\\n\\x0c\\n\\x03age\\x12\\x05\\x1a\\x03\\n\\x01*'
>>> tf.train.Example.FromString(example.SerializeToString()) == example
True
"""
import importlib

INSTALL_HINT = ("tf.train.Example and TFRecord parsing need Google's protobuf library, which "
                "minitf imports only when you use them. Install it with: pip install "
                "'protobuf>=4.22' (pip install 'minitf[lab]' includes it).")

# (message, [(field name, number, kind, label, message type or None)]); kind and label
# are FieldDescriptorProto names: TYPE_BYTES, LABEL_REPEATED, ...
_FEATURE_PROTO = [
    ("BytesList", [("value", 1, "TYPE_BYTES", "LABEL_REPEATED", None)]),
    ("FloatList", [("value", 1, "TYPE_FLOAT", "LABEL_REPEATED", None)]),
    ("Int64List", [("value", 1, "TYPE_INT64", "LABEL_REPEATED", None)]),
    ("Feature", [("bytes_list", 1, "TYPE_MESSAGE", "LABEL_OPTIONAL", "BytesList"),
                 ("float_list", 2, "TYPE_MESSAGE", "LABEL_OPTIONAL", "FloatList"),
                 ("int64_list", 3, "TYPE_MESSAGE", "LABEL_OPTIONAL", "Int64List")]),
    ("Features", [("feature", 1, "map", "string", "Feature")]),
    ("FeatureList", [("feature", 1, "TYPE_MESSAGE", "LABEL_REPEATED", "Feature")]),
    ("FeatureLists", [("feature_list", 1, "map", "string", "FeatureList")]),
]
_EXAMPLE_PROTO = [
    ("Example", [("features", 1, "TYPE_MESSAGE", "LABEL_OPTIONAL", "Features")]),
    ("SequenceExample", [("context", 1, "TYPE_MESSAGE", "LABEL_OPTIONAL", "Features"),
                         ("feature_lists", 2, "TYPE_MESSAGE", "LABEL_OPTIONAL",
                          "FeatureLists")]),
]
NAMES = [name for name, _ in _FEATURE_PROTO + _EXAMPLE_PROTO]
_classes = {}


def _protobuf(module):
    try:
        return importlib.import_module(f"google.protobuf.{module}")
    except ImportError as exc:
        raise ImportError(INSTALL_HINT) from exc


def _add_field(message, descriptor_pb2, name, number, kind, label, type_name):
    Field = descriptor_pb2.FieldDescriptorProto
    if kind == "map":  # map<string, V> is a repeated nested "<Name>Entry" {key = 1; value = 2}
        entry = message.nested_type.add(name=name.title().replace("_", "") + "Entry")
        entry.options.map_entry = True
        entry.field.add(name="key", number=1, type=Field.TYPE_STRING, label=Field.LABEL_OPTIONAL)
        entry.field.add(name="value", number=2, type=Field.TYPE_MESSAGE,
                        label=Field.LABEL_OPTIONAL, type_name=f".tensorflow.{type_name}")
        message.field.add(name=name, number=number, type=Field.TYPE_MESSAGE,
                          label=Field.LABEL_REPEATED,
                          type_name=f".tensorflow.{message.name}.{entry.name}")
        return
    field = message.field.add(name=name, number=number, type=getattr(Field, kind),
                              label=getattr(Field, label))
    if type_name:
        field.type_name = f".tensorflow.{type_name}"
    if message.name == "Feature":  # the three lists are alternatives: `oneof kind`
        field.oneof_index = 0


def _file(descriptor_pb2, filename, messages, dependencies=()):
    proto = descriptor_pb2.FileDescriptorProto(name=filename, package="tensorflow",
                                               syntax="proto3", dependency=list(dependencies))
    for name, fields in messages:
        message = proto.message_type.add(name=name)
        if name == "Feature":
            message.oneof_decl.add(name="kind")
        for field in fields:
            _add_field(message, descriptor_pb2, *field)
    return proto


def message_classes():
    """{name: class} for the seven feature messages and Example / SequenceExample.

    The descriptors live in a pool of their own, so importing real TensorFlow in
    the same process (which registers the same names) never clashes with them.
    """
    if not _classes:
        descriptor_pb2 = _protobuf("descriptor_pb2")
        pool = _protobuf("descriptor_pool").DescriptorPool()
        feature_file = "tensorflow/core/example/feature.proto"
        pool.Add(_file(descriptor_pb2, feature_file, _FEATURE_PROTO))
        pool.Add(_file(descriptor_pb2, "tensorflow/core/example/example.proto",
                       _EXAMPLE_PROTO, [feature_file]))
        factory = _protobuf("message_factory")
        for name in NAMES:
            cls = factory.GetMessageClass(pool.FindMessageTypeByName(f"tensorflow.{name}"))
            cls.__module__ = "minitf.train"  # where pickle (and a reader) finds it again
            _classes[name] = cls
    return _classes
