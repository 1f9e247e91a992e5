"""The AST rewrites: expressions first, then `if`/`while`/`for` into functions.

After `lowering.py` removed the jumps, two passes finish the conversion.

**Expressions.** `a and b` becomes `ag__.and_(lambda: a, lambda: b)` (lazy,
like Python), `not a` becomes `ag__.not_(a)`, `x if c else y` becomes
`ag__.if_exp(c, lambda: x, lambda: y, 'c')`, and a call of something that
may be your own function becomes `ag__.converted_call(f, (args,), kwargs)`,
which converts it when it runs. Calls that plainly go to a library (`tf.*`,
`np.*`, builtins) stay as they are; `range` and `len` become `ag__.range_` and
`ag__.len_`, which understand tensors. `print` stays Python's `print`, as in
TensorFlow 2: it runs once, while tracing, and shows symbolic tensors; use
`tf.print` to print values every time the graph runs.

**Control flow.** Each statement turns into functions and one call:

    if x > 0:                   def get_state():
        y = x                       return (y,)
    else:                       def set_state(vars_):
        y = -x                      nonlocal y
                                    (y,) = vars_
                                def if_body():
                                    nonlocal y
                                    y = x
                                def else_body():
                                    nonlocal y
                                    y = -x
                                y = ag__.Undefined('y')
                                ag__.if_stmt(x > 0, if_body, else_body,
                                             get_state, set_state, ('y',), 1)

The state is the variables the statement modifies *and* that matter
outside it (`static_analysis.py`); a variable only used inside a branch or
an iteration stays local to that function. `while` gives `loop_test` and
`loop_body`; `for` gives `loop_body(i)` (and `extra_test` after `break`).

In TensorFlow these are the `call_trees`, `logical_expressions`,
`conditional_expressions` and `control_flow` converters.
"""
import ast
import builtins
import inspect
import types

from . import static_analysis as sa

_AG = "ag__"


def _name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def ag_call(attr, *args):
    return ast.Call(ast.Attribute(_name(_AG), attr, ast.Load()), list(args), [])


def _lambda(body):
    return ast.Lambda(ast.arguments([], [], None, [], [], None, []), body)


def _located(nodes, where):
    """Give generated statements the line of `where` (errors then point at your `if`);
    their generated sub-expressions get just its first line."""
    line = {"lineno": where.lineno, "end_lineno": where.lineno,
            "col_offset": where.col_offset, "end_col_offset": where.col_offset}
    for node in nodes:
        ast.copy_location(node, where)
        for child in ast.walk(node):
            if "lineno" in child._attributes and not hasattr(child, "lineno"):
                for key, value in line.items():
                    setattr(child, key, value)
    return nodes


# --- static look-up of what a call calls ---------------------------------------------------------
class Resolver:
    """Finds, at conversion time, the object a name or `a.b.c` refers to (if it cannot change)."""

    def __init__(self, fn, local_names, keep_as_is):
        self.globals = getattr(fn, "__globals__", {})
        self.closure = {}
        code, cells = getattr(fn, "__code__", None), getattr(fn, "__closure__", None) or ()
        for name, cell in zip(code.co_freevars if code else (), cells):
            try:
                self.closure[name] = cell.cell_contents
            except ValueError:  # an empty cell: not bound yet
                pass
        self.local_names = local_names
        self.keep_as_is = keep_as_is  # predicate: this callee never needs converting

    def lookup(self, node):
        """(True, object) if `node` is a non-local name or attribute chain on a module."""
        if isinstance(node, ast.Name):
            if node.id in self.local_names:
                return False, None
            for scope in (self.closure, self.globals, vars(builtins)):
                if node.id in scope:
                    return True, scope[node.id]
            return False, None
        if isinstance(node, ast.Attribute):
            found, base = self.lookup(node.value)
            if found and isinstance(base, types.ModuleType) and hasattr(base, node.attr):
                return True, getattr(base, node.attr)
        return False, None

    def is_builtin(self, name):
        found, obj = self.lookup(_name(name))
        return found and obj is getattr(builtins, name)

    def leave_call(self, func):
        """Calls that need no `converted_call`: builtins, classes, library functions."""
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                func.value.id == _AG:
            return True
        found, obj = self.lookup(func)
        if not found:
            return False
        return inspect.isbuiltin(obj) or inspect.isclass(obj) or self.keep_as_is(obj)


class ExpressionTransformer(ast.NodeTransformer):
    """and/or/not, conditional expressions and calls (see the module docstring).

    `super_args`: for a method, `super()` becomes `super(__class__, self)`, since the
    converted function (and the branch functions inside it) is not in a class body.
    `asserts` (Feature.ASSERT_STATEMENTS): convert `assert`, and pass the option on
    to the functions this one calls.
    """

    def __init__(self, resolver, super_args=None, asserts=False):
        self.resolver = resolver
        self.super_args = super_args
        self.asserts = asserts

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        op = "and_" if isinstance(node.op, ast.And) else "or_"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = ag_call(op, _lambda(value), _lambda(result))
        return ast.copy_location(result, node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(ag_call("not_", node.operand), node)
        return node

    def visit_Assert(self, node):
        """Only with Feature.ASSERT_STATEMENTS: `assert test, "msg"` ->
        `ag__.assert_stmt(test, lambda: "msg")`, on a tensor a tf.debugging.Assert
        that checks when the graph runs (TF's asserts converter). Without it the
        `assert` stays Python's, as in TF 2.21: on a tensor it fails while tracing."""
        self.generic_visit(node)
        if not self.asserts:
            return node
        if node.msg is not None and not isinstance(node.msg, ast.Constant):
            raise NotImplementedError("can only convert string messages for now.")
        message = node.msg if node.msg is not None else ast.Constant("Assertion error")
        return ast.copy_location(ast.Expr(ag_call("assert_stmt", node.test, _lambda(message))),
                                 node)

    def visit_IfExp(self, node):
        self.generic_visit(node)
        call = ag_call("if_exp", node.test, _lambda(node.body), _lambda(node.orelse),
                       ast.Constant(ast.unparse(node.test)))
        return ast.copy_location(call, node)

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("range", "len") and \
                self.resolver.is_builtin(func.id):
            node.func = ast.Attribute(_name(_AG), func.id + "_", ast.Load())
            return node
        if isinstance(func, ast.Name) and func.id == "super" and not node.args and \
                self.super_args and self.resolver.is_builtin("super"):
            node.args = [_name(a) for a in self.super_args]
        if self.resolver.leave_call(func):
            return node
        args = ast.Tuple(node.args, ast.Load())
        if node.keywords:
            kwargs = ast.Dict([None if k.arg is None else ast.Constant(k.arg)
                               for k in node.keywords], [k.value for k in node.keywords])
        else:
            kwargs = ast.Constant(None)
        options = [ast.parse("ag__.Feature.ASSERT_STATEMENTS", mode="eval").body] \
            if self.asserts else []
        return ast.copy_location(ag_call("converted_call", func, args, kwargs, *options), node)


# --- control flow ------------------------------------------------------------------------------
class ControlFlowTransformer:
    """Turns the `if`/`while`/`for` of one function (analyzed already) into ag__ calls."""

    def __init__(self, fn, namer, resolver, is_loop_options):
        self.fn, self.namer, self.resolver = fn, namer, resolver
        self.is_loop_options = is_loop_options
        self.globals, self.nonlocals = set(), set()
        for node in sa._own_nodes(fn.body):
            if isinstance(node, ast.Global):
                self.globals |= set(node.names)
            elif isinstance(node, ast.Nonlocal):
                self.nonlocals |= set(node.names)
        self.undefined = set()  # names given an ag__.Undefined placeholder
        self.getters = set()  # generated get_state functions (their reads stay raw)

    def run(self):
        self.fn.body, unbound = self.block(self.fn.body)
        self._bind(unbound)
        return self.undefined

    def block(self, stmts):
        out, inner = [], set()
        for stmt in stmts:
            new, names = self.stmt(stmt)
            out.extend(new)
            inner |= names
        return out, inner

    def stmt(self, s):
        if isinstance(s, ast.If):
            return self._if(s)
        if isinstance(s, ast.While):
            return self._while(s)
        if isinstance(s, ast.For):
            return self._for(s)
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [s], set()
        inner = set()
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, field, None), list):
                new, names = self.block(getattr(s, field))
                setattr(s, field, new)
                inner |= names
        for handler in getattr(s, "handlers", []):
            handler.body, names = self.block(handler.body)
            inner |= names
        return [s], inner

    # --- the state of a statement -----------------------------------------------------------
    def _state(self, node, unbound):
        """(state names, nouts, composite nodes, names to make Undefined, names that the
        enclosing function must bind). `unbound`: names nested statements declare nonlocal
        that no function between here and them binds."""
        live_in, live_out = node.ag_live_in, node.ag_live_out
        basic = {v for v in node.ag_modified
                 if v in live_in or v in live_out or v in self.nonlocals}
        composite = {c: n for c, n in node.ag_composite.items()
                     if sa.root_name(n) in live_in}
        input_only = {v for v in basic if v in live_in and v not in live_out}
        outputs = sorted((basic - input_only) | set(composite))
        names = outputs + sorted(input_only)
        undefined = sorted(v for v in node.ag_modified - node.ag_defined_in
                           - self.globals - self.nonlocals if v in basic or v in unbound)
        self.undefined |= set(undefined)
        return names, len(outputs), composite, undefined, (unbound | basic) - set(undefined)

    @staticmethod
    def _unbound(inner, body, params=()):
        """Names of `inner` that the function made of `body` does not bind itself."""
        return inner - sa.modified(body)[0] - set(params)

    def _declarations(self, names):
        simple = [n for n in names if n.isidentifier()]
        decls = []
        if [n for n in simple if n in self.globals]:
            decls.append(ast.Global([n for n in simple if n in self.globals]))
        if [n for n in simple if n not in self.globals]:
            decls.append(ast.Nonlocal([n for n in simple if n not in self.globals]))
        return decls

    def _state_functions(self, names, composite):
        """get_state/set_state defs and the two names to pass (ag__.no_state if none)."""
        if not names:
            none = ast.Attribute(_name(_AG), "no_state", ast.Load())
            return [], none, none
        get, set_ = self.namer.new("get_state"), self.namer.new("set_state")
        self.getters.add(get)
        read = [ag_call("ldu", _lambda(_copy(composite[n], ast.Load())), ast.Constant(n))
                if n in composite
                else _name(n) for n in names]
        getter = self._def(get, [], [ast.Return(ast.Tuple(read, ast.Load()))])
        targets = [_copy(composite[n], ast.Store()) if n in composite else _name(n, True)
                   for n in names]
        unpack = ast.Assign([ast.Tuple(targets, ast.Store())], _name("vars_"))
        setter = self._def(set_, ["vars_"], self._declarations(names) + [unpack])
        return [getter, setter], _name(get), _name(set_)

    def _def(self, name, params, body):
        args = ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, [])
        if all(isinstance(s, (ast.Nonlocal, ast.Global)) for s in body):
            body = body + [ast.Pass()]
        return ast.FunctionDef(name, args, body, [], None, None)

    def _undefined(self, names):
        return [ast.Assign([_name(n, True)], ag_call("Undefined", ast.Constant(n)))
                for n in names]

    def _symbols(self, names):
        return ast.Tuple([ast.Constant(n) for n in names], ast.Load())

    # --- the three statements -------------------------------------------------------------------
    def _if(self, node):
        body, inner_body = self.block(node.body)
        orelse, inner_else = self.block(node.orelse)
        unbound = self._unbound(inner_body, body) | self._unbound(inner_else, orelse)
        names, nouts, composite, undefined, inner = self._state(node, unbound)
        state_defs, get, set_ = self._state_functions(names, composite)
        if_body = self._def(self.namer.new("if_body"), [], self._declarations(names) + body)
        else_body = self._def(self.namer.new("else_body"), [],
                              self._declarations(names) + orelse)
        call = ag_call("if_stmt", node.test, _name(if_body.name), _name(else_body.name),
                       get, set_, self._symbols(names), ast.Constant(nouts))
        new = state_defs + [if_body, else_body] + self._undefined(undefined) + [ast.Expr(call)]
        return _located(new, node), inner

    def _while(self, node):
        opts = self._loop_options(node)
        body, inner_body = self.block(node.body)
        names, _, composite, undefined, inner = self._state(node,
                                                            self._unbound(inner_body, body))
        state_defs, get, set_ = self._state_functions(names, composite)
        loop_body = self._def(self.namer.new("loop_body"), [], self._declarations(names) + body)
        loop_test = self._def(self.namer.new("loop_test"), [], [ast.Return(node.test)])
        args = [_name(loop_test.name), _name(loop_body.name), get, set_, self._symbols(names)]
        call = ag_call("while_stmt", *args, *opts)
        new = state_defs + [loop_body, loop_test] + self._undefined(undefined) + [ast.Expr(call)]
        return _located(new, node), inner

    def _for(self, node):
        opts = self._loop_options(node)
        body, inner_body = self.block(node.body)
        targets = sa.target_names(node.target)[0]
        names, _, composite, undefined, inner = self._state(
            node, self._unbound(inner_body, body, targets))
        state_defs, get, set_ = self._state_functions(names, composite)
        target = node.target
        if isinstance(target, ast.Name) and target.id not in names:
            param, expand = target.id, []  # `def loop_body(i):` reads best
        else:
            param = self.namer.new("itr")
            expand = [ast.Assign([target], _name(param))]
        loop_body = self._def(self.namer.new("loop_body"), [param],
                              self._declarations(names) + expand + body)
        defs = state_defs + [loop_body]
        extra = getattr(node, "ag_extra_test", None)
        extra_name = ast.Constant(None)
        if extra is not None:
            extra = ExpressionTransformer(self.resolver).visit(extra)
            extra_test = self._def(self.namer.new("extra_test"), [], [ast.Return(extra)])
            defs.append(extra_test)
            extra_name = _name(extra_test.name)
        call = ag_call("for_stmt", node.iter, extra_name, _name(loop_body.name), get, set_,
                       self._symbols(names), *opts)
        new = defs + self._undefined(undefined) + [ast.Expr(call)]
        return _located(new, node), inner

    def _loop_options(self, node):
        """`tf.autograph.experimental.set_loop_options(...)` at the top of a loop body
        becomes the loop's `opts` dict (and leaves the body)."""
        keys, values, body = [], [], []
        for stmt in node.body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and \
                    self.is_loop_options(self.resolver.lookup(_callee(stmt.value))[1]):
                for k in stmt.value.keywords:
                    keys.append(ast.Constant(k.arg))
                    values.append(k.value)
                continue
            body.append(stmt)
        node.body = body or [ast.Pass()]
        return [ast.Dict(keys, values)] if keys else []

    def _bind(self, unbound):
        """A name a generated function declares nonlocal needs a binding in an enclosing
        function; give one to names only ever assigned inside generated functions."""
        bound = sa.modified(self.fn.body)[0] | sa._params(self.fn.args)
        missing = sorted(unbound - bound - self.globals - self.nonlocals)
        self.fn.body = _located(self._undefined(missing), self.fn.body[0]) + self.fn.body
        self.undefined |= set(missing)


def _callee(call):
    """What `call` calls (looking through `ag__.converted_call(f, ...)`)."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "converted_call" and call.args:
        return call.args[0]
    return func


def _copy(node, ctx):
    """A fresh copy of a composite target (`self.x`, `d['k']`) to read or to assign."""
    copy = ast.parse(ast.unparse(node), mode="eval").body
    copy.ctx = ctx
    return copy


class LoadWrapper(ast.NodeTransformer):
    """Reads of variables that may hold `ag__.Undefined` go through `ag__.ld(...)`, which
    raises Python's UnboundLocalError for them (outside the get_state functions)."""

    def __init__(self, names, getters):
        self.names, self.getters = names, getters

    def visit_FunctionDef(self, node):
        if node.name in self.getters:
            return node
        self.generic_visit(node)
        return node

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.names:
            return ast.copy_location(ag_call("ld", node), node)
        return node
