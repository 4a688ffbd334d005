#pragma once
// The declared answer policy of a run (`answer_policy` in the configuration,
// docs/ANSWER_READING.md §3): how the rule judges (rules:math, stub:numeric)
// treat rounding, percent, tolerance, units and unreduced fractions. One
// object: read from JSON here (after the schema), written in the manifest,
// and part of a rule judge's identity (judge_id_of), so that workers serving
// one policy never answer a run that declared another.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <caf/error.hpp>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ij {

struct judge_spec;

/// Two decimals of which one may be a rounding of the other at its stated
/// precision (1.27 and 1.3; 299.94 and 300), or a decimal that agrees with
/// an exact value only to its places (0.333 and 1/3).
enum class rounding_policy {
  abstain,    // not known to differ: ABSTAIN (the default)
  strict,     // different numbers: DIFFERENT
  consistent, // one is a rounding of the other: EQUIVALENT
};

/// A percent on one side only (10% against 0.1 or 10).
enum class percent_policy {
  either,   // p% equals p or p/100 (the default)
  fraction, // p% equals p/100 only
  number,   // p% equals p only (the sign dropped)
};

/// A unit on one side only (5 cm against 5).
enum class unit_policy {
  lenient, // ignored: the question asked for the number (the default)
  strict,  // ABSTAIN: the answer must state what the other states
};

/// An unreduced fraction (6/8) against its value written otherwise (3/4).
enum class fraction_policy {
  any,     // the same number: EQUIVALENT (the default)
  reduced, // the answer must be in lowest terms: DIFFERENT
};

struct answer_policy {
  rounding_policy rounding = rounding_policy::abstain;
  percent_policy percent = percent_policy::either;
  /// Two numbers within max(relative * max(|a|, |b|), absolute) are equal;
  /// the defaults only absorb floating-point noise.
  double relative_tolerance = 1e-9;
  double absolute_tolerance = 0.0;
  unit_policy units = unit_policy::lenient;
  fraction_policy fractions = fraction_policy::any;

  bool is_default() const;
  /// Tolerance wider than the floating-point noise of the default.
  bool declares_tolerance() const;
};

bool operator==(const answer_policy& x, const answer_policy& y);
inline bool operator!=(const answer_policy& x, const answer_policy& y) {
  return !(x == y);
}

std::string_view to_string(rounding_policy p);
std::string_view to_string(percent_policy p);
std::string_view to_string(unit_policy p);
std::string_view to_string(fraction_policy p);

/// One line naming every setting, in a fixed order: the policy's part of a
/// rule judge's id and of its adapter id (so cached replies never cross
/// policies): "rounding=consistent,percent=either,rel=1e-09,abs=0,
/// units=lenient,fractions=any".
std::string policy_text(const answer_policy& p);

/// Reads the `answer_policy` object (already validated by the schema) over
/// `into`; a value the schema does not rule out is a bad_config error naming
/// its field below `at` (the object's JSON pointer, e.g. "/answer_policy").
caf::error read_answer_policy(const rapidjson::Value& v, answer_policy& into,
                              const std::string& at);

/// Writes the object the configuration's "answer_policy" takes (the value
/// after a Key()).
void write_answer_policy(rapidjson::Writer<rapidjson::StringBuffer>& w,
                         const answer_policy& p);

} // namespace ij
