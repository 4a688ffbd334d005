#include "core/prompts/prompt_choice.hpp"

namespace ij {

prompt_identity identity_of(const prompt_choice& p) {
  if (!p.declared())
    if (auto b = built_in_prompt(p.id))
      return {b->id(), b->sha256()};
  return {p.id, p.loaded ? p.loaded->sha256() : p.sha256};
}

prompt_ptr template_of(const prompt_choice& p) {
  if (!p.declared())
    return built_in_prompt(p.id);
  return p.loaded;
}

// "prompt": what the text says; runio/prompt_file reads the file later.
caf::error read_prompt_choice(const rapidjson::Value& v, prompt_choice& into,
                              const std::string& at) {
  using config::field_error;
  prompt_choice p;
  if (v.IsString()) {
    p.id = v.GetString();
    if (!built_in_prompt(p.id))
      return field_error(at, "\"" + p.id + "\" is not a built-in prompt ("
                               + built_in_prompt_ids_text()
                               + "); a prompt of your own is {\"id\": \"...\", "
                                 "\"file\": \"PATH\"}");
    into = std::move(p);
    return caf::error{};
  }
  p.id = v["id"].GetString();
  p.file = v["file"].GetString();
  if (auto s = v.FindMember("sha256"); s != v.MemberEnd())
    p.sha256 = s->value.GetString();
  // A built-in id with a file is checked against the built-in's bytes
  // when the file is read; any other id under the built-ins' prefix is
  // refused now.
  if (p.id.rfind(built_in_prompt_prefix, 0) == 0 && !built_in_prompt(p.id))
    return field_error(
      at + "/id", "ids starting with \"" + std::string{built_in_prompt_prefix}
                    + "\" are reserved for the built-in prompts ("
                    + built_in_prompt_ids_text()
                    + "): give your prompt an id of its own");
  into = std::move(p);
  return caf::error{};
}

void write_prompt_choice(config::json_writer& w, const prompt_choice& p) {
  if (!p.declared()) {
    w.String(p.id);
    return;
  }
  w.StartObject();
  w.Key("id");
  w.String(p.id);
  w.Key("file");
  w.String(p.file);
  auto sha = identity_of(p).sha256;
  if (!sha.empty()) {
    w.Key("sha256");
    w.String(sha);
  }
  w.EndObject();
}

} // namespace ij
