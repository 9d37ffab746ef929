import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Checks `condition` every `interval` seconds until it holds or `seconds`
/// have passed, and says whether it held. The deadline only tells a hang
/// from an answer (tests assert what happened, never how soon); a condition
/// that throws ends the wait with its error.
@discardableResult
public func waitUntil(seconds: Double, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while try !condition() {
        guard Date() < deadline else { return false }
        usleep(UInt32(interval * 1_000_000))
    }
    return true
}
