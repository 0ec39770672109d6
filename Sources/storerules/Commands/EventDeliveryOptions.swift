import CommandLineOptions
import Foundation
import StoreCore
import StoreService
import TextMatching

/// `storerules serve`'s options for outgoing events: where they go, the secret they are signed
/// with, which types, and for how long a failing one is retried.
struct EventDeliveryOptions {
    /// The receiver's URL.
    let url: URL
    /// The signing secret, read from `--events-secret FILE`.
    let secret: WebhookSecret
    /// How delivery paces and bounds itself.
    let delivery: OutgoingEventDelivery.Options

    static let eventsURL = TypedOption<URL>.value(
        "events-url", "URL", help: "Record outgoing events in the ledger and POST each, signed (Standard Webhooks), to URL."
    ) { text throws(UsageError) in
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw UsageError("--events-url must be an http:// or https:// URL, not '\(text)'")
        }
        return url
    }
    static let eventsSecret = TypedOption<String>.text(
        "events-secret", "FILE", help: "The whsec_… secret events are signed with (make one with `storerules events secret`).")
    static let eventsTypes = TypedOption<Set<OutgoingEventType>>.value(
        "events-types", "TYPE,…", help: "Send only these event types (default all); the others are marked skipped."
    ) { text throws(UsageError) in try types(text) }
    static let eventsGiveUpAfter = TypedOption<Duration>.value(
        "events-give-up-after", "DURATION",
        help: "Retry a failing event this long after its first attempt (default 3d; 30m, 12h, 3d)."
    ) { text throws(UsageError) in
        guard let duration = CountedDuration.parse(text, units: ["m", "h", "d"]) else {
            throw UsageError("--events-give-up-after must be a whole number of minutes, hours or days (30m, 12h, 3d), not '\(text)'")
        }
        return duration
    }

    /// The options in the order help lists them.
    static let declarations = [eventsURL.option, eventsSecret.option, eventsTypes.option, eventsGiveUpAfter.option]

    /// The options given, or nil when `--events-url` is not (and none of the others is).
    static func parse(_ parsed: ParsedArguments) throws -> EventDeliveryOptions? {
        let secretPath = try parsed.value(of: eventsSecret)
        let types = try parsed.value(of: eventsTypes)
        let giveUpAfter = try parsed.value(of: eventsGiveUpAfter)
        guard let url = try parsed.value(of: eventsURL) else {
            if secretPath != nil || types != nil || giveUpAfter != nil {
                throw UsageError("--events-secret, --events-types and --events-give-up-after go with --events-url")
            }
            return nil
        }
        guard let secretPath else { throw UsageError("--events-url needs --events-secret FILE, the secret events are signed with") }
        let secret: WebhookSecret
        do {
            secret = try WebhookSecret(try String(contentsOfFile: secretPath, encoding: .utf8))
        } catch let error as WebhookSecretError {
            throw UsageError("--events-secret \(secretPath): \(error)")
        } catch {
            throw CommandFailure("--events-secret \(secretPath): \(error.localizedDescription)")
        }
        var delivery = OutgoingEventDelivery.Options()
        delivery.types = types
        if let giveUpAfter { delivery.giveUpAfter = giveUpAfter }
        return EventDeliveryOptions(url: url, secret: secret, delivery: delivery)
    }

    /// The types a comma-separated list names; an unknown one is refused with the nearest name.
    static func types(_ text: String) throws(UsageError) -> Set<OutgoingEventType> {
        var types = Set<OutgoingEventType>()
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let type = OutgoingEventType(rawValue: name) else {
                let hint = NearestName.nearest(to: name, in: OutgoingEventType.allCases.map(\.rawValue)).map { " (did you mean '\($0)'?)" } ?? ""
                throw UsageError("--events-types: no event type '\(name)'\(hint)")
            }
            types.insert(type)
        }
        guard !types.isEmpty else { throw UsageError("--events-types needs at least one type") }
        return types
    }
}
