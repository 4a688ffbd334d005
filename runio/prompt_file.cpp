#include "runio/prompt_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <system_error>

#include "core/prompts/prompt.hpp"

namespace ij {

namespace {

caf::error read_one(prompt_choice& p, const std::string& where) {
  if (!p.declared() || p.loaded)
    return {};
  auto path = p.file;
  std::error_code ec;
  auto absolute = std::filesystem::absolute(path, ec);
  if (!ec)
    path = absolute.lexically_normal().string();
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (!in || !(text << in.rdbuf()))
    return make_error(errc::io_failed, where + ": cannot read the prompt file "
                                         + path + ": " + std::strerror(errno));
  auto bytes = text.str();
  auto at = where + ": " + path;
  if (auto built_in = built_in_prompt(p.id)) {
    if (bytes != built_in->text())
      return make_error(
        errc::bad_config,
        at + ": the id \"" + p.id
          + "\" is a built-in prompt's, and "
            "the file's bytes are not that prompt's (a prompt of your own "
            "needs an id of its own)");
    p = prompt_choice{};
    p.id = built_in->id();
    return {};
  }
  auto parsed = prompt_template::parse(p.id, std::move(bytes), at);
  if (!parsed)
    return std::move(parsed.error());
  if (!p.sha256.empty() && p.sha256 != parsed->sha256())
    return make_error(errc::bad_config,
                      at + ": SHA-256 " + parsed->sha256() + " differs from "
                        + p.sha256
                        + " declared (the prompt file changed since the "
                          "run started, or \"sha256\" is not this file's)");
  p.file = path;
  p.sha256 = parsed->sha256();
  p.loaded = std::make_shared<const prompt_template>(std::move(*parsed));
  return {};
}

} // namespace

caf::error attach_prompts(run_config& cfg) {
  for (std::size_t i = 0; i < cfg.judges.size(); ++i) {
    auto& j = cfg.judges[i];
    auto at = (cfg.source.empty() ? "" : cfg.source + ": ") + "/judges/"
              + std::to_string(i);
    if (auto err = read_one(j.prompt, at + "/prompt"))
      return err;
    if (j.non_numeric_prompt)
      if (auto err =
            read_one(*j.non_numeric_prompt, at + "/non_numeric_prompt"))
        return err;
  }
  return {};
}

} // namespace ij
