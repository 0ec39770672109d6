/// A fuzz target's seed folder is missing, or holds none of the files the target starts from.
public struct MissingFuzzSeeds: Error, Equatable, CustomStringConvertible {
    /// The folder, as a path.
    public let folder: String
    /// The extension of the seed files, without its dot.
    public let suffix: String
    /// Whether the folder exists (and is only empty of seeds).
    public let folderExists: Bool

    /// Names the folder and what it lacks.
    public var description: String {
        folderExists ? "the seed folder \(folder) holds no .\(suffix) file" : "the seed folder \(folder) is missing"
    }
}
