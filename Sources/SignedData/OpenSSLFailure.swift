/// An OpenSSL operation that failed, with OpenSSL's own explanation.
///
/// StoreRules' public errors carry its description.
package struct OpenSSLFailure: Error, CustomStringConvertible {
    /// What StoreRules was doing, followed by OpenSSL's messages.
    package let description: String

    /// Records a failure of `operation`, emptying OpenSSL's error queue into the description.
    package init(_ operation: String) {
        description = OpenSSLErrorQueue.drain(fallback: operation)
    }
}
