#pragma once
// Invariance verdicts (SPEC §8): for one pair and, statistically, per item.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <caf/error.hpp>
#include <caf/meta/load_callback.hpp>
#include <caf/meta/type_name.hpp>

#include "messages/enum_text.hpp"
#include "messages/equivalence_outcome.hpp"
#include "messages/tri_bool.hpp"
#include "messages/vote_result.hpp"

namespace ij {

enum class verdict_kind : std::uint8_t { invariant, violated, neither };

/// The row of the I1–I5 table that fired.
enum class verdict_rule : std::uint8_t { i1 = 1, i2, i3, i4, i5 };

constexpr std::string_view to_string(verdict_kind v) {
  switch (v) {
    case verdict_kind::invariant: return "INVARIANT";
    case verdict_kind::violated: return "VIOLATED";
    case verdict_kind::neither: return "NEITHER";
  }
  return "NEITHER";
}

inline constexpr verdict_kind all_verdict_kinds[] = {
  verdict_kind::invariant, verdict_kind::violated, verdict_kind::neither};

/// Reads a text written by to_string back; nullopt for anything else.
inline std::optional<verdict_kind>
verdict_kind_from_string(std::string_view s) {
  return enum_from_text(all_verdict_kinds, s);
}

constexpr std::string_view to_string(verdict_rule r) {
  switch (r) {
    case verdict_rule::i1: return "I1";
    case verdict_rule::i2: return "I2";
    case verdict_rule::i3: return "I3";
    case verdict_rule::i4: return "I4";
    case verdict_rule::i5: return "I5";
  }
  return "I3";
}

struct single_verdict {
  std::string pair_id;
  std::string item;
  verdict_kind verdict = verdict_kind::neither;
  verdict_rule rule = verdict_rule::i3;
  equivalence_outcome outcome;
  /// The votes behind the outcome, copied from the pair's vote_result by the
  /// verdict actor (all zero for an absent pair), so that the driver can
  /// report them per pair without a second message.
  vote_counts counts;
  /// The pair's known truth, when the input gave one: carried here so that
  /// a client needs no memory of the pairs it sent.
  std::optional<bool> label;
};

inline bool operator==(const single_verdict& x, const single_verdict& y) {
  return x.pair_id == y.pair_id && x.item == y.item && x.verdict == y.verdict
         && x.rule == y.rule && x.outcome == y.outcome && x.counts == y.counts
         && x.label == y.label;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, single_verdict& x) {
  auto label = encode_tri(x.label);
  return f(caf::meta::type_name("ij.single_verdict"), x.pair_id, x.item,
           x.verdict, x.rule, x.outcome, x.counts, label,
           caf::meta::load_callback([&]() -> caf::error {
             x.label = decode_tri(label);
             return caf::none;
           }));
}

/// Caller-declared parameters of the statistical verdict, fixed before a run.
struct statistical_params {
  double tau = 0.8;
  double alpha = 0.05;
  double max_absent_rate = 0.2;
  double max_fault_rate = 0.2;
  double max_undecided_rate = 0.2;
  std::uint32_t min_decided = 5;
};

inline bool operator==(const statistical_params& x,
                       const statistical_params& y) {
  return x.tau == y.tau && x.alpha == y.alpha
         && x.max_absent_rate == y.max_absent_rate
         && x.max_fault_rate == y.max_fault_rate
         && x.max_undecided_rate == y.max_undecided_rate
         && x.min_decided == y.min_decided;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, statistical_params& x) {
  return f(caf::meta::type_name("ij.statistical_params"), x.tau, x.alpha,
           x.max_absent_rate, x.max_fault_rate, x.max_undecided_rate,
           x.min_decided);
}

struct statistical_verdict {
  std::string item;
  verdict_kind verdict = verdict_kind::neither;
  verdict_rule rule = verdict_rule::i3;
  /// c1..c5: pairs of the item classified by each single-pair rule.
  std::uint32_t c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0;
  std::uint32_t n = 0;       // K pairs
  std::uint32_t decided = 0; // c4 + c5
  double p = 0.0;            // c4 / decided (0 when nothing decided)
  double lo = 0.0;           // Wilson interval at confidence 1 - alpha
  double hi = 0.0;
  statistical_params params;
  /// The mean calibrated probability of the item's pairs that have one
  /// (issue 16); negative when none has.
  double probability = -1.0;
};

inline bool operator==(const statistical_verdict& x,
                       const statistical_verdict& y) {
  return x.item == y.item && x.verdict == y.verdict && x.rule == y.rule
         && x.c1 == y.c1 && x.c2 == y.c2 && x.c3 == y.c3 && x.c4 == y.c4
         && x.c5 == y.c5 && x.n == y.n && x.decided == y.decided && x.p == y.p
         && x.lo == y.lo && x.hi == y.hi && x.params == y.params
         && x.probability == y.probability;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, statistical_verdict& x) {
  return f(caf::meta::type_name("ij.statistical_verdict"), x.item, x.verdict,
           x.rule, x.c1, x.c2, x.c3, x.c4, x.c5, x.n, x.decided, x.p, x.lo,
           x.hi, x.params, x.probability);
}

} // namespace ij
