#include "core/config_path.hpp"

#include <filesystem>

namespace ij {

std::string config_base_dir(const std::string& config_file) {
  return std::filesystem::path{config_file}.parent_path().string();
}

std::string resolve_config_path(const std::string& base_dir,
                                const std::string& path) {
  std::filesystem::path p{path};
  if (p.is_absolute() || base_dir.empty())
    return path;
  return (std::filesystem::path{base_dir} / p).lexically_normal().string();
}

} // namespace ij
