"""Random programs through AutoGraph: converted code must compute what Python computes.

Each program mixes assignments, if/else, `for` over `range`, `while`, `break`,
`continue`, early `return`, `and`/`or`/`not` and conditional expressions on
small integers. With Python values the converted function must agree with
the original exactly; inside tf.function, with the argument a tensor, it must
either agree or raise one of the errors TF raises for such programs (a
`return` inside a TF loop, a `break` on a tensor inside a Python loop, a
return value missing in one branch of a tensor `if`).

(The same generator, run against TensorFlow 2.21, agreed with minitf on
which programs fail and with which error class.)
"""
import linecache
import random

import pytest

import minitf as tf
from minitf.autograph import conversion

VARIABLES = ["a", "b", "c"]


def expression(r, depth=0):
    kind = r.randrange(6 if depth < 2 else 3)
    if kind == 0:
        return str(r.randrange(-3, 6))
    if kind in (1, 2):
        return r.choice(VARIABLES + ["n"])
    if kind == 3:
        return f"({expression(r, depth + 1)} {r.choice('+-*')} {expression(r, depth + 1)})"
    if kind == 4:
        return f"({expression(r, depth + 1)} % 3)"
    return f"({expression(r, depth + 1)} if {condition(r, depth + 1)} " \
           f"else {expression(r, depth + 1)})"


def condition(r, depth=0):
    kind = r.randrange(4 if depth < 2 else 1)
    if kind == 0:
        op = r.choice(["<", ">", "==", "!="])
        return f"{expression(r, depth + 1)} {op} {expression(r, depth + 1)}"
    if kind == 1:
        return f"({condition(r, depth + 1)} and {condition(r, depth + 1)})"
    if kind == 2:
        return f"({condition(r, depth + 1)} or {condition(r, depth + 1)})"
    return f"not {condition(r, depth + 1)}"


def block(r, depth, in_loop, indent):
    pad, lines = "    " * indent, []
    for _ in range(r.randrange(1, 4)):
        kind = r.randrange(9 if depth < 3 else 2)
        if kind <= 1:
            lines.append(f"{pad}{r.choice(VARIABLES)} {r.choice(['=', '+=', '-='])} "
                         f"{expression(r)}")
        elif kind == 2:
            lines.append(f"{pad}if {condition(r)}:")
            lines += block(r, depth + 1, in_loop, indent + 1)
            if r.random() < 0.5:
                lines.append(f"{pad}else:")
                lines += block(r, depth + 1, in_loop, indent + 1)
        elif kind == 3:
            lines.append(f"{pad}for i{depth} in range({r.randrange(0, 5)}):")
            lines += block(r, depth + 1, True, indent + 1)
        elif kind == 4:
            counter = f"g{depth}"
            lines += [f"{pad}{counter} = 0",
                      f"{pad}while {counter} < {r.randrange(0, 5)} and {condition(r)}:",
                      f"{pad}    {counter} += 1"]
            lines += block(r, depth + 1, True, indent + 1)
        elif kind in (5, 6) and in_loop:
            lines += [f"{pad}if {condition(r)}:", f"{pad}    {'break' if kind == 5 else 'continue'}"]
        elif kind == 7:
            lines += [f"{pad}if {condition(r)}:", f"{pad}    return ({expression(r)}, 0, 0)"]
        elif kind == 8:
            lines += [f"{pad}d = {expression(r)}", f"{pad}a = a + d"]
    return lines or [pad + "pass"]


def random_program(seed):
    """A function `prog(n)` returning a 3-tuple, with its source registered for inspect."""
    r = random.Random(seed)
    lines = ["def prog(n):", "    a, b, c = n, 1, 2"] + block(r, 0, False, 1) + \
        ["    return (a, b, c)"]
    source = "\n".join(lines) + "\n"
    filename = f"<autograph-fuzz-{seed}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102
    return namespace["prog"], source


def outcome(f, *args):
    try:
        return f(*args)
    except Exception as e:  # noqa: BLE001 - the error class is the outcome
        return type(e)


@pytest.mark.parametrize("start", range(0, 400, 100))
def test_random_programs_keep_python_semantics(start):
    for seed in range(start, start + 100):
        f, source = random_program(seed)
        converted = conversion.convert_function(f)[0]
        for n in range(-2, 4):
            assert outcome(converted, n) == outcome(f, n), source


TF_LIMITATIONS = ("a return statement cannot be placed inside this TensorFlow loop",
                  "must also have a return statement",
                  "depend on a TF condition are not supported in Python for loops",
                  "changed to Tensor",
                  "the return value from a TensorFlow loop may only be")


@pytest.mark.parametrize("start", range(0, 120, 40))
def test_random_programs_on_tensors_agree_or_fail_like_tf(start):
    for seed in range(start, start + 40):
        f, source = random_program(seed)
        traced = tf.function(f)
        for n in range(-2, 4):
            try:
                result = traced(tf.constant(n))
            except (ValueError, NotImplementedError) as e:
                assert any(text in str(e) for text in TF_LIMITATIONS), source + str(e)
                break
            assert tuple(int(v) for v in result) == f(n), source
