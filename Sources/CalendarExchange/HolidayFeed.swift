import Foundation
import HTTPDownload
import SystemCalls

/// A holiday source that is not one, or a file it would not give.
public typealias HolidayFeedError = CodedError<HolidayFeedFailure>

/// What `HolidayFeedError` says went wrong.
public enum HolidayFeedFailure: Equatable, Sendable {
    /// The source names a scheme other than http and https.
    case notASource
    case noSuchFolder
    case notAFolder
    /// The folder's file is there but cannot be read.
    case unreadable
    case notAnAddress
    /// The download failed (libcurl's code says how).
    case download(LibCurlError.Code)
    /// The server answered with a status other than 200 and 404.
    case httpStatus(Int)
    /// A file fetched is not holiday data (`HolidayDataError` says why).
    case notHolidayData
}

/// Where `chime holidays update` and chimed read holiday-cn JSON files from:
/// a web address with `{year}` in it (or a base that `/{year}.json` is added
/// to), or a folder holding `2027.json` and its kind.
public struct HolidayFeed: Sendable, CustomStringConvertible {
    /// holiday-cn's own raw files, as its README gives them.
    public static let defaultPattern = "https://raw.githubusercontent.com/NateScarlet/holiday-cn/master/{year}.json"

    public enum Location: Sendable {
        case web(pattern: String)
        case folder(String)
    }

    public let location: Location

    /// `text` nil: holiday-cn's repository. Any other scheme than http and
    /// https is refused, and so is a folder that is not there or is not a
    /// folder: each would otherwise read as a source with no
    /// years published, and the update would do nothing, successfully.
    /// `given` names where the text came from in a message (`--from`, the stored source).
    public init(_ text: String?, given: String = "--from") throws(HolidayFeedError) {
        guard let text else {
            location = .web(pattern: Self.defaultPattern)
            return
        }
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
            location = .web(pattern: text.contains("{year}") ? text : trimmed + "/{year}.json")
            return
        }
        if let scheme = text.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) {
            throw HolidayFeedError(.notASource, "\(given) '\(text)': \(text[scheme].dropLast()) is not a source; give an http(s) address or a folder")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: text, isDirectory: &isFolder) else {
            throw HolidayFeedError(.noSuchFolder, "\(given) '\(text)': no such folder")
        }
        guard isFolder.boolValue else {
            throw HolidayFeedError(.notAFolder, "\(given) '\(text)' is not a folder; give the folder that holds YEAR.json files")
        }
        location = .folder(text)
    }

    public var description: String {
        switch location {
        case .web(let pattern): pattern
        case .folder(let path): path
        }
    }

    /// The file for `year` and where it came from; nil when the source has
    /// none (HTTP 404, no such file).
    public func fetch(year: Int, timeout: TimeInterval = 20) throws(HolidayFeedError) -> (bytes: [UInt8], origin: String)? {
        switch location {
        case .folder(let folder):
            let path = (folder as NSString).appendingPathComponent("\(year).json")
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            guard let data = FileManager.default.contents(atPath: path) else { throw HolidayFeedError(.unreadable, "cannot read \(path)") }
            return ([UInt8](data), path)
        case .web(let pattern):
            let address = pattern.replacingOccurrences(of: "{year}", with: String(year))
            guard let url = URL(string: address) else { throw HolidayFeedError(.notAnAddress, "not a web address: \(address)") }
            return try Self.download(url, timeout: timeout).map { ($0, address) }
        }
    }

    /// One GET, waited for: nil on 404, an error naming the address for
    /// anything else that is not 200. Through libcurl, opened only now (see
    /// `LibCurl`): FoundationNetworking would load it for every command.
    private static func download(_ url: URL, timeout: TimeInterval) throws(HolidayFeedError) -> [UInt8]? {
        let answer: (status: Int, body: [UInt8])
        do {
            answer = try LibCurl.shared.get().get(url.absoluteString, timeout: timeout)
        } catch {
            throw HolidayFeedError(.download(error.code), "\(url.absoluteString): \(error)")
        }
        switch answer.status {
        case 200: return answer.body
        case 404: return nil
        default: throw HolidayFeedError(.httpStatus(answer.status), "\(url.absoluteString): HTTP status \(answer.status)")
        }
    }
}
