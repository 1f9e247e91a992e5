"""AdamW: Adam with decoupled weight decay (`w -= w * weight_decay * lr` before each step).

The decay is the base optimizer's `weight_decay` (any optimizer accepts it);
AdamW only makes it required, with default 0.004.

>>> import minitf as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5)
>>> _ = opt.apply_gradients([(tf.constant(0.0), w)])   # zero gradient: decay alone
>>> print(w.numpy())
0.95
"""
from ...framework.tf_export import tf_export
from .adam import Adam


@tf_export("keras.optimizers.AdamW", "optimizers.AdamW")
class AdamW(Adam):
    """Adam plus weight decay; slots as Adam's.

    >>> tf.keras.optimizers.AdamW().get_config()["weight_decay"]
    0.004
    """

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2,
                         epsilon=epsilon, amsgrad=amsgrad, name=name,
                         weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum,
                         ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor,
                         gradient_accumulation_steps=gradient_accumulation_steps, **kwargs)
        if self.weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: "
                             "weight_decay=None (use Adam for no weight decay).")
