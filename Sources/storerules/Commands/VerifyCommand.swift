import CommandLineOptions
import ServiceCommandLine
import Foundation
import StoreCore

/// `storerules verify JWS|FILE|- --root PEM [--bundle-id ID] [--environment E] [--app-apple-id N] [--kind K]`.
enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "Verify a signed transaction, renewal info or notification and print its payload"
    static var help: String { """
    Usage: storerules verify JWS|FILE|- --root PEM [--root PEM]... [--bundle-id ID]
                             [--environment E] [--app-apple-id N] [--kind K]

    Verifies data signed by the App Store (or by a local test store) as Apple's App Store
    Server Library does, offline, and prints the decoded payload as JSON with Apple's field
    names, dates as epoch milliseconds.

    The argument is a compact JWS, the path of a file holding one (surrounding whitespace is
    ignored), or - to read it from standard input.

    Checks, in order: the JWS form and the payload's JSON (format, payload); an x5c chain
    (x5c); alg ES256 (algorithm); three certificates (chain-length) that decode
    (certificate); a path to a --root certificate under OpenSSL's strict checks (chain), each
    certificate valid at the payload's signedDate (validity); Apple's marker extensions
    (marker-extension); a P-256 leaf key (leaf-key); the signature (signature); then the
    bundle identifier (bundle-id), the app's Apple ID (app-apple-id: notifications in
    Production only) and the environment (environment). A notification's nested
    signedTransactionInfo and signedRenewalInfo are not verified: verify each on its own.

    With --environment Xcode or LocalTesting, data signed by StoreKit Testing in Xcode (one
    self-signed certificate in x5c) is accepted: its signature is verified with that
    certificate's key instead of a chain. Sandbox and Production refuse it (chain-length).

    On failure the exit status is 1 and stderr has one line naming the check:
      storerules verify: <check>: <detail> (<Apple's status>)
    Problems before verification name root, input or configuration instead.

    Options:
    \(HelpText.options(syntax.options))
    """ }

    static let root = ServiceOptionDeclarations.root.withHelp(
        "A PEM file of trusted root certificates: Apple Root CA - G3, or a local store's root-certificate.pem (a file, a "
            + "pipe such as <(…), or /dev/stdin). Repeat for several. Required.")
    static let bundleID = ServiceOptionDeclarations.bundleID.withHelp(
        "The bundle identifier a transaction or notification must name. Without it, the payload's own is accepted. "
            + "Renewal info has none.")
    static let environment = ServiceOptionDeclarations.environment.withHelp(
        "\(AppStoreEnvironment.knownSpellings) (any letter case): the environment the payload must come from. Without it, "
            + "the payload's own is accepted.")
    static let appAppleID = ServiceOptionDeclarations.appAppleID.withHelp(
        "The app's Apple ID, which a Production notification must name. As in Apple's library, the Production environment "
            + "requires it.")
    static let kind = TypedOption<Kind>.value(
        "kind", "K", help: "transaction, renewal or notification; the payload must have that shape. Without it, the payload "
            + "decides: one with notificationType or notificationUUID is a notification, one with transactionId a transaction, "
            + "and one with autoRenewProductId, autoRenewStatus or originalTransactionId but no transactionId a renewal info."
    ) { text throws(UsageError) in
        guard let kind = Kind(rawValue: text) else {
            throw UsageError("--kind must be transaction, renewal or notification, not '\(text)'")
        }
        return kind
    }

    static let syntax = CommandSyntax(name, options: [root.option, bundleID.option, environment.option, appAppleID.option, kind.option])

    /// The kinds of signed data the command verifies.
    enum Kind: String, CaseIterable, Sendable {
        case transaction, renewal, notification

        /// The kind with its article, as messages say it.
        var phrase: String {
            switch self {
            case .transaction: "a transaction"
            case .renewal: "renewal info"
            case .notification: "a notification"
            }
        }
    }

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let input = try parsed.positional(0, "the JWS, FILE or - to verify")
        try parsed.expectPositionals(atMost: 1)
        let rootPaths = try parsed.values(of: root)
        guard !rootPaths.isEmpty else { throw UsageError("missing --root PEM: the trusted root certificates") }
        let givenKind = try parsed.value(of: kind)
        let givenEnvironment = try parsed.value(of: environment)
        let appAppleId = try parsed.value(of: appAppleID)
        let roots = try rootPaths.flatMap(rootCertificates(at:))
        let text = try signedText(input)

        let jws: CompactJWS
        do {
            jws = try CompactJWS(parsing: text)
        } catch {
            throw failure(.malformedJWS(error))
        }
        let kind = try checkedKind(of: jws, given: givenKind)
        let claimed = claimedIdentity(of: jws, kind: kind)
        let bundleId = try parsed.value(of: bundleID) ?? claimed.bundleId ?? ""
        let verifier: SignedDataVerifier
        do {
            verifier = try SignedDataVerifier(
                rootCertificates: roots, bundleId: bundleId,
                appAppleId: appAppleId,
                environment: givenEnvironment ?? claimed.environment ?? AppStoreEnvironment(rawValue: ""))
        } catch .missingAppAppleId {
            throw CommandFailure("configuration: the Production environment needs the app's Apple ID: pass --app-apple-id")
        } catch {
            throw CommandFailure("configuration: \(error)")
        }

        let json: String
        do {
            switch kind {
            case .transaction: json = try encode(try verifier.verifyAndDecodeTransaction(text))
            case .renewal: json = try encode(try verifier.verifyAndDecodeRenewalInfo(text))
            case .notification: json = try encode(try verifier.verifyAndDecodeNotification(text))
            }
        } catch let error as VerificationError {
            throw failure(error)
        }
        Output.line(json)
        return 0
    }

    // MARK: - Input

    /// Every certificate of the PEM file at `path`.
    static func rootCertificates(at path: String) throws -> [X509Certificate] {
        let pem: String
        do {
            pem = try InputFile.readText(path, dashMeansStandardInput: false)
        } catch {
            throw CommandFailure("root: \(error)")
        }
        do {
            return try X509Certificate.certificates(pemRepresentation: pem)
        } catch {
            throw CommandFailure("root: \(path): \(error)")
        }
    }

    /// The compact JWS the argument gives: standard input for `-`, the contents of an
    /// existing file, or the argument itself when it has the form of a compact JWS.
    static func signedText(_ argument: String) throws -> String {
        let data: Data
        if argument == "-" || FileManager.default.fileExists(atPath: argument) {
            do {
                data = try Output.read(argument)
            } catch {
                throw CommandFailure("input: \(error.message)")
            }
        } else if looksLikeCompactJWS(argument) {
            return argument
        } else {
            throw CommandFailure("input: '\(argument)' is neither a file nor a compact JWS")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `text` has three dot-separated parts of base64url characters.
    static func looksLikeCompactJWS(_ text: String) -> Bool {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")
        return text.split(separator: ".", omittingEmptySubsequences: false).count == 3
            && text.unicodeScalars.allSatisfy(allowed.contains)
    }

    // MARK: - The payload before verification

    /// The kind to verify `jws` as: the one its payload's shape shows, which a `--kind` given
    /// must match; the given one when the shape shows none.
    static func checkedKind(of jws: CompactJWS, given: Kind?) throws -> Kind {
        guard let fields = PayloadFieldNames(of: jws.payload) else {
            if let given { return given }
            throw failure(.malformedPayload("the payload is not a JSON object"))
        }
        let shown = kind(shownBy: fields)
        switch (given, shown) {
        case (let given?, let shown?) where given != shown:
            throw CommandFailure("kind: the payload is \(shown.phrase), not \(given.phrase)")
        case (_, let shown?):
            return shown
        case (let given?, nil):
            return given
        case (nil, nil):
            throw CommandFailure("kind: the payload has no notificationType, transactionId, autoRenewProductId or "
                                 + "originalTransactionId; pass --kind")
        }
    }

    /// The kind of signed data a payload's fields show: a notification has notificationType or
    /// notificationUUID; a transaction has transactionId; renewal info has autoRenewProductId,
    /// autoRenewStatus or originalTransactionId, and no transactionId.
    static func kind(shownBy fields: PayloadFieldNames) -> Kind? {
        if fields.contains("notificationType") || fields.contains("notificationUUID") { return .notification }
        if fields.contains("transactionId") { return .transaction }
        if fields.contains("autoRenewProductId") || fields.contains("autoRenewStatus")
            || fields.contains("originalTransactionId") { return .renewal }
        return nil
    }

    /// The bundle identifier and environment the payload claims, which stand in for the
    /// options not given (and so are not checked). Nil where the payload does not decode or
    /// names none: verification then reports it.
    static func claimedIdentity(of jws: CompactJWS, kind: Kind) -> (bundleId: String?, environment: AppStoreEnvironment?) {
        switch kind {
        case .transaction:
            let payload = try? jws.decodePayload(as: JWSTransactionDecodedPayload.self)
            return (payload?.bundleId, payload?.environment)
        case .renewal:
            let payload = try? jws.decodePayload(as: JWSRenewalInfoDecodedPayload.self)
            return (nil, payload?.environment)
        case .notification:
            guard let payload = try? jws.decodePayload(as: ResponseBodyV2DecodedPayload.self) else { return (nil, nil) }
            if let data = payload.data { return (data.bundleId, data.environment) }
            if let summary = payload.summary { return (summary.bundleId, summary.environment) }
            if let token = payload.externalPurchaseToken { return (token.bundleId, token.environment) }
            if let appData = payload.appData { return (appData.bundleId, appData.environment) }
            return (nil, nil)
        }
    }

    // MARK: - Output

    /// `payload` as pretty JSON with Apple's field names and dates as epoch milliseconds.
    static func encode<Payload: Encodable>(_ payload: Payload) throws -> String {
        let encoder = SignedPayloadJSON.makeEncoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        return String(decoding: try encoder.encode(payload), as: UTF8.self)
    }

    /// The one-line failure for `error`: the check, the detail and Apple's status.
    static func failure(_ error: VerificationError) -> CommandFailure {
        let detail: String
        switch error {
        case .invalidAppIdentifier(_, nil):
            detail = "the payload names no bundle identifier"
        case .invalidEnvironment(_, nil):
            detail = "the payload names no environment"
        default:
            detail = error.description
        }
        return CommandFailure("\(check(of: error)): \(detail) (\(error.status.rawValue))")
    }

    /// The name of the check `error` failed, as `--help` lists them.
    static func check(of error: VerificationError) -> String {
        switch error {
        case .malformedJWS: "format"
        case .malformedPayload: "payload"
        case .missingCertificateChain: "x5c"
        case .unsupportedAlgorithm: "algorithm"
        case .invalidChainLength: "chain-length"
        case .invalidCertificate: "certificate"
        case .untrustedChain: "chain"
        case .certificateNotValidAtSignedDate: "validity"
        case .missingMarkerExtension: "marker-extension"
        case .unsupportedLeafKey: "leaf-key"
        case .invalidSignature: "signature"
        case .invalidAppIdentifier: "bundle-id"
        case .invalidAppAppleId: "app-apple-id"
        case .invalidEnvironment: "environment"
        }
    }
}
