#include "actors/remoting.hpp"

#include <cstdio>
#include <memory>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <caf/io/middleman.hpp>
#include <caf/openssl/manager.hpp>

namespace ij {

namespace {

struct file_closer {
  void operator()(std::FILE* f) const {
    if (f)
      std::fclose(f);
  }
};
struct x509_free {
  void operator()(X509* x) const {
    X509_free(x);
  }
};
struct pkey_free {
  void operator()(EVP_PKEY* k) const {
    EVP_PKEY_free(k);
  }
};
using x509_ptr = std::unique_ptr<X509, x509_free>;
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;

std::unique_ptr<std::FILE, file_closer> open_file(const std::string& path,
                                                  const char* what,
                                                  std::string& error) {
  std::unique_ptr<std::FILE, file_closer> f{std::fopen(path.c_str(), "rb")};
  if (!f)
    error = std::string{what} + " " + path + " cannot be read";
  return f;
}

x509_ptr read_certificate(const std::string& path, const char* what,
                          std::string& error) {
  auto f = open_file(path, what, error);
  if (!f)
    return nullptr;
  x509_ptr cert{PEM_read_X509(f.get(), nullptr, nullptr, nullptr)};
  ERR_clear_error();
  if (!cert)
    error = std::string{what} + " " + path + " is not a PEM certificate";
  return cert;
}

} // namespace

std::string check_tls_files(const host_connection& c) {
  if (!c.tls())
    return {};
  std::string error;
  auto cert = read_certificate(c.tls_cert, "--tls-cert", error);
  if (!cert)
    return error;
  auto ca = read_certificate(c.tls_ca, "--tls-ca", error);
  if (!ca)
    return error;
  auto f = open_file(c.tls_key, "--tls-key", error);
  if (!f)
    return error;
  pkey_ptr key{PEM_read_PrivateKey(f.get(), nullptr, nullptr, nullptr)};
  ERR_clear_error();
  if (!key)
    return "--tls-key " + c.tls_key
           + " is not an unencrypted PEM private key";
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    ERR_clear_error();
    return "--tls-key " + c.tls_key + " does not belong to --tls-cert "
           + c.tls_cert;
  }
  pkey_ptr ca_key{X509_get_pubkey(ca.get())};
  if (!ca_key || X509_verify(cert.get(), ca_key.get()) != 1) {
    ERR_clear_error();
    return "--tls-cert " + c.tls_cert + " is not signed by --tls-ca "
           + c.tls_ca;
  }
  return {};
}

void configure_remoting(caf::actor_system_config& cfg,
                        const host_connection& c) {
  cfg.load<caf::io::middleman>();
  cfg.set("middleman.heartbeat-interval", caf::timespan{c.heartbeat});
  cfg.set("middleman.connection-timeout",
          caf::timespan{c.connection_timeout});
  if (c.tls()) {
    cfg.openssl_certificate = c.tls_cert;
    cfg.openssl_key = c.tls_key;
    cfg.openssl_cafile = c.tls_ca;
    cfg.load<caf::openssl::manager>();
  }
}

caf::io::middleman_actor connection_manager(caf::actor_system& sys, bool tls) {
  if (tls)
    return sys.openssl_manager().actor_handle();
  return sys.middleman().actor_handle();
}

} // namespace ij
