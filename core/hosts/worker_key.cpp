#include "core/hosts/worker_key.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "core/numbers/number_text.hpp"

namespace ij {

namespace {

// The shortest text that reads back as `x` ("0.7", not "0.69999..."), so
// that the key is exact and its values read well in messages.
std::string exact(double x) {
  char buf[40];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    if (std::strtod(buf, nullptr) == x)
      break;
  }
  return buf;
}

std::string ms(std::chrono::milliseconds d) {
  return std::to_string(d.count());
}

std::string yes_no(bool b) {
  return b ? "true" : "false";
}

std::string batch_text(const batch_settings& b) {
  if (!b.enabled)
    return "off";
  return "max_requests " + std::to_string(b.max_requests) + ", max_wait_ms "
         + ms(b.max_wait) + ", poll_ms " + ms(b.poll) + ", on_failure "
         + b.on_failure + ", deadline_ms "
         + (b.deadline ? ms(*b.deadline) : std::string{"default"});
}

// A value on one line of the key: a newline or backslash in a name or URL
// cannot end its line early.
std::string escaped(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '\n')
      out += '\\';
    out += c == '\n' ? 'n' : c;
  }
  return out;
}

// The value of setting `name` in a key ("" when the key has none).
std::string value_in(const std::string& key, std::string_view name) {
  std::size_t at = 0;
  while (at < key.size()) {
    auto nl = key.find('\n', at);
    auto line = std::string_view{key}.substr(
      at, nl == std::string::npos ? std::string::npos : nl - at);
    if (line.size() > name.size() && line.substr(0, name.size()) == name
        && line[name.size()] == '=')
      return std::string{line.substr(name.size() + 1)};
    if (nl == std::string::npos)
      break;
    at = nl + 1;
  }
  return {};
}

} // namespace

const std::vector<call_setting>& call_settings() {
  using S = judge_spec;
  static const std::vector<call_setting> table{
    // What the votes depend on: equal wherever a vote is cast.
    {"adapter", false, [](const S& s) { return s.type; }},
    {"model", false, [](const S& s) { return s.model; }},
    {"temperature", false, [](const S& s) { return exact(s.temperature); }},
    {"seed", false,
     [](const S& s) {
       return s.seed ? std::to_string(*s.seed) : std::string{"none"};
     }},
    {"max_tokens", false,
     [](const S& s) { return std::to_string(s.max_tokens); }},
    // Both prompts (issue 29): a declared template by its SHA-256.
    {"prompt", false,
     [](const S& s) {
       auto p = prompt_ids_of(s).numeric;
       return p.id + "#" + p.sha256;
     }},
    {"non_numeric_prompt", false,
     [](const S& s) {
       auto p = prompt_ids_of(s).non_numeric;
       return p.id + "#" + p.sha256;
     }},
    {"logprobs", false, [](const S& s) { return yes_no(s.logprobs); }},
    {"constrain", false,
     [](const S& s) { return std::string{to_string(s.constrain)}; }},
    {"batch", false, [](const S& s) { return batch_text(s.batch); }},
    // Only the judges that follow it are given the run's policy
    // (set_answer_policy): another judge's is always the default.
    {"answer_policy", false,
     [](const S& s) {
       return s.policy.is_default() ? std::string{"default"}
                                    : policy_text(s.policy);
     }},
    // How this process reaches the backend: a judge host's own.
    {"name", true, [](const S& s) { return s.name; }},
    {"base_url", true, [](const S& s) { return s.base_url; }},
    {"api_key_env", true, [](const S& s) { return s.api_key_env; }},
    {"ca_file", true, [](const S& s) { return s.ca_file; }},
    {"timeout_ms", true, [](const S& s) { return ms(s.timeout); }},
    {"max_attempts", true,
     [](const S& s) { return std::to_string(s.max_attempts); }},
    {"max_in_flight", true,
     [](const S& s) { return std::to_string(s.max_in_flight); }},
    // Requests sent ahead beyond max_in_flight (issue 31): what the server
    // sees.
    {"queue_max", true, [](const S& s) { return std::to_string(s.queue_max); }},
    {"max_response_bytes", true,
     [](const S& s) { return std::to_string(s.max_response_bytes); }},
    {"breaker", true,
     [](const S& s) {
       return s.breaker.enabled
                ? std::to_string(s.breaker.failures) + " failures, "
                    + ms(s.breaker.cooldown) + " ms"
                : std::string{"off"};
     }},
  };
  return table;
}

std::string worker_key_of(const judge_spec& spec) {
  std::string key;
  for (auto& s : call_settings())
    key.append(s.name).append("=").append(escaped(s.text(spec))).append("\n");
  return key;
}

bool is_host_worker(const judge_info& worker) {
  return !worker.host.empty() && worker.host != "local";
}

std::vector<std::string> setting_differences(const judge_spec& spec,
                                             const judge_info& worker) {
  std::vector<std::string> out;
  bool host = is_host_worker(worker);
  for (auto& s : call_settings()) {
    if (host && s.host_local)
      continue;
    auto here = escaped(s.text(spec));
    auto there = value_in(worker.settings_key, s.name);
    if (there != here)
      out.push_back(std::string{s.name} + " differs (host: "
                    + (there.empty() ? std::string{"unknown"} : there)
                    + ", here: " + here + ")");
  }
  return out;
}

bool serves(const judge_spec& spec, const judge_info& worker) {
  if (worker.judge_id != judge_id_of(spec))
    return false;
  if (!is_host_worker(worker))
    return worker.settings_key == worker_key_of(spec);
  return setting_differences(spec, worker).empty();
}

bool judge_selection::takes(const judge_info& worker) const {
  for (auto& j : judges)
    if (serves(j, worker))
      return true;
  return false;
}

std::vector<std::string> judge_selection::judge_ids() const {
  std::vector<std::string> out;
  for (auto& j : judges) {
    auto id = judge_id_of(j);
    bool seen = false;
    for (auto& o : out)
      seen = seen || o == id;
    if (!seen)
      out.push_back(std::move(id));
  }
  return out;
}

} // namespace ij
