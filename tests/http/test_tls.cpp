#include "tests/http/test_tls.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace ij::test {

namespace {

struct pkey_free {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct x509_free {
  void operator()(X509* p) const { X509_free(p); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;
using x509_ptr = std::unique_ptr<X509, x509_free>;

void check(bool ok, const char* what) {
  if (!ok)
    throw std::runtime_error(std::string("test PKI: ") + what + " failed");
}

pkey_ptr make_key() {
  pkey_ptr key(EVP_EC_gen("P-256"));
  check(key != nullptr, "EVP_EC_gen");
  return key;
}

void add_ext(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  check(ext != nullptr, "X509V3_EXT_conf_nid");
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

x509_ptr make_cert(EVP_PKEY* key, const std::string& cn, X509* issuer,
                   EVP_PKEY* issuer_key, long serial) {
  x509_ptr cert(X509_new());
  check(cert != nullptr, "X509_new");
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(cn.c_str()),
                             -1, -1, 0);
  X509_set_issuer_name(cert.get(),
                       issuer ? X509_get_subject_name(issuer) : name);
  (void)issuer_key;
  return cert;
}

std::string pem_of(X509* cert) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert);
  char* data = nullptr;
  long n = BIO_get_mem_data(bio, &data);
  std::string out(data, static_cast<std::size_t>(n));
  BIO_free(bio);
  return out;
}

std::string pem_of(EVP_PKEY* key) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  long n = BIO_get_mem_data(bio, &data);
  std::string out(data, static_cast<std::size_t>(n));
  BIO_free(bio);
  return out;
}

} // namespace

test_pki make_test_pki(const std::vector<std::string>& dns_names,
                       const std::vector<std::string>& ip_addresses) {
  auto ca_key = make_key();
  auto ca =
    make_cert(ca_key.get(), "invariance-judge test CA", nullptr, nullptr, 1);
  add_ext(ca.get(), ca.get(), NID_basic_constraints, "critical,CA:TRUE");
  add_ext(ca.get(), ca.get(), NID_key_usage, "critical,keyCertSign,cRLSign");
  add_ext(ca.get(), ca.get(), NID_subject_key_identifier, "hash");
  check(X509_sign(ca.get(), ca_key.get(), EVP_sha256()) > 0, "signing the CA");

  auto key = make_key();
  auto cert =
    make_cert(key.get(), "fake judge server", ca.get(), ca_key.get(), 2);
  std::string san;
  for (auto& d : dns_names)
    san += (san.empty() ? "DNS:" : ",DNS:") + d;
  for (auto& ip : ip_addresses)
    san += (san.empty() ? "IP:" : ",IP:") + ip;
  add_ext(cert.get(), ca.get(), NID_basic_constraints, "critical,CA:FALSE");
  add_ext(cert.get(), ca.get(), NID_ext_key_usage, "serverAuth");
  if (!san.empty())
    add_ext(cert.get(), ca.get(), NID_subject_alt_name, san);
  check(X509_sign(cert.get(), ca_key.get(), EVP_sha256()) > 0,
        "signing the server cert");

  return {pem_of(ca.get()), pem_of(cert.get()), pem_of(key.get())};
}

std::shared_ptr<boost::asio::ssl::context>
server_tls_context(const test_pki& pki) {
  namespace ssl = boost::asio::ssl;
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  ctx->use_certificate_chain(boost::asio::buffer(pki.server_cert_pem));
  ctx->use_private_key(boost::asio::buffer(pki.server_key_pem),
                       ssl::context::pem);
  return ctx;
}

temp_file::temp_file(const std::string& contents) {
  static std::atomic<int> counter{0};
  path_ = (std::filesystem::temp_directory_path()
           / ("ij-http-test-" + std::to_string(::getpid()) + "-"
              + std::to_string(counter++) + ".pem"))
            .string();
  std::ofstream out(path_, std::ios::binary);
  out << contents;
}

temp_file::~temp_file() {
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

} // namespace ij::test
