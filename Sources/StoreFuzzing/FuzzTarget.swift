/// A decoder or parser of StoreRules that a fuzzer drives with arbitrary bytes.
///
/// Each target promises that no input, however hostile, traps, hangs or overflows: every
/// byte sequence ends in a value or a typed error.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// A compact JWS through ``SignedData/SignedDataVerifier``: parsing, payload decoding, the
    /// chain and the signature, as a transaction, renewal info and a notification, in the
    /// Sandbox environment against a local root and in the Xcode environment.
    case signedData = "signed-data"
    /// A signed payload's JSON through ``StoreCore/SignedPayloadJSON``'s decoders (the plain
    /// subset and `JSONDecoder`) into the three payload types.
    case payloadJSON = "payload-json"
    /// A `.storekit` file through the catalog decoder.
    case catalog
    /// A policy context, as `storerules eval --input` reads it, and an `eval --jsonl` request.
    case policyContext = "policy-context"
    /// A journey file, as `storerules run` reads it.
    case journey
    /// A request line answered by the JSON-lines service over a real ledger and policy.
    case serviceRequest = "service-request"
    /// An HTTP request (method, path, query, headers, body) answered by the HTTP API's router
    /// over a real ledger and policy, with API keys.
    case httpRequest = "http-request"
    /// The bytes a client sends on one connection, read strictly by the HTTP transport and
    /// answered by the router over a real ledger and policy.
    case httpConnection = "http-connection"
    /// The parsers at the service's edge: a keys file, customer ids, app account tokens and a
    /// request's body framing.
    case serviceEdge = "service-edge"
    /// A Lua value built from the bytes, as a hostile policy could return it, read back by
    /// ``LuaBridge/LuaDecoder`` as the shapes hook results take.
    case luaResult = "lua-result"
    /// An App Store Server API answer, as the body of every endpoint's success and failure,
    /// decoded and verified by ``AppStoreServerAPI/AppStoreServerAPIClient``; a bearer token as
    /// the local store's API checks it; and a request (target, then body) the local store's API
    /// answers.
    case appStoreAPI = "app-store-api"
    /// A policy's text, loaded under tight limits: the policy table's checks and every part of
    /// `policy.experiments`; when it loads, a storefront plan and `ctx.experiments` reads.
    case policySource = "policy-source"
}
