import Foundation
import LuaBridge

extension CustomerContext {
    /// Pushes `ctx.customer.attributes` as the host passed them.
    static func pushAttributes(_ attributes: [String: LuaValue], onto stack: LuaStack) {
        _ = stack.reserve(4)
        stack.pushTable(fieldCount: attributes.count)
        let table = stack.top
        for (key, value) in attributes {
            stack.push(value)
            stack.setField(named: key, of: table)
        }
    }

    /// Pushes `ctx.customer.events`: each name's history.
    static func pushEvents(_ events: [String: EventHistory], onto stack: LuaStack) {
        _ = stack.reserve(4)
        stack.pushTable(fieldCount: events.count)
        let table = stack.top
        for (name, history) in events {
            history.push(onto: stack)
            stack.setField(named: name, of: table)
        }
    }
}

extension EventHistory {
    /// Pushes `{count = …, last = …, recent = {…}}`; `last` is absent when it never happened.
    func push(onto stack: LuaStack) {
        _ = stack.reserve(4)
        stack.pushTable(fieldCount: 3)
        let table = stack.top
        stack.push(count)
        stack.setField("count", of: table)
        if let last {
            stack.push(EpochSeconds.whole(last))
            stack.setField("last", of: table)
        }
        stack.pushTable(arrayCount: recent.count)
        for (position, date) in recent.enumerated() {
            stack.push(EpochSeconds.whole(date))
            stack.setItem(position + 1, of: -2)
        }
        stack.setField("recent", of: table)
    }
}
