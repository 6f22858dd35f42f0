"""The scaffold's docstrings in Chinese: the reference's English docstrings, function by
function, for ``python -m runner scaffold 23-design-tradeoffs --lang zh``.

Each says what its English original says, with the same figures, names and cases
(``tests/test_reference_edges.py`` holds every number of an English docstring to appear in
its Chinese one, so the two cannot drift apart unnoticed).
"""

from __future__ import annotations

DOCSTRINGS_ZH: dict[str, str] = {
    "sequence_support_log10": """\
阶段一：log10 |S| = log10 V^T，即由 V 个 token 组成的长度为 T 的序列个数。

V^T 本身有几千位，所以从不把它算出来：log10 V^T = T log10 V。vocab >= 1、length >= 0 是
整数（Python 或 NumPy 的）；其他任何值都是 ValueError，并且不论另一个参数是多少都各自检查：
T = 0 时的 V = 0、V = 1 时的 T = -1 同样被拒绝。""",
    "attention_parameter_count": """\
阶段四：H 个宽 d/H 的头各自拥有 W_Q、W_K、W_V 的 (d, d/H) 切片；W_O 是作用在拼接后的头上的
一个 (d, d) 矩阵：3d² + d² = 4d²，与 H 无关。

d_model >= 1、n_head >= 1 是整数，且 n_head 整除 d_model（否则 ValueError）。返回 Python
int，任何尺寸下都是精确值。""",
    "transformer_parameter_count": """\
阶段三：参数表，逐项给出，都是精确的 Python int。

本章（第8章）的口径是 ``positions="none", biases=False, layernorm=False, tied=True``。每层：
attention 4d²（来自 attention_parameter_count），有 ``biases`` 时再加 4d（b_q、b_k、b_v、
b_o）；FFN 2·d·d_ff，有 ``biases`` 时再加 d_ff + d；有 ``layernorm`` 时，两个 LayerNorm，各
有一个 gain 和一个 bias，共 4d。各层之后：有 ``layernorm`` 时一个末尾 LayerNorm，2d；不共享
的输出头（``tied=False``）V·d（没有 bias）。``context_length`` 只在 ``positions="learned"``
时成为参数（GPT-2 的 wpe，context_length·d）；"sinusoidal" 与 "rope" 是算出来的，不是学出来的。

``n_head`` 不改变参数量：不给（None）时 attention 一项按一个头计；给出时它必须整除 d_model。
尺寸都是整数：vocab、d_model、d_ff >= 1，n_layer、context_length >= 0。其他都是 ValueError：
``positions`` 不是那四个小写字符串之一（None、"Learned"、"rotary"、"absolute" 也算），开关
不是 True 或 False（int 0 和 1 也算：不按真假值解释）。NumPy 的布尔值（np.True_、np.False_、
任何 np.bool_）就是 True 和 False，正如 NumPy 整数就是整数。键：embedding、position_table、
attention_per_layer、ffn_per_layer、norms_per_layer、per_layer、final_norm、head、total。""",
    "chain_rule_nll": """\
阶段一：-log P(x_1..x_T)，写成 -log P(x_t | x_<t) 之和，由一张联合概率表算出。

``joint`` 的形状是 (V,) * T，T >= 1：有限、非负、和为 1（误差在 1e-6 以内：1 ± 5e-6 被拒绝，
1 ± 5e-7 与 1 ± 1e-8 被接受）；其他形状的表即使大小是 V^T 也被拒绝（(4, 1)、(2, 1, 4)）。
``tokens`` 是 T 个 0..V-1 之间的整数。
条件概率是边缘概率之比，P(x_t | x_<t) = P(x_<=t) / P(x_<t)，这正是链式法则，而空前缀的概率
是 1：乘积就是表中那一项本身，所以和为 1 ± 5e-7 的表给出按原值计算的那一项的 −ln，绝不是
那一项除以表的和之后的 −ln（容差是留给舍入的，不是要重新归一化的表；两者最多差 5e-7 nat）。
用 float64 计算（float32 或整数的表也一样）。概率为 0 的序列 NLL 为 +inf；不符合这些规则的
都是 ValueError。""",
    "giant_mlp_parameter_log10": """\
阶段二：输入是 V^T 个序列上的 one-hot 的 MLP，其第一层参数量的 log10。

只算权重，一个 (V^T, hidden) 矩阵：log10(V^T · hidden) = T·log10 V + log10 hidden（不算偏置：
它们只是给 10^4704 的数再加 ``hidden``）。hidden >= 1，整数的规则与
sequence_support_log10 相同。""",
    "averaging_model": """\
阶段二，"全是结构"的一端：每个位置输出它的前缀的均值。

它不接收任何权重：所有决定都写进了结构里。x 是 (T, d)，T、d >= 1（否则 ValueError）；输出
是 (T, d) 的 float64（float32 或整数的 x 也一样，累加用 float64），第 t 行是第 0..t 行的均值。
本章说它的计算量与 T 成正比：累加的写法是这样。断言测量调用的峰值内存，T 从 512 到 2,048，
其中增长的部分必须线性增长（峰值增量的增长指数至多 1.3；分块时复用固定缓冲区没问题）：不能用
(T, T) 的平均矩阵（np.tril(...) @ x 算的是同一个函数，但不通过）。""",
    "position_wise_mlp": """\
阶段三：对每个位置单独作用的 FFN：(T, d) -> (T, d_out)。

x (T, d)、w_in (d, d_ff)、w_out (d_ff, d_out)，没有偏置：GELU(x @ w_in) @ w_out，GELU 用
tanh 形式（GPT-2 的）：0.5·h·(1 + tanh(√(2/π)·(h + 0.044715·h³)))。精确的 erf GELU 与它最多
差 4.7e-4（在 h ≈ −2.7 处），远超断言的容差：它、ReLU 或根本没有非线性都不通过。形状接不上
是 ValueError。不论输入是什么类型，结果都是 float64（float32 或整数进，float64 出，用 float64
计算）。""",
    "causal_masked_attention": """\
阶段五：注意力权重，第 t 行只在位置 0..t 上做 softmax。

``scores`` 的形状是 (..., T, T)，T >= 1（任意前导轴：多头、批），有限（非有限的分数不在约定
之内）；其他都是 ValueError。把未来设为 -inf 就是把它从 softmax 的定义域中*删除*：exp(-inf)
是精确的 0，可见的前缀被重新归一化。先减去每行的最大值，所以任何有限大小的分数（±1e4、
±1e300）都不会产生 NaN。返回同形状的 float64，用 float64 计算（float32 或整数的分数也一样）。
掩码是 -inf，不是最负的浮点数（np.finfo(np.float64).min，masked_fill 常这么用）：那也是一个
有限的分数，可见分数恰好在那个最小值上的一行就会把权重分给未来。""",
    "multi_head_attention": """\
阶段四：一个 attention 算子用 H 组权重各跑一遍，再把各头拼接起来。

形状：x (T, d)，w_q/w_k/w_v (d, W)，W = H·hs，w_o (W, d_out) -> (T, d_out)；W 不必等于 d。
第 h 个头拥有 w_q、w_k、w_v 的第 h·hs:(h+1)·hs 列（投影从 (T, W) 变形为 (T, H, hs)），它的
输出填进 w_o 所乘的 (T, W) 拼接结果的同样那几列。分数是 q·k / √hs，hs 是头的宽度（不是 d，
也不是 W），再由 causal_masked_attention 做因果掩码。n_head 是 >= 1 且整除 W 的整数；形状不
匹配或 n_head 不对是 ValueError。每一步都用 float64，float32 输入与整数 x 也一样（投影也要，
不只是掩码：float32 的投影差约 1e-7）。""",
    "softmax_temperature": """\
阶段六：沿最后一轴的 softmax(logits / T)，结果保持 logits 自己的浮点类型。

``logits`` 是 (..., V)，V >= 1，可以有任意前导轴（(V,)、(B, V)、(B, T, V)）：softmax 沿最后
一轴。每个元素都有限；浮点数组（float16 到 longdouble）保持原类型，整数与 bool 的 logits 变为 float64。T 必须是
有限的实数 > 0：T = 0 是贪心解码（argmax），是另一条路径，除以它只会造出 inf - inf = NaN。
违反任何一条都是 ValueError。*先*减去最大值再除以 T，所以任何有限的 T > 0 都不会溢出：归一
化之前，最大 logit 的那一项是 exp(0) = 1，不论类型（float16 在 T = 1e-5 也一样）。除法按
float64 精度做，再舍入回去：低于 6e-8 时 T 本身在 float16 中就是 0（T = 1e-8）。整数 logits
在减去任何值之前先转成 float64（uint8 [3, 1, 4] 不能回绕）。±inf 与 NaN 的 logits 被拒绝；
和会溢出的有限 logits（[1e308, 1e308, 0]）是有效的。float16 的份额至少按 float32 求和（65,520
个 float16 的 1 在 float16 中的和是 inf）。""",
    "top_k_renormalize": """\
阶段六：保留最大的 k 个概率，其余设为精确的 0，再重新缩放到和为 1。

``probs`` 是 (V,) 向量，V >= 1，元素有限且非负；k 是 1..V 之间的整数（低于 1 的 NumPy 整数
np.int64(-1) 同样被拒绝）。边界上的并列保留下标较小的一个（稳定排序），所以恰好保留 k 个。
保留的各项之和必须为正。违反任何一条都是 ValueError（inf 或 NaN 的元素逐个检查）。返回
float64，不论 probs 是什么类型都用 float64 计算（float32 的 probs 按 float64 重新缩放；计数
这样的整数权重也给出 float64）。和会溢出的有限 probs（k = 2 时的 [1e308, 1e308, 1]）是有效
的：保留的各项先除以其中最大的，所以结果是 [0.5, 0.5, 0]，绝不是 x / inf = 0。""",
    "logits_memory_bytes": """\
阶段七：B x T x V x bytes，即 (B, T, V) logits 的大小（FP32 = 4 字节）。

batch、length、vocab >= 0，bytes_per_value >= 1，都是整数（Python 或 NumPy 的，否则
ValueError；尺寸为 0 有效，即 0 字节；bytes_per_value 可以是任何 >= 1 的整数，3 也行）；乘积
是精确的 Python int，绝不按 int32 或 int64 回绕（2^21 · 2^21 · 2^21 · 2 正好是 2^64）。""",
    "flash_attention": """\
阶段二（FlashAttention）：单头因果 attention，一块一块地算，从不形成 (T, T)。

形状：q、k (T, d)，v (T, d_v) -> (T, d_v) float64，与 softmax(mask(q kᵀ / √d)) v 是同一个函数
（d 是 q 的宽度），不论输入是什么类型都用 float64 计算（float32 或整数的 q、k、v 也一样：
float32 的运算差约 1e-7）。``block``（>= 1 的整数，否则 ValueError）是块的大小；任何 block
给出相同的输出。形状不匹配（k 与 q 形状不同、v 的 T 不同、T、d 或 d_v = 0）是 ValueError。
任何有限大小的分数都不产生 NaN（±1e3 乃至更大：运行中的最大值从 −∞ 开始，绝不从 0 开始），
未来用 −∞ 掩盖，而不是最负的浮点数：np.finfo(np.float64).min 上的分数是有限的，仍必须让未来的
权重为 0。查询和键每次取 ``block`` 个；对每个查询块，在各键块上维护运行最大值 m、
exp(score − m) 的运行和 l，以及 exp(score − m)·v 的运行和。新的键块抬高最大值时，先把旧的和
乘以 exp(m_old − m_new) 重新缩放（在线 softmax）；最后除以 l 正好得到 softmax 的加权和。整块
落在未来的键块被跳过。最大的临时数组是一个 (block, block) 的块：没有 (T, T) 数组。断言测量
调用的峰值内存：T = 2,048 时必须低于一个 (T, T) float64 数组的四分之一，且增长至多像 T^1.5，
任何从不持有 (T, T) 数组的算法顺序都满足（分块、一次一个查询行、查询条带）。""",
    "linear_attention": """\
阶段二（线性注意力）：O(T·d·d_v) 的因果核化 attention。

形状：q、k (T, d)，v (T, d_v) -> (T, d_v) float64，不论输入是什么类型都用 float64 计算
（float32 或整数也一样）。softmax 的核 exp(q·k) 换成 φ(q)·φ(k)，φ(x) = elu(x) + 1（x > 0 时
为 x + 1，否则为 eˣ），于是加权和可以分解：out_t = φ(q_t)ᵀ S_t / φ(q_t)ᵀ z_t，运行和
S_t = Σ_{s≤t} φ(k_s) v_sᵀ (d, d_v)，z_t = Σ_{s≤t} φ(k_s) (d,)。q、k 都不缩放。对 t 只走一遍；
没有 (T, T) 数组，也没有逐对的 softmax：放弃的正是精确的两两交互。形状不对是 ValueError，
形状为空（T、d 或 d_v 为 0，与 flash_attention 相同）也是。
断言像测 flash_attention 一样测量调用的峰值内存：任何从不持有 (T, T) 数组的写法都通过（递推、
把 z 并进 S、累积和）；二次的并行形式（φ(Q)φ(K)ᵀ 掩码后乘 V）算的是同一个函数，但不通过。

它的定义域：有限的 q 和 k，元素 >= −300。再往下，φ = eˣ 会下溢（e^−745 在 float64 中是 0），
φ(q_t)ᵀ z_t 可能是 0/0，这个参考实现也一样；这样的输入不在约定之内，也没有断言会传。很大的
正数没有问题。""",
    "moe_layer": """\
阶段二（MoE）：把 FFN 拆成 E 个专家，每个 token 送到其中 top-k 个。

形状：x (T, d)，w_router (d, E)，experts_w_in (E, d, d_ff)，experts_w_out (E, d_ff, d)
-> (T, d) float64，不论输入是什么类型都用 float64 计算（float32 的权重或整数的 x 也一样）。
专家 e 是阶段三的 position_wise_mlp，权重为 (experts_w_in[e], experts_w_out[e])。路由器给每个
专家打分，x @ w_router (T, E)；每个 token 保留它最高的 top_k 个分数（并列时保留下标较小的
专家），用只在保留的分数上做的 softmax 给保留的专家的输出加权（门控在它的 top_k 个专家上和为
1；E = 1、top_k = 1 就是稠密 FFN）。没有 token 选中的专家从不运行：它的权重根本不被读取（断言
把它们设为 NaN，输出必须保持有限：让每个专家都运行再乘以 0 的门控，得到 0·NaN = NaN）。top_k
是 1..E 之间的整数；形状或 top_k 不对是 ValueError。""",
    "moe_parameter_count": """\
阶段二（MoE）：一个不带偏置的 MoE 层的参数量，精确的 Python int。

路由器 (d, E)，加上 E 个专家，每个两个矩阵 (d, d_ff) 与 (d_ff, d)：d·E + E·2·d·d_ff。它随 E
线性增长；每个 token 的计算量只取决于 top_k。每个尺寸都是 >= 1 的整数（Python 或 NumPy 的），
否则 ValueError。""",
    "top_p_renormalize": """\
阶段六（top-p）：保留最可能的 token，直到它们的概率质量达到 p，再重新缩放。

token 按概率从高到低排序（并列时下标较小的在前，稳定排序）。一个 token 在排在它前面的 token
的质量仍小于 p 时被保留（按 probs 自己的质量：和不为 1 的权重不先归一化，所以 p = 0.5 时
[0.6, 0.6, 0.6, 0.2] 只保留一个 token），所以把质量推过 p 的那个 token 会被保留，而且至少保留一个；p = 1 保留
所有 token，不论运行和算出多少（它可能舍入到 1 以上，或者溢出：p = 1 时 [1e308, 1e308, 1]
三个都保留）。一个 token 之前的质量是 float64 的运行和（不是总和减去它自己，那样舍入不同）：
p 等于最高概率时只保留那一个。其余的变为精确的 0，留下的重新缩放到和为 1，与 top-k 相同（和
溢出时先除以其中最大的：上面得到 [0.5, 0.5, ~0]，绝不是 x / inf = 0）。运行和是顺序累加的，
与 np.cumsum 的加法相同（或循环 ``mass += p``），不论 probs 是什么类型都用 float64（float32
的 probs 按 float64 累加与缩放）：精确舍入的前缀（math.fsum）或两两求和的舍入位置不同，p = 0.9
时 [0.4, 0.3, 0.2, 0.1] 保留全部四个 token，因为 0.4 + 0.3 + 0.2 是 0.8999999999999999。p 不在
(0, 1] 之内、probs 为空、非有限（±inf、NaN）或为负、以及 probs 全为 0（无从重新缩放，与
top-k 相同）时为 ValueError；和会溢出的有限 probs 是有效的。""",
    "greedy_token": """\
阶段六（T = 0）：贪心解码，最大 logit 的下标（并列时取最小的）。

这就是本章说的另一条路径：softmax_temperature 拒绝 T = 0，而贪心解码根本不形成分布。返回
下标，是一个整数（这个参考实现返回 Python int；NumPy 整数，例如 np.argmax 给出的 np.int64，
也一样好，与所有计数相同；浮点数或 bool 则不行）；logits 中有 NaN 时为 ValueError，任何浮点
类型都一样（float16 与 float32 也算：没有哪个 token 排第一），没有 logits、或 logits 不是向量
（0 维或 (2, 2)：没有展平后的下标）也是；±inf 的元素
没有问题（+inf 排第一：[-inf, inf, 0] 给出 1，尽管它的和是 NaN）；bool 的 logits 有效（False <
True：[False, True, True] 给出 1）。
logits 按它自己的类型比较，从不转换：int64 logits [2**53, 2**53 + 1] 给出 1（转成 float64
两者都是 2**53，并列会给出 0），float64 [1, 1 + 1e-12] 给出 1（转成 float32 会并列），
float32 [1, 1 + 2^-20] 给出 1（转成 float16 会并列）。""",
    "layer_norm": """\
阶段三（LayerNorm）：对每个位置的 d 个特征做归一化，再缩放和平移。

形状：x (T, d)，gain (d,)，bias (d,) -> (T, d)。均值与（有偏的）方差在每一行的特征轴上求，所以
没有哪个位置看到别的位置：方差取中心化之后的 mean((x − μ)²)，不用一遍算出的 E[x²] − μ²（它会抵消
有效数字，特征在 1e4 附近时相对误差约 3e-8，断言会传这样的行）；eps 在开平方之前加到方差上，
与 GPT-2 相同。不论输入是什么类型，结果都是 float64（float32 或整数进，float64 出）。
形状不匹配时为 ValueError（形状为 (1,) 的 gain 或 bias 也算：什么都不广播；形状为 (1, d) 的
gain 或 (d, 1) 的 bias 大小对，但形状不是 (d,)，同样被拒绝），eps 不大于 0（包括 NaN）也是。
T = 0（没有位置）不在约定之内：没有断言传它。""",
    "embedding_lookup": """\
阶段三（embedding）：对每个位置 t，取 (V, d) 表的第 ``tokens[t]`` 行。

形状：tokens (T,)，0..V-1 之间的整数 id，table (V, d) -> (T, d)。id 不是整数（浮点数组，即使是
2.0 这样的整数值：从不舍入或转换；布尔数组是掩码，不是 id）、id 不是向量（np.int64(3) 这样的
0 维 id 也算）、id 超出 0..V-1、或 table 不是 (V, d) 时为 ValueError。空向量就是 T = 0，不论它
的类型（np.array([]) 与 [] 也算）：(0, d)。不论 table 是什么类型，行都是 float64（float32 或
整数的 table 都给出 float64 的行）。""",
    "output_head": """\
阶段三（输出投影）：从共享的 (V, d) embedding 给每个位置算 V 个 logits。

形状：h (T, d)，table (V, d) -> (T, V)：logits = h @ tableᵀ，所以输出头没有自己的参数（本章的
"输出头（embedding 共享时）0"）。宽度不同时为 ValueError（任何一边宽度为 1 也算：什么都不
广播）。不论输入是什么类型，logits 都是 float64（float32 或整数进，float64 出，用 float64
计算）。T = 0 或 V = 0 不在约定之内：没有断言传它们。""",
    "sinusoidal_positions": """\
阶段三（正弦位置编码）：由 t 算出的 (T, d) 表，没有参数。

PE[t, 2i] = sin(t·ω_i)，PE[t, 2i+1] = cos(t·ω_i)，ω_i = 10000^(−2i/d)，即 "Attention Is All You
Need" 的交错排列（不是前一半正弦、后一半余弦）。d_model 为奇数或小于 2
（包括 d_model = 0：没有频率的表不是位置编码）或 length 为负时为 ValueError。""",
    "rotary_embedding": """\
阶段三（旋转位置编码）：把 x 的每一对特征按它所在位置的角度旋转。

形状：x (T, hs) -> (T, hs)，hs 为偶数。第 t 行位于位置 offset + t；特征对 (x[2i], x[2i+1]) 旋转
角度 (offset + t)·ω_i，ω_i = 10000^(−2i/hs)，即 RoFormer 的交错配对（不是把 i 与 i + hs/2 配对
的 rotate-half 排列）。作用在查询和键上，它让 q_m·k_n 只取决于 m − n；它没有参数。hs 为奇数或
offset 为负时为 ValueError（np.int64(-1) 这样的 NumPy 整数也算）。不论 x 是什么类型，结果都是
float64（整数或 float32 的 x 也一样），位置 offset + t 也用 float64（float32 会把 2^24 + 1 舍入
成 2^24）。T = 0 不在约定之内，但参数要在任何捷径之前检查：T = 0 时奇数的 hs 或负的 offset 同样抛
ValueError。""",
    "kv_cache_bytes": """\
阶段七（KV 缓存）：2 × B × T × L × d × bytes，即 T 个 token 的键和值。

L 层中的每一层，为 B 个序列中每个序列的 T 个 token 各保存一个宽 d 的键向量和一个值向量（所有
头合在一起）；FP32 是 4 字节。尺寸都是 >= 0 的整数（0 有效：0 字节；bytes_per_value >= 1，任何
整数都行：3 也可以），Python 或 NumPy 的；结果是精确的 Python int，超过 2^63 也一样（int64 的
乘积会回绕）。""",
    "bpe_train": """\
阶段七（第6章的字节 BPE）：把 256 个字节 token 扩充到 vocab_size 的合并序列。

``data`` 是训练文本的 UTF-8 字节 (N,)。每一步把当前 token 中出现最多的相邻对（重叠的出现都
计数，如 "aaa" -> 两个 (a, a)；并列时取 (left, right) 最小的 id 对）合并成 token id
256 + step，并从左到右替换它的出现。没有哪一对出现两次时提前停止。按顺序返回合并，每个是
(left id, right id) 对：第 i 次合并生成 token 256 + i。vocab_size 只决定何时停止，所以较小的
vocab_size 的合并是较大者的前缀（tokenizer.bpe-bill 在它最大的 V 上只训练一次，再截取）。
vocab_size < 256 时为 ValueError。""",
    "bpe_encode": """\
阶段七（第6章的字节 BPE）：``data`` 在 ``merges`` 下的 token id。

``data`` (N,) 字节；``merges`` 即 bpe_train 返回的那样（第 i 次合并生成 token 256 + i），每个是
(left, right) 对，tuple 或 list 都行。合并按顺序重放，每一次都扫过整个序列、从左到右（同一合并
列了两次就在它的每一轮都重放：第二次找不到可合并的对，它的 token 从不生成；用 rank 字典会保留
最后一次，就错了）；结果 (n,) 有 n <= N 个整数 id，把每个 id 的字节连起来就得回 ``data``。合并
用到尚不存在的 token 时为 ValueError：第 i 次合并只能用 id 0..255 + i（字节与第 0..i−1 次合并的
token），所以负 id、或 256 + i 及以上，都被拒绝。""",
}
