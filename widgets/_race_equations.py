"""The update equation of a race step, with that step's numbers filled in.

`update_equation(trajectory, step)` writes the rule the optimizer applied to go
from point k-1 to point k (its `update_step` in `minitf/keras/optimizers/`),
with the gradient, the slot values before and after, and the hyperparameters
the optimizer really had. The slots after the step are the ones the race read
with `get_slot`, so the last line is a check: evaluating the rule gives the
new position the optimizer produced (the tests hold it to that).

>>> from widgets.optimizer_race import run_optimizer
>>> import minitf as tf
>>> t = run_optimizer("quadratic", tf.keras.optimizers.SGD(0.01), (1.0, 1.0), 1)
>>> lines, new_x = update_equation(t, 1)
>>> print(lines[0])
x ← x − lr·g
>>> print(lines[1])
  = [1, 1] − 0.01·[25, 1] = [0.75, 0.99]
"""
import numpy as np


def _v(values):
    return "[" + ", ".join(f"{v:.5g}" for v in np.asarray(values, dtype=np.float64).ravel()) + "]"


def _s(value):
    return f"{float(value):.5g}"


def update_equation(trajectory, step):
    """(lines, new_x): the rule of step `step` (1 … steps) and the position it gives.

    Returns ([], None) for step 0 (nothing applied yet)."""
    t = trajectory
    k = t.at(step)
    if k == 0:
        return [], None
    opt = t.optimizer
    x = t.positions[k - 1].astype(np.float64)
    g = t.gradients[k - 1].astype(np.float64)
    before = {n: t.slots[n][k - 1].astype(np.float64) for n in t.slot_names}
    after = {n: t.slots[n][k].astype(np.float64) for n in t.slot_names}
    lr = float(t.learning_rate)
    rule = RULES[type(opt).__name__ if type(opt).__name__ != "SGD" or not opt.momentum
                 else ("nesterov" if opt.nesterov else "momentum")]
    return rule(opt, k, x, g, before, after, lr)


def _sgd(opt, k, x, g, before, after, lr):
    new = x - lr * g
    return ["x ← x − lr·g", f"  = {_v(x)} − {_s(lr)}·{_v(g)} = {_v(new)}"], new


def _momentum(opt, k, x, g, before, after, lr):
    mu, m = float(opt.momentum), after["momentum"]
    new = x + m
    return [f"m ← {_s(mu)}·m − lr·g",
            f"  = {_s(mu)}·{_v(before['momentum'])} − {_s(lr)}·{_v(g)} = {_v(m)}",
            "x ← x + m", f"  = {_v(x)} + {_v(m)} = {_v(new)}"], new


def _nesterov(opt, k, x, g, before, after, lr):
    mu, m = float(opt.momentum), after["momentum"]
    new = x + mu * m - lr * g
    return [f"m ← {_s(mu)}·m − lr·g",
            f"  = {_s(mu)}·{_v(before['momentum'])} − {_s(lr)}·{_v(g)} = {_v(m)}",
            f"x ← x + {_s(mu)}·m − lr·g   (look ahead along the new m)",
            f"  = {_v(x)} + {_s(mu)}·{_v(m)} − {_s(lr)}·{_v(g)} = {_v(new)}"], new


def _adagrad(opt, k, x, g, before, after, lr):
    acc, eps = after["accumulator"], float(opt.epsilon)
    new = x - lr * g / np.sqrt(acc + eps)
    return ["acc ← acc + g²", f"  = {_v(before['accumulator'])} + {_v(g ** 2)} = {_v(acc)}",
            "x ← x − lr·g / √(acc + ε)   (per axis: big past gradients, small steps)",
            f"  = {_v(x)} − {_s(lr)}·{_v(g)} / {_v(np.sqrt(acc + eps))} = {_v(new)}"], new


def _rmsprop(opt, k, x, g, before, after, lr):
    rho, v, eps = float(opt.rho), after["velocity"], float(opt.epsilon)
    new = x - lr * g / np.sqrt(v + eps)
    return [f"v ← {_s(rho)}·v + {_s(1 - rho)}·g²",
            f"  = {_s(rho)}·{_v(before['velocity'])} + {_s(1 - rho)}·{_v(g ** 2)} = {_v(v)}",
            "x ← x − lr·g / √(v + ε)   (a moving average instead of Adagrad's sum)",
            f"  = {_v(x)} − {_s(lr)}·{_v(g)} / {_v(np.sqrt(v + eps))} = {_v(new)}"], new


def _adadelta(opt, k, x, g, before, after, lr):
    rho, eps = float(opt.rho), float(opt.epsilon)
    eg, edx_old = after["accumulated_grad"], before["accumulated_delta_var"]
    delta = -np.sqrt(edx_old + eps) / np.sqrt(eg + eps) * g
    new = x + lr * delta
    return [f"E[g²] ← {_s(rho)}·E[g²] + {_s(1 - rho)}·g² = {_v(eg)}",
            "Δ = −√(E[Δ²] + ε) / √(E[g²] + ε) · g   (units of x: no learning rate needed)",
            f"  = −{_v(np.sqrt(edx_old + eps))} / {_v(np.sqrt(eg + eps))} · {_v(g)} = {_v(delta)}",
            f"E[Δ²] ← {_s(rho)}·E[Δ²] + {_s(1 - rho)}·Δ² = {_v(after['accumulated_delta_var'])}",
            "x ← x + lr·Δ", f"  = {_v(x)} + {_s(lr)}·{_v(delta)} = {_v(new)}"], new


def _adam(opt, k, x, g, before, after, lr):
    b1, b2, eps = float(opt.beta_1), float(opt.beta_2), float(opt.epsilon)
    m, v = after["momentum"], after["velocity"]
    alpha = lr * np.sqrt(1 - b2 ** k) / (1 - b1 ** k)
    new = x - alpha * m / (np.sqrt(v) + eps)
    return [f"m ← m + {_s(1 - b1)}·(g − m) = {_v(m)}",
            f"v ← v + {_s(1 - b2)}·(g² − v) = {_v(v)}",
            f"α = lr·√(1 − β₂^t) / (1 − β₁^t) with t = {k}: α = {_s(alpha)}   (bias correction)",
            "x ← x − α·m / (√v + ε)",
            f"  = {_v(x)} − {_s(alpha)}·{_v(m)} / {_v(np.sqrt(v) + eps)} = {_v(new)}"], new


def _nadam(opt, k, x, g, before, after, lr):
    b1, b2, eps = float(opt.beta_1), float(opt.beta_2), float(opt.epsilon)
    m, v = after["momentum"], after["velocity"]
    u = [b1 * (1 - 0.5 * 0.96 ** i) for i in range(1, k + 2)]  # u_1 … u_{t+1}
    product, product_next = np.prod(u[:k]), np.prod(u)
    m_hat = u[k] * m / (1 - product_next) + (1 - u[k - 1]) * g / (1 - product)
    v_hat = v / (1 - b2 ** k)
    new = x - lr * m_hat / (np.sqrt(v_hat) + eps)
    return [f"m ← m + {_s(1 - b1)}·(g − m) = {_v(m)}",
            f"v ← v + {_s(1 - b2)}·(g² − v) = {_v(v)}",
            f"m̂ = u_(t+1)·m / (1 − Πu_(≤t+1)) + (1 − u_t)·g / (1 − Πu_(≤t)), t = {k}: {_v(m_hat)}"
            "   (Nesterov: m one step ahead)",
            f"v̂ = v / (1 − β₂^t) = {_v(v_hat)}",
            "x ← x − lr·m̂ / (√v̂ + ε)",
            f"  = {_v(x)} − {_s(lr)}·{_v(m_hat)} / {_v(np.sqrt(v_hat) + eps)} = {_v(new)}"], new


RULES = {"SGD": _sgd, "momentum": _momentum, "nesterov": _nesterov, "Adagrad": _adagrad,
         "RMSprop": _rmsprop, "Adadelta": _adadelta, "Adam": _adam, "Nadam": _nadam}
