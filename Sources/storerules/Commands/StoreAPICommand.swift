import AppStoreServerAPI
import CommandLineOptions
import Foundation
import StoreHTTP
import StoreTesting

/// `storerules store DIR … api` and `api-key`: the local store's App Store Server API, served
/// over HTTP by the same transport as `serve`, and the keys it accepts.
enum StoreAPICommand {
    /// `--listen HOST:PORT`.
    static let listen = ServeOptions.listen.withHelp("Where the API listens (default 127.0.0.1:8090; port 0 picks a free one).")
    /// `--tls-cert PEM`.
    static let tlsCertificate = ServeOptions.tlsCertificate
    /// `--tls-key PEM`.
    static let tlsKey = ServeOptions.tlsKey

    /// Serves the store's API until SIGTERM or SIGINT, sending the notifications that fall due
    /// meanwhile.
    static func serve(_ store: LocalStore, parsed: ParsedArguments) async throws -> Int32 {
        let address = try parsed.value(of: listen) ?? ListenAddress(host: "127.0.0.1", port: 8090)
        let tls = try ServeOptions.tlsCredentials(parsed)
        let signals = try ServeSignals(reloadKeys: {}, tick: {
            do {
                try store.sendDueNotifications()
            } catch {
                Output.error("storerules store api: notifications not sent: \(error)")
            }
        })
        let server: HTTPServer
        do {
            server = try HTTPServer(handler: AppStoreServerAPIHandler(answer: LocalStoreAPI(store: store).respond),
                                    configuration: HTTPServerConfiguration(host: address.host, port: address.port, tls: tls))
        } catch {
            throw CommandFailure(error.description)
        }
        let scheme = tls == nil ? "http" : "https"
        let host = address.host.contains(":") ? "[\(address.host)]" : address.host
        Output.line("storerules store api: listening on \(scheme)://\(host):\(server.port) (bundle \(store.configuration.bundleID), "
                    + "environment \(store.configuration.environment))")
        await signals.wait()
        server.stop(grace: .seconds(5))
        Output.error("storerules store api: stopped")
        return 0
    }

    /// Makes a key, writes its `.p8` beside the store state (readable by its owner only), and
    /// prints its ids and the file's path.
    static func makeKey(_ store: LocalStore, statePath: String, output: StoreOutput) throws {
        let (key, pem) = try store.makeServerAPIKey()
        let folder = URL(fileURLWithPath: statePath + ".api-keys")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = folder.appending(path: "AuthKey_\(key.keyID).p8")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(pem.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CommandFailure("cannot write the key to \(file.path)")
        }
        output.apiKey(issuerID: key.issuerID, keyID: key.keyID, path: file.path, bundleID: store.configuration.bundleID)
    }
}
