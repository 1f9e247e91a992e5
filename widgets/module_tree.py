"""A `tf.Module` as a tree: each module with the variables it holds itself.

Built from each module's attributes, flattened like `tf.nest` (lists, tuples
and dicts opened), which is how the walk behind `Module.variables` in
`minitf/module.py` finds them:

>>> import minitf as tf
>>> class Block(tf.Module):
...     def __init__(self, name=None):
...         super().__init__(name=name)
...         with self.name_scope:
...             self.w = tf.Variable(tf.ones([2]), name="w")
>>> class Net(tf.Module):
...     def __init__(self):
...         super().__init__()
...         with self.name_scope:
...             self.blocks = [Block(name="a"), Block(name="b")]
...             self.step = tf.Variable(0, trainable=False, name="step")
>>> print(module_tree(Net()).text())
net (Net): net/step:0 [] not trainable
├── a (Block): net/a/w:0 [2]
└── b (Block): net/b/w:0 [2]

`draw_module_tree(module, ax)` draws the same tree on a matplotlib axis.
"""
import minitf as tf


class ModuleNode:
    """One module of the tree: its name, class name, own variables and child nodes."""

    def __init__(self, name, kind, variables, children):
        self.name = name
        self.kind = kind
        self.variables = variables  # "name [shape]" (+ " not trainable") per own variable
        self.children = children

    @property
    def title(self):
        return f"{self.name} ({self.kind})"

    def text(self):
        """The tree in plain text, one module a line, with box-drawing branches."""
        lines = [self._line()]
        for i, child in enumerate(self.children):
            last = i == len(self.children) - 1
            sub = child.text().splitlines()
            lines.append(("└── " if last else "├── ") + sub[0])
            lines += [("    " if last else "│   ") + row for row in sub[1:]]
        return "\n".join(lines)

    def _line(self):
        return self.title + (": " + ", ".join(self.variables) if self.variables else "")

    def leaves(self):
        return 1 if not self.children else sum(child.leaves() for child in self.children)

    def depth(self):
        return 1 + max((child.depth() for child in self.children), default=0)


def _attribute_leaves(module):
    """What the module holds directly: its attributes flattened like `tf.nest` (lists,
    tuples and dicts opened, dict entries in sorted key order), as the walk sees them."""
    return tf.nest.flatten(dict(vars(module)))


def _unique(items):
    seen, out = set(), []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


def direct_children(module):
    """The modules `module` holds in its own attributes (not inside another submodule)."""
    return _unique(m for m in _attribute_leaves(module) if isinstance(m, tf.Module))


def own_variables(module):
    """The variables `module` holds in its own attributes (not inside a submodule)."""
    return _unique(v for v in _attribute_leaves(module) if isinstance(v, tf.Variable))


def module_tree(module):
    """The `ModuleNode` tree of `module` (a shared submodule appears once, where first found)."""
    return _node(module, seen=set())


def _node(module, seen):
    seen.add(id(module))
    rows = [f"{v.name} {list(v.shape)}" + ("" if v.trainable else " not trainable")
            for v in own_variables(module)]
    children = [_node(m, seen) for m in direct_children(module) if id(m) not in seen]
    return ModuleNode(module.name, type(module).__name__, rows, children)


def draw_module_tree(module, ax, fontsize=9):
    """Draw `module_tree(module)` on the matplotlib axis `ax`: boxes with each module's own
    variables, arrows from parent to child, leaves spread evenly across the width."""
    tree = module_tree(module)
    levels = tree.depth()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.axis("off")
    _draw(tree, ax, left=0.0, width=1.0, level=0, levels=levels, fontsize=fontsize)
    return ax


def _draw(node, ax, left, width, level, levels, fontsize):
    """Draw `node` centred in its slice [left, left + width] of the axis, then its children
    in slices proportional to their leaf counts; arrows join box edges. Returns the box."""
    y = 1 - (level + 0.5) / levels
    fill = "#fff4d6" if level == 0 else "#eef3fb"
    box = ax.text(left + width / 2, y, "\n".join([node.title] + node.variables), ha="center",
                  va="center", fontsize=fontsize, family="monospace",
                  bbox={"boxstyle": "round", "facecolor": fill, "edgecolor": "#555555"})
    start = left
    for child in node.children:
        share = width * child.leaves() / node.leaves()
        child_box = _draw(child, ax, start, share, level + 1, levels, fontsize)
        # coordinates relative to the two boxes: parent's bottom centre -> child's top centre
        ax.annotate("", xy=(0.5, 1.0), xycoords=child_box, xytext=(0.5, 0.0), textcoords=box,
                    arrowprops={"arrowstyle": "->", "color": "grey", "shrinkA": 4, "shrinkB": 4})
        start += share
    return box
