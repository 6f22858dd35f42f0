"""Plausible wrong implementations, written as learners write them, fail the claims.

Each file in ``tests/learners/mutants/`` is the correct learner implementation of
``tests/learners/correct/_base.py`` with one chapter function rewritten the way a learner
gets it wrong: a scale, an axis, a layout, an off-by-one, a dtype, an ignored parameter, a tie
rule, a self-reported cost, a mask of -1e4 instead of -inf, keys projected with W_Q, another
nonlinearity, another feature map, gates misaligned with their experts, NumPy integers that
wrap around, an exp without its max (scores of ±1e3), one max for a whole batch, a float32
running sum or cast, NaN for an impossible sequence, a documented ValueError not raised, an
argument written in place, a (T, T) averaging matrix. Its docstring says which mistake; those
marked "from an adversarial tester" are the false passes of a held-out set, kept here so they
stay caught. They go beyond the registered faults (only
``moe_dense_masked_softmax`` makes the mistake of ``moe-dense-experts``, written another way,
caught by the whole-function claim too since its cases hold an expert no token chooses, with
NaN weights). Those of issue 22 compute in float32 (or keep an integer dtype) where the
contract says float64 results computed in float64, or take the other reading of a question
the contract has since decided.

Each runs in a learner's worker, through the core API, against the claims that call the
function it breaks, handed in as a learner with a helper module hands it in (a folder holding
it and ``_base.py``: see tests/conftest.py ``handed_in``); the table says which claims must
fail (or error) for it. Together they cover every chapter function a learner implements.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import numpy as np
import pytest

from runner import api
from runner.learner.scaffold import module_subjects
from runner.load import ClaimPack
from tests.conftest import MODULE, REGISTRY, ROOT, claims_needing, handed_in

MUTANTS_DIR = ROOT / "tests" / "learners" / "mutants"
BROKEN = ("failed", "error")

# mutant file -> the claims it must break (every one of them fails or errors under it)
MUTANTS: dict[str, tuple[str, ...]] = {
    # chain_rule_nll
    "chain_nan_for_impossible": ("contract.chain-rule-nll",),
    "chain_negative_token_wraps": ("contract.chain-rule-nll",),
    "chain_clips_log_zero": ("contract.chain-rule-nll",),
    # sequence_support_log10
    "support_float_power": (
        "contract.sequence-support-log10",
        "next-step.ngram-table",
        "review.support-gap",
        "structure.giant-mlp",
        "support.gpt2-vocab-1000-ctx",
    ),
    "support_natural_log": (
        "contract.sequence-support-log10",
        "next-step.ngram-table",
        "review.support-gap",
        "structure.giant-mlp",
        "support.chain-rule-exhaustive",
        "support.gpt2-vocab-1000-ctx",
        "support.gpt2-vocab-32-ctx",
    ),
    "support_unchecked_length": ("contract.sequence-support-log10",),
    "support_v_times_t": (
        "contract.sequence-support-log10",
        "next-step.ngram-table",
        "review.support-gap",
        "structure.giant-mlp",
        "support.chain-rule-exhaustive",
        "support.gpt2-vocab-1000-ctx",
        "support.gpt2-vocab-32-ctx",
    ),
    # chain_rule_nll
    "chain_log10": (
        "contract.chain-rule-nll",
        "support.chain-rule-exhaustive",
    ),
    "chain_marginals_not_conditionals": (
        "contract.chain-rule-nll",
        "support.chain-rule-exhaustive",
    ),
    "chain_skips_first": (
        "contract.chain-rule-nll",
        "support.chain-rule-exhaustive",
    ),
    # giant_mlp_parameter_log10
    "giant_exact_with_biases": ("contract.giant-mlp-parameter-log10",),
    "giant_forgets_hidden": (
        "contract.giant-mlp-parameter-log10",
        "structure.giant-mlp",
    ),
    "giant_negative_length": ("contract.giant-mlp-parameter-log10",),
    # averaging_model
    "avg_divides_by_t": (
        "contract.averaging-model",
        "structure.averaging-model",
    ),
    "avg_global_mean": (
        "contract.averaging-model",
        "structure.averaging-model",
    ),
    "avg_tril_matrix": ("structure.averaging-cost",),
    "avg_tril_kept_per_length": ("structure.averaging-cost",),
    # transformer_parameter_count
    "count_default_12_heads": ("contract.transformer-parameter-count",),
    "count_flags_truthy": ("contract.transformer-parameter-count",),
    "count_ignores_tied": ("contract.transformer-parameter-count",),
    "count_no_ffn_biases": (
        "contract.transformer-parameter-count",
        "operators.gpt2-real-config",
    ),
    "count_no_final_norm": (
        "contract.transformer-parameter-count",
        "operators.gpt2-real-config",
    ),
    "count_numpy_wraps": ("contract.transformer-parameter-count",),
    "count_table_for_any_positions": (
        "contract.transformer-parameter-count",
        "operators.context-independence-condition",
    ),
    # attention_parameter_count
    "attn_count_float": ("contract.attention-parameter-count",),
    "attn_count_no_divisibility": ("contract.attention-parameter-count",),
    "attn_count_no_wo": (
        "contract.attention-parameter-count",
        "multihead.parameter-budget",
    ),
    # position_wise_mlp
    "mlp_erf_gelu": (
        "contract.position-wise-mlp",
        "beyond.moe",
    ),
    "mlp_gelu_after_output": (
        "contract.position-wise-mlp",
        "beyond.moe",
    ),
    "mlp_no_nonlinearity": (
        "contract.position-wise-mlp",
        "beyond.moe",
    ),
    "mlp_relu": (
        "contract.position-wise-mlp",
        "beyond.moe",
    ),
    "mlp_sigmoid_gelu": (
        "contract.position-wise-mlp",
        "beyond.moe",
    ),
    # causal_masked_attention
    "mask_first_axis_length": ("contract.causal-masked-attention",),
    "mask_hides_diagonal": (
        "contract.causal-masked-attention",
        "beyond.flash-equals-naive",
        "beyond.linear-attention",
        "mask.no-parameters-never-read",
        "mask.prefix-softmax",
        "review.attention-axis",
    ),
    "mask_minus_1e4": ("contract.causal-masked-attention",),
    "mask_minus_1e9": ("contract.causal-masked-attention",),
    "mask_no_max_subtraction": ("contract.causal-masked-attention",),
    "mask_wrong_axis": (
        "contract.causal-masked-attention",
        "beyond.flash-equals-naive",
        "beyond.flash-memory",
        "beyond.linear-attention",
        "mask.prefix-softmax",
        "review.attention-axis",
    ),
    # multi_head_attention
    "mha_t1_raw_projection": ("contract.multi-head-attention",),
    "mha_interleaved_heads": (
        "contract.multi-head-attention",
        "multihead.equals-concatenated-heads",
        "multihead.heads-own-output-blocks",
        "operators.kv-cache",
    ),
    "mha_keys_with_wq": (
        "contract.multi-head-attention",
        "multihead.heads-own-output-blocks",
        "operators.kv-cache",
    ),
    "mha_merge_without_transpose": (
        "contract.multi-head-attention",
        "multihead.equals-concatenated-heads",
        "multihead.heads-own-output-blocks",
        "operators.kv-cache",
        "operators.position-dependence",
    ),
    "mha_no_mask": (
        "contract.multi-head-attention",
        "multihead.heads-own-output-blocks",
        "operators.kv-cache",
        "operators.position-dependence",
    ),
    "mha_no_scale": (
        "contract.multi-head-attention",
        "multihead.heads-own-output-blocks",
        "operators.kv-cache",
    ),
    "mha_scale_by_head_size": (
        "contract.multi-head-attention",
        "multihead.heads-own-output-blocks",
        "operators.kv-cache",
    ),
    "mha_scale_by_model_width": (
        "contract.multi-head-attention",
        "multihead.heads-own-output-blocks",
        "operators.kv-cache",
    ),
    "mha_softmax_no_max": ("contract.multi-head-attention",),
    # softmax_temperature
    "temp_floor_1e12": ("contract.softmax-temperature",),
    "temp_one_hot_below_1e12": ("contract.softmax-temperature",),
    "temp_divides_first": ("contract.softmax-temperature",),
    "temp_global_sum": ("contract.softmax-temperature",),
    "temp_in_place": ("contract.softmax-temperature",),
    "temp_one_max_per_batch": ("contract.softmax-temperature",),
    "temp_multiplies": (
        "contract.softmax-temperature",
        "review.low-temperature",
        "sampling.greedy",
        "sampling.outside-the-loss",
        "sampling.ranking-ties",
        "temperature.table",
        "temperature.underflow",
        "topp.adapts-to-temperature",
    ),
    "temp_nan_logits_pass": ("contract.softmax-temperature",),
    "temp_no_max_subtraction": (
        "contract.softmax-temperature",
        "review.low-temperature",
        "sampling.greedy",
        "sampling.ranking-ties",
        "temperature.underflow",
    ),
    "temp_only_zero_refused": (
        "contract.softmax-temperature",
        "temperature.rejects-nonpositive",
    ),
    "temp_returns_float64": (
        "contract.softmax-temperature",
        "review.low-temperature",
        "sampling.ranking-ties",
        "temperature.underflow",
    ),
    # top_k_renormalize
    "topk_argpartition": ("contract.top-k-renormalize",),
    "topk_higher_index": ("contract.top-k-renormalize",),
    "topk_in_place": ("contract.top-k-renormalize",),
    "topk_keeps_ties": ("contract.top-k-renormalize",),
    "topk_off_by_one": (
        "contract.top-k-renormalize",
        "sampling.greedy",
        "sampling.outside-the-loss",
        "topk.renormalize",
        "topp.adapts-to-temperature",
    ),
    "topk_unvalidated": ("contract.top-k-renormalize",),
    # logits_memory_bytes
    "logits_always_fp32": ("contract.logits-memory-bytes",),
    "logits_ignores_batch": ("contract.logits-memory-bytes",),
    "logits_in_mib": (
        "contract.logits-memory-bytes",
        "tokenizer.logits-memory",
    ),
    "logits_int32_wraps": ("contract.logits-memory-bytes",),
    "logits_float_product": ("contract.logits-memory-bytes",),
    # flash_attention
    "flash_t1_returns_v": ("contract.flash-attention",),
    "flash_diagonal_off_by_one": (
        "contract.flash-attention",
        "beyond.flash-equals-naive",
        "review.attention-axis",
    ),
    "flash_drops_last_tile": (
        "contract.flash-attention",
        "beyond.flash-equals-naive",
    ),
    "flash_max_starts_at_zero": ("contract.flash-attention",),
    "flash_no_running_max": ("contract.flash-attention",),
    "flash_full_matrix": (
        "beyond.flash-memory",
        "review.attention-axis",
    ),
    "flash_noncausal": (
        "contract.flash-attention",
        "beyond.flash-equals-naive",
        "beyond.flash-memory",
        "review.attention-axis",
    ),
    "flash_scale_by_d": (
        "contract.flash-attention",
        "beyond.flash-equals-naive",
        "beyond.flash-memory",
        "review.attention-axis",
    ),
    "flash_self_reported_cost": (
        "contract.flash-attention",
        "beyond.flash-equals-naive",
        "beyond.flash-memory",
        "review.attention-axis",
    ),
    # linear_attention
    "linear_t1_returns_v": ("contract.linear-attention",),
    "linear_cache_bytes_only": ("contract.linear-attention",),
    "linear_no_normalizer": (
        "contract.linear-attention",
        "beyond.linear-attention",
    ),
    "linear_parallel_form": (
        "beyond.linear-attention",
        "review.attention-axis",
    ),
    "linear_phi_elu": ("contract.linear-attention",),
    "linear_phi_exp": ("contract.linear-attention",),
    "linear_phi_relu": (
        "contract.linear-attention",
        "beyond.linear-attention",
    ),
    "linear_scaled_q": ("contract.linear-attention",),
    # moe_layer
    "moe_always_top1": ("contract.moe-layer",),
    "moe_dense_masked_softmax": ("beyond.moe", "contract.moe-layer"),
    "moe_gates_misaligned": ("contract.moe-layer",),
    "moe_gates_no_max": ("contract.moe-layer",),
    "moe_gates_over_all_experts": (
        "contract.moe-layer",
        "beyond.moe",
    ),
    "moe_relu_experts": (
        "contract.moe-layer",
        "beyond.moe",
    ),
    "moe_self_reported_cost": (
        "contract.moe-layer",
        "beyond.moe",
    ),
    "moe_ties_higher_index": ("contract.moe-layer",),
    # moe_parameter_count
    "moe_count_no_router": (
        "contract.moe-parameter-count",
        "beyond.moe",
    ),
    "moe_count_rejects_numpy": ("contract.moe-parameter-count",),
    # top_p_renormalize
    "top_p_drops_the_crossing_token": (
        "contract.top-p-renormalize",
        "topp.adapts-to-temperature",
        "topp.renormalize",
    ),
    "top_p_ties_higher_index": (
        "contract.top-p-renormalize",
        "topp.renormalize",
    ),
    "top_p_float32_running_sum": ("contract.top-p-renormalize",),
    # greedy_token
    "greedy_last_of_ties": (
        "contract.greedy-token",
        "sampling.greedy",
    ),
    "greedy_nan_not_refused": ("contract.greedy-token",),
    "greedy_float32_cast": ("contract.greedy-token",),
    # layer_norm
    "layer_norm_in_place": ("contract.layer-norm",),
    "layer_norm_eps_outside_sqrt": (
        "contract.layer-norm",
        "operators.per-position-blocks",
    ),
    "layer_norm_unbiased_variance": (
        "contract.layer-norm",
        "operators.per-position-blocks",
    ),
    # embedding_lookup
    "embedding_one_based_ids": (
        "contract.embedding-lookup",
        "operators.per-position-blocks",
    ),
    "embedding_unchecked_ids": ("contract.embedding-lookup",),
    "embedding_float_ids_cast": ("contract.embedding-lookup",),
    # output_head
    "output_head_softmax": (
        "contract.output-head",
        "operators.per-position-blocks",
    ),
    "output_head_untransposed": (
        "contract.output-head",
        "operators.per-position-blocks",
    ),
    # sinusoidal_positions
    "sinusoidal_exponent_i_over_d": (
        "contract.sinusoidal-positions",
        "operators.position-code",
    ),
    "sinusoidal_halves": (
        "contract.sinusoidal-positions",
        "operators.position-code",
    ),
    # rotary_embedding
    "rotary_halves": (
        "contract.rotary-embedding",
        "operators.position-code",
    ),
    "rotary_ignores_offset": (
        "contract.rotary-embedding",
        "operators.position-code",
    ),
    # kv_cache_bytes
    "kv_cache_int32_wraps": ("contract.kv-cache-bytes",),
    "kv_cache_keys_only": (
        "contract.kv-cache-bytes",
        "operators.kv-cache",
    ),
    # bpe_train
    "bpe_no_early_stop": ("contract.bpe-train",),
    "bpe_ties_largest_pair": ("contract.bpe-train",),
    "bpe_ties_base256_key": ("contract.bpe-train",),
    # bpe_encode
    "bpe_encode_merges_by_id_order": (
        "contract.bpe-encode",
        "tokenizer.bpe-bill",
    ),
    "bpe_encode_right_to_left": ("contract.bpe-encode",),
    "bpe_encode_unvalidated_merges": ("contract.bpe-encode",),
    # an adversarial tester's second held-out set: each passed every claim before the contract
    # generators gained the case its docstring names
    "bpe_encode_rank_dict_last_wins": ("contract.bpe-encode",),
    "chain_isclose_sum": ("contract.chain-rule-nll",),
    "chain_sum_tol_1e3": ("contract.chain-rule-nll",),
    "count_positions_case_insensitive": ("contract.transformer-parameter-count",),
    "count_positions_none_accepted": ("contract.transformer-parameter-count",),
    "count_positions_rotary_alias": ("contract.transformer-parameter-count",),
    "count_tied_flag_truthy_only": ("contract.transformer-parameter-count",),
    "embedding_bool_ids_accepted": ("contract.embedding-lookup",),
    "embedding_empty_float_refused": ("contract.embedding-lookup",),
    "embedding_scalar_id_accepted": ("contract.embedding-lookup",),
    "kv_batch_min1": ("contract.kv-cache-bytes",),
    "adv5_kv_zero_size_shortcut": ("contract.kv-cache-bytes",),
    "adv5_flash_d0_unchecked": ("contract.flash-attention",),
    "adv5_linear_d0_unchecked": ("contract.linear-attention",),
    "adv5_top_p_negative_p": ("contract.top-p-renormalize",),
    "kv_dmodel_min1": ("contract.kv-cache-bytes",),
    "kv_nlayer_min1": ("contract.kv-cache-bytes",),
    "kv_param_renamed": ("contract.kv-cache-bytes",),
    "layer_norm_bias_broadcast": ("contract.layer-norm",),
    "layer_norm_keeps_input_dtype": ("contract.layer-norm",),
    "logits_batch_min1": ("contract.logits-memory-bytes",),
    "logits_vocab_min1": ("contract.logits-memory-bytes",),
    "output_head_width_broadcast": ("contract.output-head",),
    "softmax_axis1_when_batched": ("contract.softmax-temperature",),
    "softmax_divides_in_own_dtype": ("contract.softmax-temperature",),
    "softmax_param_named_T": ("contract.softmax-temperature",),
    "support_v0_t0_allowed": ("contract.sequence-support-log10",),
    "support_v1_shortcut_before_validation": ("contract.sequence-support-log10",),
    "top_p_sum_minus_self": ("contract.top-p-renormalize",),
    # an adversarial tester's third held-out set: each passed every claim before the contract
    # generators gained the case its docstring names
    "attn_count_negative_heads": ("contract.attention-parameter-count",),
    "avg_keeps_float32": ("contract.averaging-model",),
    "chain_shape_from_size": ("contract.chain-rule-nll",),
    "chain_sum_tol_1e7": ("contract.chain-rule-nll",),
    "count_negative_heads": ("contract.transformer-parameter-count",),
    "count_vocab_zero_accepted": ("contract.transformer-parameter-count",),
    "embedding_keeps_table_dtype": ("contract.embedding-lookup",),
    "flash_dv0_accepted": ("contract.flash-attention",),
    "flash_mask_finfo_min": ("contract.flash-attention",),
    "greedy_isnan_any_float64_only": ("contract.greedy-token",),
    "greedy_nan_via_sum": ("contract.greedy-token",),
    "kv_bytes_common_sizes_only": ("contract.kv-cache-bytes",),
    "kv_counts_heads_times_d": ("contract.kv-cache-bytes",),
    "kv_int64_prod": ("contract.kv-cache-bytes",),
    "layer_norm_size_check": ("contract.layer-norm",),
    "logits_bytes_common_sizes_only": ("contract.logits-memory-bytes",),
    "logits_int64_prod": ("contract.logits-memory-bytes",),
    "mask_finfo_min": ("contract.causal-masked-attention",),
    "mask_keeps_float32": ("contract.causal-masked-attention",),
    "mha_keeps_float32": ("contract.multi-head-attention",),
    "output_head_keeps_float32": ("contract.output-head",),
    "position_mlp_keeps_float32": ("contract.position-wise-mlp",),
    "rotary_empty_like_input": ("contract.rotary-embedding",),
    "rotary_offset_isinstance_int": ("contract.rotary-embedding",),
    "rotary_positions_float32": ("contract.rotary-embedding",),
    "support_isinstance_int": ("contract.sequence-support-log10",),
    "temp_finite_via_sum": ("contract.softmax-temperature",),
    "temp_uint_wraps": ("contract.softmax-temperature",),
    "top_p_finite_via_sum": ("contract.top-p-renormalize",),
    # an outside bug hunt (stop 28): three mistakes no claim caught, now cases of the contract
    "top_p_normalized_first": ("contract.top-p-renormalize",),
    "ln_eps_nan_accepted": ("contract.layer-norm",),
    "moe_dense_path_no_max": ("contract.moe-layer",),
    "greedy_refuses_bool": ("contract.greedy-token",),
    # a second outside bug hunt (2026-12-03): an argument check after a shortcut, counts past
    # int64 or 2^53, integer or uint8 inputs, shapes the reference refuses; now cases of the
    # contract's generators
    "giant_t0_shortcut_before_checks": ("contract.giant-mlp-parameter-log10",),
    "chain_t1_shortcut_before_checks": ("contract.chain-rule-nll",),
    "attn_count_int64_wraps": ("contract.attention-parameter-count",),
    "moe_count_negative_experts": ("contract.moe-parameter-count",),
    "temp_int_logits_no_max": ("contract.softmax-temperature",),
    "mask_int_scores_no_max": ("contract.causal-masked-attention",),
    "topk_uint8_negation": ("contract.top-k-renormalize",),
    "greedy_nan_to_num": ("contract.greedy-token",),
    "avg_float16_running_sum": ("contract.averaging-model",),
    "flash_v_longer_accepted": ("contract.flash-attention",),
    "linear_empty_t_accepted": ("contract.linear-attention",),
    "embedding_3d_table_accepted": ("contract.embedding-lookup",),
    "topk_finite_via_sum": ("contract.top-k-renormalize",),
    "topk_k_isinstance_int": ("contract.top-k-renormalize",),
    # issue 22: float32 and integer inputs where the contract says float64 results, computed
    # in float64 (the five float32 ones are the family of held-out files that passed every
    # claim before), and the contract's decided open questions
    "topk_computes_in_float32": ("contract.top-k-renormalize",),
    "top_p_computes_in_float32": ("contract.top-p-renormalize",),
    "flash_computes_in_float32": ("contract.flash-attention",),
    "linear_computes_in_float32": ("contract.linear-attention",),
    "moe_computes_in_float32": ("contract.moe-layer",),
    "chain_sums_in_joint_dtype": ("contract.chain-rule-nll",),
    "flash_output_like_v": ("contract.flash-attention",),
    "topk_zeros_like_probs": ("contract.top-k-renormalize",),
    "chain_divides_by_table_sum": ("contract.chain-rule-nll",),
    "top_p_zeros_give_uniform": ("contract.top-p-renormalize",),
    "top_p_fsum_prefix": ("contract.top-p-renormalize",),
    "count_flags_python_bool_only": ("contract.transformer-parameter-count",),
    # from an adversarial tester's fourth held-out set: a shortcut at a degenerate size taken
    # before the argument checks, and float32 division below float32's range
    "adv4_bpe_encode_short_shortcut": ("contract.bpe-encode",),
    "adv4_bpe_train_empty_shortcut": ("contract.bpe-train",),
    "adv4_chain_v1_shortcut": ("contract.chain-rule-nll",),
    "adv4_count_no_layers_skips_layer_checks": ("contract.transformer-parameter-count",),
    "adv4_embedding_empty_shortcut": ("contract.embedding-lookup",),
    "adv4_flash_t1_shortcut": ("contract.flash-attention",),
    "adv4_logits_zero_shortcut": ("contract.logits-memory-bytes",),
    "adv4_mha_t1_shortcut": ("contract.multi-head-attention",),
    "adv4_moe_e1_shortcut": ("contract.moe-layer",),
    "adv4_rotary_empty_shortcut": ("contract.rotary-embedding",),
    "adv4_softmax_divides_float32_for_halves": ("contract.softmax-temperature",),
    "adv4_softmax_v1_shortcut_before_finite_check": ("contract.softmax-temperature",),
    "adv4_topk_v1_shortcut": ("contract.top-k-renormalize",),
    "adv4_topp_v1_shortcut": ("contract.top-p-renormalize",),
    "adv4_rotary_positions_from_one": ("contract.rotary-embedding",),
    # the sixth held-out set: a safety threshold the cases never came near, a chunked form,
    # an unchecked rank, np.log10 of an exact integer
    "adv6_chain_tiny_mass_impossible": ("contract.chain-rule-nll",),
    "adv6_linear_chunk_norm_not_carried": ("contract.linear-attention",),
    "adv6_layer_norm_any_leading_axes": ("contract.layer-norm",),
    "adv6_topk_rescale_eps": ("contract.top-k-renormalize",),
    "adv6_topp_rescale_eps": ("contract.top-p-renormalize",),
    "adv6_support_np_log10": ("contract.sequence-support-log10",),
    "adv6_temp_clamped_1e8": ("contract.softmax-temperature",),
    "adv6_topp_isclose_one": ("contract.top-p-renormalize",),
    # the seventh: argument checks a real learner gets wrong (a shape left unchecked, a
    # negative count let through, an empty vector refused)
    "adv7_embedding_empty_2d_ids": ("contract.embedding-lookup",),
    "adv7_embedding_empty_bool_refused": ("contract.embedding-lookup",),
    "adv7_flash_q_of_another_t": ("contract.flash-attention",),
    "adv7_flash_negative_block": ("contract.flash-attention",),
    "adv7_linear_q_of_another_t": ("contract.linear-attention",),
    "adv7_mha_wv_of_its_own_width": ("contract.multi-head-attention",),
    "adv7_mlp_d_out_refused": ("contract.position-wise-mlp",),
    "adv7_moe_w_out_width_unchecked": ("contract.moe-layer",),
    "adv7_moe_negative_top_k": ("contract.moe-layer",),
    "adv7_moe_w_out_experts_unchecked": ("contract.moe-layer",),
    # the eighth: an int64 running sum, truncated tokens, a flattened index
    "adv8_averaging_int64_running_sum": ("contract.averaging-model",),
    "adv8_chain_tokens_truncated": ("contract.chain-rule-nll",),
    "adv8_greedy_any_shape": ("contract.greedy-token",),
    # the ninth: NumPy scalars and narrow integers, subnormal masses and T, masks of -1e4,
    # -1e9 and finfo.min in multi-head attention, dtypes at T=1
    "adv9_bpe_encode_rejects_numpy_ids": ("contract.bpe-encode",),
    "adv9_temp_rejects_numpy_float": ("contract.softmax-temperature",),
    "adv9_greedy_int_to_int64": ("contract.greedy-token",),
    "adv9_layer_norm_float32_only_upcast": ("contract.layer-norm",),
    "adv9_top_p_v1_shortcut_after_value_checks": ("contract.top-p-renormalize",),
    "adv9_softmax_signed_int_subtract_before_cast": ("contract.softmax-temperature",),
    "adv9_flash_int_inputs_not_cast": ("contract.flash-attention",),
    "adv9_rotary_arange_offset_unindexed": ("contract.rotary-embedding",),
    "adv9_averaging_t1_returns_x": ("contract.averaging-model",),
    "adv9_greedy_nan_check_listed_dtypes": ("contract.greedy-token",),
    "adv9_top_p_p_float32_refused": ("contract.top-p-renormalize",),
    "adv9_mha_additive_mask_minus_1e9": ("contract.multi-head-attention",),
    "adv9_mha_additive_mask_minus_1e4": ("contract.multi-head-attention",),
    "adv9_mha_mask_finfo_min": ("contract.multi-head-attention",),
    "adv9_support_float_log10": ("contract.sequence-support-log10",),
    "adv9_bpe_encode_right_id_unbounded": ("contract.bpe-encode",),
    "adv9_embedding_ids_int32_cast": ("contract.embedding-lookup",),
    "adv9_greedy_refuses_all_minus_inf": ("contract.greedy-token",),
    "adv9_softmax_inverse_temperature": ("contract.softmax-temperature",),
    "adv9_topk_multiply_by_reciprocal_sum": ("contract.top-k-renormalize",),
    "adv9_topp_multiply_by_reciprocal_sum": ("contract.top-p-renormalize",),
    "adv9_topk_tiny_threshold": ("contract.top-k-renormalize",),
    "adv9_chain_subnormal_as_impossible": ("contract.chain-rule-nll",),
    "adv9_mask_t1_ones_like": ("contract.causal-masked-attention",),
    # the tenth: chunked linear attention, float16 computed in float16, argpartition past
    # V = 1,024 or E = 32, int32 narrowing, a hidden width past int64, eps as an int
    "adv10_bpe_encode_merges_int32": ("contract.bpe-encode",),
    "adv10_chain_sum_in_own_dtype": ("contract.chain-rule-nll",),
    "adv10_chain_tokens_int32": ("contract.chain-rule-nll",),
    "adv10_giant_np_log10_hidden": ("contract.giant-mlp-parameter-log10",),
    "adv10_layer_norm_eps_float_only": ("contract.layer-norm",),
    "adv10_linear_chunk128_z_restart": ("contract.linear-attention",),
    "adv10_linear_chunk256_S_restart": ("contract.linear-attention",),
    "adv10_linear_upcasts_float32_only": ("contract.linear-attention",),
    "adv10_mha_upcasts_float32_only": ("contract.multi-head-attention",),
    "adv10_mlp_upcasts_float32_only": ("contract.position-wise-mlp",),
    "adv10_moe_argpartition_many_experts": ("contract.moe-layer",),
    "adv10_moe_upcasts_float32_only": ("contract.moe-layer",),
    "adv10_output_head_upcasts_float32_only": ("contract.output-head",),
    "adv10_rotary_halves_when_hs_ge_64": ("contract.rotary-embedding",),
    "adv10_top_p_upcasts_float32_only": ("contract.top-p-renormalize",),
    "adv10_topk_argpartition_large_vocab": ("contract.top-k-renormalize",),
    # the eleventh: float16 kept, NumPy negatives, int64 sums, (1, V) inputs,
    # arguments written on long inputs or at p = 1, caches by shape, chunks of 512
    "adv11_attn_count_numpy_negative_heads": ("contract.attention-parameter-count",),
    "adv11_avg_inplace_long": ("contract.averaging-model",),
    "adv11_bpe_train_isinstance_vocab": ("contract.bpe-train",),
    "adv11_causal_inplace_large_t": ("contract.causal-masked-attention",),
    "adv11_chain_float16_kept": ("contract.chain-rule-nll",),
    "adv11_count_per_layer_np_sum": ("contract.transformer-parameter-count",),
    "adv11_count_untied_head_np_prod": ("contract.transformer-parameter-count",),
    "adv11_embedding_cache_by_shape": ("contract.embedding-lookup",),
    "adv11_embedding_float16_kept": ("contract.embedding-lookup",),
    "adv11_flash_block_isinstance": ("contract.flash-attention",),
    "adv11_flash_float16_kept": ("contract.flash-attention",),
    "adv11_greedy_batch_of_one_row": ("contract.greedy-token",),
    "adv11_kv_bpv_numpy_unconverted": ("contract.kv-cache-bytes",),
    "adv11_kv_sizes_isinstance_int": ("contract.kv-cache-bytes",),
    "adv11_linear_chunk512_z_restart": ("contract.linear-attention",),
    "adv11_rotary_float16_kept": ("contract.rotary-embedding",),
    "adv11_sinusoidal_numpy_negative_length": ("contract.sinusoidal-positions",),
    "adv11_sinusoidal_t1_squeeze": ("contract.sinusoidal-positions",),
    "adv11_top_p_p1_inplace": ("contract.top-p-renormalize",),
    "adv11_topk_float16_kept": ("contract.top-k-renormalize",),
    "adv11_topk_squeezes_batch_of_one": ("contract.top-k-renormalize",),
    # the twelfth: whole-number float tokens, int8 and int64 inputs not cast, T = 1 shortcuts
    "adv12_sinusoidal_negative_even_width": ("contract.sinusoidal-positions",),
    "adv12_chain_whole_float_token": ("contract.chain-rule-nll",),
    "adv12_linear_t1_shortcut": ("contract.linear-attention",),
    "adv12_output_head_ints_uncast": ("contract.output-head",),
    "adv12_linear_ints_uncast": ("contract.linear-attention",),
    # where a long double is wider than a double (x86-64 Linux); elsewhere it is one
    **(
        {
            "adv6_greedy_longdouble_to_float64": ("contract.greedy-token",),
            "adv6_temperature_longdouble_to_float64": ("contract.softmax-temperature",),
            "adv9_layer_norm_at_least_float64": ("contract.layer-norm",),
            "adv12_mlp_result_type": ("contract.position-wise-mlp",),
            "adv12_rotary_result_type": ("contract.rotary-embedding",),
            "adv12_linear_result_type": ("contract.linear-attention",),
            "adv10_averaging_result_type": ("contract.averaging-model",),
            "adv10_causal_result_type": ("contract.causal-masked-attention",),
            "adv10_embedding_keeps_float_table_wide": ("contract.embedding-lookup",),
            "adv10_flash_result_type": ("contract.flash-attention",),
            "adv10_output_head_result_type": ("contract.output-head",),
            "adv10_topk_result_type": ("contract.top-k-renormalize",),
        }
        if np.finfo(np.longdouble).eps < np.finfo(np.float64).eps
        else {}
    ),
    # the thirteenth set: each once a false pass (module v7)
    "adv13_softmax_tiny_t_onehot": ("contract.softmax-temperature",),
    "adv13_topk_rounds_before_ranking": ("contract.top-k-renormalize",),
    "adv13_topk_tiny_negative_clipped": ("contract.top-k-renormalize",),
    "adv13_chain_tiny_negative_tolerated": ("contract.chain-rule-nll",),
    "adv13_top_p_above_one_tolerated": ("contract.top-p-renormalize",),
    "adv13_top_p_longdouble_kept": ("contract.top-p-renormalize",),
    "adv13_mha_longdouble_kept": ("contract.multi-head-attention",),
    "adv13_moe_longdouble_kept": ("contract.moe-layer",),
    "adv13_moe_rounds_router_scores": ("contract.moe-layer",),
    "adv13_count_numpy_ints_int64": ("contract.transformer-parameter-count",),
    "adv13_attention_count_int64_square": ("contract.attention-parameter-count",),
    "adv13_averaging_one_row_shortcut": ("contract.averaging-model",),
    "adv13_causal_width_one_shortcut": ("contract.causal-masked-attention",),
    "adv13_layer_norm_width_one_shortcut": ("contract.layer-norm",),
    "adv13_flash_cache_by_bytes": ("contract.flash-attention",),
    "adv13_bpe_train_cache_first_size": ("contract.bpe-train",),
    # the fourteenth set: each once a false pass (module v8)
    "adv14_giant_hidden_through_float": ("contract.giant-mlp-parameter-log10",),
    "adv14_linear_chunk_zero_when_wide": ("contract.linear-attention",),
    "adv14_softmax_finite_after_shift": ("contract.softmax-temperature",),
    "adv14_flash_block_squared_buffer": ("contract.flash-attention",),
    "adv14_flash_cache_without_dtype": ("contract.flash-attention",),
    "adv14_attention_count_float_division": ("contract.attention-parameter-count",),
    "adv14_count_heads_float_division": ("contract.transformer-parameter-count",),
    "adv14_chain_entries_above_one_refused": ("contract.chain-rule-nll",),
    "adv14_top_p_one_in_float32": ("contract.top-p-renormalize",),
    "adv14_bpe_train_table_by_vocab_size": ("contract.bpe-train",),
    # the fifteenth set (module v9)
    "adv15_temperature_after_softmax": ("contract.softmax-temperature",),
    # the sixteenth set (module v10): edges the generators lacked, and results handed out
    # again (a buffer per shape), which only the memory a result shares can show
    "adv16_greedy_nan_unless_inf": ("contract.greedy-token",),
    "adv16_greedy_nan_unless_posinf": ("contract.greedy-token",),
    "adv16_chain_tokens_int_cast": ("contract.chain-rule-nll",),
    "adv16_chain_whole_float32_tokens": ("contract.chain-rule-nll",),
    "adv16_chain_no_tokens_shortcut": ("contract.chain-rule-nll",),
    "adv16_embedding_ids_castable_to_int64": ("contract.embedding-lookup",),
    "adv16_mask_refuses_empty_batch": ("contract.causal-masked-attention",),
    "adv16_softmax_atleast_1d": ("contract.softmax-temperature",),
    "adv16_top_p_ravel": ("contract.top-p-renormalize",),
    "adv16_mlp_atleast_2d": ("contract.position-wise-mlp",),
    "adv16_output_head_atleast_2d": ("contract.output-head",),
    "adv16_flash_shared_output": ("contract.flash-attention",),
    "adv16_linear_shared_output": ("contract.linear-attention",),
    "adv16_rotary_shared_output": ("contract.rotary-embedding",),
    "adv16_averaging_shared_output": ("contract.averaging-model",),
    # the seventeenth set (module v10): 36 escapes, 32 caught by new cases; these stand for
    # the families (ids past 511 in BPE, integer products, overflowing sums and counts,
    # float16 divided in float32, NumPy reals refused, leading axes accepted)
    "adv17_bpe_train_pair_codes_512": ("contract.bpe-train",),
    "adv17_mlp_int_products_in_input_dtype": ("contract.position-wise-mlp",),
    "adv17_topk_sums_counts_in_own_dtype": ("contract.top-k-renormalize",),
    "adv17_softmax_float16_divided_in_float32": ("contract.softmax-temperature",),
    "adv17_kv_bytes_product_in_float64": ("contract.kv-cache-bytes",),
    "adv17_count_ffn_by_int64_prod": ("contract.transformer-parameter-count",),
    "adv17_rotary_any_leading_axes": ("contract.rotary-embedding",),
    "adv17_layer_norm_eps_python_float_only": ("contract.layer-norm",),
    # an eighteenth round: results kept under a key that leaves an argument's values out,
    # results handed out again and refilled (lists and dicts, buffers used in turn, buffers
    # past 1 MiB), sums that round or underflow elsewhere, sizes the cases never reached
    "adv18_flash_cache_ignores_v": ("contract.flash-attention",),
    "adv18_layer_norm_cache_ignores_gain_bias": ("contract.layer-norm",),
    "adv18_mlp_cache_ignores_w_out": ("contract.position-wise-mlp",),
    "adv18_moe_cache_ignores_experts": ("contract.moe-layer",),
    "adv18_chain_marginals_cached_by_shape": ("contract.chain-rule-nll",),
    "adv18_chain_marginals_float32": ("contract.chain-rule-nll",),
    "adv18_averaging_double_buffer": ("contract.averaging-model",),
    "adv18_causal_shared_buffer_when_large": ("contract.causal-masked-attention",),
    "adv18_bpe_train_shared_list": ("contract.bpe-train",),
    "adv18_bpe_encode_shared_list": ("contract.bpe-encode",),
    "adv18_count_mutable_default_dict": ("contract.transformer-parameter-count",),
    "adv18_top_p_pairwise_prefix": ("contract.top-p-renormalize",),
    "adv18_linear_z_restart_1024": ("contract.linear-attention",),
    "adv18_bpe_train_pair_code_10_bits": ("contract.bpe-train",),
    # a nineteenth round: NumPy unsigned sizes and logits, a (1, V) batch squeezed, state
    # kept by a cache where True == 1 or a position counter, a one-entry cache, checks
    # skipped at n_layer = 0, and cuts, positions and variances that go wrong past a size
    "adv19_kv_rejects_unsigned": ("contract.kv-cache-bytes",),
    "adv19_greedy_unsigned_as_float": ("contract.greedy-token",),
    "adv19_softmax_squeezes_batch_of_one": ("contract.softmax-temperature",),
    "adv19_count_cache_bool_int_collide": ("contract.transformer-parameter-count",),
    "adv19_rotary_streaming_offset": ("contract.rotary-embedding",),
    "adv19_linear_state_after_t1": ("contract.linear-attention",),
    "adv19_chain_numpy_bool_token_typeerror": ("contract.chain-rule-nll",),
    "adv19_ln_one_pass_small_means": ("contract.layer-norm",),
    "adv19_top_p_tail_mass": ("contract.top-p-renormalize",),
    "adv19_top_p_candidate_cap": ("contract.top-p-renormalize",),
    "adv19_sinusoidal_int16_positions": ("contract.sinusoidal-positions",),
    "adv19_moe_cache_ignores_router": ("contract.moe-layer",),
    "adv19_count_flags_checked_with_layers_only": ("contract.transformer-parameter-count",),
    # a twentieth round: query blocks masked by local rows, mixed bool tokens, NumPy block
    # arithmetic, one max for a 3-D batch, float32 ranking, clipped negatives, argpartition
    # ties, 10-bit pair codes in encoding
    "adv20_mha_query_blocks_local_mask": ("contract.multi-head-attention",),
    "adv20_chain_tokens_mixed_bool": ("contract.chain-rule-nll",),
    "adv20_flash_block_in_its_own_dtype": ("contract.flash-attention",),
    "adv20_softmax_one_max_for_3d": ("contract.softmax-temperature",),
    "adv20_top_p_ranks_in_float32": ("contract.top-p-renormalize",),
    "adv20_top_p_clips_tiny_negatives": ("contract.top-p-renormalize",),
    "adv20_greedy_argpartition_past_1024": ("contract.greedy-token",),
    "adv20_bpe_encode_pair_code_10_bits": ("contract.bpe-encode",),
    # a twenty-first round: a call whose input extends the last one's answered from it (a
    # cache keyed by a prefix, a stream resumed), limits of 1,024 positions or 4,096 rows,
    # and a float64 buffer for float32 logits of three axes
    "adv21_mha_cache_by_x_prefix": ("contract.multi-head-attention",),
    "adv21_causal_mask_buffer_1024": ("beyond.flash-memory",),
    "adv21_softmax_3d_float64_buffer": ("contract.softmax-temperature",),
    "adv21_output_head_chunks_drop_tail": ("contract.output-head",),
    "adv21_bpe_encode_streamed": ("contract.bpe-encode",),
    "adv22_causal_memo_bytes_no_shape": ("contract.causal-masked-attention",),
    "adv22_softmax_memo_bytes_no_shape": ("contract.softmax-temperature",),
    "adv22_bpe_encode_memo_data_and_count": ("contract.bpe-encode",),
    "adv22_greedy_chunked_ties_later_chunk": ("contract.greedy-token",),
    "adv22_ln_float32_wide_rows": ("contract.layer-norm",),
    "adv23_mlp_accepts_transposed_weights": ("contract.position-wise-mlp",),
    # a float64 copy of an argument kept under its id(), the argument held: found by a call
    # on the same arrays written over (runner.in_place)
    "ln_params_cached_by_id": ("contract.layer-norm",),
    "embedding_table_cached_by_id": ("contract.embedding-lookup",),
    "head_table_transposed_cached_by_id": ("contract.output-head",),
    "mlp_weights_cached_by_id": ("contract.position-wise-mlp",),
    "embedding_ids_cached_by_id": ("contract.embedding-lookup",),
    "ln_row_stats_cached_by_id": ("contract.layer-norm",),
    # a result kept by bytes and shapes, not dtypes; a dtype kept where float64 is asked
    "ln_memo_bytes_and_shapes_not_dtype": ("contract.layer-norm",),
    "greedy_memo_bytes_not_dtype": ("contract.greedy-token",),
    "softmax_memo_bytes_not_dtype": ("contract.softmax-temperature",),
    "softmax_v1_ones_like": ("contract.softmax-temperature",),
    "embedding_empty_keeps_table_dtype": ("contract.embedding-lookup",),
}
# Mutants whose only mistake is writing into an argument: the value is right, so only the
# comparison of the arguments with their copy from before the call can catch them.
IN_PLACE = {
    "topk_in_place": "contract.top-k-renormalize",
    "layer_norm_in_place": "contract.layer-norm",
    "temp_in_place": "contract.softmax-temperature",
}


def function_of(path: Path) -> str:
    """The one chapter function a mutant file defines (read, never imported here)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name in REGISTRY.subjects
    ]
    assert len(names) == 1, (path.name, names)
    return names[0]


(PACK,) = api.load_claims([MODULE])


# claims a test below asks about beside the table's
ASKED_BESIDES = {"averaging_model": {"contract.averaging-model"}}


def claims_calling(function: str) -> ClaimPack:
    """The module's claims whose checks call ``function``: the only ones a mutant of it can
    break (every other function in the file is the correct base)."""
    return claims_needing(PACK, {function})


@pytest.fixture(scope="module")
def statuses(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """Every mutant's statuses on the claims the table names for it (and those a test below
    asks about besides), each mutant judged as a learner's file alone is (``api.run_packs``,
    a worker of its own; this process the judge, its fork server started once): a claim no
    test asks about would only cost time (sharing one claim list among a function's
    mutants cost 16 s more: a claim cheap on the reference, such as the per-position
    blocks at 4 ms, takes 58 ms through a learner's worker). (A class run of each group,
    two judging processes with a fork server each, cost 83 s of CPU where judging them
    alone cost 54: a class run's own tests are in test_class_runs.py.)"""
    into = tmp_path_factory.mktemp("mutants")
    options = api.RunOptions(diagnose=False)
    found: dict[str, dict[str, str]] = {}
    for stem, must in MUTANTS.items():
        function = function_of(MUTANTS_DIR / f"{stem}.py")
        asked = set(must) | ASKED_BESIDES.get(function, set())
        calling = claims_calling(function)
        pack = dataclasses.replace(
            calling, claims=tuple(c for c in calling.claims if c.claim.id in asked)
        )
        run = api.run_packs(
            [pack], api.LearnerFile(handed_in(MUTANTS_DIR / f"{stem}.py", into)), options
        )
        assert run.load_failure is None, (stem, run.load_failure)
        found[stem] = {r.id: r.status for r in run.results}
    return found


# the long double mutants of the tenth set: they fail only where a long double is wider
WIDER_ONLY = {
    "adv12_mlp_result_type",
    "adv12_rotary_result_type",
    "adv12_linear_result_type",
    "adv10_averaging_result_type",
    "adv10_causal_result_type",
    "adv10_embedding_keeps_float_table_wide",
    "adv10_flash_result_type",
    "adv10_output_head_result_type",
    "adv10_topk_result_type",
}


def test_the_table_names_every_mutant_file():
    files = {p.stem for p in MUTANTS_DIR.glob("*.py") if not p.name.startswith("_")}
    assert files - set(MUTANTS) <= {"adv6_greedy_longdouble_to_float64",
                                    "adv6_temperature_longdouble_to_float64",
                                    "adv9_layer_norm_at_least_float64",
                                    *WIDER_ONLY}  # fmt: skip
    assert set(MUTANTS) <= files


def test_mutants_cover_every_function_a_learner_implements():
    assert len(MUTANTS) >= 50
    functions = {function_of(MUTANTS_DIR / f"{stem}.py") for stem in MUTANTS}
    assert functions == set(module_subjects([PACK]))


@pytest.mark.parametrize("stem", list(MUTANTS))
def test_mutant_fails_the_claims_it_must(statuses, stem):
    got = statuses[stem]
    must = MUTANTS[stem]
    assert must, stem
    survived = {c: got.get(c) for c in must if got.get(c) not in BROKEN}
    assert not survived, f"{stem}: these claims did not catch it: {survived}"


def test_a_quadratic_averaging_model_fails_its_cost_claim_instead_of_erroring(statuses):
    """A (T, T) averaging matrix computes the right function; the cost claim's sizes keep it
    within the worker's memory, so the claim fails (saying it needs linear growth) rather
    than ending in a MemoryError."""
    assert statuses["avg_tril_matrix"]["structure.averaging-cost"] == "failed"
    assert statuses["avg_tril_matrix"]["contract.averaging-model"] == "passed"


@pytest.mark.parametrize("stem", sorted(IN_PLACE))
def test_writing_into_an_argument_is_caught_by_inputs_modified_alone(stem, tmp_path):
    path = handed_in(MUTANTS_DIR / f"{stem}.py", tmp_path)
    pack = dataclasses.replace(
        PACK, claims=tuple(c for c in PACK.claims if c.claim.id == IN_PLACE[stem]), complete=False
    )
    (result,) = api.run_packs([pack], api.LearnerFile(path), api.RunOptions(diagnose=False)).results
    measured = {m.name: m.actual for m in result.measurements}
    assert result.status == "failed"
    assert measured["mismatches"] == 0  # every value right ...
    assert measured["inputs_modified"] > 0  # ... and the caller's arrays changed
    assert result.observations["first_modification"]["arguments"]


SHARED_OUTPUT = {
    "adv16_flash_shared_output": "contract.flash-attention",
    "adv16_averaging_shared_output": "contract.averaging-model",
    "adv18_averaging_double_buffer": "contract.averaging-model",
    "adv18_causal_shared_buffer_when_large": "contract.causal-masked-attention",
    "adv18_bpe_train_shared_list": "contract.bpe-train",
    "adv18_bpe_encode_shared_list": "contract.bpe-encode",
    "adv18_count_mutable_default_dict": "contract.transformer-parameter-count",
}


@pytest.mark.parametrize("stem", sorted(SHARED_OUTPUT))
def test_a_result_handed_out_again_is_caught_though_every_value_is_right(stem, tmp_path):
    """A buffer per shape returned call after call: each value is right when it returns (a
    learner's results are copied as they cross back), and the caller's earlier result
    changes with the next call. Only the earlier result, looked at again, can show it."""
    path = handed_in(MUTANTS_DIR / f"{stem}.py", tmp_path)
    claim = SHARED_OUTPUT[stem]
    pack = dataclasses.replace(
        PACK, claims=tuple(c for c in PACK.claims if c.claim.id == claim), complete=False
    )
    (result,) = api.run_packs([pack], api.LearnerFile(path), api.RunOptions(diagnose=False)).results
    measured = {m.name: m.actual for m in result.measurements}
    assert result.status == "failed"
    assert measured["mismatches"] == 0
    assert measured["inputs_modified"] > 0
    first = result.observations["first_modification"]
    assert first["arguments"] == [] and first["earlier_result"] is True


def test_every_mutant_is_caught(statuses):
    caught = [s for s, got in statuses.items() if any(v in BROKEN for v in got.values())]
    assert len(caught) == len(MUTANTS), sorted(set(MUTANTS) - set(caught))
