"""TensorFlow's names for the inputs of common ops, and the TypeError tracing raises
when their dtypes do not fit.

Eagerly, a dtype mismatch is found by the kernel: InvalidArgumentError, "cannot
compute AddV2 as input #1(zero-based) was expected to be a int32 tensor ...".
Inside `tf.function` TensorFlow finds it earlier, while building the graph, and
raises a TypeError that names the op's inputs as its op registry does:

>>> import minitf as tf
>>> @tf.function
... def f(n):
...     return n + 1.5
>>> try:
...     f(tf.constant(2))
... except TypeError as error:
...     print(str(error).split("TypeError: ")[-1].split(" TensorFlow never")[0])
Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'.

(The full message then says how to fix it: `tf.cast` one operand.)
"""
from . import dtypes

_XY = ("x", "y")
ARG_NAMES = {
    **{name: _XY for name in (
        "AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod", "TruncateDiv",
        "TruncateMod", "Pow", "Maximum", "Minimum", "SquaredDifference", "Less", "LessEqual",
        "Greater", "GreaterEqual", "Equal", "NotEqual", "LogicalAnd", "LogicalOr",
        "BitwiseAnd", "BitwiseOr", "BitwiseXor", "DivNoNan", "MulNoNan", "Xlogy", "Xdivy",
        "Xlog1py", "BatchMatMulV2", "Complex")},
    **{name: ("x",) for name in (
        "Neg", "Abs", "Sign", "Square", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p",
        "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Sigmoid",
        "Erf", "Erfc", "Floor", "Ceil", "Round", "Reciprocal", "IsNan", "IsInf",
        "IsFinite", "LogicalNot", "Invert", "Conj", "Real", "Imag", "Softmax")},
    **{name: ("features",) for name in (
        "Relu", "Relu6", "Elu", "Selu", "LeakyRelu", "Softplus", "Softsign")},
    "Atan2": ("y", "x"), "MatMul": ("a", "b"), "BiasAdd": ("value", "bias"),
    "Conv2D": ("input", "filter"), "SelectV2": ("condition", "t", "e"),
    "ReluGrad": ("gradients", "features"), "Sum": ("input",), "Mean": ("input",),
    "Max": ("input",), "Min": ("input",), "Prod": ("input",),
}
LIST_ARGS = {"ConcatV2": "values", "Pack": "values", "AddN": "inputs"}  # one list input


def _name(op, i):
    names = ARG_NAMES.get(op.name)
    return f"'{names[i]}'" if names and i < len(names) else f"#{i}(zero-based)"


def traced_dtype_error(op, inputs, hint):
    """The TypeError TensorFlow raises while building a graph node whose input dtypes
    do not fit `op` (called once the eager check has found that they do not)."""
    if op.name in LIST_ARGS:
        kinds = ", ".join(t.dtype.name for t in inputs)
        return TypeError(f"Tensors in list passed to '{LIST_ARGS[op.name]}' of '{op.name}' Op "
                         f"have types [{kinds}] that don't all match. {hint}")
    typed = range(len(inputs)) if op.typed is None else op.typed
    first = inputs[typed[0]].dtype
    if op.dtypes is not None and first not in op.dtypes:
        allowed = ", ".join(d.name for d in dtypes.ALL if d in op.dtypes)
        return TypeError(f"Value passed to parameter {_name(op, typed[0])} has DataType "
                         f"{first.name} not in list of allowed values: {allowed}. {hint}")
    for i in typed[1:]:
        if inputs[i].dtype is not first:
            return TypeError(f"Input {_name(op, i)} of '{op.name}' Op has type "
                             f"{inputs[i].dtype.name} that does not match type {first.name} "
                             f"of argument {_name(op, typed[0])}. {hint}")
    return None
