import CLua

/// A Swift function that policy code can call.
///
/// The function reads its arguments from the stack (index 1 is the first) and returns how
/// many results it pushed. A thrown error becomes a Lua error raised by the C trampoline
/// after the Swift function has returned, so no Lua error ever unwinds a Swift frame.
public typealias LuaHostFunction = (LuaStack) throws(LuaError) -> Int32

/// Keeps a host function alive for as long as its state.
final class HostFunctionBox {
    let body: LuaHostFunction
    init(_ body: @escaping LuaHostFunction) { self.body = body }
}

/// The C-compatible entry point every host function goes through.
let hostFunctionTrampoline: srlua_callback = { state, context in
    guard let state, let context else { return 0 }
    let box = Unmanaged<HostFunctionBox>.fromOpaque(context).takeUnretainedValue()
    let stack = LuaStack(state)
    do throws(LuaError) {
        return try box.body(stack)
    } catch {
        stack.push(error.message)
        return Int32(SRLUA_CALLBACK_ERROR)
    }
}

extension LuaState {
    /// Makes `body` callable from policy code as the global `name`.
    ///
    /// Globals stay read-only to policy code; only the host defines them.
    public func defineFunction(_ name: String, _ body: @escaping LuaHostFunction) {
        let box = HostFunctionBox(body)
        hostFunctions.append(box)
        defineGlobal(name) { stack in
            srlua_push_callback(stack.state, hostFunctionTrampoline, Unmanaged.passUnretained(box).toOpaque())
        }
    }

    /// Keeps `body` in the registry as a function value, not a global: for host code that
    /// hands a function to a chunk it calls.
    public func functionReference(_ body: @escaping LuaHostFunction) -> LuaReference {
        let box = HostFunctionBox(body)
        hostFunctions.append(box)
        return withStack { stack in
            srlua_push_callback(stack.state, hostFunctionTrampoline, Unmanaged.passUnretained(box).toOpaque())
            return reference(toValueAt: stack.top)
        }
    }

    /// Defines the global `name` as the value `push` pushes (exactly one value).
    public func defineGlobal(_ name: String, push: (LuaStack) -> Void) {
        withStack { stack in
            stack.push(globals)
            lua_getmetatable(handle, -1)
            stack.pushField("__index", of: -1)
            let target = stack.top
            push(stack)
            stack.setField(named: name, of: target)
        }
    }
}
