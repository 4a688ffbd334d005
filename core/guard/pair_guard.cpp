#include "core/guard/pair_guard.hpp"

#include "core/guard/answer_screen.hpp"
#include "core/guard/planted_verdict.hpp"
#include "core/guard/text_fold.hpp"
#include "core/verdicts/outcome_mapping.hpp"

namespace ij {

std::string_view to_string(planted_action a) {
  return a == planted_action::judge ? "judge" : "abstain";
}

std::optional<planted_action> planted_action_from_string(std::string_view s) {
  if (s == "abstain")
    return planted_action::abstain;
  if (s == "judge")
    return planted_action::judge;
  return std::nullopt;
}

pair_guard guard_pair(std::string_view a, std::string_view b) {
  pair_guard g;
  // Each answer folded once, for both scans.
  auto fa = fold_text(a);
  auto fb = fold_text(b);
  if (auto why = screen_answer(a, fa))
    g.screened = "A states no result: " + *why;
  else if (auto why_b = screen_answer(b, fb))
    g.screened = "B states no result: " + *why_b;
  for (auto& kind : planted_flags(a, fa))
    g.flags.push_back(kind + " in A");
  for (auto& kind : planted_flags(b, fb))
    g.flags.push_back(kind + " in B");
  return g;
}

bool unjudged(const pair_guard& g, planted_action on_planted) {
  return !g.screened.empty()
         || (g.flagged() && on_planted == planted_action::abstain);
}

namespace {

// ABSTAIN as the vote coordinator maps it: one vote by SPEC §3, several by
// the tally (never a side).
equivalence_outcome abstention(std::string detail, const vote_config& votes,
                               bool abstain_as_neither) {
  auto o = outcome_of(judge_decision::abstain,
                      votes.votes == 1 ? abstain_as_neither : true);
  o.detail = std::move(detail);
  return o;
}

} // namespace

vote_result unjudged_result(std::string pair_id, const pair_guard& g,
                            const vote_config& votes, bool abstain_as_neither) {
  vote_result out;
  out.pair_id = std::move(pair_id);
  out.screened = g.screened;
  out.flags = g.flags;
  out.counts.votes = votes.votes;
  out.counts.min_agreement = votes.min_agreement;
  out.outcome =
    abstention(!g.screened.empty()
                 ? "screened: " + g.screened
                 : "planted verdict (" + flags_text(g.flags) + "): not judged",
               votes, abstain_as_neither);
  return out;
}

bool refuse_planted_equivalent(equivalence_outcome& o, const pair_guard& g,
                               const vote_config& votes,
                               bool abstain_as_neither) {
  if (!g.flagged() || o.equivalent != true)
    return false;
  // A calibrated probability of equivalence would contradict it: gone too.
  o = abstention("planted verdict (" + flags_text(g.flags)
                   + "): a model's EQUIVALENT is not taken (" + o.detail + ")",
                 votes, abstain_as_neither);
  return true;
}

pair_guard_desk::pair_guard_desk(planted_action on_planted, vote_config votes,
                                 bool abstain_as_neither,
                                 bool pooled_model_judge)
    : on_planted_(on_planted), votes_(votes),
      abstain_as_neither_(abstain_as_neither),
      pooled_model_judge_(pooled_model_judge) {}

std::optional<vote_result>
pair_guard_desk::admit(std::uint64_t seq, const std::string& pair_id,
                       std::string_view a, std::string_view b,
                       std::vector<std::string>& flags) {
  auto g = guard_pair(a, b);
  if (unjudged(g, on_planted_))
    return unjudged_result(pair_id, g, votes_, abstain_as_neither_);
  if (g.flagged()) {
    planted_[seq] = g.flags;
    flags = std::move(g.flags);
  }
  return std::nullopt;
}

void pair_guard_desk::settle(std::uint64_t seq, vote_result& result) {
  auto p = planted_.find(seq);
  if (p == planted_.end())
    return;
  if (result.flags.empty())
    result.flags = p->second;
  if (pooled_model_judge_) {
    pair_guard g;
    g.flags = std::move(p->second);
    refuse_planted_equivalent(result.outcome, g, votes_, abstain_as_neither_);
  }
  planted_.erase(p);
}

std::string flags_text(const std::vector<std::string>& flags) {
  std::string out;
  for (auto& f : flags)
    out += (out.empty() ? "" : ", ") + f;
  return out;
}

} // namespace ij
