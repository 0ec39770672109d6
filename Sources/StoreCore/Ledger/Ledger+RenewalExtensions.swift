extension Ledger {
    /// Records a renewal extension request as it was sent, replacing what was recorded under
    /// its request identifier.
    public func recordRenewalExtension(_ record: RenewalExtensionRecord) throws {
        try writing { try $0.upsertRenewalExtension(record) }
    }

    /// Every renewal extension request recorded, by incident, then product, then subscription.
    public func renewalExtensions() throws -> [RenewalExtensionRecord] {
        try reading { try $0.renewalExtensions() }
    }
}
