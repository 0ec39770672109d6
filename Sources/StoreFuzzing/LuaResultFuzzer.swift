import Foundation
import LuaBridge

/// Builds a Lua value from the input's bytes, one instruction a byte, in a sandboxed state,
/// then reads it back with ``LuaDecoder`` as every shape a hook result takes: what a policy
/// could return, tables that contain themselves and nest deeply included.
final class LuaResultFuzzer {
    private let state: LuaState
    private let decoder = LuaDecoder()

    /// The most values the builder keeps on the stack at once.
    private static let stackLimit: Int32 = 64

    init() throws {
        state = try LuaState()
    }

    /// Builds the input's value and decodes it in every shape.
    func decode(_ input: Data) {
        state.withStack { stack in
            let base = stack.top
            defer { stack.setTop(base) }
            build(from: [UInt8](input.prefix(4096)), on: stack, above: base)
            guard stack.top > base else { return }
            let top = stack.top
            _ = try? decoder.decode(LuaValue.self, from: stack, at: top)
            _ = try? decoder.decode(Bool.self, from: stack, at: top)
            _ = try? decoder.decode(String?.self, from: stack, at: top)
            _ = try? decoder.decode([String].self, from: stack, at: top)
            _ = try? decoder.decode([String: String].self, from: stack, at: top)
            _ = try? decoder.decode([GrantLine].self, from: stack, at: top)
            _ = try? decoder.decode(Date.self, from: stack, at: top)
            _ = try? decoder.decode([String: [String: Int]].self, from: stack, at: top)
            _ = try? decoder.decode(Tree.self, from: stack, at: top)
            _ = try? stack.value(at: top)
        }
    }

    /// One line of a `grant` result.
    private struct GrantLine: Decodable {
        var item: String
        var amount: Int
        var note: String?
    }

    /// A shape that nests as deeply as the value does.
    private indirect enum Tree: Decodable {
        case leaf(String)
        case branches([Tree])

        init(from decoder: any Decoder) throws {
            if var list = try? decoder.unkeyedContainer() {
                var branches: [Tree] = []
                while !list.isAtEnd { branches.append(try list.decode(Tree.self)) }
                self = .branches(branches)
            } else {
                self = .leaf(try decoder.singleValueContainer().decode(String.self))
            }
        }
    }

    /// Runs the byte program: each byte is an instruction, some followed by operands.
    private func build(from bytes: [UInt8], on stack: LuaStack, above base: Int32) {
        var reader = ByteReader(bytes)
        while let instruction = reader.next() {
            let height = stack.top - base
            guard stack.reserve(4) else { return }
            switch instruction % 10 {
            case 0: if height < Self.stackLimit { stack.pushNil() }
            case 1: if height < Self.stackLimit { stack.push(instruction & 0x10 != 0) }
            case 2: if height < Self.stackLimit { stack.push(Int64(bitPattern: reader.word())) }
            case 3: if height < Self.stackLimit { stack.push(Double(bitPattern: reader.word())) }
            case 4:
                if height < Self.stackLimit {
                    let length = Int(reader.next() ?? 0)
                    stack.push(String(decoding: reader.take(length), as: UTF8.self))
                }
            case 5: if height < Self.stackLimit { stack.pushTable() }
            case 6:
                // t[i] = v: the value on top goes into the table below it.
                if height >= 2, stack.type(at: -2) == .table {
                    stack.setItem(Int(reader.next() ?? 1) - 64, of: -2)
                }
            case 7:
                // t[k] = v: key and value on top go into the table below them.
                if height >= 3, stack.type(at: -3) == .table, Self.isUsableKey(at: -2, on: stack) {
                    stack.setPair(of: -3)
                }
            case 8:
                // A copy of a value further down: a table can come to hold itself.
                if height >= 1, height < Self.stackLimit {
                    stack.pushCopy(of: base + 1 + Int32(reader.next() ?? 0) % height)
                }
            default:
                if height >= 1 { stack.setTop(stack.top - 1) }
            }
        }
    }

    /// Whether `rawset` takes the value at `index` as a key (not nil, not NaN).
    private static func isUsableKey(at index: Int32, on stack: LuaStack) -> Bool {
        switch stack.type(at: index) {
        case .nil, .none: false
        case .number: !(stack.number(at: index)?.isNaN ?? true)
        default: true
        }
    }

    /// Small inputs that build the shapes hooks return, and a table holding itself.
    static let seeds: [Data] = [
        [4, 4, 0x69, 0x74, 0x65, 0x6D],
        [5, 4, 5, 0x62, 0x69, 0x72, 0x64, 0x73, 6, 65],
        [5, 5, 4, 4, 0x69, 0x74, 0x65, 0x6D, 4, 6, 0x70, 0x65, 0x6C, 0x6C, 0x65, 0x74, 7, 6, 65],
        [5, 8, 0, 6, 65],
        [5, 5, 6, 65, 5, 6, 65, 5, 6, 65, 5, 6, 65],
        [3, 0, 0, 0, 0, 0, 0, 0xF8, 0x7F],
    ].map { Data($0) }
}

/// Reads a byte program's operands.
private struct ByteReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next byte, or nil at the end.
    mutating func next() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next eight bytes, little-endian (missing bytes read as zero).
    mutating func word() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) {
            value |= UInt64(next() ?? 0) << UInt64(shift)
        }
        return value
    }

    /// Up to `count` next bytes.
    mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let end = min(bytes.count, position + count)
        defer { position = end }
        return bytes[position..<end]
    }
}
