import CMicroHTTPD

/// Reads a connection's headers or query arguments out of libmicrohttpd.
enum ConnectionValues {
    /// The value of `name` of `kind`, as the client sent it.
    static func lookup(_ connection: OpaquePointer, kind: MHD_ValueKind, name: String) -> String? {
        MHD_lookup_connection_value(connection, kind, name).map { String(cString: $0) }
    }

    /// Every value of `kind`, by name; of a name given twice, the first.
    static func all(_ connection: OpaquePointer, kind: MHD_ValueKind) -> [String: String] {
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        _ = withExtendedLifetime(collector) {
            MHD_get_connection_values(connection, kind, { context, _, key, value in
                guard let context, let key else { return MHD_Result.YES }
                let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                let name = String(cString: key)
                if collector.values[name] == nil {
                    collector.values[name] = value.map { String(cString: $0) } ?? ""
                }
                return MHD_Result.YES
            }, context)
        }
        return collector.values
    }

    /// Every value of the header or argument `name` (matched without regard to case), in the
    /// order the client sent them: a repeated header gives each of its values.
    static func every(_ connection: OpaquePointer, kind: MHD_ValueKind, name: String) -> [String] {
        let collector = ListCollector(name: name.lowercased())
        let context = Unmanaged.passUnretained(collector).toOpaque()
        _ = withExtendedLifetime(collector) {
            MHD_get_connection_values(connection, kind, { context, _, key, value in
                guard let context, let key else { return MHD_Result.YES }
                let collector = Unmanaged<ListCollector>.fromOpaque(context).takeUnretainedValue()
                if String(cString: key).lowercased() == collector.name {
                    collector.values.append(value.map { String(cString: $0) } ?? "")
                }
                return MHD_Result.YES
            }, context)
        }
        return collector.values
    }

    private final class ListCollector {
        let name: String
        var values: [String] = []
        init(name: String) { self.name = name }
    }

    private final class Collector {
        var values: [String: String] = [:]
    }
}
