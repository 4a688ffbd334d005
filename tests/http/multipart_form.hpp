#pragma once
// A multipart/form-data body as the batch fakes read an uploaded file
// (OpenAI's Files API): the parts by name, and the file part's filename.
#include <map>
#include <optional>
#include <string>

namespace ij::test {

struct multipart_form {
  /// name -> content.
  std::map<std::string, std::string> parts;
  /// The file part's filename; empty without one.
  std::string filename;
};

/// The form of `body` sent with `content_type`; nullopt when the body is
/// not multipart/form-data with that boundary.
std::optional<multipart_form> parse_multipart(const std::string& content_type,
                                              const std::string& body);

} // namespace ij::test
