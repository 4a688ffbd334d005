#include "adapters/judge_spec.hpp"

#include "adapters/stub_judges.hpp"

#if __has_include("adapters/http_backends.hpp")
#include "adapters/http_backends.hpp"
#define IJ_HAS_HTTP_BACKENDS 1
#else
#define IJ_HAS_HTTP_BACKENDS 0
#endif

namespace ij {

namespace {

constexpr std::string_view name_help =
  "expected TYPE:MODEL such as stub:numeric, ollama:qwen2.5:7b, "
  "anthropic:claude-haiku-4-5 or openai:MODEL@http://127.0.0.1:8000";

bool is_backend_type(std::string_view type) {
  return type == "ollama" || type == "anthropic" || type == "openai";
}

std::string joined_stub_kinds() {
  const auto& kinds = stub_kinds();
  std::string out;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (i > 0)
      out += i + 1 == kinds.size() ? " or " : ", ";
    out += kinds[i];
  }
  return out;
}

// The position of the '@' that starts a URL suffix: the last '@' followed by
// http:// or https:// (a model name may itself contain '@' or ':').
std::size_t url_separator(std::string_view rest) {
  for (auto pos = rest.rfind('@'); pos != std::string_view::npos;
       pos = pos == 0 ? std::string_view::npos : rest.rfind('@', pos - 1)) {
    auto tail = rest.substr(pos + 1);
    if (tail.rfind("http://", 0) == 0 || tail.rfind("https://", 0) == 0)
      return pos;
  }
  return std::string_view::npos;
}

} // namespace

std::optional<judge_spec> parse_judge_name(const std::string& name,
                                           std::string& error) {
  if (name.empty()) {
    error = "empty judge name (" + std::string{name_help} + ")";
    return std::nullopt;
  }
  auto colon = name.find(':');
  if (colon == std::string::npos) {
    error = "judge name '" + name + "' has no type ("
            + std::string{name_help} + ")";
    return std::nullopt;
  }
  auto type = name.substr(0, colon);
  if (type != "stub" && !is_backend_type(type)) {
    error = "unknown judge type '" + type + "' in '" + name
            + "' (expected stub, ollama, anthropic or openai)";
    return std::nullopt;
  }
  std::string_view rest{name};
  rest.remove_prefix(colon + 1);
  judge_spec spec;
  spec.type = type;
  if (auto at = url_separator(rest); at != std::string_view::npos) {
    spec.base_url = std::string{rest.substr(at + 1)};
    rest = rest.substr(0, at);
    if (spec.base_url == "http://" || spec.base_url == "https://") {
      error = "judge name '" + name + "' has a URL without a host";
      return std::nullopt;
    }
  }
  spec.model = std::string{rest};
  if (spec.model.empty()) {
    error = "judge name '" + name + "' has an empty "
            + (type == "stub" ? std::string{"stub kind"}
                              : std::string{"model"})
            + " (" + std::string{name_help} + ")";
    return std::nullopt;
  }
  if (type == "stub") {
    if (!make_stub_judge(spec.model)) {
      error = "unknown stub kind '" + spec.model + "' in '" + name
              + "' (expected " + joined_stub_kinds() + ")";
      return std::nullopt;
    }
    if (!spec.base_url.empty()) {
      error = "stub judge '" + name + "' takes no URL";
      return std::nullopt;
    }
  }
  spec.name = name;
  return spec;
}

judge_adapter_ptr make_adapter(const judge_spec& spec, std::string& error) {
  if (spec.type == "stub") {
    if (auto adapter = make_stub_judge(spec.model))
      return adapter;
    error = "unknown stub kind '" + spec.model + "' (expected "
            + joined_stub_kinds() + ")";
    return nullptr;
  }
  if (is_backend_type(spec.type)) {
    if (spec.model.empty()) {
      error = "judge '" + spec.name + "' of type '" + spec.type
              + "' names no model";
      return nullptr;
    }
#if IJ_HAS_HTTP_BACKENDS
    return make_http_adapter(spec, error);
#else
    error = "judge type '" + spec.type + "' is not available in this build";
    return nullptr;
#endif
  }
  error = "unknown judge type '" + spec.type
          + "' (expected stub, ollama, anthropic or openai)";
  return nullptr;
}

call_options call_options_for(const judge_spec& spec,
                              std::uint32_t vote_index) {
  call_options opts;
  opts.model = spec.model;
  opts.temperature = spec.temperature;
  if (spec.seed)
    opts.seed = *spec.seed + static_cast<std::int64_t>(vote_index);
  opts.max_tokens = spec.max_tokens;
  opts.timeout = spec.timeout;
  return opts;
}

} // namespace ij
