import CLua

/// A sandboxed Lua 5.4 state with limits.
///
/// A state is not `Sendable`: it belongs to the code that made it. A pool that hands states
/// from thread to thread (as the policy engine's does) owns that hand-over and makes sure two
/// threads never use one state at once. Every call into Lua is protected: errors, limits and
/// bad results come back as ``LuaError`` and the state stays usable.
public final class LuaState {
    /// The limits every call runs under, fixed when the state is made.
    public let limits: LuaLimits

    /// The limits in the form each call arms them, worked out once.
    private struct ArmedLimits {
        let budget: Int64
        let interval: Int64
        let seconds: Double
        init(_ limits: LuaLimits) {
            budget = Int64(limits.instructionBudget)
            interval = Int64(limits.checkInterval)
            seconds = limits.deadlineSeconds
        }
    }
    private let armed: ArmedLimits

    /// What `print` in policy code does with its line.
    public typealias PrintHandler = @Sendable (String) -> Void

    let handle: OpaquePointer
    let accounting: UnsafeMutablePointer<srlua_limits>
    /// Where the line hook counts, while coverage is on; kept alive with the state.
    var lineCounts: LuaLineCounts?
    let printBox: PrintBox
    private var globalsReference: LuaReference
    private var freezeReference: LuaReference
    var hostFunctions: [HostFunctionBox] = []

    /// The read-only globals table policy code sees.
    var globals: LuaReference { globalsReference }

    /// Creates a sandboxed state.
    ///
    /// - Parameters:
    ///   - limits: the instruction budget, deadline and memory cap.
    ///   - print: receives each line policy code prints; by default lines are dropped.
    public init(limits: LuaLimits = .default, print: @escaping PrintHandler = { _ in }) throws(LuaError) {
        self.limits = limits
        armed = ArmedLimits(limits)
        accounting = UnsafeMutablePointer<srlua_limits>.allocate(capacity: 1)
        accounting.initialize(to: srlua_limits())
        accounting.pointee.bytes_limit = limits.memoryLimit > 0 ? limits.memoryLimit : 0
        guard let state = srlua_newstate(accounting) else {
            accounting.deallocate()
            throw LuaError(kind: .memory, message: "cannot create a Lua state")
        }
        handle = state
        srlua_use_generational_gc(state)
        printBox = PrintBox(print)
        globalsReference = LuaReference(slot: srlua_noref())
        freezeReference = LuaReference(slot: srlua_noref())
        do {
            (globalsReference, freezeReference) = try installSandbox()
        } catch {
            lua_close(state)
            accounting.deallocate()
            throw error
        }
    }

    deinit {
        lua_close(handle)
        accounting.deallocate()
    }

    /// Runs a full garbage collection, so that the state holds only what is reachable.
    public func collectGarbage() {
        srlua_collect_garbage(handle)
    }

    /// Bytes the state holds now.
    public var memoryInUse: Int { accounting.pointee.bytes_in_use }

    // MARK: Loading

    /// Compiles `source` as text (never as a binary chunk) under `chunkName`, runs it in the
    /// sandbox, and keeps its first result in the registry.
    ///
    /// - Returns: a reference to what the chunk returned.
    ///
    /// - Parameter environment: the table the chunk's globals live in; by default the
    ///   read-only sandbox globals.
    public func load(_ source: String, chunkName: String, environment: LuaReference? = nil) throws(LuaError) -> LuaReference {
        let stack = LuaStack(handle)
        let base = stack.top
        defer { stack.setTop(base) }
        try compile(source, chunkName: chunkName, environment: environment)
        try protectedCall(arguments: 0, results: 1, chunkName: chunkName)
        return reference(toValueAt: -1)
    }

    /// Compiles `source` as text without running it and keeps the function in the registry.
    ///
    /// - Parameter environment: the table the chunk's globals live in; by default the
    ///   read-only sandbox globals.
    public func compileFunction(_ source: String, chunkName: String, environment: LuaReference? = nil) throws(LuaError) -> LuaReference {
        let stack = LuaStack(handle)
        let base = stack.top
        defer { stack.setTop(base) }
        try compile(source, chunkName: chunkName, environment: environment)
        return reference(toValueAt: -1)
    }

    /// Compiles `source` and runs it, returning its first result as a ``LuaValue``.
    public func evaluate(_ source: String, chunkName: String = "=input") throws(LuaError) -> LuaValue {
        let stack = LuaStack(handle)
        let base = stack.top
        defer { stack.setTop(base) }
        try compile(source, chunkName: chunkName)
        try protectedCall(arguments: 0, results: 1, chunkName: chunkName)
        return try stack.value(at: -1)
    }

    // MARK: References

    /// Keeps the value at `index` in the registry.
    public func reference(toValueAt index: Int32) -> LuaReference {
        lua_pushvalue(handle, index)
        return LuaReference(slot: luaL_ref(handle, srlua_registryindex()))
    }

    /// Pushes `value` as a deeply read-only table and keeps it in the registry: policy code can
    /// read it (fields, `pairs`, `ipairs`, `#`) but any assignment is an error. Used for data
    /// that is shared between calls, such as the catalog.
    public func readOnlyReference<Value: Encodable>(to value: Value, named name: String, encoder: LuaEncoder) throws(LuaError) -> LuaReference {
        let stack = LuaStack(handle)
        let base = stack.top
        defer { stack.setTop(base) }
        stack.push(freezeReference)
        try encoder.push(value, onto: stack)
        stack.push(name)
        try protectedCall(arguments: 2, results: 1, chunkName: nil)
        return reference(toValueAt: -1)
    }

    /// A new table whose fields policy code may write, and whose missing fields are read
    /// from the sandbox globals: an environment for code the host trusts with globals of
    /// its own, such as policy tests.
    public func makeWritableEnvironment() -> LuaReference {
        withStack { stack in
            stack.pushTable()
            stack.pushTable(fieldCount: 1)
            stack.push(globalsReference)
            stack.setField("__index", of: -2)
            lua_setmetatable(handle, -2)
            return reference(toValueAt: -1)
        }
    }

    /// Sets field `name` of the table `table` to the one value `push` pushes (raw set).
    public func setField<Failure: Error>(_ name: String, in table: LuaReference, push: (LuaStack) throws(Failure) -> Void) throws(Failure) {
        let stack = LuaStack(handle)
        let base = stack.top
        defer { stack.setTop(base) }
        stack.push(table)
        try push(stack)
        stack.setField(named: name, of: base + 1)
    }

    /// The line where the Lua function `function` is defined, if it is a Lua function.
    public func definitionLine(of function: LuaReference) -> Int? {
        withStack { stack in
            stack.push(function)
            var info = lua_Debug()
            guard lua_getinfo(handle, ">S", &info) != 0, info.linedefined > 0 else { return nil }
            return Int(info.linedefined)
        }
    }

    /// The sandbox global `name` (such as `next`), kept in the registry.
    public func globalReference(named name: String) -> LuaReference {
        withStack { stack in
            stack.push(globalsReference)
            stack.pushIndexedField(name, of: stack.top)
            return reference(toValueAt: stack.top)
        }
    }

    /// Releases a registry reference.
    public func release(_ reference: LuaReference) {
        luaL_unref(handle, srlua_registryindex(), reference.slot)
    }

    /// Keeps field `name` of the table held by `table` in the registry, when it is a function.
    ///
    /// - Returns: the reference, or nil when the field is nil.
    /// - Throws: a `badResult` error when the field is neither nil nor a function.
    public func functionReference(named name: String, in table: LuaReference) throws(LuaError) -> LuaReference? {
        let stack = LuaStack(handle)
        let base = stack.top
        defer { stack.setTop(base) }
        stack.push(table)
        guard stack.type(at: -1) == .table else {
            throw LuaError(kind: .badResult, message: "expected a table, got \(stack.type(at: -1).name)")
        }
        switch stack.pushField(named: name, of: -1) {
        case .nil: return nil
        case .function: return reference(toValueAt: -1)
        case let other: throw LuaError(kind: .badResult, message: "'\(name)' is a \(other.name), not a function")
        }
    }

    /// The names of the table held by `table` whose values are functions.
    public func functionNames(in table: LuaReference) -> [String] {
        let stack = LuaStack(handle)
        let base = stack.top
        defer { stack.setTop(base) }
        stack.push(table)
        guard stack.type(at: -1) == .table else { return [] }
        var names: [String] = []
        stack.forEachPair(of: -1) { key, value in
            if stack.type(at: value) == .function, let name = stack.string(at: key) { names.append(name) }
        }
        return names.sorted()
    }

    // MARK: Calling

    /// Calls the function `function` under the limits.
    ///
    /// - Parameters:
    ///   - function: the function to call.
    ///   - chunkName: named in errors that carry no position of their own.
    ///   - arguments: pushes the arguments and returns how many it pushed.
    ///   - results: reads the results; the first result is at index `first`, and `count`
    ///     results are on the stack.
    /// - Returns: what `results` returns.
    @inlinable
    public func call<Result>(
        _ function: LuaReference,
        chunkName: String? = nil,
        arguments: (LuaStack) throws(LuaError) -> Int32,
        results: (_ stack: LuaStack, _ first: Int32, _ count: Int32) throws(LuaError) -> Result
    ) throws(LuaError) -> Result {
        var result: Result?
        try callReading(function, chunkName: chunkName, arguments: arguments) { stack, first, count throws(LuaError) in
            result = try results(stack, first, count)
        }
        return result!
    }

    /// ``call(_:chunkName:arguments:results:)`` without a generic result, so that callers in
    /// other modules run specialized code.
    @usableFromInline
    func callReading(
        _ function: LuaReference,
        chunkName: String?,
        arguments: (LuaStack) throws(LuaError) -> Int32,
        results: (_ stack: LuaStack, _ first: Int32, _ count: Int32) throws(LuaError) -> Void
    ) throws(LuaError) {
        let stack = LuaStack(handle)
        let base = stack.top
        defer { stack.setTop(base) }
        guard stack.reserve(16) else { throw LuaError(kind: .memory, message: "the Lua stack cannot grow") }
        stack.push(function)
        let count = try arguments(stack)
        try protectedCall(arguments: count, results: srlua_multret(), chunkName: chunkName)
        try results(stack, base + 1, stack.top - base)
    }

    /// Calls `function` with `arguments` and returns its first result.
    public func call(_ function: LuaReference, with arguments: [LuaValue], chunkName: String? = nil) throws(LuaError) -> LuaValue {
        try call(function, chunkName: chunkName, arguments: { stack throws(LuaError) in
            for argument in arguments { stack.push(argument) }
            return Int32(arguments.count)
        }, results: { stack, first, count throws(LuaError) in
            count > 0 ? try stack.value(at: first) : .nil
        })
    }

    /// Runs `body` with the stack, for pushing and reading values outside a call.
    public func withStack<Result>(_ body: (LuaStack) throws -> Result) rethrows -> Result {
        let stack = LuaStack(handle)
        let base = stack.top
        defer { stack.setTop(base) }
        return try body(stack)
    }

    // MARK: Internals

    private func compile(_ source: String, chunkName: String, environment: LuaReference? = nil) throws(LuaError) {
        var source = source
        let status = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                srlua_loadbuffer(handle, chars.baseAddress, chars.count, "@" + chunkName, "t")
            }
        }
        guard status == LUA_OK else {
            let message = LuaStack(handle).string(at: -1) ?? "cannot load chunk"
            let kind: LuaError.Kind = status == LUA_ERRMEM ? .memory : .syntax
            throw LuaError.located(kind: kind, rawMessage: message, traceback: nil, defaultChunk: chunkName)
        }
        LuaStack(handle).push(environment ?? globalsReference)
        lua_setupvalue(handle, -2, 1)
    }

    /// Calls the function below `arguments` values on the stack, under the limits, with a
    /// traceback message handler; on failure throws and leaves the stack where it was.
    private func protectedCall(arguments: Int32, results: Int32, chunkName: String?) throws(LuaError) {
        let functionIndex = lua_gettop(handle) - arguments
        lua_pushcclosure(handle, srlua_message_handler, 0)
        srlua_insert(handle, functionIndex)
        srlua_arm(handle, armed.budget, armed.interval, armed.seconds)
        let status = srlua_pcall(handle, arguments, results, functionIndex)
        let tripped = accounting.pointee.tripped
        let refused = accounting.pointee.allocation_refused != 0
        srlua_disarm(handle)
        srlua_remove(handle, functionIndex)
        guard status != LUA_OK else { return }

        let stack = LuaStack(handle)
        let text = stack.string(at: -1) ?? "(error object is a \(stack.type(at: -1).name) value)"
        stack.setTop(functionIndex - 1)
        let kind: LuaError.Kind
        if tripped == Int32(SRLUA_TRIPPED_BUDGET) {
            kind = .instructionBudget
        } else if tripped == Int32(SRLUA_TRIPPED_DEADLINE) {
            kind = .deadline
        } else if status == LUA_ERRMEM || refused || tripped == Int32(SRLUA_TRIPPED_MEMORY) {
            kind = .memory
        } else {
            kind = .runtime
        }
        if kind != .runtime {
            srlua_collect_garbage(handle)
        }
        let (message, traceback) = Self.splitTraceback(text)
        var error = LuaError.located(kind: kind, rawMessage: message, traceback: traceback, defaultChunk: chunkName)
        switch kind {
        case .instructionBudget:
            error.message = "used more than \(limits.instructionBudget) instructions"
        case .deadline:
            error.message = "ran longer than \(limits.deadline)"
        case .memory:
            error.message = limits.memoryLimit > 0
                ? "needed more than the \(limits.memoryLimit) bytes the state may use" : "out of memory"
        default:
            break
        }
        throw error
    }

    private static func splitTraceback(_ text: String) -> (String, String?) {
        let marker = "\nstack traceback:"
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix(marker) {
                return (String(text[..<index]), String(text[text.index(after: index)...]))
            }
            index = text.index(after: index)
        }
        return (text, nil)
    }
}
