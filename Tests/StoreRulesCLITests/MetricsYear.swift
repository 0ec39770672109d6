import Foundation
import SQLiteLedger
import StoreCore
import StoreTesting

/// A year of a few hundred Field Guide customers played through two local stores — one
/// selling in the United States (USD), one in the United Kingdom (GBP) — over one ledger, on
/// manual clocks that move together.
///
/// The year is drawn from a seed, so the same seed plays the same year: trials that convert
/// and trials that lapse, monthly, yearly, weekly and premium plans, upgrades (at once),
/// downgrades and crossgrades (at the next renewal), cancellations and resubscriptions, refunds
/// of subscriptions and of seed packs, and days on which every renewal fails: the store then
/// retries billing (with a grace period on some of those days), and each failing customer
/// either resolves the issue some days later or lets billing retry end the subscription. The
/// last such day falls inside the year's last grace period, so the ledger ends with customers
/// in grace.
struct MetricsYear {
    /// The first instant of the year.
    static let start = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
    /// The year's length in days.
    static let days = 365
    static let bundleID = "com.example.fieldguide"
    static let group = "5C1E0A77"
    static let catalogURL = CommandRunner.packageRoot.appending(path: "Tests/Fixtures/MetricsYear.storekit")
    /// The days on which every renewal fails; grace periods run on the odd ones and the last two.
    static let billingFailureDays = [40, 75, 110, 150, 190, 230, 270, 310, 350, 358]
    static let authority: SigningAuthority = {
        do { return try SigningAuthority.generate(name: "StoreRules Metrics Year") } catch {
            fatalError("cannot generate the metrics year's signing authority: \(error)")
        }
    }()

    /// How many of each kind of event the year holds (as asked of the store; refused ones apart).
    var counts: [String: Int] = [:]
    /// The customers of each currency.
    var customersByCurrency: [String: Int] = [:]

    /// What a customer does at a time.
    enum Action: Hashable {
        case subscribe(String), cancel, change(String), buySeeds, refundSubscription, refundSeeds, resolveBilling
    }

    /// One action of one customer, at an hour of the year.
    struct Event: Comparable {
        let hour: Int
        let customer: Int
        let action: Action
        let sequence: Int

        static func < (left: Event, right: Event) -> Bool { (left.hour, left.sequence) < (right.hour, right.sequence) }
    }

    /// Plays the year into `ledger`, with the stores' own state in `directory`.
    static func play(into ledger: Ledger, directory: URL, customers: Int, seed: UInt64) throws -> MetricsYear {
        var player = try Player(ledger: ledger, directory: directory, seed: seed)
        for customer in 0..<customers { player.plan(customer) }
        try player.run()
        return player.year
    }

    /// The stores, the schedule and the random numbers of a year being played.
    private struct Player {
        let stores: [LocalStore]
        var random: SeededRandom
        var schedule: [Event] = []
        var sequence = 0
        /// Each store's clock, as an hour of the year; a store is moved only when it acts.
        var hours = [0, 0]
        var year = MetricsYear()

        init(ledger: Ledger, directory: URL, seed: UInt64) throws {
            random = SeededRandom(seed: seed)
            var stores: [LocalStore] = []
            for (index, storefront) in ["USA", "GBR"].enumerated() {
                let catalog = try Catalog(contentsOf: MetricsYear.catalogURL, storefront: storefront)
                let state = try Database(path: directory.appending(path: "store-\(storefront).sqlite").path)
                let store = try LocalStore(catalog: catalog, authority: MetricsYear.authority, ledger: ledger, state: state,
                                           configuration: .init(bundleID: MetricsYear.bundleID, clock: .manual(startingAt: MetricsYear.start)),
                                           decide: { _ in [] })
                // Each store numbers its transactions from its own range, so both fit one ledger.
                try state.write { try $0.execute("UPDATE local_store_state SET next_transaction_number = ?", [Int64(index + 2) * 1_000_000_000_000_000 + 1]) }
                stores.append(store)
            }
            self.stores = stores
        }

        func storeIndex(of customer: Int) -> Int { customer % 3 == 2 ? 1 : 0 }
        func store(of customer: Int) -> LocalStore { stores[storeIndex(of: customer)] }
        static func name(_ customer: Int) -> String { "watcher-\(customer)" }

        mutating func at(_ hour: Int, _ customer: Int, _ action: Action) {
            guard hour < MetricsYear.days * 24 else { return }
            sequence += 1
            schedule.append(Event(hour: hour, customer: customer, action: action, sequence: sequence))
        }

        /// Draws what the customer does over the year.
        mutating func plan(_ customer: Int) {
            let currency = store(of: customer).catalog.storefront.currencyCode
            year.customersByCurrency[currency, default: 0] += 1
            let begin = random.below(330 * 24)
            if random.chance(0.12) {
                for purchase in 0..<(1 + random.below(3)) {
                    let when = begin + purchase * random.below(40 * 24)
                    at(when, customer, .buySeeds)
                    if random.chance(0.2) { at(when + 1 + random.below(72), customer, .refundSeeds) }
                }
                return
            }
            let draw = random.below(100)
            let product = draw < 60 ? "guide.monthly" : draw < 77 ? "guide.yearly" : draw < 94 ? "guide.premium" : "guide.weekly"
            at(begin, customer, .subscribe(product))
            if product == "guide.monthly" || product == "guide.yearly", random.chance(0.3) {
                at(begin + 24 + random.below(96), customer, .cancel)
                return
            }
            let later = begin + 24 * (10 + random.below(120))
            switch random.below(100) {
            case 0..<15 where product == "guide.monthly": at(later, customer, .change("guide.premium"))
            case 15..<25 where product != "guide.weekly": at(later, customer, .change("guide.weekly"))
            case 25..<35 where product == "guide.monthly": at(later, customer, .change("guide.yearly"))
            default: break
            }
            if random.chance(0.2) {
                let cancel = later + 24 * random.below(60)
                at(cancel, customer, .cancel)
                if product != "guide.yearly", random.chance(0.4) {
                    at(cancel + 24 * (40 + random.below(30)), customer, .subscribe(product == "guide.weekly" ? "guide.weekly" : "guide.monthly"))
                }
            }
            if random.chance(0.1) { at(begin + 24 * (8 + random.below(200)), customer, .refundSubscription) }
            if random.chance(0.25) {
                let when = begin + random.below(200 * 24)
                at(when, customer, .buySeeds)
                if random.chance(0.15) { at(when + 2, customer, .refundSeeds) }
            }
        }

        /// Moves the clocks of `stores` (both by default) to `target`, an hour of the year.
        mutating func advance(to target: Int, stores chosen: [Int] = [0, 1]) throws {
            for index in chosen where target > hours[index] {
                try stores[index].advance(by: StoreDuration(hours: target - hours[index]))
                hours[index] = target
            }
        }

        mutating func run() throws {
            var failures = MetricsYear.billingFailureDays[...]
            while true {
                schedule.sort()
                let next = schedule.first?.hour ?? MetricsYear.days * 24
                if let day = failures.first, day * 24 <= next {
                    failures.removeFirst()
                    try failRenewals(onDay: day, withGrace: day % 2 == 1 || failures.count < 2)
                    continue
                }
                guard !schedule.isEmpty else { break }
                let event = schedule.removeFirst()
                try advance(to: next, stores: [storeIndex(of: event.customer)])
                try perform(event)
            }
            try advance(to: MetricsYear.days * 24)
            for store in stores {
                year.counts["in a grace period at the year's end", default: 0] += try store.subscriptions().filter { $0.state == .inGracePeriod }.count
            }
        }

        /// Every renewal of the day fails; each failing customer recovers some days later, or not.
        mutating func failRenewals(onDay day: Int, withGrace grace: Bool) throws {
            try advance(to: day * 24)
            for store in stores {
                try store.updateSettings { $0.shouldEnterBillingRetryOnRenewal = true; $0.billingGracePeriodIsEnabled = grace }
            }
            try advance(to: day * 24 + 24)
            for store in stores {
                try store.updateSettings { $0.shouldEnterBillingRetryOnRenewal = false; $0.billingGracePeriodIsEnabled = false }
            }
            for store in stores {
                for subscription in try store.subscriptions() where [.inBillingRetryPeriod, .inGracePeriod].contains(subscription.state) {
                    guard let customer = Int(subscription.customerID.dropFirst("watcher-".count)) else { continue }
                    year.counts["renewals failed, billing retry\(grace ? " with grace" : "")", default: 0] += 1
                    if random.chance(0.5) {
                        at(day * 24 + 25 + random.below(20 * 24), customer, .resolveBilling)
                    } else {
                        year.counts["billing retry left to expire", default: 0] += 1
                    }
                }
            }
        }

        mutating func perform(_ event: Event) throws {
            let store = store(of: event.customer)
            let customer = Self.name(event.customer)
            let kind: String
            do {
                switch event.action {
                case .subscribe(let product):
                    kind = try store.isEligibleForIntroductoryOffer(customerID: customer, groupID: MetricsYear.group)
                        && product != "guide.premium" && product != "guide.weekly" ? "trials started" : "subscriptions bought without a trial"
                    _ = try store.purchase(product, customer: customer)
                case .change(let product):
                    kind = product == "guide.premium" ? "upgrades" : product == "guide.weekly" ? "downgrades" : "crossgrades"
                    _ = try store.purchase(product, customer: customer)
                case .cancel:
                    kind = "cancellations"
                    try store.setAutoRenew(false, customer: customer, groupID: MetricsYear.group)
                case .buySeeds:
                    kind = "seed packs bought"
                    _ = try store.purchase("seeds.pack", customer: customer)
                case .refundSubscription, .refundSeeds:
                    let seeds = event.action == .refundSeeds
                    kind = seeds ? "seed packs refunded" : "subscription transactions refunded"
                    let latest = try store.transactions(customerID: customer).last {
                        ($0.payload.productId == "seeds.pack") == seeds && $0.payload.revocationDate == nil
                    }
                    guard let id = latest?.payload.transactionId else { throw Refused() }
                    try store.refund(transactionID: id)
                case .resolveBilling:
                    kind = "billing issues resolved"
                    try store.resolveBillingIssue(customer: customer, groupID: MetricsYear.group)
                }
            } catch is LocalStoreError {
                year.counts["refused by the store", default: 0] += 1
                return
            } catch is Refused {
                year.counts["refused by the store", default: 0] += 1
                return
            }
            year.counts[kind, default: 0] += 1
        }

        struct Refused: Error {}
    }
}

/// SplitMix64: the same numbers for the same seed, on every platform.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < probability }
}
