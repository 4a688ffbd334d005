#pragma once
// A judge's prompt as its configuration names it (issue 29): a built-in id
// ("invariance-checker/judge/v1"), or a declared template {"id", "file"}
// whose bytes are read by runio/prompt_file before anything is built. The
// SHA-256 of a declared template is that of the file's bytes as read; a
// resumed run's manifest declares it, and a file that changed since is
// refused.
#include <string>

#include <caf/error.hpp>
#include <rapidjson/document.h>

#include "core/config/config_fields.hpp"
#include "core/prompts/prompt.hpp"

namespace ij {

struct prompt_choice {
  std::string id{judge_prompt_id};
  /// Declared templates only: the file (absolute once read).
  std::string file;
  /// Declared templates only: the SHA-256 of the file's bytes (declared,
  /// or of the bytes read).
  std::string sha256;
  /// Declared templates only: the template once read; null before.
  prompt_ptr loaded;

  bool declared() const { return !file.empty(); }
};

inline bool operator==(const prompt_choice& x, const prompt_choice& y) {
  return x.id == y.id && x.file == y.file && x.sha256 == y.sha256;
}

inline bool operator!=(const prompt_choice& x, const prompt_choice& y) {
  return !(x == y);
}

/// The id and SHA-256 a prompt is known by (manifest, judge id, records).
struct prompt_identity {
  std::string id;
  std::string sha256;
};

/// A built-in's id and SHA-256; a declared template's id and its SHA-256
/// (empty until read or declared).
prompt_identity identity_of(const prompt_choice& p);

/// The template a choice names: a built-in, or the declared one once read
/// (null before, or for an unknown built-in id).
prompt_ptr template_of(const prompt_choice& p);

/// A configuration's "prompt" value (schema-valid: a string, or an object
/// with "id", "file" and maybe "sha256"): a built-in id must be one; a
/// declared id must not start with the built-ins' prefix unless it is a
/// built-in's (then its file is checked against that built-in's bytes when
/// read). errc::bad_config "<at>: <what>". The file is not read here.
caf::error read_prompt_choice(const rapidjson::Value& v, prompt_choice& into,
                              const std::string& at);

/// Writes it back: the id of a built-in, else {"id", "file", "sha256"}.
void write_prompt_choice(config::json_writer& w, const prompt_choice& p);

} // namespace ij
