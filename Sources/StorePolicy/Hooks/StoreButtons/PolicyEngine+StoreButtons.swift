import LuaBridge

extension PolicyEngine {
    /// `store_buttons(ctx, view)`: the visibility of each store button in `view`.
    /// Buttons the hook leaves out, and every button by default, are `automatic`.
    public func storeButtons(_ context: PolicyContext, view: StoreViewKind, traced: Bool = false) -> Decision<[StoreButtonKind: StoreButtonVisibility]> {
        let automatic = Self.automaticButtons
        return decide(PolicyHook.storeButtons.name, context: context, traced: traced, inputs: [.string(view.rawValue)],
                      fallback: { automatic },
                      arguments: { _, stack in stack.push(view.rawValue); return 1 },
                      read: { _, stack, first, count throws(LuaError) in
                          guard count > 0, stack.type(at: first) == .table else {
                              throw Self.badResult("expected a table of button kinds to \"visible\", \"hidden\" or \"automatic\"", stack, first, count)
                          }
                          var buttons = automatic
                          var problem: String?
                          stack.forEachPair(of: first) { key, value in
                              guard problem == nil else { return }
                              guard let name = stack.string(at: key), let kind = StoreButtonKind(rawValue: name) else {
                                  problem = "unknown store button \(Self.describe(stack, key)); known: "
                                      + StoreButtonKind.allCases.map(\.rawValue).joined(separator: ", ")
                                  return
                              }
                              guard let text = stack.string(at: value), let visibility = StoreButtonVisibility(rawValue: text) else {
                                  problem = "\(name): expected \"visible\", \"hidden\" or \"automatic\", got \(Self.describe(stack, value))"
                                  return
                              }
                              buttons[kind] = visibility
                          }
                          if let problem { throw LuaError(kind: .badResult, message: problem) }
                          return buttons
                      })
    }

    /// Every store button at `automatic`: `store_buttons`' default, and what its answer changes.
    private static let automaticButtons = Dictionary(uniqueKeysWithValues: StoreButtonKind.allCases.map { ($0, StoreButtonVisibility.automatic) })
}
