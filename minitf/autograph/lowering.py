"""Rewrite `break`, `continue` and `return` inside blocks into flag variables.

`tf.while_loop` and `tf.cond` have no way to jump out of their body, so
AutoGraph first rewrites jumps into ordinary variables and `if`s (the
control-flow pass then turns those into ops like any other):

    while i < n:                       break_ = False
        if i > 3:                      while not break_ and i < n:
            break                 ->       if i > 3:
        i += 1                                 break_ = True
                                           if not break_:
                                               i += 1

`continue` sets `continue_` (reset at the top of each iteration) and
`return x` sets `do_return = True; retval_ = x`; the function then ends with
`return ag__.retval(retval_)`. A `for` loop cannot change its test, so it
receives the stop condition as `extra_test` (`ag__.for_stmt(..., extra_test,
...)`).

>>> import ast
>>> fn = ast.parse('''
... def f(x):
...     while x > 0:
...         if x == 7:
...             break
...         x -= 1
...     return x
... ''').body[0]
>>> lower(fn, Namer(['f', 'x']))
>>> print(ast.unparse(fn))
def f(x):
    break_ = False
    while not break_ and x > 0:
        if x == 7:
            break_ = True
        if not break_:
            x -= 1
    return x

(A branch that always returns takes the code after the `if` into its
`else`, as TensorFlow's normalization does.)
In TensorFlow these are the `break_statements`, `continue_statements` and
`return_statements` converters.
"""
import ast

from .errors import UnsupportedLanguageElementError

_BLOCK_FIELDS = ("body", "orelse", "finalbody")


class Namer:
    """New names that clash with nothing in the function: `get_state`, `get_state_1`, ..."""

    def __init__(self, used):
        self.used = set(used)
        self.generated = set()

    def new(self, base):
        name, i = base, 0
        while name in self.used:
            i += 1
            name = f"{base}_{i}"
        self.used.add(name)
        self.generated.add(name)
        return name


def names_in(tree):
    """Every identifier of the source, so generated names can avoid them."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            names.add(node.name)
    return names


# --- what AutoGraph does not convert ------------------------------------------------------
def check_supported(tree):
    """Raise UnsupportedLanguageElementError (with the line) for what TF does not convert."""
    for node in ast.walk(tree):
        problem = None
        if isinstance(node, ast.For) and node.orelse:
            problem = "for/else statement not yet supported"
        elif isinstance(node, ast.While) and node.orelse:
            problem = "while/else statement not yet supported"
        elif isinstance(node, (ast.Yield, ast.YieldFrom)):
            problem = "generators are not supported"
        elif isinstance(node, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith)):
            problem = "async code is not supported"
        elif isinstance(node, getattr(ast, "Match", ())):
            problem = "match statement not yet supported"
        elif isinstance(node, ast.Attribute) and node.attr.startswith("__") and \
                not node.attr.endswith("__"):
            problem = "mangled names are not yet supported"
        if problem:
            raise UnsupportedLanguageElementError(problem, getattr(node, "lineno", None))


# --- normalization: code after `if c: return` moves into the else branch ---------------------
def _always_returns(block):
    if not block:
        return False
    last = block[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _always_returns(last.body) and \
        _always_returns(last.orelse)


def normalize_returns(stmts):
    out = []
    for i, stmt in enumerate(stmts):
        for field in _BLOCK_FIELDS:
            if isinstance(getattr(stmt, field, None), list) and \
                    not isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
                setattr(stmt, field, normalize_returns(getattr(stmt, field)))
        for handler in getattr(stmt, "handlers", []):
            handler.body = normalize_returns(handler.body)
        tail = stmts[i + 1:]
        if isinstance(stmt, ast.If) and tail:
            if _always_returns(stmt.body) and not _always_returns(stmt.orelse):
                stmt.orelse = normalize_returns(stmt.orelse + tail)
                return out + [stmt]
            if stmt.orelse and _always_returns(stmt.orelse) and not _always_returns(stmt.body):
                stmt.body = normalize_returns(stmt.body + tail)
                return out + [stmt]
        out.append(stmt)
    return out


# --- lowering ----------------------------------------------------------------------------
def _name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _assign(name, value, where):
    if not isinstance(value, ast.AST):
        value = ast.Constant(value)
    return ast.copy_location(ast.Assign(targets=[_name(name, True)], value=value), where)


def _none_of(flags):
    """`not f` or `not (f1 or f2)`: the test that no flag is set."""
    flags = sorted(flags)
    inner = _name(flags[0]) if len(flags) == 1 else ast.BoolOp(ast.Or(), [_name(f) for f in flags])
    return ast.UnaryOp(ast.Not(), inner)


def _ag_call(attr, args):
    return ast.Call(ast.Attribute(_name("ag__"), attr, ast.Load()), args, [])


class _Loop:
    def __init__(self):
        self.break_ = self.continue_ = None


class _JumpLowering:
    def __init__(self, namer, returns):
        self.namer = namer
        self.do_return = namer.new("do_return") if returns else None
        self.retval = namer.new("retval_") if returns else None
        self.read_flags = set()  # flags some guard or loop test reads

    def block(self, stmts, loop):
        out, flags = [], set()
        for i, stmt in enumerate(stmts):
            new, stmt_flags = self.stmt(stmt, loop)
            out.extend(new)
            if isinstance(stmt, (ast.Break, ast.Continue)) or \
                    isinstance(stmt, ast.Return) and self.do_return:
                return out, flags | stmt_flags  # what follows a jump never runs
            if stmt_flags:
                rest, rest_flags = self.block(stmts[i + 1:], loop)
                if rest:
                    self.read_flags |= stmt_flags
                    guard = ast.If(test=_none_of(stmt_flags), body=rest, orelse=[])
                    out.append(ast.copy_location(guard, stmts[i + 1]))
                return out, flags | stmt_flags | rest_flags
        return out, flags

    def stmt(self, s, loop):
        if isinstance(s, ast.Return) and self.do_return:
            value = s.value if s.value is not None else ast.Constant(None)
            return [_assign(self.do_return, True, s), _assign(self.retval, value, s)], \
                {self.do_return}
        if isinstance(s, ast.Break):
            loop.break_ = loop.break_ or self.namer.new("break_")
            return [_assign(loop.break_, True, s)], {loop.break_}
        if isinstance(s, ast.Continue):
            loop.continue_ = loop.continue_ or self.namer.new("continue_")
            return [_assign(loop.continue_, True, s)], {loop.continue_}
        if isinstance(s, (ast.While, ast.For)):
            return self.loop(s)
        if isinstance(s, (ast.FunctionDef, ast.ClassDef)):
            return [s], set()
        flags = set()
        for field in _BLOCK_FIELDS:
            if isinstance(getattr(s, field, None), list):
                new, f = self.block(getattr(s, field), loop)
                setattr(s, field, new or ([ast.Pass()] if field == "body" else []))
                flags |= f
        for handler in getattr(s, "handlers", []):
            handler.body, f = self.block(handler.body, loop)
            handler.body = handler.body or [ast.Pass()]
            flags |= f
        return [s], flags

    def loop(self, s):
        inner = _Loop()
        body, flags = self.block(s.body, inner)
        if inner.continue_:
            body = [_assign(inner.continue_, False, s.body[0])] + body
        s.body = body or [ast.Pass()]
        stops = {f for f in (inner.break_, self.do_return) if f and f in flags}
        before = [_assign(inner.break_, False, s)] if inner.break_ else []
        if stops:
            self.read_flags |= stops
            if isinstance(s, ast.While):
                s.test = ast.BoolOp(ast.And(), [_none_of(stops), s.test])
            else:
                s.ag_extra_test = _none_of(stops)
        return before + [s], flags - {inner.break_, inner.continue_}


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _has_nested_return(stmts):
    """Is there a `return` inside an if/loop/try/with (not just at the top level)?"""
    stack = [child for s in stmts if not isinstance(s, _SCOPES)
             for child in ast.iter_child_nodes(s)]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            return True
        if not isinstance(node, _SCOPES):
            stack.extend(ast.iter_child_nodes(node))
    return False


def lower(fn, namer):
    """Rewrite the jumps of function `fn` (not of functions nested in it) in place."""
    returns = _has_nested_return(fn.body)
    if returns:
        fn.body = normalize_returns(fn.body)
    lowering = _JumpLowering(namer, returns)
    body, _ = lowering.block(fn.body, None)
    if returns:
        start = [_assign(lowering.retval, _ag_call("UndefinedReturnValue", []), fn.body[0])]
        if lowering.do_return in lowering.read_flags:
            start.insert(0, _assign(lowering.do_return, False, fn.body[0]))
        else:  # nothing tests do_return: its assignments would only be noise
            body = _without_assignments_to(lowering.do_return, body)
        end = ast.Return(_ag_call("retval", [_name(lowering.retval)]))
        body = start + body + [ast.copy_location(end, fn.body[-1])]
    fn.body = body


def _without_assignments_to(name, stmts):
    out = []
    for s in stmts:
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and \
                isinstance(s.targets[0], ast.Name) and s.targets[0].id == name:
            continue
        if not isinstance(s, _SCOPES):
            for field in _BLOCK_FIELDS:
                if isinstance(getattr(s, field, None), list):
                    kept = _without_assignments_to(name, getattr(s, field))
                    setattr(s, field, kept or ([ast.Pass()] if field == "body" else []))
            for handler in getattr(s, "handlers", []):
                handler.body = _without_assignments_to(name, handler.body) or [ast.Pass()]
        out.append(s)
    return out
