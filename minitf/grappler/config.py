"""`tf.config.optimizer.set_experimental_options`: switch graph optimizations on and off.

Every pass is on unless switched off, as in TensorFlow:

>>> import minitf as tf
>>> tf.config.optimizer.get_experimental_options()
{'disable_model_pruning': False, 'disable_meta_optimizer': False}
>>> tf.config.optimizer.set_experimental_options({"constant_folding": False})
>>> tf.config.optimizer.get_experimental_options()
{'constant_folding': False, 'disable_model_pruning': False, 'disable_meta_optimizer': False}
>>> enabled_passes()
['pruning', 'common_subgraph_elimination', 'arithmetic_optimization', 'remapping', \
'elementwise_fusion']
>>> tf.config.optimizer.set_experimental_options({"constant_folding": None})  # unset

The keys are TensorFlow's. Those minitf has a pass for: "constant_folding",
"arithmetic_optimization" (which in TF also merges common subexpressions),
"remapping", "dependency_optimization" (skipping Identity nodes),
"disable_model_pruning" (dead nodes), "disable_meta_optimizer" (everything)
and "min_graph_nodes" (leave graphs with fewer nodes alone; TF's default
skips graphs under 4 nodes, minitf optimizes every graph unless you set it).
Two keys are minitf extras: "common_subgraph_elimination" (a field of TF's
RewriterConfig that `set_experimental_options` does not pass on in TF) and
"elementwise_fusion" (fusing element-wise chains, which TF leaves to XLA).
The other TF keys ("layout_optimizer", "loop_optimization", ...) are accepted
and returned, and change nothing. Like TF, unknown keys are ignored.

Options apply from the next call on: a concrete function is optimized before
its first run, and again after the options change.
"""
from ..framework.function import Function
from ..framework.tf_export import tf_export

# (key, kind) in the order TF's get_experimental_options reports them.
_KEYS = [("layout_optimizer", "toggle"), ("constant_folding", "toggle"),
         ("shape_optimization", "toggle"), ("remapping", "toggle"),
         ("arithmetic_optimization", "toggle"), ("dependency_optimization", "toggle"),
         ("loop_optimization", "toggle"), ("function_optimization", "toggle"),
         ("debug_stripper", "toggle"), ("disable_model_pruning", "bool"),
         ("scoped_allocator_optimization", "toggle"), ("pin_to_host_optimization", "toggle"),
         ("implementation_selector", "toggle"), ("auto_mixed_precision", "toggle"),
         ("use_plugin_optimizers", "toggle"), ("disable_meta_optimizer", "bool"),
         ("auto_mixed_precision_onednn_bfloat16", "toggle"),
         ("auto_mixed_precision_mkl", "toggle"),
         ("common_subgraph_elimination", "toggle"),  # minitf extra (see above)
         ("elementwise_fusion", "toggle")]  # minitf extra

_options = {}  # what was set, as TF's context keeps it


@tf_export("config.optimizer.set_experimental_options")
def set_experimental_options(options):
    """Set graph optimizer options: a dict of TF's keys (see this module's doc).

    Note that optimizations only apply in graph mode (inside tf.function). A
    concrete function that already ran is optimized again on its next call.
    """
    _options.update(options)
    Function.optimizer_version += 1  # every concrete function re-plans on its next call


@tf_export("config.optimizer.get_experimental_options")
def get_experimental_options():
    """The optimizer options that were set, plus TF's two always-reported flags."""
    result = {}
    for key, kind in _KEYS:
        value = _options.get(key)
        if kind == "bool":
            result[key] = bool(value) if value is not None else False
        elif value is not None:
            result[key] = bool(value)
    nodes = _options.get("min_graph_nodes")
    if nodes:
        result["min_graph_nodes"] = int(nodes)
    return result


def is_enabled(key, options=None):
    """Whether the pass behind `key` runs (default on, off if set False)."""
    options = get_experimental_options() if options is None else options
    if options.get("disable_meta_optimizer"):
        return False
    if key == "pruning":
        return not options.get("disable_model_pruning", False)
    if key == "common_subgraph_elimination" and not options.get("arithmetic_optimization", True):
        return False
    return options.get(key, True)


PASS_KEYS = ["pruning", "common_subgraph_elimination", "constant_folding",
             "arithmetic_optimization", "remapping", "elementwise_fusion"]


def enabled_passes(options=None):
    """The names of the passes that would run now, in pipeline order."""
    return [key for key in PASS_KEYS if is_enabled(key, options)]
