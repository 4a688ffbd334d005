#pragma once
// The text of an error in a test's CHECK: caf::expected::error() is only
// valid on failure, so tests ask through these.
#include <string>

#include <caf/expected.hpp>

#include "messages/error.hpp"
namespace test {
inline std::string why(const caf::error& err) {
  return err ? ij::context_of(err) : std::string{};
}
template <class T>
std::string why(const caf::expected<T>& x) {
  return x ? std::string{} : ij::context_of(x.error());
}
} // namespace test
