"""TFRecord files: `tf.io.TFRecordWriter`, `tf.io.TFRecordOptions`, and the record reader.

A TFRecord file is a plain sequence of records, each framed as

    uint64 length              (little-endian)
    uint32 masked CRC32C of the 8 length bytes
    bytes  data[length]
    uint32 masked CRC32C of the data

A "masked" CRC is `((crc >> 15) | (crc << 17)) + 0xa282ead8` (mod 2**32), so
that a CRC of data which itself holds CRCs looks random. The CRC32C itself
comes from Google's `google-crc32c` package when it is installed, else from
the `tensorboard` package (which writes the same framing for its event files).
With compression "GZIP" or "ZLIB" the whole stream of framed records is
compressed by zlib, with TensorFlow's settings.

>>> import os, tempfile
>>> import minitf as tf
>>> path = os.path.join(tempfile.mkdtemp(), "two.tfrecord")
>>> with tf.io.TFRecordWriter(path) as writer:
...     writer.write(b"hello")
...     writer.write(b"world!")
>>> open(path, "rb").read()[:12]      # length 5, then the CRC of those 8 bytes
b'\\x05\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\xea\\xb2\\x04>'
>>> list(tf.data.TFRecordDataset(path).as_numpy_iterator())
[b'hello', b'world!']

Reading is bounded: a length field is never trusted to size a buffer (a
damaged header claiming 2**60 bytes reads what the file has, then reports
`tf.errors.DataLossError`).
"""
import os
import struct
import zlib

from ..framework import errors
from ..framework.atomic_file import atomic_write
from ..framework.tf_export import tf_export
from ..summary.protos import tensorboard

_CHUNK = 1 << 20  # read at most 1 MiB at a time, whatever a length field claims
_WBITS = {"ZLIB": zlib.MAX_WBITS, "GZIP": zlib.MAX_WBITS + 16}


def _crc32c_function():
    """Google's `google-crc32c` (C, ~10,000x faster) if installed, else TensorBoard's
    pure-Python CRC32C (about 2 s per MiB: fine for lessons, slow for big files)."""
    try:
        import google_crc32c
        return google_crc32c.value
    except ImportError:
        pass
    try:
        return tensorboard("compat.tensorflow_stub.pywrap_tensorflow").crc32c
    except ImportError:
        raise ImportError("TFRecord files need a CRC32C: pip install 'google-crc32c>=1.5' (or "
                          "'tensorboard>=2.16'; pip install 'minitf[lab]' has both).") from None


def masked_crc32c(data):
    """The masked CRC32C that TFRecord frames carry.

    >>> hex(masked_crc32c(b"hello"))
    '0x191c1fbb'
    """
    global _crc32c
    if _crc32c is None:
        _crc32c = _crc32c_function()
    crc = _crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


_crc32c = None


def frame(data):
    """One record as it sits in an uncompressed TFRecord file."""
    header = struct.pack("<Q", len(data))
    return (header + struct.pack("<I", masked_crc32c(header)) + data
            + struct.pack("<I", masked_crc32c(data)))


@tf_export("io.TFRecordOptions")
class TFRecordOptions:
    """How a TFRecord file is compressed: `compression_type` "" (none), "ZLIB" or "GZIP".

    The zlib knobs (`compression_level`, `window_bits`, `mem_level`,
    `compression_strategy`) default, as in TensorFlow, to level
    `Z_DEFAULT_COMPRESSION`, the largest window and `mem_level` 9.
    `flush_mode` and the buffer sizes are accepted; minitf does not use them
    (they change how TensorFlow's C++ buffers data, not which bytes are written).

    >>> tf.io.TFRecordOptions.get_compression_type_string("ZLIB")
    'ZLIB'
    >>> tf.io.TFRecordOptions(compression_type="GZIP").compression_type
    'GZIP'
    """

    compression_type_map = {"ZLIB": "ZLIB", "GZIP": "GZIP", "": ""}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        self.get_compression_type_string(compression_type)  # a bad name fails here
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options):
        """"", "ZLIB" or "GZIP" from None, a string or a `TFRecordOptions`."""
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return cls.get_compression_type_string(options.compression_type)
        if options not in cls.compression_type_map:
            raise ValueError(f'Not a valid compression_type: "{options}" Use "" (no '
                             'compression), "ZLIB" or "GZIP".')
        return cls.compression_type_map[options]

    def _compressor(self):
        kind = self.get_compression_type_string(self)
        if not kind:
            return None
        level = -1 if self.compression_level is None else self.compression_level
        bits = self.window_bits or zlib.MAX_WBITS
        return zlib.compressobj(level, zlib.DEFLATED, bits + (16 if kind == "GZIP" else 0),
                                9 if self.mem_level is None else self.mem_level,
                                self.compression_strategy or zlib.Z_DEFAULT_STRATEGY)


@tf_export("io.TFRecordWriter")
class TFRecordWriter:
    """Write records (bytes) to a TFRecord file; use it as a context manager.

    `options` is a `TFRecordOptions` or a compression name ("GZIP", "ZLIB").
    The file is written atomically: records go to a hidden temporary file next
    to `path`, which replaces `path` when the writer closes. (In TensorFlow
    the file fills as you write and `flush()` makes records visible; in
    minitf readers see the whole file once `close()` - or the end of the
    `with` block - has run, never half of it.)

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "data.tfrecord.gz")
    >>> with tf.io.TFRecordWriter(path, options="GZIP") as writer:
    ...     writer.write(b"compressed")
    >>> list(tf.data.TFRecordDataset(path, compression_type="GZIP").as_numpy_iterator())
    [b'compressed']
    """

    def __init__(self, path, options=None):
        if not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(TFRecordOptions.get_compression_type_string(options))
        self._compress = options._compressor()
        self._commit = atomic_write(path)
        try:
            self._file = open(self._commit.__enter__(), "wb")
        except FileNotFoundError:
            raise errors.NotFoundError(
                None, None, f"{os.fspath(path)}; No such file or directory. Create the "
                "folder first (os.makedirs).") from None

    def write(self, record):
        """Append one record: bytes (a str is encoded as UTF-8)."""
        self._check_open()
        if not isinstance(record, (str, bytes, bytearray)):
            raise TypeError(
                "write(): incompatible function arguments. The record must be bytes (or a "
                f"str), not {type(record).__name__}: write example.SerializeToString() for a "
                "tf.train.Example, or tensor.numpy() for a scalar string tensor.")
        data = frame(record.encode() if isinstance(record, str) else bytes(record))
        self._file.write(self._compress.compress(data) if self._compress else data)

    def flush(self):
        """Push buffered bytes to the (temporary) file."""
        self._check_open()
        self._file.flush()

    def close(self):
        """Finish the file: it replaces `path` now. Closing twice is allowed."""
        if self._file is None:
            return
        try:
            if self._compress:
                self._file.write(self._compress.flush())
            self._file.close()
            self._file = None
            self._commit.__exit__(None, None, None)
        except BaseException as exc:
            self._file = None
            self._commit.__exit__(type(exc), exc, exc.__traceback__)
            raise

    def _check_open(self):
        if self._file is None:
            raise errors.FailedPreconditionError(
                None, None, "Writer is closed. Records can only be written before close() "
                "(or inside the `with` block).")

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):  # as in TensorFlow, a forgotten writer still finishes its file
        if getattr(self, "_file", None) is not None:
            self.close()


class _Stream:
    """A file's bytes, decompressed on the fly, handed out in bounded reads."""

    def __init__(self, file, compression_type):
        self._file = file
        bits = _WBITS.get(compression_type)
        self._inflate = zlib.decompressobj(bits) if bits else None
        self._pending = bytearray()

    def read(self, n):
        """Up to `n` bytes (fewer only at the end of the data)."""
        if self._inflate is None:
            return self._read_plain(n)
        while len(self._pending) < n:
            raw = self._inflate.unconsumed_tail or self._file.read(_CHUNK)
            part = self._inflate.decompress(raw, _CHUNK) if raw else self._inflate.flush()
            if not part and not raw:
                break
            self._pending += part
        data = bytes(self._pending[:n])
        del self._pending[:n]
        return data

    def _read_plain(self, n):
        parts, have = [], 0
        while have < n:
            part = self._file.read(min(n - have, _CHUNK))
            if not part:
                break
            parts.append(part)
            have += len(part)
        return b"".join(parts)


def _data_loss(message, op):
    return errors.DataLossError(
        None, op, f"{message} [Op:{op}] The file is damaged, cut short, or not a TFRecord "
        "file; if it was written with compression, pass the same compression_type.")


def _checked(stream, n, offset, op):
    """`n` bytes and their CRC from `stream`; None at a clean end of file."""
    try:
        data = stream.read(n + 4)
    except zlib.error as exc:  # "Error -3 while decompressing data: incorrect header check"
        code, _, why = str(exc).removeprefix("Error ").partition(" while decompressing data: ")
        raise _data_loss(f"inflate() failed with error {code}: {why}", op) from None
    if len(data) < n + 4:
        if not data:
            return None
        return "truncated"
    if struct.unpack("<I", data[n:])[0] != masked_crc32c(data[:n]):
        hint = " (Is this even a TFRecord file?)" if offset == 0 else ""
        raise _data_loss(f"corrupted record at {offset}{hint}", op)
    return data[:n]


def read_records(filename, compression_type="", op="IteratorGetNext"):
    """Yield the records (bytes) of one TFRecord file, checking every CRC.

    As in TensorFlow, a file that ends inside a record's 12-byte header ends
    the records there; one that ends inside the data raises DataLossError.
    """
    try:
        file = open(filename, "rb")
    except FileNotFoundError:
        raise errors.NotFoundError(None, op, f"{filename}; No such file or directory "
                                   f"[Op:{op}] Check the path (relative paths start at "
                                   "the current working directory).") from None
    with file:
        stream, offset = _Stream(file, compression_type), 0
        while True:
            header = _checked(stream, 8, offset, op)
            if header is None or header == "truncated":
                return
            length = struct.unpack("<Q", header)[0]
            data = _checked(stream, length, offset + 12, op)  # TF counts from the data
            if data is None or data == "truncated":
                why = "EOF reached" if compression_type else "Read less bytes than requested"
                raise _data_loss(f"truncated record at {offset}' failed with {why}", op)
            yield data
            offset += 12 + length + 4
