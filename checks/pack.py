"""Chapter 23's pack object: the registry every module of this package registers into, the
scaffold's contract text, and where the pack's code lives.

Found by the engine through the entry point ``design-tradeoffs`` (group
``learn_llm_claims.packs``, see ``pyproject.toml``), which the module's ``module.yaml`` names.
"""

from __future__ import annotations

from checks.docstrings_zh import DOCSTRINGS_ZH
from runner.pack import Pack, Scaffold

CONTRACT_EN = """\
The contract every function keeps (the contract.* claims compare each function with the
reference on seeded cases across its whole signature); each docstring below says the rest:

* Integer arguments (sizes, counts, k, n_head, block, top_k) are Python ints or NumPy
  integers (np.int32, np.int64, ...); the claims pass both. Counts are exact Python ints:
  convert with operator.index(x) before any arithmetic, so np.int32 inputs never wrap around
  (nor int64 products past 2^63), and check the minimum on that int: np.int64(-1) is refused
  like -1. (The reference refuses bools and floats such as 2.0 with ValueError; the claims
  pass them only as chain_rule_nll's tokens: a token of 1.7 is refused, never truncated.)
* Real arguments (temperature, p, eps) are Python or NumPy real numbers: the claims pass
  np.float32(0.5) and, for eps, the int 1 (the reference refuses a bool temperature or p;
  no claim passes one). Turn them into Python floats (float(eps)) before any arithmetic:
  under NumPy 2, np.float32(1e-5) + a Python float is computed in float32.
* Arrays arrive as NumPy arrays. Results are float64 arrays, except softmax_temperature,
  which keeps the floating dtype of its logits (float16 stays float16), and bpe_encode's
  integer ids: float16, float32, long double or integer inputs give float64 results,
  computed in float64. An
  array of ids (embedding_lookup's tokens) with a float dtype is refused.
* Arguments are never modified: callers reuse their arrays. Work on a copy (x = x / t, not
  x /= t); the claims compare every call's arguments with a copy taken before it. Nor are
  earlier results: a call never writes into an array an earlier call returned (the caller
  still holds it), so no buffer is filled and handed out call after call; the claims keep
  the last results and check after each call that none of them changed.
* Parameter names are the contract's, as in each signature below: the claims call every
  function once with all its arguments by name (softmax_temperature(logits=z,
  temperature=0.5)), so keep the names.
* Invalid arguments raise ValueError: exactly the cases each docstring lists (sizes below
  their minimum, shapes that do not fit, k, top_k, n_head or block out of range, T <= 0).
* Finite inputs never give NaN or inf: subtract the max before exp, row by row, and start a
  running max at -inf (the claims pass scores of +-1e3 and beyond). Non-finite inputs are
  outside the contract, except where a docstring says they raise ValueError
  (softmax_temperature's logits and T, the probs of top-k and top-p, chain_rule_nll's
  joint, greedy_token's NaN), checked entry by entry: finite values whose sum overflows
  ([1e308, 1e308, 0]) are valid. Outside the contract too: linear_attention's q, k entries
  below -300 (see its docstring).
* A causal mask is -inf, never np.finfo(np.float64).min: scores at that minimum are finite.
* Ties: top-k and MoE's routing keep the lower index, as a stable sort does.
* A function returns its output only. What it costs is measured from outside (the peak
  memory of the call), never reported by the function about itself.
* Float32 and integer arrays are passed wherever a result is float64: compute in float64
  (cast at the start); computing in float32 and casting only the answer is off by about
  1e-7 and fails.
* Decided readings: chain_rule_nll uses the joint as given (the empty prefix has
  probability 1; never divide by the table's sum); top-p of all-zero probs is a ValueError;
  NumPy bools (np.True_) are bools; a count may be a Python int or a NumPy integer
  (greedy_token's np.int64 included); top-p's running sum is sequential float64, as
  np.cumsum adds (not math.fsum).
"""

CONTRACT_ZH = """\
每个函数都遵守的约定（contract.* 断言在覆盖整个签名的带种子用例上把每个函数与参考实现比较）；
其余细节见下面各函数的文档字符串：

* 整数参数（尺寸、计数、k、n_head、block、top_k）是 Python int 或 NumPy 整数（np.int32、
  np.int64……），断言两种都会传。计数是精确的 Python int：做任何运算之前先用
  operator.index(x) 转换，这样 np.int32 输入不会回绕（int64 乘积超过 2^63 也不会），并在这个
  int 上检查下限：np.int64(-1) 与 -1 一样被拒绝。（参考实现用 ValueError 拒绝 bool 和 2.0 这样
  的浮点数；断言只把它们作为 chain_rule_nll 的 tokens 传入：1.7 这个 token 被拒绝，从不截断。）
* 实数参数（temperature、p、eps）是 Python 或 NumPy 的实数：断言会传 np.float32(0.5)，eps 还会
  传整数 1（参考实现拒绝 bool 的 temperature 或 p；没有断言会传它们）。做任何运算之前先把它们
  转成 Python float（float(eps)）：在 NumPy 2 里，np.float32(1e-5) 加上 Python float 是按 float32 算的。
* 数组以 NumPy 数组传入。结果是 float64 数组，只有 softmax_temperature 保留 logits 的浮点类型
  （float16 仍是 float16），bpe_encode 返回整数 id：float16、float32、long double 或整数输入给出
  float64 结果，并且
  用 float64 计算。浮点类型的 id 数组（embedding_lookup 的 tokens）会被拒绝。
* 从不修改参数：调用方会复用自己的数组。在副本上计算（x = x / t，而不是 x /= t）；断言会把每次
  调用后的参数与调用前的副本比较。之前的结果也不能改：调用不能写进之前某次调用返回的数组（调用方
  还拿着它），所以不要把结果写进同一个缓冲区再反复交出；断言会保留最近的结果，每次调用后检查它们
  都没有变。
* 参数名就是约定里的名字，与下面每个签名一致：断言会用关键字把所有参数各调用一次
  （softmax_temperature(logits=z, temperature=0.5)），所以请保留这些名字。
* 无效参数抛出 ValueError：恰好是各文档字符串列出的情形（尺寸低于下限、形状不匹配、k、top_k、
  n_head 或 block 越界、T <= 0）。
* 有限的输入绝不产生 NaN 或 inf：exp 之前逐行减去最大值，运行中的最大值从 -inf 开始（断言会传
  ±1e3 甚至更大的分数）。非有限输入不在约定之内，除非文档字符串说它们抛出 ValueError
  （softmax_temperature 的 logits 和 T、top-k 与 top-p 的 probs、chain_rule_nll 的 joint、
  greedy_token 的 NaN），并且逐个元素检查：和会溢出的有限值（[1e308, 1e308, 0]）是有效的。同样
  不在约定之内：linear_attention 中低于 -300 的 q、k 元素（见它的文档字符串）。
* 因果掩码用 -inf，绝不用 np.finfo(np.float64).min：那个最小值上的分数是有限的。
* 并列：top-k 与 MoE 的路由保留下标较小的一个，与稳定排序一致。
* 函数只返回它的输出。它的开销（调用的峰值内存）从外部测量，从不由函数自己报告。
* 凡是结果为 float64 的函数，断言都会传 float32 与整数数组：用 float64 计算（一开始就转换）；
  用 float32 计算、只把答案转成 float64，会差约 1e-7，不通过。
* 已确定的读法：chain_rule_nll 按给定的联合表计算（空前缀的概率是 1，从不除以表的和）；
  top-p 遇到全为 0 的 probs 抛 ValueError；NumPy 的布尔值（np.True_）算 bool；计数可以是
  Python int 或 NumPy 整数（greedy_token 返回 np.int64 也可以）；top-p 的运行和是顺序累加的
  float64，与 np.cumsum 的加法一致（不是 math.fsum）。
"""

PREAMBLE = """\
from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
Positions = Literal["none", "sinusoidal", "rope", "learned"]
"""

pack = Pack(
    "design-tradeoffs",
    scaffold=Scaffold(
        contract={"zh": CONTRACT_ZH, "en": CONTRACT_EN},
        preamble=PREAMBLE,
        helpers=("checks.reference",),
        docstrings={"zh": DOCSTRINGS_ZH},
    ),
    code=("checks",),
)
subject = pack.subject
check = pack.check
twin = pack.twin
mistake = pack.mistake
generator = pack.generator
challenge = pack.challenge
figure = pack.figure
