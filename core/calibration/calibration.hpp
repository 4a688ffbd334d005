#pragma once
// Confidence calibration (issue 16): a monotone map per judge id from the
// judge's raw confidence in a vote's decision to the probability that the
// decision is right, fitted by isotonic regression (pool-adjacent-violators)
// on labelled votes; its quality (ECE, Brier score, log loss) before and
// after, cross-validated, each with a seeded bootstrap interval; the map file
// format (with its own checksum) and the calibrated probability that a
// pair's answers are equivalent. Pure: JSON text in and out, no files.
//
// The unit is one vote: a judge record whose decision is EQUIVALENT or
// DIFFERENT. Its raw confidence is the judge's probability of the decision
// it took (decision_probs) or, for a record without probabilities, the share
// of the pair's counted votes that took the same decision. A pair's
// probability combines its votes as independent evidence: the sum of their
// calibrated log-odds, each signed by its decision.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <caf/expected.hpp>

#include "core/config/judge_spec.hpp"
#include "messages/error.hpp"
#include "messages/judge_decision.hpp"

namespace ij {

/// One judge's map: knots (raw, calibrated), raw nondecreasing, calibrated
/// nondecreasing and in [0, 1]; linear between knots, flat outside them.
/// A map knows what it was fitted on: the judge id and the confidence
/// source, both checked against the run that uses it
/// (runio/calibration_file).
struct calibration_map {
  std::string judge_id;
  /// "decision_probs" when the votes it was fitted on carried the judge's
  /// probabilities, "vote_share" when none did, "mixed" otherwise.
  std::string source;
  std::vector<double> raw;
  std::vector<double> calibrated;

  double apply(double raw_confidence) const;
};

/// A value with its bootstrap interval.
struct estimate {
  double value = 0.0;
  double lo = 0.0;
  double hi = 0.0;
};

struct calibration_quality {
  estimate ece;
  estimate brier;
  estimate log_loss;
};

/// The fitted map with the evidence behind it.
struct calibration_fit {
  calibration_map map;
  std::uint64_t pairs = 0; // labelled pairs with at least one counted vote
  std::uint64_t votes = 0; // counted votes on them
  calibration_quality raw; // the raw confidence as a probability
  calibration_quality calibrated; // cross-validated map outputs
};

/// The maps of a run, by judge id, and the SHA-256 of the file they came
/// from (the manifest records it).
struct calibration_set {
  std::map<std::string, calibration_fit> judges;
  std::string sha256;

  const calibration_map* find(const std::string& judge_id) const;
};

// --- The math ---------------------------------------------------------------

/// One labelled vote: its raw confidence and whether its decision was right.
struct labelled_vote {
  double confidence = 0.0;
  bool right = false;
  /// Votes of one pair share a group: folds and bootstrap draw whole pairs.
  std::uint64_t group = 0;
};

/// Isotonic regression (pool-adjacent-violators) of `right` on confidence,
/// ties pooled first; the map's values are clamped to [1/(2n), 1 - 1/(2n)]
/// (n votes) so that no finite sample yields certainty. Precondition: at
/// least one vote.
calibration_map fit_isotonic(const std::vector<labelled_vote>& votes);

/// Expected calibration error over `bins` equal-width bins of the predicted
/// probability: sum over bins of |mean prediction - accuracy| weighted by
/// the bin's share. Empty input: 0.
double expected_calibration_error(const std::vector<double>& predicted,
                                  const std::vector<bool>& right,
                                  unsigned bins = 10);
double brier_score(const std::vector<double>& predicted,
                   const std::vector<bool>& right);
/// Predictions are clipped to [1e-6, 1 - 1e-6] (a raw 1.0 that was wrong
/// would be infinite).
double log_loss(const std::vector<double>& predicted,
                const std::vector<bool>& right);

struct fit_options {
  unsigned folds = 5;
  unsigned bootstrap = 1000;
  std::uint64_t seed = 1;
  /// Fewer labelled pairs than this is an error.
  std::uint64_t min_pairs = 50;
};

/// Each vote's calibrated probability from a map fitted on the other folds
/// (pairs split into `folds` seeded folds, at least 2, at most one per
/// group): out-of-sample predictions.
std::vector<double> cross_validated(const std::vector<labelled_vote>& votes,
                                    unsigned folds, std::uint64_t seed);

/// Fits the map on all votes and measures raw and calibrated quality: the
/// calibrated predictions come from maps fitted on the other folds (pairs
/// split into `folds` seeded folds), the intervals from `bootstrap` seeded
/// resamples of the pairs (95 %, percentile). errc::bad_input (saying why,
/// with the count) when fewer than min_pairs pairs carry a vote.
caf::expected<calibration_fit>
fit_calibration(const std::string& judge_id, const std::string& source,
                const std::vector<labelled_vote>& votes,
                const fit_options& opts);

// --- A pair's probability ---------------------------------------------------

/// One counted vote of a pair as the run sees it.
struct vote_evidence {
  /// Its judge's map; a vote whose judge has none adds nothing.
  const calibration_map* map = nullptr;
  judge_decision decision = judge_decision::abstain;
  /// P(EQUIVALENT), P(DIFFERENT), P(ABSTAIN); empty when none.
  std::vector<double> decision_probs;
};

/// The raw confidence of a vote: its decision's probability, or the share
/// of the pair's EQUIVALENT/DIFFERENT votes that agree with it.
double raw_confidence(judge_decision decision,
                      const std::vector<double>& decision_probs,
                      std::uint32_t equivalent, std::uint32_t different);

/// The calibrated probability that the answers are equivalent; nullopt when
/// no vote counts (none EQUIVALENT or DIFFERENT with a map).
std::optional<double>
equivalence_probability(const std::vector<vote_evidence>& votes);

/// A labelled pair's calibrated probability as the run summary and the
/// report score it: the probability of its leading decision, and whether
/// that decision matched the label.
struct pair_score {
  double leading = 0.5;
  bool right = false;
};
pair_score score_pair(double p_equivalent, bool label);

// --- Which confidence a judge gives -----------------------------------------

/// The raw confidence a judge's votes carry: "decision_probs" when it
/// reports its decision's probabilities (an HTTP judge with "logprobs", the
/// noisy stub), else "vote_share" (the pair's share of votes agreeing).
std::string_view confidence_source(const judge_spec& spec);

/// Whether a map fitted on `map_source` may calibrate votes whose
/// confidence is `judge_source`: the same source, or a "mixed" map (a judge
/// asked for log-probabilities whose backend left them out of some
/// replies, as it would again) for a decision_probs judge. A map fitted on
/// one confidence says nothing about the other: a log-probability of 0.9
/// and a vote share of 0.9 are different evidence.
bool source_fits(std::string_view map_source, std::string_view judge_source);

/// How messages name a source: "decision log-probabilities" or "vote
/// shares" (or "both" for mixed).
std::string source_words(std::string_view source);

// --- The map file -----------------------------------------------------------

/// The file's format name.
inline constexpr const char* calibration_format =
  "invariance-judge/calibration/v1";

/// The map file: format, fit settings, per judge its map and evidence, and
/// "checksum", the SHA-256 of the canonical "judges" array (so an edited map
/// is refused).
std::string calibration_file_json(const std::vector<calibration_fit>& fits,
                                  const fit_options& opts);

/// Reads a map file's text; `name` names it in errors. Refuses an empty or
/// non-JSON file, a wrong format, a checksum that does not match, a map
/// that is not monotone or not in [0, 1], a judge id twice, a map without
/// its "source" or resting on no "votes" (errc::bad_config, "<name>:
/// <pointer>: <why>", saying how to make a good one). Calibrated values are
/// clamped to [1/(2n), 1 - 1/(2n)] for a map fitted on n votes, as
/// fit_isotonic writes them: a hand-made map of 0/1 values gives no
/// certainty. The set's sha256 is that of `text`.
caf::expected<calibration_set> parse_calibration_file(const std::string& text,
                                                      const std::string& name);

} // namespace ij
