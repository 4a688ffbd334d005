#include "runio/pair_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "messages/error.hpp"

namespace ij {

namespace {

bool blank(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r')
      return false;
  return true;
}

caf::error bad_line(std::string reason) {
  return make_error(errc::bad_input, std::move(reason));
}

/// An optional string field: absent or null leaves `into` alone.
caf::error optional_string(const rapidjson::Value& obj, const char* name,
                           std::string& into) {
  auto it = obj.FindMember(name);
  if (it == obj.MemberEnd() || it->value.IsNull())
    return caf::none;
  if (!it->value.IsString())
    return bad_line(std::string{"field \""} + name + "\" must be a string");
  into.assign(it->value.GetString(), it->value.GetStringLength());
  return caf::none;
}

caf::error required_string(const rapidjson::Value& obj, const char* name,
                           std::string& into) {
  auto it = obj.FindMember(name);
  if (it == obj.MemberEnd())
    return bad_line(std::string{"missing field \""} + name + "\"");
  return optional_string(obj, name, into);
}

/// At most ~80 bytes of `s`, cut on a UTF-8 boundary, for messages.
std::string abbreviated(const std::string& s) {
  if (s.size() <= 80)
    return s;
  std::size_t cut = 77;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
    --cut;
  return s.substr(0, cut) + "...";
}

/// The first field name (in sorted order) that occurs twice in `obj`, or
/// empty. RapidJSON keeps both and FindMember returns the first, so a
/// duplicate would otherwise pass with one of its values silently dropped.
std::string duplicate_field(const rapidjson::Value& obj) {
  std::vector<std::string_view> names;
  names.reserve(obj.MemberCount());
  for (auto& m : obj.GetObject())
    names.emplace_back(m.name.GetString(), m.name.GetStringLength());
  std::sort(names.begin(), names.end());
  auto dup = std::adjacent_find(names.begin(), names.end());
  return dup == names.end() ? std::string{} : std::string{*dup};
}

} // namespace

caf::expected<answer_pair> parse_pair_line(std::string_view text) {
  // RapidJSON stops at a NUL as at the end of the text, so "{...}\0{...}"
  // would read as its first object alone.
  if (auto nul = text.find('\0'); nul != std::string_view::npos)
    return bad_line("NUL byte at byte " + std::to_string(nul + 1)
                    + ": a line holds one JSON object and nothing else");
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(text.data(), text.size());
  if (doc.HasParseError()) {
    auto code = doc.GetParseError();
    if (code == rapidjson::kParseErrorStringInvalidEncoding)
      return bad_line("invalid UTF-8 (byte "
                      + std::to_string(doc.GetErrorOffset() + 1) + ")");
    return bad_line("malformed JSON at byte "
                    + std::to_string(doc.GetErrorOffset() + 1) + ": "
                    + rapidjson::GetParseError_En(code));
  }
  if (!doc.IsObject())
    return bad_line("a line must be a JSON object");
  if (auto dup = duplicate_field(doc); !dup.empty())
    return bad_line("duplicate field \"" + abbreviated(dup)
                    + "\" (each field at most once)");
  answer_pair out;
  if (auto err = required_string(doc, "id", out.id))
    return err;
  if (auto err = required_string(doc, "a", out.a))
    return err;
  if (auto err = required_string(doc, "b", out.b))
    return err;
  if (auto err = optional_string(doc, "item", out.item))
    return err;
  if (auto err = optional_string(doc, "transform", out.transform))
    return err;
  // The problem both answers answer (issue 29): shown to the judge by a
  // declared prompt with {{problem}}.
  if (auto err = optional_string(doc, "problem", out.problem))
    return err;
  if (out.id.empty())
    return bad_line("field \"id\" must not be empty");
  if (auto it = doc.FindMember("item");
      it != doc.MemberEnd() && it->value.IsString() && out.item.empty())
    return bad_line("field \"item\" must not be empty (omit it to use the id)");
  if (out.item.empty())
    out.item = out.id;
  if (auto it = doc.FindMember("label"); it != doc.MemberEnd()) {
    if (it->value.IsBool())
      out.label = it->value.GetBool();
    else if (!it->value.IsNull())
      return bad_line("field \"label\" must be true, false or null");
  }
  return out;
}

pair_reader::pair_reader(std::FILE* in, std::string name)
    : in_(in), name_(std::move(name)), buf_(1 << 16) {
  struct stat st;
  int fd = ::fileno(in_);
  streaming_ =
    fd >= 0 && ::fstat(fd, &st) == 0
    && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode));
}

bool pair_reader::fill_buffered() {
  end_ = std::fread(buf_.data(), 1, buf_.size(), in_);
  // errno is only meaningful right after the read that failed (fread may
  // return what it got before the error, and fail for good on the next call).
  if (std::ferror(in_) && !error_)
    error_ = make_error(errc::io_failed, std::strerror(errno));
  if (end_ == 0) {
    eof_ = true;
    failed_ = std::ferror(in_) != 0;
    return false;
  }
  return true;
}

bool pair_reader::fill() {
  if (eof_)
    return false;
  pos_ = 0;
  end_ = 0;
  if (!streaming_)
    return fill_buffered();
  // read(2), not fread: a pipe's lines are taken as they come (fread would
  // wait for 64 KiB), so a run fed slowly judges what it has.
  auto n = ::read(::fileno(in_), buf_.data(), buf_.size());
  if (n < 0) {
    if (!error_)
      error_ = make_error(errc::io_failed, std::strerror(errno));
    eof_ = true;
    failed_ = true;
    return false;
  }
  if (n == 0) {
    eof_ = true;
    return false;
  }
  end_ = static_cast<std::size_t>(n);
  return true;
}

bool pair_reader::read_line(bool& oversized) {
  line_buf_.clear();
  oversized = false;
  bool any = false;
  for (;;) {
    if (pos_ == end_ && !fill())
      return any && !failed_; // a line cut by a read error is not a line
    any = true;
    auto start = buf_.data() + pos_;
    auto nl = static_cast<const char*>(std::memchr(start, '\n', end_ - pos_));
    std::size_t n = nl ? static_cast<std::size_t>(nl - start) : end_ - pos_;
    if (!oversized) {
      if (line_buf_.size() + n > max_line_bytes) {
        // Stop holding the line; keep consuming it up to its newline.
        oversized = true;
        line_buf_.clear();
        line_buf_.shrink_to_fit();
      } else {
        line_buf_.append(start, n);
      }
    }
    pos_ += n;
    bytes_ += n;
    if (nl) {
      ++pos_;
      ++bytes_;
      return true;
    }
  }
}

bool pair_reader::next(pair_line& out) {
  for (;;) {
    bool oversized = false;
    if (!read_line(oversized)) {
      if (!failed_ || failure_reported_)
        return false;
      failure_reported_ = true;
      out.what = pair_line::kind::rejected;
      out.line = line_ + 1;
      out.reason = "read error after line " + std::to_string(line_) + ": "
                   + context_of(error_)
                   + "; the rest of the input was not read";
      return true;
    }
    ++line_;
    out.line = line_;
    if (oversized) {
      out.what = pair_line::kind::rejected;
      out.reason = "line longer than " + std::to_string(max_line_bytes)
                   + " bytes (the limit)";
      return true;
    }
    if (!line_buf_.empty() && line_buf_.back() == '\r')
      line_buf_.pop_back();
    if (blank(line_buf_))
      continue;
    auto pair = parse_pair_line(line_buf_);
    if (!pair) {
      out.what = pair_line::kind::rejected;
      out.reason = context_of(pair.error());
      return true;
    }
    out.pair = std::move(*pair);
    if (!ids_.insert(out.pair.id)) {
      out.what = pair_line::kind::rejected;
      out.reason = "duplicate id \"" + abbreviated(out.pair.id) + "\"";
      return true;
    }
    out.what = pair_line::kind::pair;
    return true;
  }
}

} // namespace ij
