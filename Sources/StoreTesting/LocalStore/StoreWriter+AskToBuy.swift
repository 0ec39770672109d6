import Foundation
import StoreCore
import SQLiteLedger

extension StoreWriter {
    /// Records a purchase waiting for a parent's approval.
    func requestApproval(productID: String, customerID: String, options: Set<PurchaseOption>) throws -> AskToBuyRequest {
        let id = UUID().uuidString.lowercased()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let encoded = String(decoding: try encoder.encode(options.sorted { "\($0)" < "\($1)" }), as: UTF8.self)
        try connection.execute(
            """
            INSERT INTO local_store_ask_to_buy (request_id, customer_id, product_id, options, requested_date, state)
            VALUES (?, ?, ?, ?, ?, 'pending')
            """,
            [id, customerID, productID, encoded, now.millisecondsSince1970])
        return try requireAskToBuyRequest(id: id)
    }

    /// The purchase request of a pending Ask to Buy request, checked again against the catalog.
    func pendingPurchase(ofRequest id: String) throws -> (AskToBuyRequest, PurchaseRequest) {
        let request = try requireAskToBuyRequest(id: id)
        guard request.state == .pending else {
            throw LocalStoreError.askToBuyRequestAlreadyDecided(id: id, state: request.state)
        }
        let options = request.options.filter { if case .simulatesAskToBuy = $0 { false } else { true } }
        return (request, try PurchaseRequest(productID: request.productID, customerID: request.customerID,
                                             options: options, catalog: catalog))
    }

    /// Marks a pending request answered.
    func decide(request id: String, approved: Bool, transactionID: String?) throws {
        try connection.execute(
            "UPDATE local_store_ask_to_buy SET state = ?, decided_date = ?, transaction_id = ? WHERE request_id = ?",
            [approved ? "approved" : "declined", now.millisecondsSince1970, transactionID, id])
    }

    func requireAskToBuyRequest(id: String) throws -> AskToBuyRequest {
        guard let request = try Self.askToBuyRequests("WHERE request_id = ?", [id], in: connection).first else {
            throw LocalStoreError.unknownAskToBuyRequest(id)
        }
        return request
    }

    static func askToBuyRequests(_ clause: String, _ arguments: StatementArguments,
                                 in connection: DatabaseConnection) throws -> [AskToBuyRequest] {
        try connection.fetchAll(
            """
            SELECT request_id, customer_id, product_id, options, requested_date, state, transaction_id
            FROM local_store_ask_to_buy \(clause)
            """,
            arguments
        ).map { row in
            let options = try JSONDecoder().decode([PurchaseOption].self, from: Data(try row.decode(String.self, column: "options").utf8))
            return AskToBuyRequest(
                id: try row.decode(column: "request_id"), customerID: try row.decode(column: "customer_id"),
                productID: try row.decode(column: "product_id"), options: Set(options),
                requestDate: Date(millisecondsSince1970: try row.decode(column: "requested_date")),
                state: AskToBuyRequest.State(rawValue: try row.decode(column: "state")) ?? .pending,
                transactionID: try row.decode(column: "transaction_id"))
        }
    }
}
