"""What the converter needs to know about the variables of a function.

To turn `if`/`while`/`for` into functions that pass their variables
explicitly, AutoGraph asks three questions about each statement:

* **modified**: which variables does it assign? (`x = ...`, `x += ...`,
  a `for` target, `obj.attr = ...`)
* **live**: which of them are read afterwards (live out), or read by the
  statement before being assigned (live in)? Only those need to travel
  through `tf.cond`/`tf.while_loop`; the others are local to the block.
* **defined**: which may already have a value when the statement starts?
  The others get an `ag__.Undefined` placeholder first.

>>> import ast
>>> fn = ast.parse('''
... def f(x):
...     total = 0
...     for i in range(x):
...         square = i * i
...         total += square
...     return total
... ''').body[0]
>>> analyze(fn)
>>> loop = fn.body[1]
>>> sorted(loop.ag_modified), sorted(loop.ag_live_out), sorted(loop.ag_defined_in)
(['i', 'square', 'total'], ['total'], ['total', 'x'])

Only `total` must be a loop variable: `i` and `square` are local to the body.
The analysis works on structured code (no `break`, `continue`, or `return`
inside blocks: `lowering.py` has already rewritten those into flags).
TensorFlow does the same with a control-flow graph (`pyct/static_analysis`).
"""
import ast

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
           ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
CONTROL = (ast.If, ast.While, ast.For)


# --- names ------------------------------------------------------------------------------
def qualified_name(node):
    """'x', 'self.w' or "d['k']" for a plain or composite target; None for others."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = qualified_name(node.value)
        return None if base is None else f"{base}.{node.attr}"
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        base = qualified_name(node.value)
        return None if base is None else f"{base}[{node.slice.value!r}]"
    return None


def root_name(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def target_names(target):
    """(simple names, {composite name: node}) bound by an assignment target."""
    simple, composite = set(), {}
    stack = [target]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            simple.add(node.id)
        elif isinstance(node, (ast.Tuple, ast.List)):
            stack.extend(node.elts)
        elif isinstance(node, ast.Starred):
            stack.append(node.value)
        elif isinstance(node, (ast.Attribute, ast.Subscript)):
            name = qualified_name(node)
            if name is not None:
                composite[name] = node
    return simple, composite


def _params(args):
    every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
    return {a.arg for a in every if a is not None}


def reads(node):
    """Simple names read by an expression or statement (free reads of nested scopes too)."""
    if isinstance(node, _SCOPES):
        return _free_reads(node)
    found = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            found.add(n.id)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            found.add(n.target.id)
        if isinstance(n, _SCOPES):
            found |= _free_reads(n)
            continue
        stack.extend(ast.iter_child_nodes(n))
    return found


def _free_reads(scope):
    """Names a nested function, lambda, class or comprehension reads from outside."""
    outer = set()
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        args = scope.args
        for d in args.defaults + [d for d in args.kw_defaults if d is not None]:
            outer |= reads(d)
        for d in getattr(scope, "decorator_list", []):
            outer |= reads(d)
        body = scope.body if isinstance(scope.body, list) else [scope.body]
        local = _params(args) | modified(body)[0]
    elif isinstance(scope, ast.ClassDef):
        for d in scope.decorator_list + scope.bases:
            outer |= reads(d)
        body, local = scope.body, modified(scope.body)[0]
    else:  # a comprehension: its targets are its own
        body = [scope.elt] if not isinstance(scope, ast.DictComp) else [scope.key, scope.value]
        local = set()
        for gen in scope.generators:
            local |= target_names(gen.target)[0]
            body = body + [gen.iter] + gen.ifs
    inner = set()
    for stmt in body:
        inner |= reads(stmt)
    return outer | (inner - local)


def modified(stmts):
    """(simple names, {composite name: node}) assigned by statements, nested scopes excluded."""
    simple, composite = set(), {}
    stack = list(stmts)
    while stack:
        n = stack.pop()
        targets = []
        if isinstance(n, ast.Assign):
            targets = n.targets
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
            targets = [n.target] if not isinstance(n, ast.AnnAssign) or n.value else []
        elif isinstance(n, (ast.For, ast.AsyncFor)):
            targets = [n.target]
        elif isinstance(n, ast.withitem) and n.optional_vars is not None:
            targets = [n.optional_vars]
        elif isinstance(n, ast.NamedExpr):
            targets = [n.target]
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            simple.add(n.name)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            simple.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            simple |= {(a.asname or a.name).split(".")[0] for a in n.names}
        for t in targets:
            s, c = target_names(t)
            simple |= s
            composite.update(c)
        if isinstance(n, _SCOPES):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stack.extend(getattr(n, "decorator_list", []))
            continue  # a nested scope's own assignments are its own
        stack.extend(ast.iter_child_nodes(n))
    return simple, composite


# --- liveness (backward) ---------------------------------------------------------------------
def _live_block(stmts, live_out):
    live = set(live_out)
    for stmt in reversed(stmts):
        live = _live_stmt(stmt, live)
    return live


def _live_stmt(s, out):
    if isinstance(s, ast.If):
        live_in = reads(s.test) | _live_block(s.body, out) | _live_block(s.orelse, out)
    elif isinstance(s, ast.While):
        live_in = _fixpoint(lambda head: out | reads(s.test) | _live_block(s.body, head),
                            out | reads(s.test))
    elif isinstance(s, ast.For):
        bound = target_names(s.target)[0]
        extra = reads(s.ag_extra_test) if getattr(s, "ag_extra_test", None) else set()
        live_in = reads(s.iter) | _fixpoint(
            lambda head: out | extra | (_live_block(s.body, head) - bound), out | extra)
    elif isinstance(s, ast.Try):
        final_in = _live_block(s.finalbody, out)
        else_in = _live_block(s.orelse, final_in)
        handlers_in = set()
        for h in s.handlers:
            handlers_in |= _live_block(h.body, final_in) | (reads(h.type) if h.type else set())
        live_in = _live_block(s.body, else_in | handlers_in) | handlers_in
    elif isinstance(s, ast.With):
        bound = set()
        for item in s.items:
            bound |= modified([item])[0]
        live_in = reads(ast.Tuple([i.context_expr for i in s.items], ast.Load())) | (
            _live_block(s.body, out) - bound)
    else:
        live_in = (out - modified([s])[0]) | reads(s)
    if isinstance(s, CONTROL):
        s.ag_live_in, s.ag_live_out = frozenset(live_in), frozenset(out)
    return live_in


def _fixpoint(step, start):
    """Iterate `head = step(head)` until it stops growing (loops feed their body back)."""
    head = set(start)
    while True:
        new = step(head)
        if new == head:
            return head
        head = new


# --- possibly defined (forward) ------------------------------------------------------------
def _defined_block(stmts, defined):
    for stmt in stmts:
        defined = _defined_stmt(stmt, defined)
    return defined


def _defined_stmt(s, d):
    if isinstance(s, CONTROL):
        s.ag_defined_in = frozenset(d)
    if isinstance(s, ast.If):
        return _defined_block(s.body, d) | _defined_block(s.orelse, d)
    if isinstance(s, ast.While):
        return _fixpoint(lambda head: d | _defined_block(s.body, head), d)
    if isinstance(s, ast.For):
        bound = target_names(s.target)[0]
        return _fixpoint(lambda head: d | _defined_block(s.body, head | bound), d)
    if isinstance(s, ast.Try):
        result = _defined_block(s.body, d)
        for h in s.handlers:
            result |= _defined_block(h.body, d | ({h.name} if h.name else set()))
        return _defined_block(s.finalbody, _defined_block(s.orelse, result))
    if isinstance(s, ast.With):
        return _defined_block(s.body, d | modified(s.items)[0])
    return d | modified([s])[0]


# --- entry point ----------------------------------------------------------------------------
def analyze(fn):
    """Annotate every `if`/`while`/`for` of function `fn` (not of nested functions) with
    `ag_modified`, `ag_composite`, `ag_live_in`, `ag_live_out` and `ag_defined_in`.

    Variables that nested functions read are treated as live everywhere (such a
    function may be called at any later point), as in TensorFlow.
    """
    closure_reads = set()
    for node in _own_nodes(fn.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            closure_reads |= _free_reads(node)
        if isinstance(node, CONTROL):
            blocks = node.body + node.orelse
            node.ag_modified, node.ag_composite = modified(blocks)
            if isinstance(node, ast.For):
                simple, composite = target_names(node.target)
                node.ag_modified |= simple
                node.ag_composite.update(composite)
    _live_block(fn.body, closure_reads)
    _defined_block(fn.body, _params(fn.args))
    for node in _own_nodes(fn.body):
        if isinstance(node, CONTROL):
            node.ag_live_in = node.ag_live_in | closure_reads
            node.ag_live_out = node.ag_live_out | closure_reads


def _own_nodes(stmts):
    """Every node of these statements, not descending into nested functions or classes."""
    stack = list(stmts)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            stack.extend(ast.iter_child_nodes(node))
