"""tf.feature_column is deprecated in TF 2.21: the first call of each function logs TF's
warning (once), the docstrings say so, and the logger's level silences it."""
import logging

import pytest

import minitf as tf
from minitf.feature_column.base import CROSSED_INSTRUCTIONS, DEPRECATION_INSTRUCTIONS
from minitf.framework import deprecation
from tests.real_tf import run_tf_json

COLUMN_FUNCTIONS = ["numeric_column", "bucketized_column",
                    "categorical_column_with_vocabulary_list",
                    "categorical_column_with_vocabulary_file",
                    "categorical_column_with_hash_bucket", "categorical_column_with_identity",
                    "crossed_column", "indicator_column", "embedding_column"]


@pytest.fixture
def fresh_warnings():
    saved = dict(deprecation._PRINTED_WARNING)
    deprecation._PRINTED_WARNING.clear()
    yield
    deprecation._PRINTED_WARNING.clear()
    deprecation._PRINTED_WARNING.update(saved)


def _messages(caplog):
    return [r.getMessage() for r in caplog.records if r.name == "tensorflow"]


def test_first_call_warns_once_naming_the_caller(caplog, fresh_warnings):
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        tf.feature_column.numeric_column("a")
        tf.feature_column.numeric_column("b")
    (message,) = _messages(caplog)
    first, rest = message.split(": ", 1)
    assert first == f"From {__file__}:{test_first_call_warns_once_naming_the_caller.__code__.co_firstlineno + 2}"
    assert rest == ("numeric_column (from minitf.feature_column.numeric) is deprecated and will "
                    "be removed in a future version.\nInstructions for updating:\n"
                    + DEPRECATION_INSTRUCTIONS)
    assert caplog.records[-1].levelname == "WARNING"


def test_each_function_warns_on_its_own(caplog, fresh_warnings):
    fc = tf.feature_column
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        kind = fc.categorical_column_with_vocabulary_list("kind", ["a", "b"])
        fc.indicator_column(kind)
        fc.embedding_column(kind, 2)
        fc.indicator_column(kind)
    names = [m.split(": ", 1)[1].split(" ")[0] for m in _messages(caplog)]
    assert names == ["categorical_column_with_vocabulary_list", "indicator_column",
                     "embedding_column"]


def test_logger_level_error_silences_it(caplog, fresh_warnings):
    logger = tf.get_logger()
    level = logger.level
    logger.setLevel("ERROR")
    try:
        with caplog.at_level(logging.ERROR, logger="tensorflow"):
            tf.feature_column.numeric_column("a")
    finally:
        logger.setLevel(level)
    assert _messages(caplog) == []


@pytest.mark.parametrize("name", COLUMN_FUNCTIONS)
def test_docstring_marks_every_column_function(name):
    doc = getattr(tf.feature_column, name).__doc__.splitlines()
    assert doc[0].endswith(" (deprecated)")
    assert doc[2] == ("Deprecated: THIS FUNCTION IS DEPRECATED. It will be removed in a "
                      "future version.")
    instructions = CROSSED_INSTRUCTIONS if name == "crossed_column" else DEPRECATION_INSTRUCTIONS
    assert doc[3:5] == ["Instructions for updating:", instructions]


def test_a_date_and_warn_once_false():
    @deprecation.deprecated("2030-01-01", None, warn_once=False)
    def old():
        """Old."""
        return 3

    assert old.__doc__.splitlines()[:3] == [
        "Old. (deprecated)", "", "Deprecated: THIS FUNCTION IS DEPRECATED. It will be "
        "removed after 2030-01-01."]
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    tf.get_logger().addHandler(handler)
    try:
        assert old() == 3 and old() == 3
    finally:
        tf.get_logger().removeHandler(handler)
    assert len(records) == 2 and "removed after 2030-01-01." in records[0].getMessage()


def test_same_warning_and_docstring_as_tf():
    got = run_tf_json("""
        import json, logging
        import tensorflow as tf
        records = []
        handler = logging.Handler()
        handler.emit = records.append
        tf.get_logger().addHandler(handler)
        fc = tf.feature_column
        names = %r
        for name in names:
            assert getattr(fc, name).__doc__.splitlines()[2:5] == [
                "Deprecated: THIS FUNCTION IS DEPRECATED. It will be removed in a future version.",
                "Instructions for updating:", %r if name == "crossed_column" else %r], name
        col = fc.numeric_column("a")
        fc.numeric_column("b")
        fc.bucketized_column(col, [1.0])
        print(json.dumps([[r.levelname, r.getMessage()] for r in records]))
    """ % (COLUMN_FUNCTIONS, CROSSED_INSTRUCTIONS, DEPRECATION_INSTRUCTIONS))
    assert [level for level, _ in got] == ["WARNING", "WARNING"]
    tails = [m.split(": ", 1)[1] for _, m in got]
    assert tails[0] == ("numeric_column (from tensorflow.python.feature_column.feature_column_v2)"
                        " is deprecated and will be removed in a future version.\n"
                        "Instructions for updating:\n" + DEPRECATION_INSTRUCTIONS)
    assert tails[1].startswith("bucketized_column (from ")
