import LuaBridge

/// What a subscriber about to cancel is shown instead of Apple's default message: one of the
/// developer's approved messages, alone or with a plan to switch to or a promotional offer.
public struct RetentionMessage: Sendable, Equatable {
    /// What the message offers besides its text.
    public enum Offer: Sendable, Equatable {
        /// Nothing: a message alone.
        case none
        /// A switch to another plan of the subscription's group (`alternate_product`).
        case alternateProduct(String)
        /// A promotional offer of the subscription's product, by offer id (`promotional_offer`).
        case promotionalOffer(String)
    }

    /// The message's identifier, as uploaded to Apple: a UUID, in lowercase.
    public var messageID: String
    /// What it offers.
    public var offer: Offer

    /// A message.
    public init(messageID: String, offer: Offer = .none) {
        self.messageID = messageID
        self.offer = offer
    }

    /// The message as a policy writes it: `{ message = ID, alternate_product = ID }` and so on.
    public var luaValue: LuaValue {
        var fields: [LuaValue: LuaValue] = [.string("message"): .string(messageID)]
        switch offer {
        case .none: break
        case .alternateProduct(let id): fields[.string("alternate_product")] = .string(id)
        case .promotionalOffer(let id): fields[.string("promotional_offer")] = .string(id)
        }
        return .table(LuaTable(hash: fields))
    }
}
