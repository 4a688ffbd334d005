#pragma once
// Where a relative path in a configuration points: at the configuration
// file's own directory, not the working directory (a configuration moved
// with its files keeps working; issue 27's rule). A configuration that is
// no file (the embedded default, a daemon request's body, a manifest whose
// paths were made absolute when the run started) resolves against the
// working directory. One rule for every path a configuration names.
// Pure: lexical only, nothing is read.
#include <string>

namespace ij {

/// The directory relative paths in the configuration file `config_file`
/// resolve against ("" — the working directory — for a file in it).
std::string config_base_dir(const std::string& config_file);

/// `path` resolved against `base_dir` (empty: as given); an absolute path
/// is unchanged.
std::string resolve_config_path(const std::string& base_dir,
                                const std::string& path);

} // namespace ij
