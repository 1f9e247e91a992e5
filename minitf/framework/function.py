"""`tf.function`: trace a Python function into a graph once, then run the graph.

Calling a `Function` looks up a trace for the argument types: tensors are
keyed by shape and dtype (or an `input_signature`), Python values by value.
On a miss it *traces*: runs your Python code once with symbolic tensors,
recording a `Graph`. Every later call with matching types only runs the graph.
So Python side effects (print, appending to a list) happen while tracing,
and `tf.print` - an op in the graph - happens on every call:

>>> import minitf as tf
>>> @tf.function
... def square(x):
...     print("tracing!")
...     return x * x
>>> square(tf.constant(2.0))
tracing!
<tf.Tensor: shape=(), dtype=float32, numpy=4.0>
>>> square(tf.constant(3.0))      # same shape and dtype: no tracing
<tf.Tensor: shape=(), dtype=float32, numpy=9.0>
>>> square.experimental_get_tracing_count()
1
"""
import functools
import inspect
import types
import weakref

import numpy as np

from . import composite_tensor, context, dtypes, errors, nest, retracing
from .executor import compile_graph, run
from .signature_binding import bind_signature, parameter_names as _parameter_names
from .graph import Graph, SymbolicTensor, replay
from .tensor import EagerTensor, Tensor, convert_to_tensor
from .tensor_shape import TensorShape
from .tf_export import tf_export

_RUN_EAGERLY = [False]


@tf_export("config.run_functions_eagerly", "config.experimental_run_functions_eagerly")
def run_functions_eagerly(run_eagerly):
    """Run every tf.function's Python body eagerly (no tracing), e.g. to debug with pdb."""
    _RUN_EAGERLY[0] = bool(run_eagerly)


@tf_export("config.functions_run_eagerly", "config.experimental_functions_run_eagerly")
def functions_run_eagerly():
    """Whether tf.config.run_functions_eagerly(True) is in effect."""
    return _RUN_EAGERLY[0]


@tf_export("TensorSpec")
class TensorSpec:
    """The type of a tensor argument: a (partial) shape, a dtype and an optional name.

    >>> tf.TensorSpec([None, 3], tf.float32)
    TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)
    """

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, other):
        return self.dtype is other.dtype and self.shape.is_compatible_with(other.shape)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape
                and self.dtype is other.dtype and self.name == other.name)

    def __hash__(self):
        return hash((self.shape, self.dtype.name, self.name))

    def __repr__(self):
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype!r}, name={self.name!r})"


# Callables told about every new trace: `observe(concrete_function)`.
trace_observers = []


class Function:
    """What `@tf.function` returns: a callable with a cache of traced graphs."""

    converter = None  # set by minitf/autograph: converts Python control flow (AutoGraph)
    optimizer = None  # set by minitf/grappler: rewrites a traced graph before it runs
    optimizer_version = 0  # grappler bumps it when its options change: graphs re-optimize

    def __init__(self, python_function, name=None, input_signature=None, autograph=True,
                 jit_compile=None, reduce_retracing=False, experimental_implements=None,
                 experimental_autograph_options=None, experimental_attributes=None,
                 experimental_relax_shapes=None, experimental_compile=None,
                 experimental_follow_type_hints=None):
        functools.update_wrapper(self, python_function)
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        self._input_signature = None if input_signature is None else tuple(input_signature)
        self._autograph = autograph
        self._experimental_autograph_options = experimental_autograph_options
        self._reduce_retracing = bool(reduce_retracing or experimental_relax_shapes)
        self._cache = {}  # one entry per trace: its argument key -> ConcreteFunction
        self._types = {}  # skeleton -> [(shapes, ConcreteFunction)] (see retracing.py)
        self._dispatch = {}  # key of a call served by a more general trace -> that trace
        self._detector = retracing.detector_for(python_function)
        self._tracing_count = 0
        self._first_trace_done = False
        self._bound = weakref.WeakKeyDictionary()
        self._fast = {}  # (shape, dtype) per positional tensor -> ConcreteFunction
        self._arity = _plain_arity(python_function) if input_signature is None else -1

    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    def experimental_get_tracing_count(self):
        """How many times this function has been traced (TF's name for the counter)."""
        return self._tracing_count

    def __get__(self, instance, owner):
        """`@tf.function` on a method: one Function (with its own cache) per instance."""
        if instance is None:
            return self
        bound = self._bound.get(instance)
        if bound is None:
            bound = Function(self._python_function.__get__(instance, owner), self._name,
                             self._input_signature, self._autograph,
                             reduce_retracing=self._reduce_retracing,
                             experimental_autograph_options=self._experimental_autograph_options)
            self._bound[instance] = bound
        return bound

    # --- calling ---------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if _RUN_EAGERLY[0]:
            return self._python_function(*args, **kwargs)
        if context.graph_stack:  # called while tracing another function: inline the body
            return self._traceable()(*args, **kwargs)
        if not kwargs and len(args) == self._arity:  # the common call, without tf.nest
            key = _fast_key(args)
            if key is not None:
                concrete = self._fast.get(key)
                if concrete is not None:  # traced before: no retracing to count
                    result = concrete._call_flat([a for a in args if type(a) is EagerTensor])
                    self._detector.calls += 1  # called_without_tracing(), inlined
                    return result
                traced = self._tracing_count
                concrete = self._concrete_for(args, kwargs)[0]
                if len(self._fast) >= _MAX_DISPATCH_CACHE:
                    self._fast.clear()
                self._fast[key] = concrete
                result = concrete._call_flat([a for a in args if type(a) is EagerTensor])
                self._count_call(traced)
                return result
        traced = self._tracing_count
        concrete, tensors = self._concrete_for(args, kwargs)
        result = concrete._call_flat(tensors)
        self._count_call(traced)
        return result

    def _count_call(self, traced):
        """Tell the retracing detector whether this call traced; five traces in the last
        ten calls log TF's warning through tf.get_logger() (see retracing.py)."""
        if self._tracing_count == traced:
            self._detector.called_without_tracing()
        else:
            self._detector.called_with_tracing(self._python_function)

    def pretty_printed_concrete_signatures(self, verbose=True):
        """Every trace's signature (see ConcreteFunction.pretty_printed_signature)."""
        traces = list(dict.fromkeys(self._cache.values()))
        return "\n\n".join(cf.pretty_printed_signature(verbose) for cf in traces) if \
            verbose else "\n".join(cf.pretty_printed_signature(verbose) for cf in traces)

    def get_concrete_function(self, *args, **kwargs):
        """The traced graph for these arguments (tensors or `tf.TensorSpec`s)."""
        if not args and not kwargs and self._input_signature is not None:
            args = self._input_signature
        return self._concrete_for(args, kwargs)[0]

    def _traceable(self):
        if self._autograph and Function.converter is not None:
            return Function.converter(self._python_function, self._experimental_autograph_options)
        return self._python_function

    def _concrete_for(self, args, kwargs):
        arguments = self._bind(args, kwargs)
        if self._input_signature is not None:  # one trace, for the signature's specs
            tensors = _flat_tensors(arguments)
            concrete = self._cache.get("signature")
            if concrete is None:
                concrete = self._cache["signature"] = self._trace((self._input_signature, {}))
            return concrete, tensors
        key = _cache_key(arguments)
        concrete = self._cache.get(key) or self._dispatch.get(key)
        if concrete is None:
            concrete = self._reuse_or_trace(key, arguments)
        return concrete, _flat_tensors(arguments)

    def _reuse_or_trace(self, key, arguments):
        """The most specific trace whose types include these arguments' (a trace for
        shape (None,) serves (5,)); else a new trace, for relaxed shapes with
        reduce_retracing=True. TF's type dispatch; see retracing.py."""
        skeleton, shapes = _trace_type(arguments)
        traces = self._types.setdefault(skeleton, [])
        found = retracing.most_specific_supertype(shapes, traces)
        if found is None:
            if self._reduce_retracing and traces:
                shapes = retracing.relaxed(shapes, [s for s, _ in traces])
                arguments = _with_shapes(arguments, shapes)
            concrete = self._trace(arguments)
            self._cache[_cache_key(arguments)] = concrete
            traces.append((shapes, concrete))
            self._dispatch.clear()  # a new, more specific trace may serve earlier calls
            self._fast.clear()
        else:
            concrete = found[1]
        if key not in self._cache:
            if len(self._dispatch) >= _MAX_DISPATCH_CACHE:
                self._dispatch.pop(next(iter(self._dispatch)))
            self._dispatch[key] = concrete
        return concrete

    def _bind(self, args, kwargs):
        """(args, kwargs) with defaults filled in; tensors converted or checked against the
        input_signature. NumPy arrays become tensors, as in TF."""
        if self._input_signature is not None:
            return bind_signature(self._python_function, self._name, self._input_signature,
                                  args, kwargs)
        try:
            bound = inspect.signature(self._python_function).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        except (TypeError, ValueError):
            pass  # let the call itself report a bad argument list, in Python's words
        return (nest.map_structure(_as_argument, tuple(args)),
                nest.map_structure(_as_argument, dict(kwargs)))

    # --- tracing ------------------------------------------------------------------------
    def _trace(self, arguments):
        concrete = self._trace_once(arguments)
        created = concrete.graph.created_variables
        if created and not self._first_trace_done:
            # Like TF: a function that made variables is traced again; making them
            # again on that second trace means it makes one per call.
            concrete = self._trace_once(arguments)
            created = concrete.graph.created_variables
        if created and self._first_trace_done or created and self._tracing_count > 1:
            raise ValueError(
                "tf.function only supports singleton tf.Variables created on the first call. "
                "Make sure the tf.Variable is only created once or created outside "
                "tf.function. (For example create it in __init__, or guard it with "
                "`if self.v is None:`.)")
        self._first_trace_done = True
        return concrete

    def _trace_once(self, arguments):
        self._tracing_count += 1
        graph = Graph(self._name)
        with graph.as_default():
            args, kwargs = _placeholders(graph, arguments, self._python_function)
            result = self._traceable()(*args, **kwargs)
            outputs = nest.map_structure(
                lambda r: _as_output(graph, r, self._python_function), result)
        graph.outputs = [t for t in composite_tensor.expand(nest.flatten(outputs))
                         if isinstance(t, SymbolicTensor)]
        concrete = ConcreteFunction(graph, outputs, _signature(arguments))
        concrete._traced_for = (self._python_function, arguments)  # for function_type
        for observe in trace_observers:  # tf.summary.trace_on collects the traced graphs
            observe(concrete)
        return concrete


class ConcreteFunction:
    """One traced graph of a `tf.function`, callable with matching tensors."""

    def __init__(self, graph, structured_outputs, structured_input_signature):
        self.graph = graph
        self.structured_outputs = structured_outputs
        self.structured_input_signature = structured_input_signature
        self._plan = None
        self._plan_version = None  # Function.optimizer_version the plan was optimized with

    @property
    def inputs(self):
        return list(self.graph.inputs)

    @property
    def outputs(self):
        return list(self.graph.outputs)

    @property
    def name(self):
        return self.graph.name

    def __call__(self, *args, **kwargs):
        tensors = [convert_to_tensor(a) for a in composite_tensor.expand(
            nest.flatten((args, kwargs)))]
        if len(tensors) != len(self.graph.inputs):
            raise TypeError(f"{self.name} expected {len(self.graph.inputs)} tensor argument(s), "
                            f"got {len(tensors)}.")
        for i, (t, spec) in enumerate(zip(tensors, self.graph.inputs)):
            if t.dtype is not spec.dtype:
                raise errors.op_error(
                    errors.InvalidArgumentError, f"__inference_{self.name}",
                    f"cannot compute __inference_{self.name} as input #{i}(zero-based) was "
                    f"expected to be a {dtypes.tf_type_name(spec.dtype)} tensor but is a "
                    f"{dtypes.tf_type_name(t.dtype)} tensor",
                    f"This concrete function was traced for {spec.node.name}: "
                    f"{spec.dtype.name}; tf.cast the argument, or call the tf.function "
                    "itself, which traces again for new dtypes.")
            if not spec.shape.is_compatible_with(t.shape):
                raise TypeError(f"{self.name}: argument {t!r} does not match the traced input "
                                f"{spec.name} ({spec.dtype.name}, shape {spec.shape}).")
        return self._call_flat(tensors)

    def _call_flat(self, tensors):
        if context.tape_stack:
            results = self._call_taped(tensors)
        else:
            if self._plan_version != Function.optimizer_version:
                self._compile()
            results = [EagerTensor(a) for a in run(self._plan, [t._value for t in tensors])]
        outputs = self.graph.outputs
        if len(outputs) == 1 and self.structured_outputs is outputs[0]:
            return results[0]  # a single tensor out: no structure to rebuild
        by_id = dict(zip(map(id, self.graph.outputs), results))
        leaves = nest.flatten(self.structured_outputs)
        flat = [by_id.get(id(o), o) for o in composite_tensor.expand(leaves)]
        return nest.pack_sequence_as(self.structured_outputs,
                                     composite_tensor.rebuild(leaves, flat))

    def _compile(self):
        """Optimize the graph with the current grappler options and plan it (again when
        `tf.config.optimizer.set_experimental_options` changed them since)."""
        version = Function.optimizer_version
        graph = self.graph if Function.optimizer is None else Function.optimizer(self.graph)
        self._plan = compile_graph(graph)
        self._plan_version = version

    def _call_taped(self, tensors):
        """Replay the graph op by op through `apply`, so active GradientTapes record it."""
        return replay(self.graph, tensors)

    @property
    def function_type(self):
        """The parameters' and the output's types (tf.types.experimental.FunctionType)."""
        from .function_type import function_type
        traced_for = getattr(self, "_traced_for", None)
        if traced_for is None:  # built from a graph alone: its inputs by name
            arguments = (tuple(self.graph.inputs), {})
            python_function = _Named([t.node.name for t in self.graph.inputs])
        else:
            python_function, arguments = traced_for
        return function_type(python_function, arguments, self.structured_outputs, self.graph)

    def pretty_printed_signature(self, verbose=True):
        """TF's text of the signature: one line, or (verbose) parameters, output, captures."""
        kind = self.function_type
        return repr(kind) if verbose else str(kind)

    def __str__(self):
        return f"ConcreteFunction {self.pretty_printed_signature()}"

    def __repr__(self):  # TF adds " at 0x...": left out so that printed lessons stay the same
        return f"<ConcreteFunction {self.pretty_printed_signature(verbose=False)}>"


class _Named:
    """A stand-in for a Python function whose parameters are the given names."""

    def __init__(self, names):
        self.__signature__ = inspect.Signature(
            [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names])

    def __call__(self, *args):
        raise TypeError("not callable")


# --- argument handling -------------------------------------------------------------------
def _as_argument(value):
    """NumPy arrays are passed to traced functions as tensors, as in TF."""
    if isinstance(value, np.ndarray):
        return convert_to_tensor(value)
    return value


def _flat_tensors(arguments):
    """The tensors (or TensorSpecs) a call passes to the graph, composites taken apart."""
    return [a for a in composite_tensor.expand(nest.flatten(arguments))
            if isinstance(a, (Tensor, TensorSpec))]


def _plain_arity(function):
    """The number of parameters if all are plain positional ones without defaults, else -1."""
    try:
        params = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return -1
    plain = all(p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params)
    return len(params) if plain else -1


def _fast_key(args):
    """Shapes and dtypes of positional eager tensors, values of Python scalars (as the
    full key does); None if any argument is something else."""
    key = []
    for a in args:
        kind = type(a)
        if kind is EagerTensor:
            key.append((a._value.shape, a._dtype))
        elif kind in (int, float, bool):
            key.append((kind, a))
        else:
            return None
    return tuple(key)


_MAX_DISPATCH_CACHE = 1024  # calls remembered per function, as TF's type_dispatch.py


class _TensorSlot:
    """A tensor's place in a trace skeleton: only its dtype counts."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = dtype

    def __eq__(self, other):
        return isinstance(other, _TensorSlot) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("tensor", self.dtype))

    def __repr__(self):
        return f"<tensor {self.dtype}>"


def _trace_type(arguments):
    """(skeleton, shapes): the cache key with every tensor replaced by its dtype, and
    the tensors' shapes in tf.nest order (None for an unknown rank)."""
    shapes = []

    def slot(leaf):
        if isinstance(leaf, (Tensor, TensorSpec)):
            shapes.append(None if leaf.shape.rank is None else tuple(leaf.shape.dims))
            return _TensorSlot(leaf.dtype.name)
        if composite_tensor.is_composite(leaf) or composite_tensor.is_composite_spec(leaf):
            spec = composite_tensor.spec_of(leaf)  # a RaggedTensorSpec's shape relaxes too
            shapes.append(None if spec.shape.rank is None else tuple(spec.shape.dims))
            return _TensorSlot(spec._trace_kind())
        return leaf

    return _cache_key(nest.map_structure(slot, arguments)), tuple(shapes)


def _with_shapes(arguments, shapes):
    """The arguments with each tensor replaced by a TensorSpec of the given shape."""
    shapes = iter(shapes)

    def spec(leaf):
        if composite_tensor.is_composite(leaf) or composite_tensor.is_composite_spec(leaf):
            return composite_tensor.spec_of(leaf)._with_shape(next(shapes))
        if not isinstance(leaf, (Tensor, TensorSpec)):
            return leaf
        return TensorSpec(next(shapes), leaf.dtype,
                          leaf.name if isinstance(leaf, TensorSpec) else None)

    return nest.map_structure(spec, arguments)


def _spec_key(t):
    return ("tensor", tuple(t.shape.dims) if t.shape.rank is not None else None, t.dtype.name)


def _cache_key(arguments):
    """TF's trace key: tensors by shape and dtype, Python values by value (else identity)."""
    def key(leaf):
        if isinstance(leaf, (Tensor, TensorSpec)):
            return _spec_key(leaf)
        if composite_tensor.is_composite(leaf) or composite_tensor.is_composite_spec(leaf):
            return ("composite", repr(composite_tensor.spec_of(leaf)))
        if getattr(leaf, "_is_variable", False):
            return ("variable", id(leaf))
        try:
            hash(leaf)
            return ("value", type(leaf).__name__, leaf)
        except TypeError:
            return ("object", id(leaf))

    structure = _frozen(nest.map_structure(key, arguments))
    return repr(structure) if not _hashable(structure) else structure


def _frozen(structure):
    """Lists and dicts as tuples, so the key hashes by its leaves (objects by identity:
    two different datasets that print alike must not share a trace)."""
    if isinstance(structure, dict):
        return ("dict",) + tuple((repr(k), _frozen(v)) for k, v in sorted(
            structure.items(), key=lambda item: repr(item[0])))
    if isinstance(structure, (list, tuple)):
        return (type(structure).__name__,) + tuple(_frozen(v) for v in structure)
    return structure


def _hashable(x):
    try:
        hash(x)
        return True
    except TypeError:
        return False


def _placeholders(graph, arguments, function):
    """Replace every tensor (or TensorSpec) argument by a graph input named after it."""
    args, kwargs = arguments

    def make(name, value):
        flat = nest.flatten(value)
        # a RaggedTensor: flat_values, row_splits - shaped by its spec (the trace's key), so
        # a trace for [3, None] holds any number of values, as TF's does
        parts = composite_tensor.expand([composite_tensor.spec_of(leaf) if
                                         composite_tensor.is_composite(leaf) else leaf
                                         for leaf in flat])
        names = [name] if len(parts) == 1 else [f"{name}_{i}" for i in range(len(parts))]
        inputs = [
            graph.placeholder(leaf.shape, leaf.dtype,
                              getattr(leaf, "name", None) if isinstance(leaf, TensorSpec) and
                              leaf.name else n)
            if isinstance(leaf, (Tensor, TensorSpec)) else leaf
            for n, leaf in zip(names, parts)]
        return nest.pack_sequence_as(value, composite_tensor.rebuild(flat, inputs))

    names = _parameter_names(function, len(args))
    return (tuple(make(n, a) for n, a in zip(names, args)),
            {k: make(k, kwargs[k]) for k in sorted(kwargs)})  # nest.flatten's order


# Returned values TF refuses: code, not data (a generator: a body with `yield`).
_NOT_OUTPUTS = (types.GeneratorType, types.CoroutineType, types.FunctionType,
                types.MethodType, types.BuiltinFunctionType, types.ModuleType)


def _as_output(graph, value, function=None):
    """Returned values become graph outputs; Python numbers and strings become tensors (TF)."""
    if isinstance(value, _NOT_OUTPUTS):
        raise TypeError(
            "To be compatible with tf.function, Python functions must return zero or more "
            "Tensors or ExtensionTypes or None values; in compilation of "
            f"{function!r}, found return value of type {type(value).__name__}, which is not a "
            "Tensor or ExtensionType. (A graph can only hand back tensors: "
            + ("a function with `yield` is a generator, which tf.function cannot trace; "
               "collect the values in a tf.TensorArray and return its stack() instead.)"
               if isinstance(value, types.GeneratorType) else
               "call the function inside and return its result instead.)"))
    if isinstance(value, SymbolicTensor):
        return value
    if isinstance(value, Tensor):
        return graph.constant(value)
    if getattr(value, "_is_variable", False):  # TF hands back its value then, a tensor
        return graph.symbolic(value._read())   # (`return v.assign_add(1.0)` included)
    if value is None:
        return value
    if isinstance(value, (int, float, bool, str, bytes, np.generic, np.ndarray)):
        return graph.constant(convert_to_tensor(value))
    if composite_tensor.is_composite(value):  # tf.SparseTensor, tf.RaggedTensor: its parts
        parts = [_as_output(graph, t, function) for t in composite_tensor.components(value)]
        return composite_tensor.spec_of(value)._from_components(parts)
    return value


def _signature(arguments):
    """TF's structured_input_signature: tensors as TensorSpecs, Python values as they are."""
    def spec(leaf):
        if composite_tensor.is_composite(leaf) or composite_tensor.is_composite_spec(leaf):
            return composite_tensor.spec_of(leaf)
        return TensorSpec(leaf.shape, leaf.dtype, getattr(leaf, "name", None)) \
            if isinstance(leaf, (Tensor, TensorSpec)) else leaf

    return nest.map_structure(spec, arguments[0]), nest.map_structure(spec, arguments[1])


@tf_export("function")
def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None, name=None):
    """Compile `func` into a graph-running callable (decorator or plain call)."""
    def decorate(f):
        return Function(f, name=name, input_signature=input_signature, autograph=autograph,
                        reduce_retracing=reduce_retracing,
                        experimental_autograph_options=experimental_autograph_options)

    return decorate if func is None else decorate(func)
