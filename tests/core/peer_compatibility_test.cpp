#include <catch2/catch.hpp>

#include "core/peer_compatibility.hpp"
#include "messages/error.hpp"

using namespace ij;

namespace {

host_hello hello() {
  host_hello h;
  h.host = "local";
  h.prompt_id = "invariance-checker/judge/v1";
  h.prompt_sha256 = "b7c260f6";
  h.message_types = {"a", "b", "c"};
  return h;
}

} // namespace

TEST_CASE("peer_compatibility: a host with another prompt or other message types is named "
          "by the field that differs") {
  auto own = hello();
  auto theirs = own;
  CHECK_FALSE(check_compatible(own, theirs));
  theirs.prompt_sha256 = "00";
  auto err = check_compatible(own, theirs);
  CHECK(err == errc::incompatible_peer);
  CHECK(context_of(err) == "prompt_sha256 differs (host: 00, here: b7c260f6)");
  theirs = own;
  theirs.prompt_id = "other/v2";
  CHECK(context_of(check_compatible(own, theirs)).find("prompt_id differs (host: other/v2") == 0);
  theirs = own;
  theirs.message_types = {"a", "b", "d"};
  CHECK(context_of(check_compatible(own, theirs))
        == "message-type set differs (1 type(s) only on the host, e.g. d; 1 only here, e.g. c)");
}

TEST_CASE("peer_compatibility: a worker serving another prompt is named") {
  auto own = hello();
  judge_info w;
  w.worker_id = "x#1@h:1";
  w.prompt_id = own.prompt_id;
  w.prompt_sha256 = own.prompt_sha256;
  CHECK_FALSE(check_compatible(own, w));
  w.prompt_sha256 = "ff";
  CHECK(context_of(check_compatible(own, w))
        == "worker x#1@h:1: prompt_sha256 differs (host: ff, here: b7c260f6)");
}
