/// A Swift value read straight from the Lua stack, field by field, without an intermediate
/// copy: the fastest way to take a hook's result.
///
/// ```swift
/// struct Offer: LuaReadable {
///     var show: Bool
///     init(from stack: LuaStack, at index: Int32) throws(LuaError) {
///         guard stack.pushField("show", of: index) == .boolean, let show = stack.bool(at: -1) else {
///             throw LuaError(kind: .badResult, message: "show: expected a boolean")
///         }
///         stack.setTop(stack.top - 1)
///         self.show = show
///     }
/// }
/// ```
public protocol LuaReadable {
    /// Reads the value at `index`; leaves the stack as it found it.
    init(from stack: LuaStack, at index: Int32) throws(LuaError)
}
