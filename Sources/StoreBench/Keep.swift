/// Keeps a result alive so the optimizer cannot drop the work that made it.
@inline(never)
func keep<Value>(_ value: Value) {
    withExtendedLifetime(value) {}
}
