"""`tf.keras.callbacks.CallbackList`: one object that forwards each hook to many.

`fit` wraps your callbacks in a `CallbackList`, adding a `History` (always)
and a `ProgbarLogger` (when `verbose` is not 0), as Keras does.

>>> history = tf.keras.callbacks.History()
>>> callbacks = tf.keras.callbacks.CallbackList([history])
>>> callbacks.on_train_begin()
>>> callbacks.on_epoch_end(0, {"loss": 0.5})
>>> history.history
{'loss': [0.5]}
"""
from ...framework.tf_export import tf_export
from .callback import Callback

_HOOKS = ["on_train_begin", "on_train_end", "on_test_begin", "on_test_end",
          "on_predict_begin", "on_predict_end", "on_epoch_begin", "on_epoch_end",
          "on_train_batch_begin", "on_train_batch_end", "on_test_batch_begin",
          "on_test_batch_end", "on_predict_batch_begin", "on_predict_batch_end"]


@tf_export("keras.callbacks.CallbackList")
class CallbackList(Callback):
    """A container of callbacks; `add_history` / `add_progbar` add the built-in ones."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None,
                 **params):
        super().__init__()
        self.callbacks = list(callbacks or [])
        from .history import History
        from .progbar_logger import ProgbarLogger
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        if add_history and not any(isinstance(c, History) for c in self.callbacks):
            self.callbacks.append(History())
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def append(self, callback):
        self.callbacks.append(callback)

    def set_params(self, params):
        self.params = params
        for callback in self.callbacks:
            callback.set_params(params)

    def set_model(self, model):
        self._model = model
        for callback in self.callbacks:
            callback.set_model(model)

    def __iter__(self):
        return iter(self.callbacks)

    def overrides(self, hook):
        """True if some callback does something in `hook` (e.g. "on_train_batch_end").

        `fit` asks before each epoch: when no callback looks at a batch's logs, it
        skips turning them into Python floats, which costs a sync per metric."""
        aliases = {"on_train_batch_begin": "on_batch_begin", "on_train_batch_end": "on_batch_end"}
        names = [hook] + ([aliases[hook]] if hook in aliases else [])
        for callback in self.callbacks:
            for name in names:
                method = getattr(callback, name, None)
                if getattr(method, "__func__", method) is not getattr(Callback, name):
                    return True
        return False


def _forward(hook):
    if "batch" in hook or "epoch" in hook:
        def method(self, index, logs=None):
            logs = {} if logs is None else logs
            for callback in self.callbacks:
                getattr(callback, hook)(index, logs=logs)
    else:
        def method(self, logs=None):
            logs = {} if logs is None else logs
            for callback in self.callbacks:
                getattr(callback, hook)(logs=logs)
    method.__name__ = hook
    method.__doc__ = f"Call `{hook}` on every callback, in order."
    return method


for _hook in _HOOKS:
    setattr(CallbackList, _hook, _forward(_hook))
