"""2-D test surfaces for the optimizer race, each written with minitf ops.

A surface is a function of a point `p` (a tensor of shape [2]: x = p[0],
y = p[1]) built from minitf ops, so a `tf.GradientTape` differentiates it
exactly as it would a model's loss. `value_grid` evaluates the same
function on a grid of points (the ops broadcast), for the contour picture.

>>> import minitf as tf
>>> s = SURFACES["rosenbrock"]
>>> float(s(tf.constant([1.0, 1.0])))            # the minimum
0.0
>>> float(s(tf.constant([0.0, 0.0])))
1.0
>>> sorted(SURFACES)
['beale', 'booth', 'himmelblau', 'quadratic', 'rosenbrock', 'saddle']
"""
import numpy as np

import minitf as tf


class Surface:
    """A named 2-D loss surface: `surface(p)` is a scalar tensor for a point p = [x, y].

    function: f(x, y) written with minitf ops (x, y tensors of any matching shape).
    minima: the points where the gradient is zero and the loss is lowest (for drawing).
    start: the default start point; xlim, ylim: the drawn window.
    sgd_lr, adaptive_lr: "demo preset" learning rates (SGD-like and adaptive optimizers)
        that make the race visible in ~100 steps; TF's defaults barely move here.
    """

    def __init__(self, name, function, minima, start, xlim, ylim, sgd_lr, adaptive_lr, note):
        self.name, self.function, self.minima = name, function, [tuple(m) for m in minima]
        self.start, self.xlim, self.ylim = tuple(start), tuple(xlim), tuple(ylim)
        self.sgd_lr, self.adaptive_lr, self.note = sgd_lr, adaptive_lr, note

    def __call__(self, point):
        """The loss at `point` (a tensor or Variable of shape [2])."""
        return self.function(point[0], point[1])

    def value_grid(self, n=120):
        """(X, Y, Z) NumPy arrays on an n×n grid over the drawn window (for contours)."""
        xs = np.linspace(*self.xlim, n, dtype=np.float32)
        ys = np.linspace(*self.ylim, n, dtype=np.float32)
        gx, gy = np.meshgrid(xs, ys)
        z = self.function(tf.constant(gx), tf.constant(gy)).numpy()
        return gx, gy, z

    def __repr__(self):
        return f"<Surface {self.name!r}: {self.note}>"


def _rosenbrock(x, y):
    return tf.square(1.0 - x) + 100.0 * tf.square(y - tf.square(x))


def _beale(x, y):
    return (tf.square(1.5 - x + x * y) + tf.square(2.25 - x + x * tf.square(y))
            + tf.square(2.625 - x + x * y * tf.square(y)))


def _saddle(x, y):
    # x² - y² has no minimum; the quartic term gives two valleys at y = ±√2.
    return tf.square(x) - tf.square(y) + 0.25 * tf.square(tf.square(y))


def _booth(x, y):
    return tf.square(x + 2.0 * y - 7.0) + tf.square(2.0 * x + y - 5.0)


def quadratic_surface(condition_number=25.0):
    """The bowl 0.5·(κ·x² + y²): curvature κ along x and 1 along y, so κ is the
    condition number of its Hessian. SGD's step must stay under 2/κ to converge
    along x, which makes it crawl along y: the zig-zag grows with κ.

    >>> s = quadratic_surface(100)
    >>> float(s(tf.constant([1.0, 1.0])))
    50.5
    >>> s.sgd_lr
    0.0075
    """
    kappa = float(condition_number)
    if not kappa >= 1.0:
        raise ValueError(f"condition_number must be at least 1 (the ratio of the largest "
                         f"to the smallest curvature), got {condition_number}.")

    def quadratic(x, y):
        return 0.5 * (kappa * tf.square(x) + tf.square(y))

    quadratic.condition_number = kappa

    return Surface("quadratic", quadratic, [(0.0, 0.0)], (-1.8, 2.5), (-2.5, 2.5),
                   (-3.0, 3.0), 0.75 / kappa, 1e-1,
                   f"an ill-conditioned bowl (condition number {kappa:g}): SGD zig-zags")


def _himmelblau(x, y):
    return tf.square(tf.square(x) + y - 11.0) + tf.square(x + tf.square(y) - 7.0)


SURFACES = {
    "rosenbrock": Surface("rosenbrock", _rosenbrock, [(1.0, 1.0)], (-1.5, 2.0),
                          (-2.0, 2.0), (-1.0, 3.0), 1e-3, 1e-1,
                          "a long curved valley: easy to reach, slow to follow"),
    "beale": Surface("beale", _beale, [(3.0, 0.5)], (1.0, 1.4), (-4.5, 4.5), (-4.5, 4.5),
                     1e-3, 5e-2, "flat plateaus and steep walls"),
    "saddle": Surface("saddle", _saddle, [(0.0, 2 ** 0.5), (0.0, -(2 ** 0.5))],
                      (-2.0, 1e-3), (-2.5, 2.5), (-2.5, 2.5), 5e-2, 5e-2,
                      "starts next to a saddle point at (0, 0): who escapes?"),
    "quadratic": quadratic_surface(25.0),
    "booth": Surface("booth", _booth, [(1.0, 3.0)], (-6.0, -4.0), (-8.0, 8.0), (-8.0, 8.0),
                     5e-3, 1.0, "a tilted valley: a plain bowl, but not lined up with the axes"),
    "himmelblau": Surface("himmelblau", _himmelblau,
                          [(3.0, 2.0), (-2.805118, 3.131312), (-3.779310, -3.283186),
                           (3.584428, -1.848126)], (-0.5, 0.0), (-5.0, 5.0), (-5.0, 5.0),
                          1e-2, 1e-1, "four minima: which one does each optimizer find?"),
}


def get_surface(surface):
    """A `Surface` from its name (or the surface itself).

    >>> get_surface("beale").minima
    [(3.0, 0.5)]
    """
    if isinstance(surface, Surface):
        return surface
    if surface not in SURFACES:
        raise ValueError(f"Unknown surface {surface!r}. Known surfaces: {sorted(SURFACES)}.")
    return SURFACES[surface]
