import Foundation
import TestPrerequisites

/// A temporary copy of the Backyard Birds folder — its catalog, and its policy or `policy`
/// in its place — for a test that edits the folder under a running service.
struct ExampleFolderCopy {
    let url: URL

    init(policy: String? = nil) throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Examples/BackyardBirds")
        url = try TestFolders.make("storerules-folder")
        try FileManager.default.copyItem(at: example.appending(path: "Products.storekit"), to: url.appending(path: "Products.storekit"))
        if let policy {
            try policy.write(to: url.appending(path: "policy.lua"), atomically: true, encoding: .utf8)
        } else {
            try FileManager.default.copyItem(at: example.appending(path: "policy.lua"), to: url.appending(path: "policy.lua"))
        }
    }

    /// Removes the copy.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
