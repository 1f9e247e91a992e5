"""widgets.module_tree: the tree of a tf.Module, read from its attributes like the walk."""
import doctest

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import minitf as tf
from widgets import module_tree as module_tree_module
from widgets.module_tree import direct_children, draw_module_tree, module_tree, own_variables


class Leaf(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.ones([3, 2]), name="w")


class Middle(tf.Module):
    def __init__(self, shared, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.leaves = {"left": Leaf(name="left"), "right": shared}
            self.count = tf.Variable(0, trainable=False, name="count")


class Root(tf.Module):
    def __init__(self):
        super().__init__()
        with self.name_scope:
            shared = Leaf(name="shared")
            self.middle = Middle(shared, name="middle")
            self.also = shared  # reachable twice: drawn once, under its first parent
            self.bias = tf.Variable(0.0, name="bias")


def test_examples():
    result = doctest.testmod(module_tree_module)
    assert result.attempted > 0 and result.failed == 0


def test_direct_children_and_own_variables():
    root = Root()
    assert [m.name for m in direct_children(root)] == ["shared", "middle"]
    assert [v.name for v in own_variables(root)] == ["root/bias:0"]
    middle = root.middle
    assert [v.name for v in own_variables(middle)] == ["root/middle/count:0"]
    assert [m.name for m in direct_children(middle)] == ["left", "shared"]


def test_every_module_and_variable_appears_once():
    root = Root()
    tree = module_tree(root)
    titles, rows = [], []
    stack = [tree]
    while stack:
        node = stack.pop()
        titles.append(node.title)
        rows += node.variables
        stack.extend(node.children)
    assert sorted(titles) == ["left (Leaf)", "middle (Middle)", "root (Root)", "shared (Leaf)"]
    assert sorted(r.split()[0] for r in rows) == sorted(v.name for v in root.variables)
    assert "root/middle/count:0 [] not trainable" in rows


def test_text_rendering():
    assert module_tree(Root()).text().splitlines() == [
        "root (Root): root/bias:0 []",
        "├── shared (Leaf): root/shared/w:0 [3, 2]",
        "└── middle (Middle): root/middle/count:0 [] not trainable",
        "    └── left (Leaf): root/middle/left/w:0 [3, 2]",
    ]


def test_drawing_has_a_box_per_module_and_an_arrow_per_edge():
    fig, ax = plt.subplots()
    draw_module_tree(Root(), ax)
    boxes = [t for t in ax.texts if t.get_text()]
    arrows = [t for t in ax.texts if not t.get_text()]
    assert len(boxes) == 4 and len(arrows) == 3
    assert boxes[0].get_text().splitlines()[0] == "root (Root)"
    fig.canvas.draw()  # the arrows resolve their box-relative coordinates here
    plt.close(fig)


def test_a_keras_layer_is_drawn_like_any_module():
    layer = tf.keras.layers.Dense(2, name="proj")  # a fixed name: defaults get _1, _2 ...
    layer.build((None, 3))
    holder = tf.Module(name="holder")
    holder.layer = layer
    assert module_tree(holder).text() == (
        "holder (Module)\n└── proj (Dense): kernel [3, 2], bias [2]")
