#pragma once
// A throwaway PKI made at test time with OpenSSL's C API: a test CA and a
// server certificate it signs for the given names, plus a server TLS
// context and a CA file on disk for the client's `ca_file`.
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/ssl/context.hpp>

namespace ij::test {

struct test_pki {
  std::string ca_cert_pem;
  std::string server_cert_pem;
  std::string server_key_pem;
};

/// `dns_names` / `ip_addresses` go into the server certificate's
/// subjectAltName.
test_pki make_test_pki(const std::vector<std::string>& dns_names,
                       const std::vector<std::string>& ip_addresses);

std::shared_ptr<boost::asio::ssl::context>
server_tls_context(const test_pki& pki);

/// A file removed when the object goes away.
class temp_file {
public:
  explicit temp_file(const std::string& contents);
  ~temp_file();
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

} // namespace ij::test
