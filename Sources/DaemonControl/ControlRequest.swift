import Foundation
import JSONValues

/// A request on the control socket, one JSON object per line:
/// `{"request":"status"}`, `{"request":"next","count":5}`,
/// `{"request":"snooze","key":KEY,"seconds":600}`, `{"request":"dismiss","key":KEY}`,
/// `{"request":"changed"}`, `{"request":"location","fixes":[{"lat":…,"lon":…}]}`.
public enum ControlRequest: Sendable, Equatable {
    case status
    /// The store changed: plan again now.
    case changed
    /// The next `count` firings (0 to 1000).
    case next(count: Int = 10)
    case snooze(key: String, seconds: Int = 600)
    case dismiss(key: String)
    /// Positions in the order taken.
    case location(fixes: [ReportedFix])

    public enum Name: String, Sendable, CaseIterable {
        case status, changed, next, snooze, dismiss, location
    }

    public var name: Name {
        switch self {
        case .status: .status
        case .changed: .changed
        case .next: .next
        case .snooze: .snooze
        case .dismiss: .dismiss
        case .location: .location
        }
    }

    /// A request the daemon does not take, with the error its reply gives.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The request's name when it has one (the daemon answers "the store
        /// is gone" to every named request but status before any other error).
        public var name: String?
        public var description: String
    }

    /// An element of a location request's `fixes`: a position, or (read
    /// from a request) why it is not one, kept in its place in the list.
    public enum ReportedFix: Sendable, Equatable {
        case position(PositionReport)
        case refused(String)
    }

    /// One position, as `chime location` sends it and scripts write it.
    public struct PositionReport: Codable, Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var accuracy: Double?
        /// Unix seconds; nil: when it arrives.
        public var time: Double?

        public init(latitude: Double, longitude: Double, accuracy: Double? = nil, time: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.accuracy = accuracy
            self.time = time
        }

        enum CodingKeys: String, CodingKey {
            case latitude = "lat", longitude = "lon", accuracy, time
        }
    }

    /// The request as one line of JSON, without its newline.
    public var line: Data { (try? ControlReply.encoder.encode(self)) ?? Data("{}".utf8) }

    /// Reads one request line (without its newline) with JSONValue, the
    /// reader of every JSON text from outside: a socket tool's line is one.
    /// Lenient as the daemon always was: a value of the wrong type counts
    /// as missing, and a fix that is not one is refused alone.
    public static func parse(_ line: Data) throws(Refusal) -> ControlRequest {
        guard case .object(let members)? = try? JSONValue.parse(Array(line), lastKeyWins: true) else {
            throw Refusal(name: nil, description: "not a JSON object: send one per line, such as {\"request\":\"status\"}")
        }
        guard case .string(let text)? = members["request"] else {
            throw Refusal(name: nil, description: "missing \"request\" (status, changed, next, snooze, dismiss or location)")
        }
        guard let name = Name(rawValue: text) else {
            throw Refusal(name: text, description: "unknown request '\(text)' (known: status, changed, next, snooze, dismiss, location)")
        }
        func integer(_ key: String) -> Int? {
            guard case .number(let value)? = members[key] else { return nil }
            return Int(exactly: value)
        }
        func key() throws(Refusal) -> String {
            guard case .string(let key)? = members["key"] else { throw Refusal(name: text, description: "\(text) needs \"key\", a firing's key") }
            return key
        }
        switch name {
        case .status: return .status
        case .changed: return .changed
        case .next: return .next(count: integer("count") ?? 10)
        case .snooze: return .snooze(key: try key(), seconds: integer("seconds") ?? 600)
        case .dismiss: return .dismiss(key: try key())
        case .location:
            guard case .array(let elements)? = members["fixes"] else {
                throw Refusal(name: text, description: "location needs \"fixes\", a list of {\"lat\":…,\"lon\":…,\"accuracy\":…,\"time\":…}")
            }
            return .location(fixes: elements.map(ReportedFix.init))
        }
    }
}

extension ControlRequest.ReportedFix {
    /// One element of `fixes`: a position, or why it is not one.
    init(_ element: JSONValue) {
        guard case .object(let object) = element else {
            self = .refused("not an object")
            return
        }
        func number(_ key: String) throws(ControlRequest.Refusal) -> Double? {
            switch object[key] {
            case nil, .null?: return nil
            case .number(let value)?: return value
            // true and false are not numbers here.
            default: throw ControlRequest.Refusal(name: nil, description: "\"\(key)\" is not a number")
            }
        }
        do throws(ControlRequest.Refusal) {
            guard let latitude = try number("lat"), let longitude = try number("lon") else {
                throw ControlRequest.Refusal(name: nil, description: "needs \"lat\" and \"lon\"")
            }
            self = .position(ControlRequest.PositionReport(latitude: latitude, longitude: longitude, accuracy: try number("accuracy"),
                                                          time: try number("time")))
        } catch {
            self = .refused(error.description)
        }
    }
}

extension ControlRequest: Encodable {
    enum CodingKeys: String, CodingKey {
        case request, count, key, seconds, fixes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name.rawValue, forKey: .request)
        switch self {
        case .status, .changed: break
        case .next(let count): try container.encode(count, forKey: .count)
        case .snooze(let key, let seconds):
            try container.encode(key, forKey: .key)
            try container.encode(seconds, forKey: .seconds)
        case .dismiss(let key): try container.encode(key, forKey: .key)
        case .location(let fixes): try container.encode(fixes.map { fix -> PositionReport? in
            if case .position(let report) = fix { return report }
            return nil
        }, forKey: .fixes)
        }
    }
}
