#pragma once
// A judge prompt template (issue 29): an id, the text as read (its SHA-256
// is what the manifest and the response cache key record), and the slots
// the answers go into. The canonical prompt spells its slots "<text A>" and
// "<text B>" (SPEC §4); every other template "{{answer_a}}",
// "{{answer_b}}" and optionally "{{problem}}" — each answer slot exactly
// once, the problem at most once, and no other "{{...}}" (a misspelt slot
// would send the judge a prompt without an answer in it).
//
// Rendering splices by position: an answer that contains a slot's spelling
// is never substituted into. Pure: no file is read here (runio/prompt_file
// reads declared ones).
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <caf/expected.hpp>

#include "messages/error.hpp"

namespace ij {

enum class prompt_slot : unsigned char { answer_a, answer_b, problem };

/// What a rendered prompt was made from (rule and test judges read the
/// answers back out of it).
struct prompt_answers {
  std::string a;
  std::string b;
  std::string problem;
};

class prompt_template {
public:
  /// A template with "{{answer_a}}", "{{answer_b}}" and optionally
  /// "{{problem}}"; errc::bad_config naming `where` and what is wrong (a
  /// missing or repeated answer slot, an unknown "{{...}}").
  static caf::expected<prompt_template> parse(std::string id, std::string text,
                                              const std::string& where);

  /// A template whose answer slots are spelled `slot_a` and `slot_b`
  /// (the canonical prompt's "<text A>", "<text B>"); precondition: each
  /// occurs once, A first.
  static prompt_template with_slots(std::string id, std::string text,
                                    std::string_view slot_a,
                                    std::string_view slot_b);

  const std::string& id() const { return id_; }
  /// The text as read, byte for byte.
  const std::string& text() const { return text_; }
  /// Lower-case hex SHA-256 of text().
  const std::string& sha256() const { return sha256_; }
  bool uses_problem() const;

  /// The prompt for one call: the text with the answers (and the problem)
  /// in their slots, verbatim.
  std::string render(std::string_view a, std::string_view b,
                     std::string_view problem = {}) const;

  /// The answers a prompt rendered from this template holds: the prompt
  /// must start and end with the template's fixed text, and each fixed
  /// piece between slots must occur exactly once in what remains (else the
  /// split is ambiguous: nullopt, as for any other prompt).
  std::optional<prompt_answers> extract(std::string_view prompt) const;

private:
  prompt_template() = default;

  std::string id_;
  std::string text_;
  std::string sha256_;
  /// The fixed text around the slots: literals_.size() == slots_.size() + 1.
  std::vector<std::string> literals_;
  std::vector<prompt_slot> slots_;
};

using prompt_ptr = std::shared_ptr<const prompt_template>;

} // namespace ij
