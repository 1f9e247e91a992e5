"""Converting one function: source -> AST -> rewrites -> a new Python function.

    source  = inspect.getsource(f)           # your code, as text
    tree    = ast.parse(source)              # ... as a syntax tree
    lower(...)                               # break/continue/return -> flags
    ExpressionTransformer(...)               # and/or/not, x if c else y, calls
    analyze(...); ControlFlowTransformer(...)  # if/while/for -> ag__.*_stmt calls
    compile(tree, f's file name, "exec")     # line numbers stay yours

The new function shares `f`'s globals and closure cells (so it sees the same
variables `f` would) and reaches the runtime helpers as `ag__`. Results are
cached per function. A function whose source is unavailable, or that uses
syntax AutoGraph does not convert, runs as it is after a warning (once).

>>> def double(x):
...     return x * 2
>>> converted_callable(double)(tf.constant(3))
<tf.Tensor: shape=(), dtype=int32, numpy=6>

In TensorFlow this is `impl/api.py`, `impl/conversion.py` and `pyct/transpiler.py`.
"""
import ast
import builtins
import functools
import inspect
import linecache
import os
import sys
import types
import warnings
import weakref

from . import errors, lowering, operators, static_analysis, transformer

_FACTORY = "autograph_factory__"
# Packages whose functions are never converted (TF keeps a similar allowlist).
_LIBRARIES = {"minitf", "numpy", "scipy", "tensorflow", "keras", "pandas", "matplotlib",
              "ipywidgets", "IPython", "pytest", "_pytest", "hypothesis", "builtins"}
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# function -> {asserts: (converted function or None, cause)}
_converted = weakref.WeakKeyDictionary()
_warned = set()  # code objects whose fallback was already reported


# --- which functions are converted ---------------------------------------------------------
def _is_library_function(fn, user_requested=False):
    filename = fn.__code__.co_filename
    if filename.startswith("<doctest"):
        return False  # an example in a docstring is user code, whatever its module says
    path = os.path.abspath(filename)
    if path.startswith(_PACKAGE_DIR):
        return True  # minitf's own code is never converted
    if user_requested:
        return False  # tf.function(f) / to_graph(f): convert f wherever it comes from
    if path.startswith(errors._LIBRARY_DIRS):
        return True
    module = (getattr(fn, "__module__", None) or "").split(".")[0]
    return module in _LIBRARIES or module in sys.stdlib_module_names


def should_convert(f, user_requested=False):
    """Is `f` user code that AutoGraph converts when it is called from converted code?

    `user_requested` (tf.function, to_graph) converts functions of any module but
    minitf's own; only `do_not_convert` and unavailable source keep them as they are.
    """
    from ..framework.function import Function
    if getattr(f, "__ag_do_not_convert__", False) or isinstance(f, Function):
        return False
    if inspect.ismethod(f):
        return should_convert(f.__func__, user_requested)
    if inspect.isfunction(f):  # (functions defined inside converted code are converted)
        return f.__code__ not in errors.CONVERTED_CODE and \
            not _is_library_function(f, user_requested)
    if inspect.isbuiltin(f) or inspect.isclass(f) or not callable(f):
        return False
    call = getattr(type(f), "__call__", None)  # a callable object: its __call__ method
    return inspect.isfunction(call) and should_convert(call, user_requested)


def keep_as_is(obj):
    """For the converter: a callee found at conversion time that needs no converted_call."""
    if inspect.isfunction(obj) or inspect.ismethod(obj) or inspect.isbuiltin(obj) or \
            inspect.isclass(obj) or getattr(obj, "__ag_do_not_convert__", False):
        return not should_convert(obj)
    from ..framework.function import Function
    return isinstance(obj, Function)


# --- converting -----------------------------------------------------------------------------
def converted_callable(f, user_requested=False, asserts=False):
    """`f` converted if it is user code (cached), else `f` itself; never raises for
    functions AutoGraph cannot convert (they run as they are, after a warning).
    `asserts`: convert `assert` statements too (`Feature.ASSERT_STATEMENTS`)."""
    if isinstance(f, functools.partial):
        return functools.partial(converted_callable(f.func, user_requested, asserts), *f.args,
                                 **f.keywords)
    if not should_convert(f, user_requested):
        return f
    if inspect.ismethod(f):
        function = _convert_or_fall_back(f.__func__, asserts)
        return f if function is f.__func__ else types.MethodType(function, f.__self__)
    if inspect.isfunction(f):
        return _convert_or_fall_back(f, asserts)
    call = type(f).__call__
    function = _convert_or_fall_back(call, asserts)
    return f if function is call else types.MethodType(function, f)


def fallback_cause(fn):
    """Why `fn` runs unconverted (None if it was converted or never tried)."""
    fn = getattr(fn, "__func__", fn)
    entries = _converted.get(fn, {}) if inspect.isfunction(fn) else {}
    causes = [entry[1] for entry in entries.values() if entry[1]]
    return causes[0] if causes else None


def _convert_or_fall_back(fn, asserts=False):
    entries = _converted.setdefault(fn, {})  # one conversion with asserts, one without
    entry = entries.get(asserts)
    if entry is None:
        try:
            entry = (convert_function(fn, asserts)[0], None)
        except Exception as e:  # noqa: BLE001 - any failure: run the original, as TF does
            entry = (None, _cause(e))
            _warn_once(fn, entry[1], isinstance(e, errors.PyCTError))
        entries[asserts] = entry
    return entry[0] or fn


def _cause(error):
    if isinstance(error, errors.UnsupportedLanguageElementError) and error.lineno:
        return f"{error} (line {error.lineno})"
    return str(error) if isinstance(error, errors.PyCTError) else \
        f"{type(error).__name__}: {error}"


def _warn_once(fn, cause, expected):
    if fn.__code__ in _warned:
        return
    _warned.add(fn.__code__)
    report = "" if expected else "This is a bug in minitf's AutoGraph; please report it.\n"
    message = (f"AutoGraph could not transform {fn} and will run it as-is.\n{report}"
               f"Cause: {cause}\nTo silence this warning, decorate the function with "
               "@tf.autograph.experimental.do_not_convert")
    code = fn.__code__  # the warning points at the function's definition
    warnings.warn_explicit(message, UserWarning, code.co_filename, code.co_firstlineno,
                           module=getattr(fn, "__module__", None) or "autograph")


def convert_function(fn, asserts=False):
    """(converted function, its source text) for a plain Python function `fn`;
    `asserts`: convert its `assert` statements (Feature.ASSERT_STATEMENTS)."""
    node = parse_function(fn)
    lowering.check_supported(node)
    source_node, namer = _rewrite(node, fn, asserts)
    source = ast.unparse(source_node)  # (before _compile, which edits the tree in place)
    return _compile(source_node, fn, namer), source


def _rewrite(node, fn, asserts=False):
    namer = lowering.Namer(lowering.names_in(node))
    node.decorator_list = []
    node.name = "tf__" + (node.name if node.name != "<lambda>" else "lambda")
    functions = [n for n in ast.walk(node) if isinstance(n, ast.FunctionDef)]
    for function in functions:
        lowering.lower(function, namer)
    resolver = transformer.Resolver(fn, _local_names(node), keep_as_is)
    positional = node.args.posonlyargs + node.args.args
    super_args = ("__class__", positional[0].arg) if positional and \
        "__class__" in fn.__code__.co_freevars else None
    transformer.ExpressionTransformer(resolver, super_args, asserts).visit(node)
    for function in functions:
        static_analysis.analyze(function)
        control_flow = transformer.ControlFlowTransformer(function, namer, resolver,
                                                          _is_loop_options)
        undefined = control_flow.run()
        if undefined:
            transformer.LoadWrapper(undefined, control_flow.getters).visit(function)
    return ast.fix_missing_locations(node), namer


def _is_loop_options(obj):
    from .api import set_loop_options
    return obj is set_loop_options


def _local_names(node):
    names = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            names.add(n.id)
        elif isinstance(n, ast.arg):
            names.add(n.arg)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            names.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in n.names}
    return names


def _compile(node, fn, namer):
    """Compile `def tf__f` inside a factory that takes `ag__` and f's free variables, then
    rebuild it with f's globals and closure cells. Edits `node` in place: no deep copy,
    since Python shares `ast.Load()` among trees and tools such as IPython's traceback
    formatter hang a `parent` on it, so a copy could drag whole other modules along."""
    node.args.defaults, node.args.kw_defaults = [], [None] * len(node.args.kwonlyargs)
    node.returns = None
    for a in ast.walk(node.args):
        if isinstance(a, ast.arg):
            a.annotation = None
    freevars = fn.__code__.co_freevars
    factory_args = ast.arguments([], [ast.arg(n) for n in ("ag__",) + freevars], None, [], [],
                                 None, [])
    factory = ast.FunctionDef(_FACTORY, factory_args,
                              [node, ast.Return(ast.Name(node.name, ast.Load()))], [], None,
                              None)
    module = ast.fix_missing_locations(ast.Module([ast.copy_location(factory, node)], []))
    namespace = {"__builtins__": builtins}
    exec(compile(module, fn.__code__.co_filename, "exec"), namespace)  # noqa: S102
    inner = namespace[_FACTORY](operators, *[None] * len(freevars))
    cells = dict(zip(freevars, fn.__closure__ or ()))
    cells["ag__"] = types.CellType(operators)
    closure = tuple(cells[name] for name in inner.__code__.co_freevars)
    converted = types.FunctionType(inner.__code__, fn.__globals__, fn.__name__,
                                   fn.__defaults__, closure)
    converted.__kwdefaults__ = fn.__kwdefaults__
    converted.__doc__, converted.__qualname__ = fn.__doc__, fn.__qualname__
    converted.__module__ = fn.__module__
    errors.register_code(inner.__code__, fn.__name__, namer.generated)
    return converted


# --- finding the source -----------------------------------------------------------------------
def parse_function(fn):
    """The `ast.FunctionDef` of `fn` with line and column numbers as in its file."""
    if fn.__name__ == "<lambda>":
        tree = _whole_file(fn)
        if tree is not None:
            return _lambda_as_function(tree, fn)
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as e:
        raise errors.InaccessibleSourceCodeError(
            f"Unable to locate the source code of {fn}. Note that functions defined in certain "
            "environments, like the interactive Python shell, do not expose their source "
            "code. If that is the case, you should define them in a .py source file. If you "
            "are certain the code is graph-compatible, wrap the call using "
            f"@tf.autograph.experimental.do_not_convert. Original error: {e}") from e
    source = "".join(lines)
    indented = source[:1].isspace()
    try:
        tree = ast.parse("if 1:\n" + source if indented else source)
    except SyntaxError as e:
        raise errors.InaccessibleSourceCodeError(
            f"Could not parse the source code of {fn} (the lines inspect.getsource returned "
            f"do not form a statement): {e}") from e
    ast.increment_lineno(tree, first - 1 - (1 if indented else 0))
    if fn.__name__ == "<lambda>":
        return _lambda_as_function(tree, fn)
    body = tree.body[0].body if indented else tree.body
    for node in body:  # (the name may differ: functools.wraps renames wrappers)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node
    raise errors.InaccessibleSourceCodeError(f"Could not find the definition of {fn} in its "
                                             "source code.")


def _whole_file(fn):
    """The parsed source of the whole file (or notebook cell, or doctest example) that
    defines `fn`, or None. A lambda is often part of a statement spanning several lines
    (a dict of lambdas, a `for` header), which its own lines do not parse as."""
    module = inspect.getmodule(fn)
    lines = linecache.getlines(fn.__code__.co_filename, getattr(module, "__dict__", None))
    try:
        return ast.parse("".join(lines)) if lines else None
    except (SyntaxError, ValueError):  # e.g. a cell with IPython magics: use fn's own lines
        return None


def _lambda_as_function(tree, fn):
    """`lambda x: x * 2` found in its source, as `def tf__lambda(x): return x * 2`.

    As TF's parser: the lambdas whose lines include the line the lambda's code starts
    on; if several, those whose parameters are the lambda's; if still several, TF's
    error (TF warns there too: two lambdas alike on one line cannot be told apart).
    """
    code = fn.__code__
    line = code.co_firstlineno
    candidates = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and
                  n.lineno <= line <= n.end_lineno]
    if len(candidates) > 1:
        params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
        candidates = [n for n in candidates if params == [
            a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs]]
    if not candidates:
        raise errors.InaccessibleSourceCodeError(
            f"could not parse the source code of {fn}: no lambda found on line {line}")
    if len(candidates) > 1:
        matches = "\n".join(f"Match {i}:\n{ast.unparse(n)}\n" for i, n in enumerate(candidates))
        raise errors.UnsupportedLanguageElementError(
            f"could not parse the source code of {fn}: found multiple definitions with "
            "identical signatures at the location. This error may be avoided by defining "
            "each lambda on a single line and with unique argument names. The matching "
            f"definitions were:\n{matches}")
    lam = candidates[0]
    body = [ast.copy_location(ast.Return(lam.body), lam.body)]
    return ast.copy_location(ast.FunctionDef("<lambda>", lam.args, body, [], None, None), lam)
