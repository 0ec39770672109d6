// Signed data and its verification (`SignedDataVerifier`, Apple's payload types) live in
// SignedData, which the ledger's rules read; every importer of this library sees them too.
@_exported import SignedData
