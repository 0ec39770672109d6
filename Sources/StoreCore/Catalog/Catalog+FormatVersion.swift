extension Catalog {
    /// The `.storekit` format version (`version` in the file): 1.0 to 5.0 are known.
    ///
    /// Parsing does not depend on it: which keys are present decides.
    public struct FormatVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The major version.
        public let major: Int
        /// The minor version.
        public let minor: Int

        /// Creates a version.
        public init(major: Int, minor: Int) {
            self.major = major
            self.minor = minor
        }

        /// Orders versions by major, then minor.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
        }

        /// The version as "major.minor", such as "3.0".
        public var description: String { "\(major).\(minor)" }
    }
}
