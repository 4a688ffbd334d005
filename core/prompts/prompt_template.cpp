#include "core/prompts/prompt_template.hpp"

#include <algorithm>

#include "core/sha256.hpp"

namespace ij {

namespace {

struct slot_spelling {
  std::string_view text;
  prompt_slot slot;
};

constexpr slot_spelling declared_slots[] = {
  {"{{answer_a}}", prompt_slot::answer_a},
  {"{{answer_b}}", prompt_slot::answer_b},
  {"{{problem}}", prompt_slot::problem},
};

std::string_view name_of(prompt_slot s) {
  switch (s) {
    case prompt_slot::answer_a: return "{{answer_a}}";
    case prompt_slot::answer_b: return "{{answer_b}}";
    case prompt_slot::problem: return "{{problem}}";
  }
  return "{{answer_a}}";
}

} // namespace

caf::expected<prompt_template>
prompt_template::parse(std::string id, std::string text,
                       const std::string& where) {
  auto bad = [&](const std::string& what) {
    return make_error(errc::bad_config, where + ": " + what);
  };
  prompt_template t;
  std::size_t counts[3] = {0, 0, 0};
  std::string literal;
  std::size_t i = 0;
  while (i < text.size()) {
    auto open = text.find("{{", i);
    if (open == std::string::npos) {
      literal.append(text, i, std::string::npos);
      break;
    }
    literal.append(text, i, open - i);
    const slot_spelling* hit = nullptr;
    for (auto& s : declared_slots)
      if (text.compare(open, s.text.size(), s.text) == 0)
        hit = &s;
    if (!hit) {
      auto close = text.find("}}", open);
      auto shown =
        text.substr(open, close == std::string::npos
                            ? std::min<std::size_t>(20, text.size() - open)
                            : close + 2 - open);
      return bad(
        "unknown slot \"" + shown
        + "\" (the slots are {{answer_a}}, {{answer_b}} and {{problem}})");
    }
    ++counts[static_cast<int>(hit->slot)];
    t.literals_.push_back(std::move(literal));
    literal.clear();
    t.slots_.push_back(hit->slot);
    i = open + hit->text.size();
  }
  t.literals_.push_back(std::move(literal));
  for (auto s : {prompt_slot::answer_a, prompt_slot::answer_b}) {
    auto n = counts[static_cast<int>(s)];
    if (n != 1)
      return bad(std::string{"the template must hold "}
                 + std::string{name_of(s)} + " exactly once (it holds it "
                 + std::to_string(n)
                 + " times): the judge must see both answers");
  }
  if (counts[static_cast<int>(prompt_slot::problem)] > 1)
    return bad("the template holds {{problem}} more than once");
  t.id_ = std::move(id);
  t.text_ = std::move(text);
  t.sha256_ = sha256_hex(t.text_);
  return t;
}

prompt_template prompt_template::with_slots(std::string id, std::string text,
                                            std::string_view slot_a,
                                            std::string_view slot_b) {
  prompt_template t;
  auto pos_a = text.find(slot_a);
  auto pos_b = text.find(slot_b, pos_a + slot_a.size());
  t.literals_ = {
    text.substr(0, pos_a),
    text.substr(pos_a + slot_a.size(), pos_b - pos_a - slot_a.size()),
    text.substr(pos_b + slot_b.size())};
  t.slots_ = {prompt_slot::answer_a, prompt_slot::answer_b};
  t.id_ = std::move(id);
  t.text_ = std::move(text);
  t.sha256_ = sha256_hex(t.text_);
  return t;
}

bool prompt_template::uses_problem() const {
  return std::find(slots_.begin(), slots_.end(), prompt_slot::problem)
         != slots_.end();
}

std::string prompt_template::render(std::string_view a, std::string_view b,
                                    std::string_view problem) const {
  std::size_t size = a.size() + b.size() + problem.size();
  for (auto& l : literals_)
    size += l.size();
  std::string out;
  out.reserve(size);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    out += literals_[i];
    switch (slots_[i]) {
      case prompt_slot::answer_a: out.append(a); break;
      case prompt_slot::answer_b: out.append(b); break;
      case prompt_slot::problem: out.append(problem); break;
    }
  }
  out += literals_.back();
  return out;
}

std::optional<prompt_answers>
prompt_template::extract(std::string_view prompt) const {
  const auto& head = literals_.front();
  const auto& tail = literals_.back();
  if (prompt.size() < head.size() + tail.size()
      || prompt.substr(0, head.size()) != head
      || prompt.substr(prompt.size() - tail.size()) != tail)
    return std::nullopt;
  auto body =
    prompt.substr(head.size(), prompt.size() - head.size() - tail.size());
  prompt_answers out;
  auto put = [&](prompt_slot s, std::string_view v) {
    switch (s) {
      case prompt_slot::answer_a: out.a = std::string{v}; break;
      case prompt_slot::answer_b: out.b = std::string{v}; break;
      case prompt_slot::problem: out.problem = std::string{v}; break;
    }
  };
  for (std::size_t i = 0; i + 1 < slots_.size(); ++i) {
    const auto& middle = literals_[i + 1];
    // Overlapping occurrences count too: any second one makes the split
    // ambiguous.
    auto first = body.find(middle);
    if (first == std::string_view::npos
        || body.find(middle, first + 1) != std::string_view::npos)
      return std::nullopt;
    put(slots_[i], body.substr(0, first));
    body = body.substr(first + middle.size());
  }
  put(slots_.back(), body);
  return out;
}

} // namespace ij
