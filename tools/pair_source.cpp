#include "tools/pair_source.hpp"

#include <cerrno>
#include <cstring>

#include <sys/stat.h>

#include "tools/interrupt.hpp"

namespace ij {

namespace {

/// Files up to this size are counted first, so that progress shows a total.
constexpr std::uint64_t max_counted_bytes = 256ull << 20;

} // namespace

std::unique_ptr<pair_source> pair_source::open(const std::string& path,
                                               std::string& error) {
  if (path == "-")
    return std::unique_ptr<pair_source>(
      new pair_source(path, "<stdin>", stdin, false));
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    error = path + ": is a directory";
    return nullptr;
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = path + ": cannot open: " + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<pair_source>(new pair_source(path, path, f, true));
}

pair_source::pair_source(std::string path, std::string name, std::FILE* in,
                         bool owned)
  : path_(std::move(path)), name_(std::move(name)), in_(in), owned_(owned),
    reader_(std::make_unique<pair_reader>(in_, name_)) {
}

pair_source::~pair_source() {
  reader_.reset();
  if (owned_ && in_)
    std::fclose(in_);
}

bool pair_source::check_all(std::uint64_t& bad, std::uint64_t& pairs,
                            std::string& error) {
  pair_reader reader{in_, name_};
  pair_line line;
  bad = 0;
  pairs = 0;
  while (reader.next(line)) {
    if (interrupt_requested()) {
      error = "interrupted while validating";
      return false;
    }
    if (line.what == pair_line::kind::pair) {
      ++pairs;
      continue;
    }
    ++bad;
    std::fprintf(stderr, "%s:%llu: %s\n", name_.c_str(),
                 static_cast<unsigned long long>(line.line),
                 line.reason.c_str());
  }
  if (reader.failed()) {
    error = name_ + ": read error";
    return false;
  }
  std::rewind(in_);
  reader_ = std::make_unique<pair_reader>(in_, name_);
  return bad == 0;
}

std::optional<std::uint64_t> pair_source::count_lines() const {
  struct stat st {};
  if (path_ == "-" || ::stat(path_.c_str(), &st) != 0 || !S_ISREG(st.st_mode)
      || static_cast<std::uint64_t>(st.st_size) > max_counted_bytes)
    return std::nullopt;
  std::FILE* f = std::fopen(path_.c_str(), "rb");
  if (!f)
    return std::nullopt;
  std::uint64_t lines = 0;
  bool content = false;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    for (std::size_t i = 0; i < n; ++i) {
      char c = buf[i];
      if (c == '\n') {
        lines += content;
        content = false;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        content = true;
      }
    }
  }
  std::fclose(f);
  return lines + content;
}

input_state pair_source::next(input_batch& batch, std::string& why) {
  pair_line line;
  while (batch.pairs.size() < batch_pairs) {
    if (!reader_->next(line)) {
      if (!reader_->failed())
        return input_state::end;
      why = "read error on " + name_ + " after line "
            + std::to_string(reader_->lines());
      return input_state::failed;
    }
    if (line.what == pair_line::kind::pair) {
      batch.pairs.push_back(std::move(line.pair));
      continue;
    }
    if (++rejected_ <= max_rejections_shown) {
      if (before_echo_)
        before_echo_();
      std::fprintf(stderr, "%s:%llu: rejected: %s\n", name_.c_str(),
                   static_cast<unsigned long long>(line.line),
                   line.reason.c_str());
      if (rejected_ == max_rejections_shown)
        std::fprintf(stderr, "invjudge: further rejections are only "
                             "recorded in the audit\n");
    }
    batch.rejected.push_back({name_, line.line, std::move(line.reason)});
  }
  return input_state::more;
}

} // namespace ij
