import CalendarModel
import CCurl
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// libcurl could not be loaded, or a transfer through it failed.
public typealias LibCurlError = CodedError<LibCurlFailure>

/// What `LibCurlError` says went wrong.
public enum LibCurlFailure: Equatable, Sendable {
    /// The library is not installed, lacks a function, or would not initialise.
    case unavailable
    /// The answer is longer than `LibCurl.maximumBody`.
    case tooLarge
    /// The transfer failed with this CURLcode (6: the host is unknown, 7: it refused the connection, 28: timed out).
    case transfer(Int32)
}

/// libcurl, opened with dlopen by the commands that fetch (`chime holidays
/// update`, and `Downloader`'s users). Linked in, as FoundationNetworking links it, it made
/// every command load and relocate libcurl and the TLS, Kerberos and LDAP
/// libraries behind it before doing anything.
public struct LibCurl: @unchecked Sendable {
    /// The soname of libcurl's ABI since 2006 (Debian's libcurl4, which the
    /// Swift toolchain's FoundationNetworking needs too).
    public static let soname = "libcurl.so.4"

    /// The largest body read: a holiday-cn year is a few kilobytes, and a
    /// source that sends more than this is not one.
    public static let maximumBody = 8 << 20

    /// Opened once, on first use; the failure says what is missing.
    public static let shared = Result { () throws(LibCurlError) -> LibCurl in try LibCurl() }

    // Internal, not private: `Downloader` makes its transfers with them.
    let library: UnsafeMutableRawPointer
    let easyInit: @convention(c) () -> UnsafeMutableRawPointer?
    let easyPerform: @convention(c) (UnsafeMutableRawPointer?) -> CURLcode
    let easyCleanup: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let easyStrerror: @convention(c) (CURLcode) -> UnsafePointer<CChar>?
    let easySetopt: UnsafeMutableRawPointer
    let easyGetinfo: UnsafeMutableRawPointer
    let slistAppend: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> UnsafeMutableRawPointer?
    let slistFreeAll: @convention(c) (UnsafeMutableRawPointer?) -> Void

    private init() throws(LibCurlError) {
        guard let library = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else {
            throw LibCurlError(.unavailable, "cannot load \(Self.soname) (install libcurl4): \(Self.dlerrorText())")
        }
        func symbol(_ name: String) throws(LibCurlError) -> UnsafeMutableRawPointer {
            guard let address = dlsym(library, name) else { throw LibCurlError(.unavailable, "\(Self.soname) has no \(name)") }
            return address
        }
        self.library = library
        let globalInit = unsafeBitCast(try symbol("curl_global_init"), to: (@convention(c) (Int) -> CURLcode).self)
        easyInit = unsafeBitCast(try symbol("curl_easy_init"), to: (@convention(c) () -> UnsafeMutableRawPointer?).self)
        easyPerform = unsafeBitCast(try symbol("curl_easy_perform"), to: (@convention(c) (UnsafeMutableRawPointer?) -> CURLcode).self)
        easyCleanup = unsafeBitCast(try symbol("curl_easy_cleanup"), to: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
        easyStrerror = unsafeBitCast(try symbol("curl_easy_strerror"), to: (@convention(c) (CURLcode) -> UnsafePointer<CChar>?).self)
        easySetopt = try symbol("curl_easy_setopt")
        easyGetinfo = try symbol("curl_easy_getinfo")
        slistAppend = unsafeBitCast(try symbol("curl_slist_append"),
                                    to: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> UnsafeMutableRawPointer?).self)
        slistFreeAll = unsafeBitCast(try symbol("curl_slist_free_all"), to: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
        // Once per process, before any handle (not thread-safe before libcurl 7.84).
        let status = globalInit(Int(CHIME_CURL_GLOBAL_DEFAULT))
        guard status == CHIME_CURLE_OK else { throw LibCurlError(.unavailable, "curl_global_init: \(Self.text(easyStrerror(status)))") }
    }

    /// libcurl's own number for an option name, or -1 (nil before libcurl
    /// 7.73): how the test checks the numbers in CCurl's header.
    public func optionNumber(_ name: String) -> Int32? {
        dlsym(library, "curl_easy_option_by_name").map { chime_curl_option_number($0, name) }
    }

    /// One GET of an http or https address, redirects followed: the final
    /// status and the body. `timeout` bounds connecting and any stall;
    /// twice it bounds the whole transfer, as URLSession's request and
    /// resource timeouts did.
    public func get(_ address: String, timeout: Double) throws(LibCurlError) -> (status: Int, body: [UInt8]) {
        guard let handle = easyInit() else { throw LibCurlError(.unavailable, "curl_easy_init failed") }
        // libcurl keeps pointers to the strings and buffers until the handle goes.
        let body = Unmanaged.passRetained(Body())
        let message = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CHIME_CURL_ERROR_SIZE))
        message.initialize(repeating: 0, count: Int(CHIME_CURL_ERROR_SIZE))
        // "" as the accepted encoding: all that this libcurl decodes, as URLSession accepted gzip.
        let url = strdup(address)!, agent = strdup("chime/\(ChimeVersion.current)")!, anyEncoding = strdup("")!
        defer {
            easyCleanup(handle)
            for string in [url, agent, anyEncoding] { free(string) }
            message.deallocate()
            body.release()
        }
        let milliseconds = max(1, Int(timeout * 1000))
        let numbers: [(Int32, Int)] = [
            (CHIME_CURLOPT_NOSIGNAL, 1), (CHIME_CURLOPT_FOLLOWLOCATION, 1), (CHIME_CURLOPT_MAXREDIRS, 10),
            (CHIME_CURLOPT_PROTOCOLS, Int(CHIME_CURLPROTO_HTTP | CHIME_CURLPROTO_HTTPS)),
            (CHIME_CURLOPT_REDIR_PROTOCOLS, Int(CHIME_CURLPROTO_HTTP | CHIME_CURLPROTO_HTTPS)),
            (CHIME_CURLOPT_CONNECTTIMEOUT_MS, milliseconds), (CHIME_CURLOPT_TIMEOUT_MS, 2 * milliseconds),
            (CHIME_CURLOPT_LOW_SPEED_LIMIT, 1), (CHIME_CURLOPT_LOW_SPEED_TIME, max(1, Int(timeout.rounded(.up)))),
        ]
        let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
            guard let data, let context else { return 0 }
            let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            // Fewer bytes taken than given ends the transfer with a write error.
            guard body.bytes.count + length <= LibCurl.maximumBody else {
                body.tooLarge = true
                return 0
            }
            body.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
            return length
        }
        let pointers: [(Int32, UnsafeRawPointer)] = [
            (CHIME_CURLOPT_URL, UnsafeRawPointer(url)), (CHIME_CURLOPT_USERAGENT, UnsafeRawPointer(agent)),
            (CHIME_CURLOPT_ACCEPT_ENCODING, UnsafeRawPointer(anyEncoding)), (CHIME_CURLOPT_ERRORBUFFER, UnsafeRawPointer(message)),
            (CHIME_CURLOPT_WRITEFUNCTION, unsafeBitCast(write, to: UnsafeRawPointer.self)),
            (CHIME_CURLOPT_WRITEDATA, UnsafeRawPointer(body.toOpaque())),
        ]
        var status: CURLcode = CHIME_CURLE_OK
        for (option, value) in numbers where status == CHIME_CURLE_OK {
            status = chime_curl_setopt_long(easySetopt, handle, option, value)
        }
        for (option, value) in pointers where status == CHIME_CURLE_OK {
            status = chime_curl_setopt_pointer(easySetopt, handle, option, value)
        }
        if status == CHIME_CURLE_OK { status = easyPerform(handle) }
        if body.takeUnretainedValue().tooLarge { throw LibCurlError(.tooLarge, "the answer is larger than \(Self.maximumBody >> 20) MiB") }
        guard status == CHIME_CURLE_OK else {
            let detail = String(cString: message)
            throw LibCurlError(.transfer(status), detail.isEmpty ? Self.text(easyStrerror(status)) : detail)
        }
        var code = 0
        _ = chime_curl_getinfo_long(easyGetinfo, handle, CHIME_CURLINFO_RESPONSE_CODE, &code)
        return (code, body.takeUnretainedValue().bytes)
    }

    /// What the write callback fills.
    private final class Body {
        var bytes: [UInt8] = []
        var tooLarge = false
    }

    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? "unknown libcurl error"
    }

    private static func dlerrorText() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown error"
    }
}
