#include "tools/config_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

#include "core/config_path.hpp"
#include "runio/prompt_file.hpp"

namespace ij {

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
                      path + ": the file is empty (a configuration is one JSON "
                             "object; {} takes every default)");
  return parse_config(text.str(), path);
}

caf::expected<run_config> command_config(const std::string& path,
                                         const std::optional<std::string>& judge) {
  auto cfg = path.empty() ? caf::expected<run_config>{default_config()}
                          : load_config(path);
  if (cfg && judge)
    if (auto err = override_judge(*cfg, *judge))
      return err;
  // Declared prompts: relative paths against the configuration's directory.
  if (cfg)
    if (auto err = attach_prompts(*cfg, config_base_dir(path)))
      return err;
  return cfg;
}

} // namespace ij
