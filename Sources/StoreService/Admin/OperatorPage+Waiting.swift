import Foundation
import StoreCore

extension OperatorPage {
    /// How many rows of each list the page shows; the cards count them all.
    static let rowsShown = 10

    /// What waits: unfinished transactions, kept notifications, notification conflicts, refund
    /// requests and their answers, outgoing events that are late or given up, and the
    /// reconciliation checkpoint with when it last moved.
    static func waitingSection(_ waiting: OperatorPageFacts.Waiting?, now: Date) -> String {
        var html = "<section id=\"waiting\"><h2>What waits</h2>"
        guard let waiting else {
            return html + "<p class=\"problem\">The ledger could not be read; the log says why.</p></section>"
        }
        let pendingRefunds = waiting.refundRequests.filter { $0.state == .pending }.count
        html += "<div class=\"cards\">"
        html += card(String(waiting.unfinished.count), "unfinished transactions", attention: !waiting.unfinished.isEmpty)
        html += card(String(waiting.pendingNotifications.count), "kept notifications", attention: !waiting.pendingNotifications.isEmpty)
        html += card(String(waiting.conflicts.count), "notification conflicts", attention: !waiting.conflicts.isEmpty)
        html += card(String(pendingRefunds), "refund requests to answer", attention: pendingRefunds > 0)
        html += card(String(waiting.events.late), "events late (over a minute)", attention: waiting.events.late > 0)
        html += card(String(waiting.events.failed), "events given up", attention: waiting.events.failed > 0)
        html += card(waiting.checkpoint.map { age(of: Date(millisecondsSince1970: $0.updatedDate), at: now) } ?? "never",
                     "since reconciliation last moved its checkpoint")
        html += "</div>"
        html += "<h3>Unfinished transactions</h3>" + table(
            ["Transaction", "Customer", "Product", "Purchased", "Why"],
            waiting.unfinished.prefix(rowsShown).map { transaction in
                var why = ""
                if case .unfinished(let reason) = transaction.grantState { why = reason.description }
                return [escape(transaction.id), escape(transaction.customerID), escape(transaction.productID),
                        escape(time(transaction.purchaseDate)), escape(why)]
            }, empty: "None: every stored transaction has its grant decision.")
        html += "<h3>Kept notifications</h3>" + table(
            ["Notification", "Type", "Transaction", "Received"],
            waiting.pendingNotifications.prefix(rowsShown).map { kept in
                [escape(kept.uuid), escape([kept.type, kept.subtype].compactMap { $0 }.joined(separator: " ")), escape(kept.transactionID),
                 escape(time(Date(millisecondsSince1970: kept.receivedDate)))]
            }, empty: "None: no notification waits for its customer.")
        html += "<h3>Notification conflicts</h3>" + table(
            ["Notification", "Transaction", "Field", "Stored", "Received"],
            waiting.conflicts.prefix(rowsShown).map { conflict in
                [escape(conflict.uuid), escape(conflict.transactionID), escape(conflict.field), escape(conflict.stored), escape(conflict.received)]
            }, empty: "None.")
        html += refundRequests(waiting.refundRequests)
        html += outgoingEvents(waiting.events, waiting.lateOrFailedEvents, now: now)
        html += "<h3>Reconciliation</h3>"
        if let checkpoint = waiting.checkpoint {
            let reconciledTo = Int64(checkpoint.value).map { time(Date(millisecondsSince1970: $0)) } ?? checkpoint.value
            html += "<dl><dt>Checkpoint</dt><dd>notifications reconciled up to \(escape(reconciledTo))</dd>"
            html += "<dt>Last moved</dt><dd>\(escape(time(Date(millisecondsSince1970: checkpoint.updatedDate))))</dd></dl>"
        } else {
            html += "<p class=\"empty\">No reconciliation has run against this ledger.</p>"
        }
        return html + "</section>"
    }

    /// The refund requests Apple asked about, counted by state, the newest with their answer
    /// or what stops it.
    private static func refundRequests(_ requests: [ConsumptionRequestRecord]) -> String {
        var html = "<h3>Refund requests</h3>"
        guard !requests.isEmpty else { return html + "<p class=\"empty\">None asked.</p>" }
        let counts = ConsumptionRequestRecord.State.allCases.compactMap { state -> String? in
            let count = requests.filter { $0.state == state }.count
            return count == 0 ? nil : "\(count) \(state.rawValue)"
        }
        html += "<p>\(escape(counts.joined(separator: " · ")))</p>"
        html += table(
            ["Transaction", "Reason", "State", "Answer", "Attempts", "Deadline", "Note"],
            requests.suffix(rowsShown).reversed().map { request in
                let answer = request.answer.map { answer in
                    [answer.refundPreference?.rawValue, answer.deliveryStatus.rawValue,
                     answer.consumptionPercentage.map { "\(Double($0) / 1000) % consumed" }].compactMap { $0 }.joined(separator: ", ")
                } ?? ""
                return [escape(request.transactionID), escape(request.reason ?? ""), escape(request.state.rawValue), escape(answer),
                        String(request.attempts), escape(time(Date(millisecondsSince1970: request.deadlineDate))), escape(request.lastError ?? "")]
            }, empty: "")
        return html
    }

    /// The outbox: how many events wait, and the late and given-up ones with their last error.
    private static func outgoingEvents(_ backlog: OutgoingEventBacklog, _ events: [OutgoingEvent], now: Date) -> String {
        var html = "<h3>Outgoing events</h3>"
        let oldest = backlog.oldestPendingDate.map { ", the oldest written " + age(of: Date(millisecondsSince1970: $0), at: now) + " ago" } ?? ""
        html += "<p>\(backlog.pending) pending\(escape(oldest)) · \(backlog.late) late · \(backlog.failed) given up "
            + "(<code>storerules events retry</code> sends them again)</p>"
        html += table(
            ["Event", "Customer", "Type", "State", "Attempts", "Written", "Last error"],
            events.map { event in
                [escape(event.id), escape("\(event.customerID) #\(event.sequence)"), escape(event.typeName), escape(event.state.rawValue),
                 String(event.attempts), escape(time(Date(millisecondsSince1970: event.createdDate))), escape(event.lastError ?? "")]
            }, empty: "None late or given up.")
        return html
    }
}
