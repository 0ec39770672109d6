#ifndef STORERULES_COPENSSL_SHIM_H
#define STORERULES_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>

/* Adds a certificate to the chain a TLS server sends after its own; OpenSSL's
 * SSL_CTX_add0_chain_cert is a macro, which Swift cannot call. The context takes `certificate`. */
static inline int storerules_ssl_ctx_add_chain_certificate(SSL_CTX *context, X509 *certificate)
{
    return (int)SSL_CTX_add0_chain_cert(context, certificate);
}

/* Sets the least TLS version a server accepts; SSL_CTX_set_min_proto_version is a macro. */
static inline int storerules_ssl_ctx_require_tls12(SSL_CTX *context)
{
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}
#endif
