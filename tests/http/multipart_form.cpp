#include "tests/http/multipart_form.hpp"

#include <regex>

namespace ij::test {

std::optional<multipart_form> parse_multipart(const std::string& content_type,
                                              const std::string& body) {
  auto at = content_type.find("boundary=");
  if (content_type.rfind("multipart/form-data", 0) != 0
      || at == std::string::npos)
    return std::nullopt;
  auto boundary = content_type.substr(at + 9);
  if (!boundary.empty() && boundary.front() == '"')
    boundary = boundary.substr(1, boundary.find('"', 1) - 1);
  auto delimiter = "--" + boundary;
  multipart_form form;
  auto pos = body.find(delimiter);
  if (pos != 0)
    return std::nullopt;
  for (;;) {
    pos += delimiter.size();
    if (body.compare(pos, 2, "--") == 0)
      return form; // the closing delimiter
    if (body.compare(pos, 2, "\r\n") != 0)
      return std::nullopt;
    pos += 2;
    auto head_end = body.find("\r\n\r\n", pos);
    if (head_end == std::string::npos)
      return std::nullopt;
    auto head = body.substr(pos, head_end - pos);
    auto content_start = head_end + 4;
    auto next = body.find("\r\n" + delimiter, content_start);
    if (next == std::string::npos)
      return std::nullopt;
    std::smatch m;
    static const std::regex name_re("name=\"([^\"]*)\"");
    static const std::regex file_re("filename=\"([^\"]*)\"");
    if (!std::regex_search(head, m, name_re))
      return std::nullopt;
    auto name = m[1].str();
    if (std::regex_search(head, m, file_re))
      form.filename = m[1].str();
    form.parts[name] = body.substr(content_start, next - content_start);
    pos = next + 2;
  }
}

} // namespace ij::test
