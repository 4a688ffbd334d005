#include "tools/config_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

#include "runio/prompt_file.hpp"

namespace ij {

namespace {

// A relative path in a configuration file means the file's own directory,
// wherever the command runs: `--config /etc/invjudge/run.json` with
// "calibration": "maps/m.json" reads /etc/invjudge/maps/m.json.
void resolve_against(const std::filesystem::path& dir, std::string& path) {
  if (path.empty() || dir.empty() || std::filesystem::path{path}.is_absolute())
    return;
  path = (dir / path).lexically_normal().string();
}

} // namespace

void resolve_config_paths(run_config& cfg, const std::string& config_path) {
  auto dir = std::filesystem::path{config_path}.parent_path();
  resolve_against(dir, cfg.calibration);
  resolve_against(dir, cfg.audit_path);
  resolve_against(dir, cfg.cache.path);
  resolve_against(dir, cfg.connection.tls_cert);
  resolve_against(dir, cfg.connection.tls_key);
  resolve_against(dir, cfg.connection.tls_ca);
  for (auto& j : cfg.judges) {
    resolve_against(dir, j.ca_file);
    resolve_against(dir, j.prompt.file);
    if (j.non_numeric_prompt)
      resolve_against(dir, j.non_numeric_prompt->file);
  }
}

caf::expected<run_config> load_config(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return make_error(errc::bad_config,
                      path + ": is a directory, not a configuration file");
  std::ifstream in{path, std::ios::binary};
  if (!in)
    return make_error(errc::io_failed,
                      path + ": cannot open: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return make_error(errc::io_failed,
                      path + ": cannot read: " + std::strerror(errno));
  if (text.str().find_first_not_of(" \t\r\n") == std::string::npos)
    // RapidJSON's "The document is empty" reads like a broken file.
    return make_error(errc::bad_config,
                      path
                        + ": the file is empty (a configuration is one JSON "
                          "object; {} takes every default)");
  auto cfg = parse_config(text.str(), path);
  if (cfg)
    resolve_config_paths(*cfg, path);
  return cfg;
}

caf::expected<run_config>
command_config(const std::string& path,
               const std::optional<std::string>& judge) {
  auto cfg = path.empty() ? caf::expected<run_config>{default_config()}
                          : load_config(path);
  if (cfg && judge)
    if (auto err = override_judge(*cfg, *judge))
      return err;
  // Declared prompts (their paths made the file's directory's by load_config).
  if (cfg)
    if (auto err = attach_prompts(*cfg))
      return err;
  return cfg;
}

} // namespace ij
