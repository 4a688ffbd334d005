#include <catch2/catch.hpp>

#include "core/hosts/peer_compatibility.hpp"
#include "messages/error.hpp"

using namespace ij;

namespace {

host_hello hello() {
  host_hello h;
  h.host = "local";
  h.prompt_id = "invariance-checker/judge/v1";
  h.prompt_sha256 = "b7c260f6";
  h.message_types = {"a", "b", "c"};
  h.built_in_prompts = {"invariance-checker/judge/non-numeric/v1 726ff458",
                        "invariance-checker/judge/v1 b7c260f6"};
  return h;
}

} // namespace

TEST_CASE("peer_compatibility: a host with another prompt or other message "
          "types is named "
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
  CHECK(context_of(check_compatible(own, theirs))
          .find("prompt_id differs (host: other/v2")
        == 0);
  theirs = own;
  theirs.message_types = {"a", "b", "d"};
  CHECK(context_of(check_compatible(own, theirs))
        == "message-type set differs (1 type(s) only on the host, e.g. d; 1 "
           "only here, e.g. c)");
  // A built-in prompt of another build's bytes (issue 29).
  theirs = own;
  theirs.built_in_prompts[0] = "invariance-checker/judge/non-numeric/v1 00";
  CHECK(context_of(check_compatible(own, theirs))
        == "built-in prompts differ (1 prompt(s) only on the host, e.g. "
           "invariance-checker/judge/non-numeric/v1 00; 1 only here, e.g. "
           "invariance-checker/judge/non-numeric/v1 726ff458)");
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
        == "worker x#1@h:1: prompt_sha256 differs (host: "
           "invariance-checker/judge/v1 ff, "
           "here: invariance-checker/judge/v1 b7c260f6)");
  w.prompt_sha256 = own.prompt_sha256;
  w.non_numeric_prompt_id = "invariance-checker/judge/non-numeric/v1";
  w.non_numeric_prompt_sha256 = "0";
  CHECK(context_of(check_compatible(own, w))
          .find("non_numeric_prompt_sha256 differs")
        != std::string::npos);
  // A declared prompt is the judge id's business, not the build's.
  w.non_numeric_prompt_id = "team/p/v1";
  CHECK_FALSE(check_compatible(own, w));
}
