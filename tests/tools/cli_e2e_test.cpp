// The command line's own messages: a mistyped subcommand is named, --version
// prints the version, and errors reach users in plain words (never CAF's raw
// "system_error(runtime_error, ...)").
#include <catch2/catch.hpp>

#include "cli_support.hpp"

using namespace ij::test;

TEST_CASE("an unknown subcommand is named (exit 2)") {
  temp_dir dir;
  auto r = invjudge(dir, "frobnicate");
  CHECK(r.exit_code == 2);
  // (starts with: a sanitizer build adds its own report at exit)
  CHECK(r.err.rfind("invjudge: unknown subcommand 'frobnicate' (expected run, "
                    "selftest, host, "
                    "audit, report, calibrate, cache, serve or submit); see "
                    "invjudge --help\n",
                    0)
        == 0);
  auto a = invjudge(dir, "audit verfiy a.jsonl");
  CHECK(a.exit_code == 2);
  CHECK(
    a.err.rfind(
      "invjudge: unknown subcommand 'verfiy' of audit (expected verify); see "
      "invjudge --help\n",
      0)
    == 0);
  // Known words keep CLI11's own messages.
  auto none = invjudge(dir, "");
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("A subcommand is required") != std::string::npos);
}

TEST_CASE("the version is printed with --version") {
  temp_dir dir;
  auto r = invjudge(dir, "--version");
  CHECK(r.exit_code == 0);
  CHECK(r.out == std::string{"invjudge "} + IJ_VERSION + "\n");
}

TEST_CASE(
  "an audit file that cannot be created is named in plain words (exit 3)") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), R"({"id":"x","a":"1","b":"1"})"
                                  "\n");
  auto r = invjudge(dir, "run --pairs p.jsonl --audit nodir/a.jsonl");
  CHECK(r.exit_code == 3);
  CHECK(r.err.rfind("invjudge: cannot start the run: the audit trail cannot be "
                    "written: cannot create "
                    "the audit file nodir/a.jsonl: No such file or directory\n",
                    0)
        == 0);
}

TEST_CASE("TLS files: some of the three but not all is refused by run and host "
          "alike (exit 3)") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), R"({"id":"x","a":"1","b":"1"})"
                                  "\n");
  write_file(dir.file("key.pem"), "not a key\n");
  const std::string words =
    "mutual TLS needs all three of --tls-cert, --tls-key and --tls-ca\n";
  auto run =
    invjudge(dir, "run --pairs p.jsonl --host 127.0.0.1:1 --tls-key key.pem");
  CHECK(run.exit_code == 3);
  CHECK(run.err.rfind("invjudge: " + words, 0) == 0);
  // A key without a certificate was ignored by `host` before: now the same
  // refusal.
  auto host = invjudge(dir, "host --listen 127.0.0.1:0 --tls-key key.pem");
  CHECK(host.exit_code == 3);
  CHECK(host.err.rfind("invjudge host: " + words, 0) == 0);
  // All three, but the certificate is not one: named with its flag.
  write_file(dir.file("cert.pem"), "not a certificate\n");
  auto bad = invjudge(
    dir, "host --listen 127.0.0.1:0 --tls-cert cert.pem --tls-key key.pem "
         "--tls-ca cert.pem");
  CHECK(bad.exit_code == 3);
  CHECK(bad.err.rfind(
          "invjudge host: --tls-cert cert.pem is not a PEM certificate\n", 0)
        == 0);
}
