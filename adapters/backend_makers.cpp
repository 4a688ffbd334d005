#include "adapters/backend_makers.hpp"

#include <map>
#include <mutex>
#include <utility>

#include "adapters/chat_protocol.hpp"
#include "adapters/http_backends.hpp"
#include "adapters/stub_judges.hpp"
#include "core/config/backend_kinds.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

// The factory checked the model against the kind's table row first; a null
// adapter here is a kind the row accepts and the stubs do not know.
caf::expected<judge_adapter_ptr> in_process(judge_adapter_ptr adapter,
                                            const judge_spec& spec) {
  if (adapter)
    return adapter;
  return make_error(errc::internal, "the " + spec.type
                                      + " kind has no adapter for '"
                                      + spec.model + "'");
}

std::map<std::string, adapter_maker> built_in() {
  std::map<std::string, adapter_maker> out;
  out["stub"] = [](const judge_spec& spec) {
    return in_process(make_stub_judge(spec.model, spec.policy), spec);
  };
  out["rules"] = [](const judge_spec& spec) {
    return in_process(make_rule_judge(spec.model, spec.policy), spec);
  };
  // Every HTTP kind of the table that has a chat protocol
  // (adapters/chat_protocol's rows) calls through it.
  for (auto& name : backend_kind_names())
    if (is_backend_type(name) && chat_protocol_for(name))
      out[name] = [](const judge_spec& spec) {
        return make_http_adapter(spec);
      };
  return out;
}

struct maker_table {
  std::mutex mtx;
  std::map<std::string, adapter_maker> makers = built_in();
};

maker_table& table() {
  static maker_table t;
  return t;
}

} // namespace

adapter_maker maker_of(const std::string& name) {
  auto& t = table();
  std::lock_guard<std::mutex> guard{t.mtx};
  auto i = t.makers.find(name);
  return i == t.makers.end() ? adapter_maker{} : i->second;
}

caf::error add_adapter_maker(std::string name, adapter_maker make) {
  if (name.empty() || !make)
    return make_error(errc::bad_config,
                      "an adapter maker needs a kind's name and a function");
  auto& t = table();
  std::lock_guard<std::mutex> guard{t.mtx};
  if (!t.makers.emplace(std::move(name), std::move(make)).second)
    return make_error(errc::bad_config,
                      "the backend kind already has an adapter maker");
  return caf::error{};
}

} // namespace ij
