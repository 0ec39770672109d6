import Foundation
import StoreCore
import Testing

@Suite struct JSONTextWriterTests {
    private struct Sample: Encodable, JSONWritable {
        var name: String
        var count: Int
        var flag: Bool
        var note: String?
        var tags: [String]

        func writeJSON(to writer: inout JSONTextWriter) {
            writer.writeObject { object in
                object.member("count", count)
                object.member("flag", flag)
                object.member("name", name)
                object.member("note", note)
                object.member("tags", tags)
            }
        }
    }

    private func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func written(_ value: some JSONWritable) -> String {
        var writer = JSONTextWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func everyASCIICharacterIsWrittenAsJSONEncoderWritesIt() throws {
        let text = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        let sample = Sample(name: text, count: 0, flag: false, note: nil, tags: [])
        #expect(written(sample) == (try encoded(sample)))
    }

    @Test func unicodeSlashesAndQuotesAreWrittenAsJSONEncoderWritesThem() throws {
        let sample = Sample(name: "é 🐦 \u{2028} a/b \"q\" \\ \u{7F}", count: -42, flag: true,
                            note: "Billing problem — update payment", tags: ["", "x\ny", "🪺"])
        #expect(written(sample) == (try encoded(sample)))
    }

    @Test func aNilMemberIsLeftOutAndNumbersKeepTheirSign() throws {
        let sample = Sample(name: "", count: Int.min, flag: false, note: nil, tags: ["a"])
        #expect(written(sample) == #"{"count":-9223372036854775808,"flag":false,"name":"","tags":["a"]}"#)
        #expect(written(sample) == (try encoded(sample)))
    }
}
