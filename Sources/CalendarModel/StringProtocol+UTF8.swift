extension StringProtocol {
    /// Calls `body` on the text's UTF-8 bytes: in place when they are
    /// contiguous (a native String's or Substring's always are), else on a
    /// copy. The date and time readers go through it: a store reads thousands
    /// of stored times at once, and an import reads every DTSTART, and a copy
    /// into an array was a third of that work.
    @inlinable
    public func withUTF8Bytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // `withContiguousStorageIfAvailable` rethrows untyped; a Result carries the typed error through it.
        let read = utf8.withContiguousStorageIfAvailable { bytes in Swift.Result { () throws(Failure) in try body(bytes) } }
            ?? Array(utf8).withUnsafeBufferPointer { bytes in Swift.Result { () throws(Failure) in try body(bytes) } }
        return try read.get()
    }
}
