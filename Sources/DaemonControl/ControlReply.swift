import CalendarModel
import Foundation

/// The daemon's answer to a `ControlRequest`, one JSON object per line;
/// every one has `ok`, a refusal `error` as well.
public enum ControlReply: Sendable, Equatable {
    case refused(String)
    /// `changed`: nothing to say but yes.
    case done
    case status(DaemonStatus)
    case next([NextFiring])
    /// A snooze's key and when it rings (RFC 3339 in UTC).
    case snoozed(key: String, at: String)
    /// How many pending snoozes a dismiss dropped.
    case dismissed(dropped: Int)
    case location(LocationReply)

    /// Every answer but a refusal.
    public var ok: Bool { refusal == nil }

    /// A refusal's error; nil for an answer.
    public var refusal: String? {
        if case .refused(let message) = self { return message }
        return nil
    }

    /// The socket's JSON, both ways: one line, keys sorted.
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    package static let decoder = JSONDecoder()

    /// The reply as one line of JSON, with its newline.
    package var line: Data {
        var data = (try? Self.encoder.encode(self)) ?? Data(#"{"ok":false,"error":"the reply could not be written"}"#.utf8)
        data.append(10)
        return data
    }

    /// A reply line (without its newline) to a request named `name`.
    public init(decoding line: Data, answering name: ControlRequest.Name) throws {
        let head = try Self.decoder.decode(Head.self, from: line)
        guard head.ok else {
            self = .refused(head.error ?? "no reason given")
            return
        }
        switch name {
        case .status: self = .status(try Self.decoder.decode(DaemonStatus.self, from: line))
        case .changed: self = .done
        case .next: self = .next(try Self.decoder.decode(Firings.self, from: line).firings)
        case .snooze:
            let snooze = try Self.decoder.decode(Snoozed.self, from: line)
            self = .snoozed(key: snooze.key, at: snooze.at)
        case .dismiss: self = .dismissed(dropped: try Self.decoder.decode(Dismissed.self, from: line).dropped)
        case .location: self = .location(try Self.decoder.decode(LocationReply.self, from: line))
        }
    }

    private struct Head: Codable {
        var ok: Bool
        var error: String?
    }

    private struct Firings: Codable {
        var ok = true
        var firings: [NextFiring]
    }

    private struct Snoozed: Codable {
        var ok = true
        var key: String
        var at: String
    }

    private struct Dismissed: Codable {
        var ok = true
        var dropped: Int
    }
}

extension ControlReply: Encodable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .refused(let message): try Head(ok: false, error: message).encode(to: encoder)
        case .done: try Head(ok: true).encode(to: encoder)
        case .status(let status): try status.encode(to: encoder)
        case .next(let firings): try Firings(firings: firings).encode(to: encoder)
        case .snoozed(let key, let at): try Snoozed(key: key, at: at).encode(to: encoder)
        case .dismissed(let dropped): try Dismissed(dropped: dropped).encode(to: encoder)
        case .location(let reply): try reply.encode(to: encoder)
        }
    }
}

/// The answer to `status`.
public struct DaemonStatus: Codable, Sendable, Equatable {
    public var ok = true
    public var pid: Int
    /// The store's path.
    public var store: String
    /// RFC 3339 in UTC.
    public var started: String
    public var planned: Int
    public var waiting: Int
    /// The instant the timer is armed for (RFC 3339 in UTC); null with nothing to ring.
    @Nullable public var armedFor: String?
    /// The newest position taken; left out before the first.
    public var position: Position?

    package init(pid: Int, store: String, started: String, planned: Int, waiting: Int, armedFor: String?, position: Position?) {
        self.pid = pid
        self.store = store
        self.started = started
        self.planned = planned
        self.waiting = waiting
        self.armedFor = armedFor
        self.position = position
    }

    public struct Position: Codable, Sendable, Equatable {
        public var lat: Double
        public var lon: Double
        @Nullable public var accuracy: Double?
        /// Unix seconds.
        public var time: Double

        package init(lat: Double, lon: Double, accuracy: Double?, time: Double) {
            (self.lat, self.lon, self.accuracy, self.time) = (lat, lon, accuracy, time)
        }
    }
}

/// The answer to `location`.
public struct LocationReply: Codable, Sendable, Equatable {
    public var ok = true
    public var taken: Int
    public var ignored: Int
    public var transitions: Int
    public var refused: Int
    /// The first ten refusals; left out when there are none.
    public var errors: [String]?

    public init(taken: Int, ignored: Int, transitions: Int, refused: [String]) {
        self.taken = taken
        self.ignored = ignored
        self.transitions = transitions
        self.refused = refused.count
        errors = refused.isEmpty ? nil : Array(refused.prefix(10))
    }
}
