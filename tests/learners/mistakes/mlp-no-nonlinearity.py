"""Two linear layers and no activation between them."""

import numpy as np


def position_wise_mlp(x, w_in, w_out):
    x = np.asarray(x, dtype=np.float64)
    return x @ (w_in @ w_out)
