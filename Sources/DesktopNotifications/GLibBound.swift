/// A value that only the GLib thread may touch, checked on every access as
/// swift-nio's `NIOLoopBound` checks its event loop: a touch from another
/// thread stops the process there, instead of racing GLib's callbacks.
struct GLibBound<Value>: @unchecked Sendable {
    private var stored: Value

    /// Made on any thread; only used on the GLib thread from then on.
    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get {
            GLibThread.preconditionCurrent()
            return stored
        }
        _modify {
            GLibThread.preconditionCurrent()
            yield &stored
        }
    }
}
