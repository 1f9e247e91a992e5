"""What `tf.saved_model.load` gives back: plain objects, restored functions, signatures.

None of these classes is your Python class: a loaded object is a `_UserObject`
with the saved attributes (submodules, variables, functions), as in TensorFlow.

* A `RestoredFunction` is a `tf.function` whose body replays one of the saved
  graphs, chosen by the arguments' types: inside another `tf.function` its ops
  join the new graph, under a `GradientTape` they are recorded, and a loaded
  object can be saved again. Arguments for which no graph was saved raise
  TF's `ValueError` ("Could not find matching concrete function ...").
* A signature (`loaded.signatures["serving_default"]`) is a concrete function
  called with named tensors that returns a dict of named outputs.

>>> import os, tempfile
>>> module = tf.Module()
>>> module.square = tf.function(lambda x: x * x)
>>> _ = module.square(tf.constant(3.0))                  # the one trace that is saved
>>> path = os.path.join(tempfile.mkdtemp(), "m")
>>> tf.saved_model.save(module, path)
>>> loaded = tf.saved_model.load(path)
>>> type(loaded.square).__name__, loaded.square(tf.constant(4.0))
('RestoredFunction', <tf.Tensor: shape=(), dtype=float32, numpy=16.0>)
>>> loaded.square(tf.constant([4.0]))                    # a shape that was never traced
Traceback (most recent call last):
  ...
ValueError: Could not find matching concrete function to call loaded from the SavedModel. Got:
...

In TensorFlow the same classes live in `tensorflow/python/saved_model/load.py`
(`_UserObject`) and `function_deserialization.py` (`RestoredFunction`).
"""
import collections.abc
import inspect

from ..framework import context, nest
from ..framework.function import ConcreteFunction, Function, TensorSpec
from ..framework.executor import run
from ..framework.graph import replay
from ..framework.tensor import EagerTensor, Tensor, convert_to_tensor


class _UserObject:
    """A restored object: its attributes are what was saved (TF's name for the class)."""

    _saved_model_trackable = True  # saving a loaded object again walks its attributes

    def __call__(self, *args, **kwargs):
        call = self.__dict__.get("__call__")
        if call is None:
            raise TypeError("'_UserObject' object is not callable: the saved object had no "
                            "tf.function `__call__`.")
        return call(*args, **kwargs)

    def _checkpoint_children(self):
        """Its attributes, for tf.train.Checkpoint (saving a loaded object again)."""
        from .save import trackable_children
        return trackable_children(self)


class _ListWrapper(list):
    """A restored list of trackable objects (TF: `ListWrapper`)."""


class _DictWrapper(dict):
    """A restored dict of trackable objects (TF: `_DictWrapper`)."""


class RestoredFunction(Function):
    """A `tf.function` rebuilt from a file: it can only run the graphs that were saved."""

    def __init__(self, name, parameters, input_signature, concretes):
        self._restored = concretes
        self._restored_name = name

        def restored_body(*args, **kwargs):
            return self._replay(args, kwargs)

        restored_body.__name__ = name
        restored_body.__signature__ = inspect.Signature([
            inspect.Parameter(p["name"], inspect.Parameter.POSITIONAL_OR_KEYWORD,
                              **({"default": p["default"]} if "default" in p else {}))
            for p in parameters])
        super().__init__(restored_body, name=name, input_signature=input_signature,
                         autograph=False)

    def __get__(self, instance, owner):
        return self  # already bound: `self` was not saved as an argument

    @property
    def concrete_functions(self):
        return list(self._restored)

    def _replay(self, args, kwargs):
        flat = nest.flatten((args, kwargs))
        for concrete in self._restored:
            specs = nest.flatten(concrete.structured_input_signature)
            if len(specs) == len(flat) and all(_matches(s, v) for s, v in zip(specs, flat)):
                tensors = [v for v in flat if isinstance(v, Tensor)]
                results = replay(concrete.graph, tensors)
                by_id = dict(zip(map(id, concrete.graph.outputs), results))
                return nest.map_structure(lambda o: by_id.get(id(o), o),
                                          concrete.structured_outputs)
        raise ValueError(_no_match(args, kwargs, self._restored))


def _matches(spec, value):
    if isinstance(spec, TensorSpec):
        return isinstance(value, Tensor) and spec.dtype is value.dtype and \
            spec.shape.is_compatible_with(value.shape)
    return not isinstance(value, Tensor) and type(spec) is type(value) and spec == value


def _no_match(args, kwargs, concretes):
    lines = ["Could not find matching concrete function to call loaded from the SavedModel. "
             "Got:", f"  Positional arguments ({len(args)} total):"]
    lines += [f"    * {_describe(a)}" for a in args]
    lines += [f"  Keyword arguments: {kwargs}", "",
              f" Expected these arguments to match one of the following {len(concretes)} "
              "option(s):"]
    for i, concrete in enumerate(concretes, 1):
        saved_args, saved_kwargs = concrete.structured_input_signature
        lines += ["", f"Option {i}:", f"  Positional arguments ({len(saved_args)} total):"]
        lines += [f"    * {a!r}" for a in saved_args]
        lines.append(f"  Keyword arguments: {saved_kwargs}")
    lines += ["", "(A loaded function runs only the graphs that were traced before saving: "
              "call the original with these argument types before tf.saved_model.save, or "
              "give it an input_signature.)"]
    return "\n".join(lines)


def _describe(value):
    if isinstance(value, Tensor) and context.graph_stack:
        return f"<tf.Tensor '{value.name}' shape={value.shape} dtype={value.dtype.name}>"
    return repr(value)


class SignatureFunction(ConcreteFunction):
    """`loaded.signatures[key]`: named tensors in, a dict of named tensors out."""

    def __init__(self, graph, input_names, outputs):
        specs = {name: TensorSpec(t.shape, t.dtype, name)
                 for name, t in zip(input_names, graph.inputs)}
        outputs = dict(outputs)
        # TF describes a signature's outputs as TensorSpecs named after their keys.
        super().__init__(graph, {k: TensorSpec(t.shape, t.dtype, k) for k, t in outputs.items()},
                         ((), specs))
        self._input_names = list(input_names)
        self._named_outputs = outputs

    def __call__(self, *args, **kwargs):
        tensors = self._bind(args, kwargs)
        if context.graph_stack or context.tape_stack:  # join the graph, or let tapes record
            results = replay(self.graph, tensors)
        else:
            if self._plan_version != Function.optimizer_version:
                self._compile()
            results = [EagerTensor(a) for a in run(self._plan, [t._value for t in tensors])]
        by_id = dict(zip(map(id, self.graph.outputs), results))
        return {k: by_id[id(t)] for k, t in self._named_outputs.items()}

    def _bind(self, args, kwargs):
        names = self._input_names
        if len(args) > len(names):
            raise TypeError(f"Signature takes {len(names)} argument(s), got {len(args)}.")
        given = dict(zip(names, args))
        for key, value in kwargs.items():
            if key not in names or key in given:
                raise TypeError(f"Signature got an unexpected keyword argument {key!r}; its "
                                f"inputs are {names}.")
            given[key] = value
        missing = [n for n in names if n not in given]
        if missing:
            raise TypeError(f"Signature is missing required argument(s) {missing}; its inputs "
                            f"are {names}.")
        tensors = [convert_to_tensor(given[n], dtype_hint=t.dtype)
                   for n, t in zip(names, self.graph.inputs)]
        for name, t, spec in zip(names, tensors, self.graph.inputs):
            if t.dtype is not spec.dtype:
                raise TypeError(f"Signature input {name!r} must be a {spec.dtype.name} "
                                f"tensor, got {t.dtype.name}; tf.cast it first.")
        return tensors

    def pretty_printed_signature(self):
        args = ", ".join(f"{n}: {s!r}" for n, s in self.structured_input_signature[1].items())
        outs = ", ".join(f"[{k!r}, {v!r}]" for k, v in self.structured_outputs.items())
        return f"(*, {args}) -> Dict[{outs}]"

    def __repr__(self):
        return f"<ConcreteFunction {self.pretty_printed_signature()} at 0x{id(self):X}>"


class _SignatureMap(collections.abc.Mapping):
    """`loaded.signatures`: signature key -> its function (read-only, as in TF)."""

    def __init__(self, signatures=None):
        self._signatures = dict(signatures or {})

    def __getitem__(self, key):
        return self._signatures[key]

    def __iter__(self):
        return iter(self._signatures)

    def __len__(self):
        return len(self._signatures)

    def __repr__(self):
        return f"_SignatureMap({self._signatures!r})"
