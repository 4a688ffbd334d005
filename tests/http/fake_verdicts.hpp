#pragma once
// What the fake judge servers' "model" writes (issue 16): the verdict held
// to a constraint the request asked for (the four lines under a grammar,
// the four fields as JSON under a schema), a chatty reply that wraps or
// drops the format when nothing holds it, and the reply's tokens with
// log-probabilities whose decision token carries declared alternatives.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ij::test {

enum class asked_constraint { none, grammar, json };

/// The verdict the fake gives: its decision word and fields.
struct fake_verdict {
  std::string decision = "EQUIVALENT";
  std::string reason = "both answers are one half";
  std::string numeric_a = "0.5";
  std::string numeric_b = "1/2";
};

/// The verdict as the four canonical lines.
std::string verdict_lines(const fake_verdict& v);
/// The verdict as the JSON object of the four fields.
std::string verdict_json(const fake_verdict& v);
/// A reply that misses the format: prose (`n` even) or a fenced JSON object
/// with other keys (`n` odd) — what a chatty model writes unconstrained.
std::string sloppy_reply(const fake_verdict& v, std::uint64_t n);

struct fake_token {
  std::string token;
  double logprob = 0.0;
  std::vector<std::pair<std::string, double>> top;
};

/// `text` split into word-piece tokens (a leading space stays on a word; a
/// word is cut into pieces of at most 5 letters; other characters are one
/// token each). The decision token (the first with a letter after the
/// "DECISION"/"decision" token and a ':') gets `alternatives` (letters
/// only; the chosen token's leading non-letters are put before each) as its
/// top list, and the logprob of the alternative it matches; every other
/// token is near-certain.
std::vector<fake_token>
fake_tokens(const std::string& text,
            const std::vector<std::pair<std::string, double>>& alternatives);

/// Writes `tokens` as an API's array of {token, logprob, bytes,
/// top_logprobs: [{token, logprob, bytes}]} (with llama.cpp's "id" when
/// `with_ids`).
void write_tokens(rapidjson::Writer<rapidjson::StringBuffer>& w,
                  const std::vector<fake_token>& tokens, bool with_ids);

} // namespace ij::test
