#include "tools/config_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

namespace ij {

std::optional<run_config> load_config(const std::string& path,
                                      std::string& error) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    error = path + ": is a directory, not a configuration file";
    return std::nullopt;
  }
  std::ifstream in{path, std::ios::binary};
  if (!in) {
    error = path + ": cannot open: " + std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    error = path + ": cannot read: " + std::strerror(errno);
    return std::nullopt;
  }
  if (text.str().find_first_not_of(" \t\r\n") == std::string::npos) {
    // RapidJSON's "The document is empty" reads like a broken file.
    error = path + ": the file is empty (a configuration is one JSON object; {} "
                   "takes every default)";
    return std::nullopt;
  }
  return parse_config(text.str(), path, error);
}

} // namespace ij
