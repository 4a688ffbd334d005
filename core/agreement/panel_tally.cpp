#include "core/agreement/panel_tally.hpp"

#include "core/agreement/panel_rule.hpp"

namespace ij {

panel_tally::panel_tally(const panel_config& panel, double alpha)
    : panel_(panel), alpha_(alpha), cohen_(rating_categories),
      fleiss_(panel.judges.size(), rating_categories) {
  counts_.enabled = true;
  counts_.judges = panel.judges;
  counts_.rule = std::string{to_string(panel.rule)};
  counts_.kappa_kind = panel.judges.size() == 2 ? "cohen" : "fleiss";
  counts_.confidence = 1.0 - alpha;
  for (auto& j : panel.judges) {
    judge_confusion c; // its six cells, zero
    c.judge = j;
    counts_.confusion.push_back(std::move(c));
  }
}

void panel_tally::add(const vote_result& vr, std::optional<bool> label) {
  if (vr.absent || vr.parts.size() != panel_.judges.size())
    return;
  ++counts_.pairs;
  if (vr.route == "all")
    ++counts_.all;
  else if (vr.route == "majority")
    ++counts_.majority;
  else
    ++counts_.split;
  std::vector<std::size_t> ratings;
  for (std::size_t i = 0; i < vr.parts.size(); ++i) {
    auto r = rating_of(vr.parts[i].outcome);
    if (label) {
      labelled_ = true;
      // A fault counts as NEITHER here: the judge gave no decision.
      ++counts_.confusion[i].cells[2 * r.value_or(2) + (*label ? 0 : 1)];
    }
    if (r)
      ratings.push_back(*r);
  }
  if (ratings.size() != vr.parts.size())
    return; // a judge faulted: no rating from it
  if (ratings.size() == 2)
    cohen_.add(ratings[0], ratings[1]);
  fleiss_.add_ratings(ratings);
}

panel_summary panel_tally::summary() const {
  auto out = counts_;
  if (!labelled_)
    out.confusion.clear();
  out.rated = fleiss_.subjects();
  auto raw = fleiss_.unanimous(alpha_);
  out.raw = raw.value;
  out.raw_lo = raw.lo;
  out.raw_hi = raw.hi;
  auto k =
    panel_.judges.size() == 2 ? cohen_.kappa(alpha_) : fleiss_.kappa(alpha_);
  out.kappa_defined = k.defined;
  out.kappa = k.defined ? k.value : 0.0;
  out.kappa_interval = k.interval_defined;
  out.kappa_lo = k.lo;
  out.kappa_hi = k.hi;
  return out;
}

} // namespace ij
