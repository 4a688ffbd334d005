#include "tests/http/fake_verdicts.hpp"

#include <cctype>

namespace ij::test {

namespace {

bool letter(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

std::string lower(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void write_bytes(rapidjson::Writer<rapidjson::StringBuffer>& w,
                 const std::string& token) {
  w.Key("bytes");
  w.StartArray();
  for (unsigned char c : token)
    w.Uint(c);
  w.EndArray();
}

} // namespace

std::string verdict_lines(const fake_verdict& v) {
  return "DECISION: " + v.decision + "\nREASON: " + v.reason
         + "\nNUMERIC_A: " + v.numeric_a + "\nNUMERIC_B: " + v.numeric_b;
}

std::string verdict_json(const fake_verdict& v) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.StartObject();
  w.Key("decision");
  w.String(v.decision);
  w.Key("reason");
  w.String(v.reason);
  w.Key("numeric_a");
  w.String(v.numeric_a);
  w.Key("numeric_b");
  w.String(v.numeric_b);
  w.EndObject();
  return {buf.GetString(), buf.GetSize()};
}

std::string sloppy_reply(const fake_verdict& v, std::uint64_t n) {
  if (n % 2 == 0)
    return "Sure! Having compared both answers, I find them "
           + lower(v.decision) + ": " + v.reason + ".";
  return "```json\n{\"verdict\": \"" + v.decision + "\", \"why\": \"" + v.reason
         + "\"}\n```";
}

std::vector<fake_token>
fake_tokens(const std::string& text,
            const std::vector<std::pair<std::string, double>>& alternatives) {
  std::vector<fake_token> out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t start = i;
    while (i < text.size() && text[i] == ' ')
      ++i;
    if (i < text.size() && letter(text[i])) {
      std::size_t letters = 0;
      while (i < text.size() && letter(text[i]) && letters < 5) {
        ++i;
        ++letters;
      }
    } else if (i < text.size() && i == start) {
      ++i;
    }
    out.push_back({text.substr(start, i - start), -0.01, {}});
  }
  // The decision token: after "DECISION"/"decision" and a ':'.
  bool key = false, colon = false, prev_letter = false;
  std::string word;
  for (auto& t : out) {
    bool has_letter = false;
    for (char c : t.token)
      has_letter = has_letter || letter(c);
    if (key && colon && has_letter) {
      std::string lead = t.token.substr(0, t.token.find_first_not_of(" \""));
      std::string letters = t.token.substr(lead.size());
      t.logprob = -0.05;
      for (auto& [prefix, logprob] : alternatives) {
        t.top.emplace_back(lead + prefix, logprob);
        if (prefix == letters)
          t.logprob = logprob;
      }
      break;
    }
    if (has_letter) {
      bool continues = letter(t.token.front()) && prev_letter;
      auto piece = t.token.substr(t.token.find_first_not_of(' '));
      word = continues ? word + piece : piece;
      key = lower(word) == "decision";
      colon = false;
    } else if (t.token == ":" && key) {
      colon = true;
    }
    prev_letter = has_letter;
  }
  for (auto& t : out)
    if (t.top.empty())
      t.top = {{t.token, t.logprob}, {"~", -7.5}};
  return out;
}

void write_tokens(rapidjson::Writer<rapidjson::StringBuffer>& w,
                  const std::vector<fake_token>& tokens, bool with_ids) {
  w.StartArray();
  std::uint32_t id = 1000;
  for (auto& t : tokens) {
    w.StartObject();
    if (with_ids) {
      w.Key("id");
      w.Uint(id++);
    }
    w.Key("token");
    w.String(t.token);
    w.Key("logprob");
    w.Double(t.logprob);
    write_bytes(w, t.token);
    w.Key("top_logprobs");
    w.StartArray();
    for (auto& [token, logprob] : t.top) {
      w.StartObject();
      if (with_ids) {
        w.Key("id");
        w.Uint(id++);
      }
      w.Key("token");
      w.String(token);
      w.Key("logprob");
      w.Double(logprob);
      write_bytes(w, token);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

} // namespace ij::test
