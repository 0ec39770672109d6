import Foundation
import StoreCore

/// The version of a policy: everything a policy folder's decisions are made of, its script and
/// its catalog, as 16 hex digits of one SHA-256. A price changed in the `.storekit` file makes a
/// new version as surely as an edited rule does, so two instances serving one version serve the
/// same decisions.
public enum PolicyVersion {
    /// The version of `source` deciding over `catalog`.
    public static func of(_ source: PolicySource, catalog: PolicyCatalog) -> String {
        var text = source.text
        text += "\n\u{0}catalog\u{0}\n"
        text += catalogDigest(catalog)
        return String(SHA256Digest.hex(of: text).prefix(16))
    }

    /// The SHA-256 of the catalog as hooks see it, written as JSON with sorted keys.
    static func catalogDigest(_ catalog: PolicyCatalog) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(catalog) else { return "" }
        return SHA256Digest.hex(of: data)
    }
}
