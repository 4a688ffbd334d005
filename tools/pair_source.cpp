#include "tools/pair_source.hpp"

#include "messages/error.hpp"

namespace ij {

pair_source::pair_source(std::FILE* in, std::string name, std::size_t batch)
    : name_(name), batch_(batch), reader_(in, std::move(name)) {}

void pair_source::echo(const pair_line& line) {
  if (++rejected_ > max_rejections_shown)
    return;
  if (before_echo_)
    before_echo_();
  std::fprintf(stderr, "%s:%llu: rejected: %s\n", name_.c_str(),
               static_cast<unsigned long long>(line.line), line.reason.c_str());
  if (rejected_ == max_rejections_shown)
    std::fprintf(stderr, "invjudge: further rejections are only recorded in "
                         "the audit\n");
}

caf::expected<input_state> pair_source::next(input_batch& batch) {
  pair_line line;
  while (batch.pairs.size() < batch_) {
    if (!reader_.next(line)) {
      ended_ = true;
      return input_state::end;
    }
    if (line.what == pair_line::kind::pair) {
      batch.pairs.push_back(std::move(line.pair));
      continue;
    }
    echo(line);
    batch.rejected.push_back({name_, line.line, std::move(line.reason)});
  }
  return input_state::more;
}

caf::error pair_source::read_error() const {
  return make_error(errc::io_failed,
                    name_ + ": read error after line "
                      + std::to_string(reader_.lines()) + ": "
                      + context_of(reader_.error())
                      + "; the pairs before it were judged, the rest was not "
                        "read");
}

} // namespace ij
