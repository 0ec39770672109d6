import Foundation
import StoreCore
import StoreJourneys
@testable import StorePolicy
import Testing

@Suite struct JourneyDecodingTests {
    @Test("a journey decodes its steps with their arguments")
    func validJourney() throws {
        let journey = try Journey.decode(json: Data("""
        {"title": "T", "customer": "ada", "start": "2026-01-01T00:00:00Z", "steps": [
          {"action": "purchase", "product": "pellets.box", "quantity": 3, "note": "buys"},
          {"action": "advance", "duration": "P1M"}, {"action": "reload"}]}
        """.utf8))
        #expect(journey.steps.map(\.action) == [.purchase(product: "pellets.box", quantity: 3, offer: nil, offerCode: nil),
                                                .advance(StoreDuration(months: 1)), .reload(policy: "policy.lua")])
        #expect(journey.steps.first?.note == "buys")
    }

    @Test("a step's unknown field is refused with its position and the nearest field the action takes")
    func unknownStepField() {
        let steps = #"{"action":"approve"},{"action":"approve"},{"action":"approve"},"#
        #expect(journeyError(#"{"steps":[\#(steps){"action":"purchase","product":"p","quantiy":2}]}"#)?.description
                == "steps[3]: unknown field 'quantiy'; did you mean 'quantity'?")
        #expect(journeyError(#"{"steps":[{"action":"advance","duration":"P1D","group":"PASS"}]}"#)?.description
                == "steps[0]: unknown field 'group'; known fields: action, note, customer, duration")
        #expect(journeyError(#"{"steps":[{"acton":"approve"}]}"#)?.description == "steps[0]: unknown field 'acton'; did you mean 'action'?")
        #expect(journeyError(#"{"titel":"T","steps":[]}"#)?.description == "unknown field 'titel' at the top level; did you mean 'title'?")
    }

    @Test("an unknown action suggests the nearest one")
    func unknownAction() {
        #expect(journeyError(#"{"steps":[{"action":"purchse"}]}"#)?.description.hasPrefix(#"steps[0].action: unknown action "purchse"; did you mean "purchase"? Use storefront, purchase"#) == true)
        #expect(journeyError(#"{"steps":[{"action":"juggle"}]}"#)?.description.hasPrefix(#"steps[0].action: unknown action "juggle"; use storefront"#) == true)
    }

    @Test("a quantity must be a whole number of 1 or more that fits")
    func quantities() {
        #expect(journeyError(#"{"steps":[{"action":"purchase","product":"p","quantity":-2}]}"#)?.description
                == "steps[0].quantity: expected a whole number of 1 or more, found -2")
        #expect(journeyError(#"{"steps":[{"action":"purchase","product":"p","quantity":0}]}"#) != nil)
        #expect(journeyError(#"{"steps":[{"action":"purchase","product":"p","quantity":1e19}]}"#)?.description
                == "steps[0].quantity: expected a whole number from -9223372036854775808 to 9223372036854775807, found 1e19")
        #expect(journeyError(#"{"steps":[{"action":"purchase","product":"p","quantity":2.5}]}"#)?.description
                == "steps[0].quantity: expected a whole number, found 2.5")
    }

    @Test("missing and malformed fields name the step")
    func missingFields() {
        #expect(journeyError(#"{"title":"T"}"#)?.description == "missing field 'steps'")
        #expect(journeyError(#"{"steps":[{"action":"purchase"}]}"#)?.description == "steps[0]: missing field 'product'")
        #expect(journeyError(#"{"steps":[{"note":"x"}]}"#)?.description == "steps[0]: missing field 'action'")
        #expect(journeyError(#"{"steps":[{"action":"advance","duration":"soon"}]}"#)?.description
                == #"steps[0].duration: "soon" is not an ISO 8601 duration"#)
        #expect(journeyError(#"{"start":"yesterday","steps":[]}"#)?.description == #"start: "yesterday" is not an ISO 8601 date"#)
    }
}
