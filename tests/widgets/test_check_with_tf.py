"""widgets.check_with_tf without real TF: the classification, the explanations, the runner."""
import sys

import nbformat

from widgets import check_with_tf as cw


def result(output="", error=None, ran=True):
    return {"output": output, "error": error, "ran": ran}


def cell(source="x", tags=()):
    return {"id": "abcd1234", "source": source, "tags": list(tags)}


def test_identical_text_is_same_and_addresses_do_not_count():
    assert cw.classify(cell(), result("a\n"), result("a\n")) == cw.SAME
    assert cw.classify(cell(), result("<f at 0x7f2874aa>\n"), result("<f at 0x7f11aabb>\n")) == cw.SAME


def test_numbers_within_tolerance_are_close_and_beyond_it_differ():
    assert cw.classify(cell(), result("[1.0000001 2.]"), result("[1. 2.]")) == cw.CLOSE
    assert cw.classify(cell(), result("loss 0.5"), result("loss 0.6")) == cw.DIFFERS
    assert cw.classify(cell(), result("1 2"), result("1 2 3")) == cw.DIFFERS
    assert cw.classify(cell(), result("Variable"), result("ResourceVariable")) == cw.DIFFERS


def test_tolerance_reads_exponents_and_ignores_spacing():
    assert cw.same_within_tolerance("[ 1.5e-03  2. ]", "[0.0015 2.]")
    assert not cw.same_within_tolerance("x = 1", "y = 1")
    assert not cw.same_within_tolerance("1e-3", "2e-3")


def test_errors_on_one_side_are_named_by_side():
    boom = ["ValueError", "no"]
    assert cw.classify(cell(), result(), result(error=boom)) == cw.TF_ERROR
    assert cw.classify(cell(), result(error=boom), result()) == cw.MINITF_ERROR
    # an unexpected error in both is still minitf's (the lesson must not fail)
    assert cw.classify(cell(), result(error=boom), result(error=boom)) == cw.MINITF_ERROR


def test_expected_errors_compare_their_classes_not_messages():
    tagged = cell(tags=["raises-exception"])
    assert cw.classify(tagged, result(error=["TypeError", "a"]),
                       result(error=["TypeError", "b"])) == cw.ERROR_SAME
    assert cw.classify(tagged, result(error=["TypeError", "a"]),
                       result(error=["ValueError", "a"])) == cw.ERROR_OTHER


def test_internals_and_timings():
    assert cw.classify(cell(tags=[cw.INTERNALS_TAG]), result("a"), result(ran=False)) == cw.INTERNALS
    timed = cell(tags=["nbval-ignore-output"])
    assert cw.classify(timed, result("3 ms"), result("9 ms")) == cw.VARIES
    assert cw.classify(timed, result(), result(error=["E", ""])) == cw.TF_ERROR


def test_a_difference_must_be_tagged_and_named_in_the_section():
    cells = [cell("print(type(w).__name__)", [cw.DIFFERS_TAG]), cell("y = 1")]
    section = "## In real TensorFlow\n- `type(w).__name__` is `ResourceVariable` there."
    assert cw.unexplained(cells, [cw.DIFFERS, cw.SAME], section) == []
    untagged = cw.unexplained(cells, [cw.DIFFERS, cw.DIFFERS], section)
    assert len(untagged) == 1 and "not tagged 'differs-in-tf'" in untagged[0]
    stale = cw.unexplained(cells, [cw.SAME, cw.SAME], section)
    assert len(stale) == 1 and "tagged 'differs-in-tf' but same" in stale[0]
    unnamed = cw.unexplained(cells, [cw.DIFFERS, cw.SAME], "## In real TensorFlow\n`tf.x`")
    assert len(unnamed) == 1 and "name the cell there" in unnamed[0]


def test_the_section_is_cut_at_the_next_heading():
    markdown = ["# L", "## In real TensorFlow\n`abcdefg`\n\n## Exercises\n`hijklmn`"]
    section = cw.tf_section(markdown)
    assert "abcdefg" in section and "hijklmn" not in section
    assert cw.tf_section(["# no section"]) == ""


def small_lesson(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# L\n\n## In real TensorFlow\n- `print(type(x))` differs."),
        nbformat.v4.new_code_cell("import minitf as tf\nx = tf.constant([1.0, 2.0])\nx * 2"),
        nbformat.v4.new_code_cell("print('out'); import sys; print('err', file=sys.stderr)"),
        nbformat.v4.new_code_cell("1 / 0", metadata={"tags": ["raises-exception"]}),
        nbformat.v4.new_code_cell("@tf.function\ndef f(a):\n    if a > 0:\n        return a\n"
                                  "    return -a\nf(tf.constant(-3))"),
        nbformat.v4.new_code_cell("x;"),
    ]
    path = tmp_path / "01_small.ipynb"
    nbformat.write(nb, path)
    return str(path)


def test_the_runner_captures_output_last_value_errors_and_reads_function_source(tmp_path):
    path = small_lesson(tmp_path)
    cells, markdown = cw.read_lesson(path)
    assert len(cells) == 5 and "print(type(x))" in cw.tf_section(markdown)
    [results] = cw.run_cells(sys.executable, "minitf", [(path, cells)])
    assert results[0]["output"].startswith("<tf.Tensor: shape=(2,), dtype=float32, numpy=")
    assert results[1] == result("out\nerr\n")
    assert results[2]["error"][0] == "ZeroDivisionError"
    # AutoGraph converted the `if` on a tensor: it needs the cell's source, as in Jupyter
    assert results[3]["error"] is None and "numpy=3>" in results[3]["output"]
    assert results[4] == result("")  # a trailing `;` shows nothing


def test_internals_cells_are_not_run_under_tf(tmp_path):
    path = small_lesson(tmp_path)
    cells, _ = cw.read_lesson(path)
    cells[1]["tags"].append(cw.INTERNALS_TAG)
    [tf_job] = cw.make_job("tensorflow", [(path, cells)])
    assert [c["run"] for c in tf_job["cells"]] == [True, False, True, True, True]
    [minitf_job] = cw.make_job("minitf", [(path, cells)])
    assert all(c["run"] for c in minitf_job["cells"])


def test_the_table_shows_both_outputs_of_an_unexplained_difference():
    cells = [cell("print(1)")]
    text = cw.format_lesson("lessons/01_x.ipynb", cells, [cw.DIFFERS],
                            [result("1\n")], [result("2\n")], ["a problem"])
    assert "DIFFERS" in text and "| 1" in text and "| 2" in text and "UNEXPLAINED: a problem" in text


def test_docstring_example():
    import doctest
    outcome = doctest.testmod(cw)
    assert outcome.attempted > 0 and outcome.failed == 0
