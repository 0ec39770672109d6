/// The app's license agreement and privacy policies (`appPolicies`, format 4.0 and later).
public struct AppPolicies: Sendable, Equatable {
    /// A privacy policy in one locale.
    public struct Policy: Sendable, Equatable {
        /// The locale, in the file's underscore form.
        public let locale: String
        /// The policy text; may be empty.
        public let text: String
        /// The policy's web address as written; may be empty.
        public let url: String

        /// Creates a policy.
        public init(locale: String, text: String, url: String) {
            self.locale = locale
            self.text = text
            self.url = url
        }
    }

    /// The end-user license agreement text; may be empty.
    public let eula: String
    /// The privacy policies, in file order.
    public let policies: [Policy]

    /// Creates app policies.
    public init(eula: String, policies: [Policy]) {
        self.eula = eula
        self.policies = policies
    }
}
