"""Keras optimizers: update rules, slots, clipping, schedules, tf.function, errors.

The reference numbers come from running TF 2.21 (Keras 3.15) on the same problem:
50 steps of `apply_gradients` on a Rosenbrock-like loss of x (shape [2]) and y (scalar).
"""
import warnings

import numpy as np
import pytest

import minitf as tf

K = tf.keras.optimizers
S = tf.keras.optimizers.schedules


def loss_fn(x, y):
    return (1.0 - x[0]) ** 2 + 5.0 * (x[1] - x[0] ** 2) ** 2 + (y - 0.5) ** 4 + 0.1 * x[1] * y


CONFIGS = {
    "sgd": lambda: K.SGD(0.01),
    "sgd_momentum": lambda: K.SGD(0.01, momentum=0.9),
    "sgd_nesterov": lambda: K.SGD(0.01, momentum=0.9, nesterov=True),
    "adagrad": lambda: K.Adagrad(0.1),
    "rmsprop": lambda: K.RMSprop(0.01),
    "rmsprop_centered_momentum": lambda: K.RMSprop(0.01, momentum=0.5, centered=True),
    "adadelta": lambda: K.Adadelta(1.0),
    "adam": lambda: K.Adam(0.05),
    "adam_amsgrad": lambda: K.Adam(0.05, amsgrad=True),
    "adamax": lambda: K.Adamax(0.05),
    "nadam": lambda: K.Nadam(0.05),
    "adamw": lambda: K.AdamW(0.05, weight_decay=0.1),
    "ftrl": lambda: K.Ftrl(0.1),
    "ftrl_regularized": lambda: K.Ftrl(
        0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.01,
        l2_shrinkage_regularization_strength=0.01, beta=0.1),
    "lion": lambda: K.Lion(0.01),
    "sgd_clipnorm": lambda: K.SGD(0.01, clipnorm=1.0),
    "sgd_global_clipnorm": lambda: K.SGD(0.01, global_clipnorm=1.0),
    "adam_clipvalue": lambda: K.Adam(0.05, clipvalue=0.5),
    "sgd_weight_decay": lambda: K.SGD(0.01, weight_decay=0.1),
    "adam_exponential_decay": lambda: K.Adam(S.ExponentialDecay(0.05, 10, 0.5)),
    "sgd_piecewise": lambda: K.SGD(S.PiecewiseConstantDecay([10, 20], [0.02, 0.01, 0.005])),
    "rmsprop_cosine": lambda: K.RMSprop(S.CosineDecay(0.02, 40, alpha=0.1)),
}

# verified against TF 2.21: (x, y, {slot variable name: value}) after 50 steps.
EXPECTED = {
    "sgd": ([-0.656717479, 0.588169396], 0.94679302,
        {}),
    "sgd_momentum": ([1.01283443, 0.928110421], 0.694958925,
        {"x_0_momentum": [0.0212646667, -0.0077091041], "y_0_momentum": -0.00615986623}),
    "sgd_nesterov": ([1.00975776, 1.01962447], 0.36729002,
        {"x_0_momentum": [0.00365346065, 0.00766217941], "y_0_momentum": -0.00350665743}),
    "adagrad": ([-0.523937285, 0.456996441], 1.22581136,
        {"x_0_accumulator": [72.5305099, 196.805939], "y_0_accumulator": 1112.67773}),
    "rmsprop": ([-0.878895104, 0.972436607], 1.4917779,
        {"x_0_velocity": [0.147776037, 4.27681637], "y_0_velocity": 27.151268}),
    "rmsprop_centered_momentum": ([0.429012597, 0.0974461287], 0.989352345,
        {"x_0_velocity": [1.99689627, 0.80829525], "y_0_velocity": 2.25460458, "x_0_momentum": [-0.013291385, -0.0195188336], "y_0_momentum": 0.00924213603, "x_0_average_gradient": [-1.2127459, -0.0743916482], "y_0_average_gradient": 1.01923263}),
    "adadelta": ([-1.05630791, 1.43613374], 1.92831409,
        {"x_0_accumulated_grad": [12.7245522, 14.2168589], "x_0_accumulated_delta_var": [9.30723559e-07, 1.3474438e-06], "y_0_accumulated_grad": 141.309311, "y_0_accumulated_delta_var": 1.86344732e-06}),
    "adam": ([0.197757646, -0.0919242054], 0.795360267,
        {"x_0_momentum": [-1.89684081, 0.0893536657], "x_0_velocity": [0.284619361, 0.112317681], "y_0_momentum": 0.348994344, "y_0_velocity": 0.903150082}),
    "adam_amsgrad": ([0.197799325, -0.0919218063], 0.796274722,
        {"x_0_momentum": [-1.89671719, 0.08930628], "x_0_velocity": [0.284555227, 0.112285972], "y_0_momentum": 0.34968704, "y_0_velocity": 0.903156102, "x_0_velocity_hat": [0.284555227, 0.112285972], "y_0_velocity_hat": 0.923369348}),
    "adamax": ([-0.6789639, 0.611263394], 1.07635033,
        {"x_0_momentum": [-1.32035398, 1.5372467], "x_0_norm": [5.71295071, 4.95122433], "y_0_momentum": 1.25048721, "y_0_norm": 12.9969645}),
    "nadam": ([0.32194078, -0.0802109316], 0.903697312,
        {"x_0_momentum": [-1.46290696, 0.0998194069], "x_0_velocity": [0.137439296, 0.142451018], "y_0_momentum": 0.707692325, "y_0_velocity": 1.18877959}),
    "adamw": ([0.342023194, -0.0466933139], 0.647984684,
        {"x_0_momentum": [-1.46946383, -0.455800414], "x_0_velocity": [0.256218165, 0.113995135], "y_0_momentum": 0.17747499, "y_0_velocity": 0.769226611}),
    "ftrl": ([-0.438973784, 0.369917929], 1.20044911,
        {"x_0_accumulator": [80.1969833, 197.383789], "x_0_linear": [39.3113174, -51.9710083], "y_0_accumulator": 947.875305, "y_0_linear": -369.589264}),
    "ftrl_regularized": ([-0.415146977, 0.347755343], 1.19133091,
        {"x_0_accumulator": [82.1996689, 198.437134], "x_0_linear": [38.0723457, -49.3522148], "y_0_accumulator": 902.679077, "y_0_linear": -359.155945}),
    "lion": ([-0.880000114, 1.00000048], 1.50000048,
        {"x_0_momentum": [-0.0153713627, 0.851533473], "y_0_momentum": 3.13989878}),
    "sgd_clipnorm": ([-0.951926708, 1.06328988], 1.50000048,
        {}),
    "sgd_global_clipnorm": ([-1.08191383, 1.33809268], 1.54046452,
        {}),
    "adam_clipvalue": ([0.471176147, 0.10373427], 0.333758146,
        {"x_0_momentum": [0.0196031667, -0.329874814], "x_0_velocity": [0.0104102474, 0.0108091505], "y_0_momentum": 0.0191702265, "y_0_velocity": 0.00542713888}),
    "sgd_weight_decay": ([-0.613163471, 0.532577097], 0.9225353,
        {}),
    "adam_exponential_decay": ([-0.898992002, 0.96145606], 1.37846851,
        {"x_0_momentum": [-0.958139896, 1.70036817], "x_0_velocity": [0.188216299, 0.165700689], "y_0_momentum": 3.04525757, "y_0_velocity": 1.42658997}),
    "sgd_piecewise": ([-0.697912753, 0.645071924], 0.95574218,
        {}),
    "rmsprop_cosine": ([-0.878742218, 0.969755828], 1.46908557,
        {"x_0_velocity": [0.155256122, 4.2709651], "y_0_velocity": 16.7969437}),
}


def run(make, steps=50, traced=False):
    opt = make()
    x = tf.Variable([-1.0, 1.5], name="x")
    y = tf.Variable(2.0, name="y")

    def step():
        with tf.GradientTape() as tape:
            loss = loss_fn(x, y)
        grads = tape.gradient(loss, [x, y])
        opt.apply_gradients(zip(grads, [x, y]))
        return loss

    f = tf.function(step) if traced else step
    for _ in range(steps):
        f()
    return opt, x, y, f


@pytest.mark.parametrize("key", sorted(CONFIGS))
def test_fifty_steps_match_tf(key):
    opt, x, y, _ = run(CONFIGS[key])
    want_x, want_y, want_slots = EXPECTED[key]
    np.testing.assert_allclose(x.numpy(), want_x, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(y.numpy(), want_y, rtol=1e-6, atol=1e-6)
    slots = {v.name[:-len(":0")]: v.numpy() for v in opt.variables}
    for name, value in want_slots.items():
        np.testing.assert_allclose(slots[name], value, rtol=1e-6, atol=1e-6, err_msg=name)
    assert int(opt.iterations.numpy()) == 50


@pytest.mark.parametrize("key", ["sgd_nesterov", "adam_amsgrad", "nadam",
                                 "rmsprop_centered_momentum", "ftrl_regularized",
                                 "adam_exponential_decay", "sgd_global_clipnorm", "adamw"])
def test_traced_training_step_equals_eager(key):
    _, x_eager, y_eager, _ = run(CONFIGS[key], steps=20)
    opt, x, y, f = run(CONFIGS[key], steps=20, traced=True)
    np.testing.assert_array_equal(x.numpy(), x_eager.numpy())
    np.testing.assert_array_equal(y.numpy(), y_eager.numpy())
    assert int(opt.iterations.numpy()) == 20
    # slots are created during the first trace only; TF traces such a function twice
    assert f.experimental_get_tracing_count() <= 2
    assert len(opt.variables) == len(run(CONFIGS[key], steps=1)[0].variables)


def test_slot_variables_are_created_once_and_named_like_keras():
    opt, _, _, _ = run(CONFIGS["adam"], steps=3)
    # verified against TF 2.21: Adam's variables and their order
    assert [v.name for v in opt.variables] == [
        "iteration:0", "learning_rate:0", "x_0_momentum:0", "x_0_velocity:0",
        "y_0_momentum:0", "y_0_velocity:0"]
    assert opt.iterations.dtype == tf.int64
    assert not any(v.trainable for v in opt.variables)


def test_get_slot_with_keras_and_classic_names():
    opt, x, y, _ = run(CONFIGS["adam_amsgrad"], steps=2)
    assert opt.get_slot_names() == ["momentum", "velocity", "velocity_hat"]
    assert opt.get_slot(x, "m") is opt.get_slot(x, "momentum") is opt._momentums[0]
    assert opt.get_slot(y, "v") is opt._velocities[1]
    assert opt.get_slot(x, "vhat").shape == (2,)
    with pytest.raises(KeyError, match="Unknown slot"):
        opt.get_slot(x, "rms")
    with pytest.raises(KeyError, match="not known"):
        opt.get_slot(tf.Variable(1.0), "m")
    rms, _, _, _ = run(CONFIGS["rmsprop_centered_momentum"], steps=1)
    assert rms.get_slot_names() == ["velocity", "momentum", "average_gradient"]
    assert rms.get_slot(rms._trainable_variables[0], "mg").name == "x_0_average_gradient:0"
    sgd, _, _, _ = run(CONFIGS["sgd"], steps=1)
    assert sgd.get_slot_names() == []


def test_one_step_closed_forms():
    # SGD: w - lr * g; Adam's first step moves every coordinate by ~lr (sign of g)
    w = tf.Variable([1.0, -2.0])
    K.SGD(0.1).apply_gradients([(tf.constant([0.5, 1.0]), w)])
    np.testing.assert_allclose(w.numpy(), [0.95, -2.1], rtol=1e-6)
    w = tf.Variable([1.0, -2.0])
    K.Adam(0.1).apply_gradients([(tf.constant([0.5, -3.0]), w)])
    np.testing.assert_allclose(w.numpy(), [0.9, -1.9], rtol=1e-5)


def test_none_gradients_are_skipped_with_tf_warning():
    x = tf.Variable([1.0, 2.0], name="x")
    u = tf.Variable(1.0, name="u")
    opt = K.SGD(0.5)
    with pytest.warns(UserWarning, match=r"Gradients do not exist for variables \['u:0'\]"):
        opt.apply_gradients([(None, u), (tf.constant([1.0, 1.0]), x)])
    np.testing.assert_allclose(x.numpy(), [0.5, 1.5])
    assert u.numpy() == 1.0
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        opt.apply_gradients([(None, u)])


def test_gradient_shape_mismatch_is_invalid_argument():
    x = tf.Variable([1.0, 2.0], name="x")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \[2\].*shape \[3\]"):
        K.Adam().apply_gradients([(tf.constant([1.0, 1.0, 1.0]), x)])


def test_unknown_variable_after_build():
    opt = K.SGD()
    opt.apply_gradients([(tf.constant(1.0), tf.Variable(1.0))])
    with pytest.raises(ValueError, match="Unknown variable"):
        opt.apply_gradients([(tf.constant(1.0), tf.Variable(3.0))])


def test_apply_with_and_without_variables():
    x = tf.Variable([1.0, 2.0])
    opt = K.SGD(0.5)
    with pytest.raises(ValueError, match="must already be built"):
        opt.apply([tf.constant([1.0, 1.0])])
    opt.build([x])
    opt.apply([tf.constant([1.0, 1.0])])
    opt.apply([tf.constant([1.0, 1.0])], [x])
    np.testing.assert_allclose(x.numpy(), [0.0, 1.0])
    assert int(opt.iterations.numpy()) == 2
    assert opt.apply_gradients([]) is opt.iterations


def test_minimize_callable_and_tensor_with_tape():
    w = tf.Variable(3.0)
    opt = K.SGD(0.25)
    assert opt.minimize(lambda: w * w, [w]) is opt.iterations
    assert w.numpy() == 1.5
    with tf.GradientTape() as tape:
        loss = w * w
    opt.minimize(loss, [w], tape=tape)
    assert w.numpy() == 0.75
    opt.minimize(lambda: w * w, lambda: [w])  # var_list may be a callable
    assert w.numpy() == 0.375
    with pytest.raises(ValueError, match="`tape` is required"):
        opt.minimize(w * w, [w])


def test_learning_rate_variable_alias_and_setter():
    with pytest.warns(UserWarning, match="deprecated"):
        opt = K.SGD(lr=0.5)  # classic spelling
    assert opt.learning_rate is opt.lr
    assert opt.learning_rate.numpy() == 0.5
    opt.learning_rate = 0.25
    assert opt.lr.numpy() == 0.25
    w = tf.Variable(1.0)
    opt.apply_gradients([(tf.constant(1.0), w)])
    assert w.numpy() == 0.75
    with pytest.raises(ValueError, match="should be float"):
        K.SGD(learning_rate=1)  # verified against TF 2.21: an int is rejected
    sched = K.SGD(S.ExponentialDecay(0.1, 1, 0.5))
    with pytest.raises(TypeError, match="not settable"):
        sched.learning_rate = 0.1
    assert [v.name for v in sched.variables] == ["iteration:0"]


def test_callable_learning_rate():
    w = tf.Variable(1.0)
    opt = K.SGD(lambda: 0.5)
    opt.apply_gradients([(tf.constant(1.0), w)])
    assert w.numpy() == 0.5


def test_schedule_sees_iterations():
    w = tf.Variable(0.0)
    opt = K.SGD(S.PiecewiseConstantDecay([1], [1.0, 0.5]))
    for _ in range(4):  # steps 0 and 1 use 1.0, then 0.5
        opt.apply_gradients([(tf.constant(-1.0), w)])
    assert w.numpy() == 3.0
    assert float(opt.learning_rate) == 0.5


def test_weight_decay_exclusions():
    x = tf.Variable(1.0, name="kernel")
    b = tf.Variable(1.0, name="bias")
    opt = K.SGD(0.1, weight_decay=0.5)
    opt.exclude_from_weight_decay(var_names=["bias"])
    opt.apply_gradients([(tf.constant(0.0), x), (tf.constant(0.0), b)])
    assert x.numpy() == pytest.approx(0.95) and b.numpy() == 1.0
    with pytest.raises(ValueError, match="before the optimizer is built"):
        opt.exclude_from_weight_decay(var_list=[x])


def test_constraint_applied_after_step():
    w = tf.Variable(1.0, constraint=lambda v: tf.maximum(v, 0.5))
    K.SGD(1.0).apply_gradients([(tf.constant(2.0), w)])
    assert w.numpy() == 0.5


def test_loss_scale_factor_unscales_gradients():
    w = tf.Variable(1.0)
    K.SGD(0.1, loss_scale_factor=4.0).apply_gradients([(tf.constant(8.0), w)])
    assert w.numpy() == pytest.approx(0.8)


def test_argument_errors():
    with pytest.raises(ValueError, match="Only one of `clipnorm`"):
        K.SGD(clipnorm=1.0, clipvalue=1.0)
    with pytest.raises(ValueError, match="`weight_decay` must be a float"):
        K.AdamW(weight_decay=None)
    with pytest.raises(ValueError, match="`momentum` must be a float"):
        K.SGD(momentum=1)
    with pytest.raises(ValueError, match="not recognized"):
        K.Adam(betas=0.9)
    with pytest.raises(ValueError, match="learning_rate_power"):
        K.Ftrl(learning_rate_power=0.5)
    with pytest.raises(ValueError, match="beta_1"):
        K.Lion(beta_1=0.0)
    with pytest.raises(NotImplementedError, match="gradient_accumulation_steps"):
        K.Adam(gradient_accumulation_steps=4)
    with pytest.warns(UserWarning, match="`decay` is no longer supported"):
        K.SGD(decay=0.1)


def test_names_follow_keras_auto_naming():
    a, b = K.Adagrad(), K.Adagrad()
    assert a.name.startswith("adagrad") and b.name != a.name
    assert K.SGD(name="mine").name == "mine"


def test_config_round_trip():
    opt = K.Adam(0.01, beta_1=0.8, amsgrad=True, clipnorm=2.0)
    config = opt.get_config()
    assert config["learning_rate"] == pytest.approx(0.01)
    assert config["beta_1"] == 0.8 and config["amsgrad"] and config["clipnorm"] == 2.0
    again = K.Adam.from_config(config)
    assert again.get_config() == config
    sched = K.SGD(S.CosineDecay(0.1, 10), momentum=0.5)
    config = sched.get_config()
    assert config["learning_rate"]["class_name"] == "CosineDecay"
    restored = K.SGD.from_config(config)
    assert isinstance(restored._learning_rate, S.CosineDecay)
    assert restored.momentum == 0.5


def test_get_serialize_deserialize():
    for name, cls in [("adam", K.Adam), ("SGD", K.SGD), ("rmsprop", K.RMSprop),
                      ("Nadam", K.Nadam), ("adamw", K.AdamW), ("ftrl", K.Ftrl)]:
        assert type(K.get(name)) is cls
    opt = K.Adagrad()
    assert K.get(opt) is opt
    again = K.get(K.serialize(K.RMSprop(0.5, centered=True)))
    assert again.centered and again.learning_rate.numpy() == 0.5
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier: adamx"):
        K.get("adamx")
    with pytest.raises(ValueError, match="Could not interpret"):
        K.get(3)


def test_public_paths():
    assert tf.optimizers.Adam is K.Adam is tf.keras.optimizers.Adam
    assert tf.optimizers.schedules.ExponentialDecay is S.ExponentialDecay
    assert tf.optimizers.get is K.get
    assert issubclass(K.AdamW, K.Adam) and issubclass(K.Lion, K.Optimizer)


def test_custom_optimizer_subclass():
    class HalfStep(K.Optimizer):
        def __init__(self, learning_rate=1.0, **kwargs):
            super().__init__(learning_rate=learning_rate, **kwargs)

        def build(self, var_list):
            super().build(var_list)
            self.last = self.add_optimizer_variables(var_list, "last_gradient")

        def update_step(self, gradient, variable, learning_rate):
            self.assign(self.last[self._get_variable_index(variable)], gradient)
            self.assign_sub(variable, 0.5 * gradient * tf.cast(learning_rate, variable.dtype))

    w = tf.Variable([2.0, 4.0], name="w")
    opt = HalfStep()
    opt.minimize(lambda: tf.reduce_sum(w * w), [w])
    np.testing.assert_allclose(w.numpy(), [0.0, 0.0])
    np.testing.assert_allclose(opt.get_slot(w, "last_gradient").numpy(), [4.0, 8.0])
    assert opt.name.startswith("half_step")
    with pytest.raises(NotImplementedError, match="update_step"):
        K.Optimizer(0.1).apply_gradients([(tf.constant(1.0), tf.Variable(1.0))])


# verified against TF 2.21: schedule(step) for step in STEPS
STEPS = [0, 1, 5, 10, 15, 25, 50]
SCHEDULES = {
    "exponential": (lambda: S.ExponentialDecay(0.1, 10, 0.5),
                    [0.100000001, 0.0933033004, 0.0707106814, 0.0500000007, 0.0353553407,
                     0.0176776703, 0.00312500005]),
    "exponential_staircase": (lambda: S.ExponentialDecay(0.1, 10, 0.5, staircase=True),
                              [0.100000001, 0.100000001, 0.100000001, 0.0500000007,
                               0.0500000007, 0.0250000004, 0.00312500005]),
    "piecewise": (lambda: S.PiecewiseConstantDecay([10, 20], [0.1, 0.05, 0.01]),
                  [0.100000001, 0.100000001, 0.100000001, 0.100000001, 0.0500000007,
                   0.00999999978, 0.00999999978]),
    "polynomial": (lambda: S.PolynomialDecay(0.1, 20, end_learning_rate=0.01, power=2.0),
                   [0.100000001, 0.0912249982, 0.0606250018, 0.0324999988, 0.015625,
                    0.00999999978, 0.00999999978]),
    "polynomial_cycle": (lambda: S.PolynomialDecay(0.1, 20, end_learning_rate=0.01,
                                                   cycle=True),
                         [0.100000001, 0.0954999998, 0.0775000006, 0.0549999997,
                          0.0324999988, 0.043750003, 0.0250000022]),
    "inverse_time": (lambda: S.InverseTimeDecay(0.1, 10, 0.5),
                     [0.100000001, 0.0952381045, 0.0799999982, 0.0666666701, 0.0571428575,
                      0.0444444455, 0.0285714287]),
    "inverse_time_staircase": (lambda: S.InverseTimeDecay(0.1, 10, 0.5, staircase=True),
                               [0.100000001, 0.100000001, 0.100000001, 0.0666666701,
                                0.0666666701, 0.0500000007, 0.0285714287]),
    "cosine": (lambda: S.CosineDecay(0.1, 20, alpha=0.1),
               [0.100000001, 0.0994459763, 0.0868198127, 0.054999996, 0.0231801961,
                0.0100000007, 0.0100000007]),
    "cosine_warmup": (lambda: S.CosineDecay(0.0, 20, warmup_target=0.1, warmup_steps=5),
                      [0.0, 0.0200000014, 0.100000001, 0.0853553414, 0.049999997, 0.0, 0.0]),
}


@pytest.mark.parametrize("key", sorted(SCHEDULES))
def test_schedules_match_tf(key):
    make, want = SCHEDULES[key]
    schedule = make()
    got = [float(schedule(step)) for step in STEPS]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    assert schedule(tf.constant(3, dtype=tf.int64)).dtype == tf.float32
    again = S.deserialize(S.serialize(schedule))
    assert type(again) is type(schedule) and again.get_config() == schedule.get_config()


def test_schedule_inside_tf_function():
    schedule = S.CosineDecay(0.0, 20, warmup_target=0.1, warmup_steps=5)
    f = tf.function(lambda step: schedule(step))
    np.testing.assert_allclose(f(tf.constant(10)).numpy(), 0.0853553414, rtol=1e-6)
    np.testing.assert_allclose(f(tf.constant(1)).numpy(), 0.0200000014, rtol=1e-6)


def test_schedule_argument_errors():
    with pytest.raises(ValueError, match="decay_steps"):
        S.ExponentialDecay(0.1, 0, 0.5)
    with pytest.raises(ValueError, match="1 less than"):
        S.PiecewiseConstantDecay([1, 2], [0.1])
    with pytest.raises(ValueError, match="Unknown learning rate schedule"):
        S.deserialize({"class_name": "Nope", "config": {}})

    class Base(S.LearningRateSchedule):
        pass

    with pytest.raises(NotImplementedError):
        Base()(1)
    with pytest.raises(NotImplementedError):
        Base().get_config()
