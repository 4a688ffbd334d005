#pragma once
// The error a configuration text gets from the reader (it must fail).
#include <string>

#include <catch2/catch.hpp>

#include "core/config/run_config.hpp"
#include "tests/error_text.hpp"

namespace ij::test_config {

inline std::string error_of(const std::string& json) {
  auto cfg = parse_config(json, "x.json");
  REQUIRE_FALSE(cfg);
  return ::test::why(cfg);
}

} // namespace ij::test_config
