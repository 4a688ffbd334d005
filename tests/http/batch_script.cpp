#include "tests/http/batch_script.hpp"

#include <regex>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ij::test {

std::string scripted_pairs(int count) {
  std::string out;
  for (int i = 0; i < count; ++i)
    out += R"({"id":"p)" + std::to_string(i) + R"(","a":"K)" + std::to_string(i)
           + R"(K","b":"K)" + std::to_string(i) + "K\"}\n";
  return out;
}

std::string scripted_decision(int pair, int vote) {
  if (pair % 4 == 0)
    return vote == 0 ? "EQUIVALENT" : "DIFFERENT";
  return pair % 4 == 1 ? "DIFFERENT" : "EQUIVALENT";
}

std::string scripted_reply(const std::string& decision) {
  return "DECISION: " + decision + "\nREASON: fake\nNUMERIC_A: 1\nNUMERIC_B: 1";
}

void decide_by_custom_id(fake_batches& fake) {
  fake.set_reply([](const std::string& id) {
    static const std::regex re{"-p([0-9]+)-v([0-9]+)$"};
    std::smatch m;
    if (!std::regex_search(id, m, re))
      return scripted_reply("ABSTAIN");
    return scripted_reply(
      scripted_decision(std::stoi(m[1]) - 1, std::stoi(m[2])));
  });
}

scripted_sync_judge::scripted_sync_judge(api_kind kind, std::string api_key) {
  fake_api_options o;
  o.kind = kind;
  o.api_key = std::move(api_key);
  o.model_replies = true;
  o.threads = 2;
  o.decide = [this](const rapidjson::Document& req, fake_verdict& v,
                    std::vector<std::pair<std::string, double>>&) {
    rapidjson::StringBuffer sb;
    rapidjson::Writer<rapidjson::StringBuffer> w(sb);
    req.Accept(w);
    std::string body = sb.GetString();
    static const std::regex re{"K([0-9]+)K"};
    std::smatch m;
    if (!std::regex_search(body, m, re))
      return;
    int pair = std::stoi(m[1]);
    std::lock_guard<std::mutex> g{mtx};
    v.decision = scripted_decision(pair, calls[pair]++);
  };
  api = std::make_unique<fake_api>(o);
}

} // namespace ij::test
