"""The element-wise ops the fusion pass knows, and the fused op that runs a chain of them.

A fused node carries a small *program*: a list of steps, each applying one
element-wise op to *registers*. Registers 0..n-1 hold the node's inputs; each
step appends one register; the last one is the result.

>>> import numpy as np
>>> program = Program([Step("Mul", (0, 1)), Step("AddV2", (2, 0)), Step("Relu", (3,))], inputs=2)
>>> print(program)
Relu(AddV2(Mul(#0, #1), #0))
>>> run_program(np.array([1.0, -2.0]), np.array([3.0, 3.0]), program=program)
array([4., 0.])

A step may `reuse` the array of a register nobody needs any more (a
temporary made inside the program) and write its result there with NumPy's
`out=`: `x * y + x` then allocates one array instead of two. `check` says the
shapes could not be proved equal while tracing, so they are compared when the
program runs. Only ops with an in-place kernel below reuse arrays; every
kernel gives exactly the numbers of the op's own forward (tests check this).
The step marked `final` makes the array that becomes the node's result: it
writes into the executor's `out` (the node's result of an earlier run, see
`framework/executor.py`) when one is given, so a fused node that runs again
and again allocates nothing big.
"""
import collections
import contextlib

import numpy as np

from ..framework.op import Op
from ..ops import clip_ops, math_ops, nn_ops, unary_ops

_UNARY = ("Neg", "Log", "Conj", "Sign", "Abs", "Invert", "LogicalNot", "Cast", "ComplexAbs",
          "Sqrt", "Rsqrt", "Exp", "Expm1", "Log1p", "Square", "Reciprocal", "Sin", "Cos",
          "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Sigmoid", "LogSigmoid",
          "Erf", "Erfc", "Round", "Floor", "Ceil", "IsNan", "IsInf", "IsFinite",
          "Relu", "Relu6", "LeakyRelu", "Elu", "Selu", "Softplus", "Softsign")
_BINARY = ("AddV2", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "Pow", "Maximum",
           "Minimum", "SquaredDifference", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
           "GreaterEqual", "LogicalAnd", "LogicalOr", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
           "SelectV2", "ReluGrad", "DivNoNan", "MulNoNan", "Xlogy", "Xdivy")


def _ops_by_name():
    found = {}
    for module in (math_ops, unary_ops, nn_ops, clip_ops):
        for value in vars(module).values():
            if isinstance(value, Op) and value.name in _UNARY + _BINARY:
                found[value.name] = value
    return found


ELEMENTWISE = _ops_by_name()  # op name -> Op: what the fusion pass may fuse


def _squared_difference(x, y, out=None):
    out = np.subtract(x, y, out=out)
    return np.square(out, out=out)


# op name -> (kernel(*arrays, out=None), needs quiet floating point). With out=None a
# kernel returns a new array, like the op's forward; with out= it writes there.
IN_PLACE = {
    "AddV2": (np.add, False), "Sub": (np.subtract, False), "Mul": (np.multiply, False),
    "RealDiv": (np.divide, True), "Maximum": (np.maximum, False),
    "Minimum": (np.minimum, False), "SquaredDifference": (_squared_difference, True),
    "LogicalAnd": (np.logical_and, False), "LogicalOr": (np.logical_or, False),
    "BitwiseAnd": (np.bitwise_and, False), "BitwiseOr": (np.bitwise_or, False),
    "BitwiseXor": (np.bitwise_xor, False),
    "Neg": (np.negative, False), "Conj": (np.conjugate, False), "Abs": (np.absolute, False),
    "Invert": (np.invert, False), "LogicalNot": (np.logical_not, False),
    "Sqrt": (np.sqrt, True), "Exp": (np.exp, True), "Expm1": (np.expm1, True),
    "Log": (np.log, True), "Log1p": (np.log1p, True), "Square": (np.square, True),
    "Sin": (np.sin, False), "Cos": (np.cos, False), "Tan": (np.tan, True),
    "Asin": (np.arcsin, True), "Acos": (np.arccos, True), "Atan": (np.arctan, False),
    "Sinh": (np.sinh, True), "Cosh": (np.cosh, True), "Tanh": (np.tanh, False),
    "Floor": (np.floor, False), "Ceil": (np.ceil, False),
    "Relu": (lambda x, out=None: np.maximum(x, x.dtype.type(0), out=out), False),
    "Relu6": (lambda x, out=None: np.clip(x, x.dtype.type(0), x.dtype.type(6), out=out), False),
    "ReluGrad": (lambda dy, y, out=None: np.multiply(dy, y > 0, out=out), False),
}

Step = collections.namedtuple("Step", "op args attrs reuse check final",
                              defaults=((), None, False, False))
Step.__doc__ = """One step: `op(*registers[args], **dict(attrs))`, written into register
`reuse` if it is not None (checking shapes at run time if `check`), or into the
node's `out` if `final` and the executor gives one."""


def casts_bool(step, dtype):
    """A Cast of a bool register to a number: its kernel may write into an array
    (True -> 1, False -> 0 are exact in every numeric dtype)."""
    return step.op == "Cast" and dtype is not None and dtype.is_bool \
        and not dict(step.attrs)["DstT"].is_bool


class Program(tuple):
    """The steps of a fused node; prints as the expression it computes."""

    def __new__(cls, steps, inputs):
        program = super().__new__(cls, steps)
        program.inputs = inputs  # registers 0 .. inputs-1 are the node's inputs
        program.quiet = any(IN_PLACE.get(s.op, (None, False))[1] for s in program)
        return program

    def __str__(self):
        texts = [f"#{i}" for i in range(self.inputs)]
        for step in self:
            attrs = "".join(f"[{k}={v}]" for k, v in step.attrs)
            texts.append(f"{step.op}{attrs}({', '.join(texts[a] for a in step.args)})")
        return texts[-1]

    __repr__ = __str__


def run_program(*arrays, program, fused_ops=None, out=None):
    """The forward of `_FusedElementwise`: run the steps over registers, in place where
    planned (and into `out`, the node's result of an earlier run, when it fits)."""
    registers = list(arrays)
    with np.errstate(all="ignore") if program.quiet else contextlib.nullcontext():
        for step in program:
            values = [registers[a] for a in step.args]
            if step.final and out is not None and out.shape == np.broadcast_shapes(
                    *[np.shape(v) for v in values]):
                if step.op == "Cast":  # (of a bool: `casts_bool`)
                    np.copyto(out, values[0])
                    registers.append(out)
                    continue
                registers.append(IN_PLACE[step.op][0](*values, out=out))
                continue
            kernel = IN_PLACE.get(step.op) if not step.attrs else None
            if kernel is None:
                registers.append(ELEMENTWISE[step.op].forward(*values, **dict(step.attrs)))
                continue
            target = None if step.reuse is None else registers[step.reuse]
            if target is not None and (type(target) is not np.ndarray or step.check and (
                    np.broadcast_shapes(*[np.shape(v) for v in values]) != target.shape)):
                target = None
            registers.append(kernel[0](*values, out=target))
    return registers[-1]


def _program_shape(*shapes, program, fused_ops=None):
    registers = list(shapes)
    for step in program:
        op = ELEMENTWISE[step.op]
        registers.append(op.shape(*[registers[a] for a in step.args], **dict(step.attrs)))
    return registers[-1]


def _program_dtype(*dtypes_, program, fused_ops=None):
    registers = list(dtypes_)
    for step in program:
        op = ELEMENTWISE[step.op]
        args = [registers[a] for a in step.args]
        registers.append(op.output_dtypes(args, dict(step.attrs), 1)[0])
    return registers[-1]


# A minitf op (TensorFlow's graphs have no such node; XLA's "loop fusion" is the idea).
FusedElementwise = Op("_FusedElementwise", run_program, typed=(), shape=_program_shape,
                      dtype=_program_dtype, accepts_out=True)
