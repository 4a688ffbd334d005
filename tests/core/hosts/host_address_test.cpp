// Judge host addresses as the command line and configuration give them.
#include <catch2/catch.hpp>

#include "core/hosts/host_address.hpp"
#include "tests/error_text.hpp"

using namespace ij;

TEST_CASE("host addresses are ADDR:PORT, IPv6 in brackets") {
  std::string error;
  auto a = parse_host_address("127.0.0.1:7000", false);
  error = ::test::why(a);
  REQUIRE(a);
  CHECK(a->addr == "127.0.0.1");
  CHECK(a->port == 7000);
  CHECK(to_string(*a) == "127.0.0.1:7000");
  auto v6 = parse_host_address("[::1]:7001", false);
  error = ::test::why(v6);
  REQUIRE(v6);
  CHECK(v6->addr == "::1");
  CHECK(to_string(*v6) == "[::1]:7001");
  auto name = parse_host_address("gpu1.lan:80", false);
  error = ::test::why(name);
  REQUIRE(name);
  CHECK(name->addr == "gpu1.lan");
}

TEST_CASE("a bad host address says what is wrong") {
  std::string error;
  error = ::test::why(parse_host_address("127.0.0.1", false));
  CHECK_FALSE(error.empty());
  CHECK(error.find("no port") != std::string::npos);
  error = ::test::why(parse_host_address("::1:7000", false));
  CHECK_FALSE(error.empty());
  CHECK(error.find("brackets") != std::string::npos);
  error = ::test::why(parse_host_address("h:70000", false));
  CHECK_FALSE(error.empty());
  CHECK(error.find("1 to 65535") != std::string::npos);
  error = ::test::why(parse_host_address("h:0", false));
  CHECK_FALSE(error.empty());
  error = ::test::why(parse_host_address(":7000", false));
  CHECK_FALSE(error.empty());
  CHECK(error.find("no address") != std::string::npos);
  error = ::test::why(parse_host_address("h:7x", false));
  CHECK_FALSE(error.empty());
}

TEST_CASE("a listening address may pick its port and every interface") {
  std::string error;
  auto any = parse_host_address(":0", true);
  error = ::test::why(any);
  REQUIRE(any);
  CHECK(any->addr.empty());
  CHECK(any->port == 0);
  CHECK(is_loopback("127.0.0.1"));
  CHECK(is_loopback("127.1.2.3"));
  CHECK(is_loopback("::1"));
  CHECK(is_loopback("localhost"));
  CHECK_FALSE(is_loopback(""));
  CHECK_FALSE(is_loopback("0.0.0.0"));
  CHECK_FALSE(is_loopback("10.0.0.7"));
}
