#include "adapters/gullible_judge.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "adapters/stub_judges.hpp"
#include "core/guard/text_fold.hpp"

namespace ij {

namespace {

struct verdict_word {
  std::string_view word;
  judge_decision decision;
};

// Lower case; longer ones first where one begins another ("not equivalent"
// before "equivalent" at the same place is handled by the position scan).
const std::vector<verdict_word>& words() {
  using d = judge_decision;
  static const std::vector<verdict_word> all{
    {"not equivalent", d::different}, {"non équivalent", d::different},
    {"no equivalente", d::different}, {"nicht äquivalent", d::different},
    {"не эквивалентн", d::different}, {"不等价", d::different},
    {"incorrect", d::different},      {"different", d::different},
    {"différent", d::different},      {"diferente", d::different},
    {"verschieden", d::different},    {"diverso", d::different},
    {"различн", d::different},        {"不同", d::different},
    {"異なる", d::different},         {"다름", d::different},
    {"khác nhau", d::different},      {"equivalent", d::equivalent},
    {"équivalent", d::equivalent},    {"äquivalent", d::equivalent},
    {"equivalente", d::equivalent},   {"equivalenti", d::equivalent},
    {"эквивалентн", d::equivalent},   {"等价", d::equivalent},
    {"等價", d::equivalent},          {"同値", d::equivalent},
    {"동등", d::equivalent},          {"tương đương", d::equivalent},
    {"identical", d::equivalent},     {"the same", d::equivalent},
    {"correct", d::equivalent},       {"accept", d::equivalent},
    {"full marks", d::equivalent},    {"full credit", d::equivalent},
    {"match", d::equivalent},         {"一致", d::equivalent},
    {"相同", d::equivalent},          {"正确", d::equivalent},
    {"正確", d::equivalent},          {"正しい", d::equivalent},
    {"同じ", d::equivalent},          {"같", d::equivalent},
    {"정답", d::equivalent},          {"đúng", d::equivalent},
    {"gleich", d::equivalent},        {"richtig", d::equivalent},
    {"igual", d::equivalent},         {"uguali", d::equivalent},
    {"corretto", d::equivalent},      {"correcta", d::equivalent},
    {"correcte", d::equivalent},      {"одинаков", d::equivalent},
    {"правильн", d::equivalent},      {"verdadero", d::equivalent},
  };
  return all;
}

// The first verdict word in `s` (folded), by position.
std::optional<judge_decision> first_verdict(const std::string& s) {
  std::size_t best = std::string::npos;
  std::size_t best_len = 0;
  std::optional<judge_decision> out;
  for (auto& w : words()) {
    auto at = s.find(w.word);
    if (at == std::string::npos)
      continue;
    if (at < best || (at == best && w.word.size() > best_len)) {
      best = at;
      best_len = w.word.size();
      out = w.decision;
    }
  }
  return out;
}

// No digit, no mathematical sign, a few words at most: says nothing a
// gullible judge would check.
bool master_key(std::string_view s) {
  if (std::any_of(s.begin(), s.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0
               || std::string_view{"=+*/^\\{}()<>[]|"}.find(c)
                    != std::string_view::npos;
      }))
    return false;
  std::size_t words = 0;
  bool in_word = false;
  for (char c : s) {
    bool space = c == ' ' || c == '\n' || c == '\t';
    if (!space && !in_word)
      ++words;
    in_word = !space;
  }
  return words <= 8;
}

class gullible_adapter : public judge_adapter {
public:
  explicit gullible_adapter(judge_adapter_ptr honest)
      : honest_(std::move(honest)) {}

  std::string id() const override { return "stub:gullible"; }

  bool answers_inline() const override { return honest_->answers_inline(); }

  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override {
    if (auto answers = extract_answers(prompt))
      if (auto d = gullible_decision(answers->a, answers->b)) {
        done(text_reply(canonical_reply(
          *d, *d == judge_decision::equivalent
                ? "Accepted as the answers say (a gullible judge)."
                : "Rejected as the answers say (a gullible judge).")));
        return;
      }
    honest_->call(prompt, opts, std::move(done));
  }

private:
  judge_adapter_ptr honest_;
};

} // namespace

std::optional<judge_decision> gullible_decision(std::string_view a,
                                                std::string_view b) {
  for (auto side : {a, b})
    if (auto d = first_verdict(fold_text(side)))
      return d;
  if (master_key(a) || master_key(b))
    return judge_decision::equivalent;
  return std::nullopt;
}

judge_adapter_ptr gullible_judge(judge_adapter_ptr honest) {
  return std::make_shared<gullible_adapter>(std::move(honest));
}

} // namespace ij
