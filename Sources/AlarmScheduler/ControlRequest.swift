import Foundation

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

    /// Reads one request line (without its newline).
    public static func parse(_ line: Data) throws(Refusal) -> ControlRequest {
        do {
            return try ControlReply.decoder.decode(ControlRequest.self, from: line)
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal(name: nil, description: "not a JSON object: send one per line, such as {\"request\":\"status\"}")
        }
    }
}

extension ControlRequest: Codable {
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

    /// Lenient as the daemon always was: a value of the wrong type counts
    /// as missing, and a fix that is not one is refused alone.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let text = try? container.decodeIfPresent(String.self, forKey: .request) else {
            throw Refusal(name: nil, description: "missing \"request\" (status, changed, next, snooze, dismiss or location)")
        }
        guard let name = Name(rawValue: text) else {
            throw Refusal(name: text, description: "unknown request '\(text)' (known: status, changed, next, snooze, dismiss, location)")
        }
        func key() throws -> String {
            guard let key = try? container.decodeIfPresent(String.self, forKey: .key) else {
                throw Refusal(name: text, description: "\(text) needs \"key\", a firing's key")
            }
            return key
        }
        switch name {
        case .status: self = .status
        case .changed: self = .changed
        case .next: self = .next(count: (try? container.decodeIfPresent(Int.self, forKey: .count)) ?? 10)
        case .snooze: self = .snooze(key: try key(), seconds: (try? container.decodeIfPresent(Int.self, forKey: .seconds)) ?? 600)
        case .dismiss: self = .dismiss(key: try key())
        case .location:
            guard let entries = try? container.decodeIfPresent([FixEntry].self, forKey: .fixes) else {
                throw Refusal(name: text, description: "location needs \"fixes\", a list of {\"lat\":…,\"lon\":…,\"accuracy\":…,\"time\":…}")
            }
            self = .location(fixes: entries.map(\.fix))
        }
    }

    /// One element of `fixes`: a position, or why it is not one.
    private struct FixEntry: Decodable {
        var fix: ReportedFix

        init(from decoder: any Decoder) {
            guard let object = try? decoder.container(keyedBy: PositionReport.CodingKeys.self) else {
                fix = .refused("not an object")
                return
            }
            func number(_ key: PositionReport.CodingKeys) throws(Refusal) -> Double? {
                guard object.contains(key), (try? object.decodeNil(forKey: key)) == false else { return nil }
                // true and false are not numbers here.
                guard let value = try? object.decode(Double.self, forKey: key) else {
                    throw Refusal(name: nil, description: "\"\(key.stringValue)\" is not a number")
                }
                return value
            }
            do throws(Refusal) {
                guard let latitude = try number(.latitude), let longitude = try number(.longitude) else {
                    throw Refusal(name: nil, description: "needs \"lat\" and \"lon\"")
                }
                fix = .position(PositionReport(latitude: latitude, longitude: longitude, accuracy: try number(.accuracy), time: try number(.time)))
            } catch {
                fix = .refused(error.description)
            }
        }
    }
}
