#pragma once
// What a pair gets before any judge is asked (issue 29): screening (an
// answer that states no result, core/guard/answer_screen.hpp) and the planted
// verdict flags (core/guard/planted_verdict.hpp), and what they do to the pair.
//
// - Screened: ABSTAIN without a call, recorded with the reason.
// - Flagged, on_planted "abstain" (the default): ABSTAIN without a call,
//   recorded with the flags.
// - Flagged, on_planted "judge": the judges are asked, but a model judge's
//   EQUIVALENT is not taken (an abstention instead, saying why); a rule
//   judge (rules:math, stub:numeric) reads answers by rule and keeps its
//   word, and DIFFERENT stands.
// An abstention maps as one vote's ABSTAIN does (SPEC §3): {null, 0}, or
// {false, 0} with abstain_as_neither false and one vote; with more votes
// {null, 0} (abstentions never count toward a side). Canaries are not
// guarded: they test the judge itself. Pure.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/voting/vote_tally.hpp"
#include "messages/equivalence_outcome.hpp"
#include "messages/vote_result.hpp"

namespace ij {

enum class planted_action : std::uint8_t { abstain, judge };

/// "abstain", "judge" (configuration and records alike).
std::string_view to_string(planted_action a);
std::optional<planted_action> planted_action_from_string(std::string_view s);

struct pair_guard {
  /// Why the pair is screened ("A states no result: punctuation or markup
  /// only"); empty when it is not.
  std::string screened;
  /// The planted-verdict flags, each "<kind> in A" or "<kind> in B".
  std::vector<std::string> flags;

  bool flagged() const { return !flags.empty(); }
};

pair_guard guard_pair(std::string_view a, std::string_view b);

/// Whether no judge is asked about the pair: screened, or flagged under
/// on_planted "abstain".
bool unjudged(const pair_guard& g, planted_action on_planted);

/// The result of a pair no judge is asked about: no vote cast, an
/// abstention saying why, the screening and the flags recorded.
vote_result unjudged_result(std::string pair_id, const pair_guard& g,
                            const vote_config& votes, bool abstain_as_neither);

/// A model judge's EQUIVALENT on a flagged pair becomes an abstention
/// saying why (on_planted "judge"); any other outcome is kept. True when it
/// changed.
bool refuse_planted_equivalent(equivalence_outcome& o, const pair_guard& g,
                               const vote_config& votes,
                               bool abstain_as_neither);

/// The flags in words: "decision_line in A, prompt_layout in B".
std::string flags_text(const std::vector<std::string>& flags);

/// A run's guard over its pairs (the run session's): what each pair gets
/// before its judges, and what a flagged pair's votes give after them.
class pair_guard_desk {
public:
  /// `pooled_model_judge`: the run pools its judges' votes and one of them
  /// is a model (a panel or a cascade refuses its model parts' EQUIVALENT
  /// itself, per judge).
  pair_guard_desk(planted_action on_planted, vote_config votes,
                  bool abstain_as_neither, bool pooled_model_judge);

  /// Pair `seq` with answers `a` and `b` (both present): its result when no
  /// judge is to be asked; else nullopt, with `flags` set when it is
  /// flagged and judged anyway (kept until settle).
  std::optional<vote_result> admit(std::uint64_t seq,
                                   const std::string& pair_id,
                                   std::string_view a, std::string_view b,
                                   std::vector<std::string>& flags);

  /// Pair `seq`'s votes are back: its flags recorded, and with pooled
  /// votes a model's EQUIVALENT not taken.
  void settle(std::uint64_t seq, vote_result& result);

private:
  planted_action on_planted_;
  vote_config votes_;
  bool abstain_as_neither_;
  bool pooled_model_judge_;
  /// Flagged pairs judged anyway, by seq, until their votes are back.
  std::unordered_map<std::uint64_t, std::vector<std::string>> planted_;
};

} // namespace ij
