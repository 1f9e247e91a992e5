"""What `model.compile(loss=..., metrics=...)` turns its arguments into.

`CompileLoss` holds one loss per model output (resolved from strings with
`losses._get_loss`) and adds them up, times `loss_weights`. `CompileMetrics`
holds the metric objects per output (resolved with `metrics.lookup.
get_metric`, which picks the right accuracy from the shapes). Both are built
from the first batch, because "accuracy" and "crossentropy" need to see
the shapes of `y_true` and `y_pred` to know what they mean.

>>> import minitf as tf
>>> loss = CompileLoss("mse", output_names=["out"])
>>> float(loss(tf.constant([[1.0]]), tf.constant([[3.0]])))
4.0
>>> metrics = CompileMetrics(["mae"], None, output_names=["out"])
>>> metrics.update_state(tf.constant([[1.0]]), tf.constant([[3.0]]))
>>> {k: float(v) for k, v in metrics.result().items()}
{'mae': 2.0}
"""
from ...framework import nest
from ...framework.errors import InvalidArgumentError
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops.creation_ops import add_n
from .. import losses as losses_module
from ..metrics import lookup


def output_names_of(model):
    """Names of the model's outputs: output layer names for functional models."""
    outputs = getattr(model, "outputs", None)
    if outputs:
        return [x._keras_history.operation.name for x in outputs]
    return None


def _flat(values, names):
    if isinstance(values, dict) and names and all(n in values for n in names):
        return [values[n] for n in names]
    return nest.flatten(values)


def _per_output(spec, names, count, what):
    """A spec (one, a list, or a dict by output name) as one entry per output."""
    if isinstance(spec, dict) and count > 1 or isinstance(spec, dict) and names and \
            set(spec) <= set(names):
        unknown = [k for k in spec if k not in (names or [])]
        if unknown:
            raise ValueError(f"In the dict argument `{what}`, key '{unknown[0]}' does not "
                             f"correspond to any model output. Received: {what}={spec}. "
                             f"The model's outputs are named {names}.")
        return [spec.get(n) for n in names]
    if isinstance(spec, (list, tuple)) and count > 1:
        if len(spec) != count:
            raise ValueError(f"For a model with multiple outputs, when providing the `{what}`"
                             f" argument as a list, it should have as many entries as the "
                             f"model has outputs. Received:\n{what}={spec}\nof length "
                             f"{len(spec)} whereas the model has {count} outputs.")
        return list(spec)
    return [spec] * count


def check_loss_identifier(loss):
    """Fail at `compile` (not at the first batch) on an unknown loss name."""
    for entry in nest.flatten(loss if not isinstance(loss, dict) else list(loss.values())):
        if isinstance(entry, str) and entry.lower() not in ("crossentropy", "ce"):
            losses_module.get(entry)


def _get_metric(identifier, y_true, y_pred):
    """`lookup.get_metric`, plus Keras's "crossentropy"/"ce" rule (chosen by shapes)."""
    if str(identifier).lower() not in ("crossentropy", "ce"):
        return lookup.get_metric(identifier, y_true, y_pred)
    from ..metrics import probabilistic_metrics as P
    is_binary, is_sparse = lookup.is_binary_or_sparse_categorical(y_true, y_pred)
    cls = P.BinaryCrossentropy if is_binary else \
        P.SparseCategoricalCrossentropy if is_sparse else P.CategoricalCrossentropy
    return cls(name=str(identifier))


class CompileLoss:
    """The total training loss: sum over outputs of weight * loss(y_true, y_pred)."""

    def __init__(self, loss, loss_weights=None, output_names=None):
        self._loss, self._loss_weights = loss, loss_weights
        self.output_names = output_names
        self.built = False
        self.losses = []  # one Loss object (or None) per output

    def build(self, y_true, y_pred):
        flat_pred = _flat(y_pred, self.output_names)
        flat_true = _flat(y_true, self.output_names)
        count = len(flat_pred)
        names = self.output_names or [f"output_{i + 1}" for i in range(count)]
        specs = _per_output(self._loss, names, count, "loss")
        weights = _per_output(self._loss_weights, names, count, "loss_weights") \
            if self._loss_weights is not None else [1.0] * count
        if len(flat_true) != count:
            raise ValueError(f"The model has {count} outputs, but `y` holds {len(flat_true)} "
                             "arrays. Pass one target per output (a list, or a dict keyed "
                             f"by output name: {names}).")
        self.losses = [losses_module._get_loss(s, t, p) if s is not None else None
                       for s, t, p in zip(specs, flat_true, flat_pred)]
        self.weights = [1.0 if w is None else float(w) for w in weights]
        self.names = names
        for name, loss, t, p in zip(names, self.losses, flat_true, flat_pred):
            if loss is not None:
                _check_label_shape(name, loss, t, p)
        self.built = True

    def per_output(self, y_true, y_pred, sample_weight=None):
        """[(output name, loss weight, loss value)] for outputs that have a loss."""
        if not self.built:
            self.build(y_true, y_pred)
        flat_true = _flat(y_true, self.output_names)
        flat_pred = _flat(y_pred, self.output_names)
        flat_sw = [None] * len(flat_pred) if sample_weight is None else \
            _flat(sample_weight, self.output_names) if len(flat_pred) > 1 and \
            isinstance(sample_weight, (list, tuple, dict)) else [sample_weight] * len(flat_pred)
        values = []
        for name, weight, loss, t, p, sw in zip(self.names, self.weights, self.losses,
                                                flat_true, flat_pred, flat_sw):
            if loss is not None:
                values.append((name, weight, loss(t, p, sample_weight=sw)))
        return values

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        values = self.per_output(y_true, y_pred, sample_weight)
        terms = [v if w == 1.0 else w * v for _, w, v in values]
        terms += list(regularization_losses or [])
        return add_n(terms) if terms else convert_to_tensor(0.0)


def _static_dims(x):
    shape = convert_to_tensor(x).shape if not hasattr(x, "shape") else x.shape
    return list(shape.as_list() if hasattr(shape, "as_list") else shape)


def _check_label_shape(name, loss, y_true, y_pred):
    """Try the loss once on the first batch; a shape clash becomes TF's graph-mode ValueError
    ("Dimensions must be equal ...") naming the output and both shapes, instead of a bare
    broadcasting error from deep inside the loss."""
    if not all(isinstance(v, Tensor) for v in (y_true, y_pred)):
        return  # symbolic (being traced): the batch seen eagerly was already checked
    try:
        loss(y_true, y_pred)
    except InvalidArgumentError as error:
        if "Incompatible shapes" not in str(error):
            raise
        t, p = _static_dims(y_true), _static_dims(y_pred)
        if len(t) == len(p) + 1 and t[-1] == 1:
            t = t[:-1]
        pairs = [(a, b) for a, b in zip(reversed(t), reversed(p)) if a != b and 1 not in (a, b)]
        a, b = pairs[0] if pairs else (t[-1] if t else 1, p[-1] if p else 1)
        shapes = ", ".join("[" + ",".join(["?"] + [str(d) for d in dims[1:]]) + "]"
                           for dims in (_static_dims(y_true), _static_dims(y_pred)))
        loss_name = getattr(loss, "name", getattr(loss, "__name__", type(loss).__name__))
        raise ValueError(
            f"Dimensions must be equal, but are {a} and {b} for the loss '{loss_name}' of "
            f"output '{name}' with input shapes: {shapes}. The first shape is the labels "
            "`y`, the second the model's output: give `y` one value per output unit (or "
            "change the units of the last layer).") from error


class CompileMetrics:
    """The metric objects of `compile(metrics=..., weighted_metrics=...)`, per output."""

    def __init__(self, metrics, weighted_metrics, output_names=None):
        self._metrics_spec, self._weighted_spec = metrics, weighted_metrics
        self.output_names = output_names
        self.name = "compile_metrics"
        self.built = False
        self._per_output = []  # [(metric list, weighted metric list)] per output

    def build(self, y_true, y_pred):
        flat_true = _flat(y_true, self.output_names)
        flat_pred = _flat(y_pred, self.output_names)
        count = len(flat_pred)
        names = self.output_names or [f"output_{i + 1}" for i in range(count)]
        plain = self._resolve(self._metrics_spec, names, flat_true, flat_pred, "metrics")
        weighted = self._resolve(self._weighted_spec, names, flat_true, flat_pred,
                                 "weighted_metrics")
        seen = {m.name for group in plain for m in group}
        for group in weighted:
            for m in group:
                if m.name in seen:
                    m.name = "weighted_" + m.name
        self._per_output = list(zip(plain, weighted))
        self.built = True

    def _resolve(self, spec, names, flat_true, flat_pred, what):
        if not spec:
            return [[] for _ in names]
        if isinstance(spec, dict) or len(names) > 1 and isinstance(spec, (list, tuple)) and \
                len(spec) == len(names) and all(isinstance(s, (list, tuple)) or s is None
                                                for s in spec):
            entries = _per_output(spec, names, len(names), what)
        else:
            entries = [spec] * len(names)
        groups = []
        for name, entry, t, p in zip(names, entries, flat_true, flat_pred):
            entry = [] if entry is None else entry if isinstance(entry, (list, tuple)) \
                else [entry]
            group = [_get_metric(e, t, p) for e in entry]
            if len(names) > 1:
                for m in group:
                    m.name = f"{name}_{m.name}"
            groups.append(group)
        return groups

    @property
    def metrics(self):
        """Every metric object, output by output (plain ones first)."""
        return [m for plain, weighted in self._per_output for m in plain + weighted]

    @property
    def variables(self):
        return [v for m in self.metrics for v in m.variables]

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        flat_true = _flat(y_true, self.output_names)
        flat_pred = _flat(y_pred, self.output_names)
        for (plain, weighted), t, p in zip(self._per_output, flat_true, flat_pred):
            for m in plain:
                m.update_state(t, p)
            for m in weighted:
                m.update_state(t, p, sample_weight=sample_weight)

    def result(self):
        return {m.name: m.result() for m in self.metrics}

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()
