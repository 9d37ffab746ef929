import CCurl
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

extension LibCurl {
    /// One exchange with no redirect followed: the answer's status, headers,
    /// body and, for a 3xx, the absolute address its Location names.
    struct Hop {
        var status: Int
        var headers: [HTTPHeader]
        var body: [UInt8]
        var redirect: String?
    }

    /// `HTTPClient.send`'s transfer to `url` (the request's or a redirect's),
    /// the request already checked. `shown` names the address in errors.
    func transfer(_ request: HTTPRequest, url: String, credentials: HTTPCredentials?, timeLimit: Double,
                  shown: String) throws(HTTPError) -> Hop {
        guard let handle = easyInit() else { throw HTTPError(.libcurlMissing, "\(shown): curl_easy_init failed") }
        // libcurl keeps pointers to the strings, the list, the body and the state until the handle goes.
        let state = Unmanaged.passRetained(TransferState(limit: request.maximumBodySize))
        let message = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CHIME_CURL_ERROR_SIZE))
        message.initialize(repeating: 0, count: Int(CHIME_CURL_ERROR_SIZE))
        var strings: [UnsafeMutablePointer<CChar>] = []
        func kept(_ text: String) throws(HTTPError) -> UnsafeRawPointer {
            guard let copy = strdup(text) else { throw HTTPError(.transfer(27), "\(shown): out of memory for the request") }
            strings.append(copy)
            return UnsafeRawPointer(copy)
        }
        let body = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, request.body.count), alignment: 1)
        body.copyBytes(from: request.body)
        var headers: UnsafeMutableRawPointer?
        defer {
            easyCleanup(handle)
            slistFreeAll(headers)
            for string in strings { free(string) }
            message.deallocate()
            body.deallocate()
            state.release()
        }
        var lines = request.headers.map { "\($0.name): \($0.value)" }
        if !request.body.isEmpty {
            // No "Expect: 100-continue" wait before a large body; no form type libcurl would add for one.
            lines.append("Expect:")
            if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) { lines.append("Content-Type: application/octet-stream") }
        }
        for line in lines {
            guard let longer = line.withCString({ slistAppend(headers, $0) }) else {
                throw HTTPError(.transfer(27), "\(shown): out of memory for the request headers")
            }
            headers = longer
        }
        let numbers: [(Int32, Int)] = [
            (CHIME_CURLOPT_NOSIGNAL, 1), (CHIME_CURLOPT_FOLLOWLOCATION, 0),
            (CHIME_CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(min(request.connectTimeLimit, timeLimit))),
            (CHIME_CURLOPT_TIMEOUT_MS, Self.milliseconds(timeLimit)),
            (CHIME_CURLOPT_SSL_VERIFYPEER, 1), (CHIME_CURLOPT_SSL_VERIFYHOST, 2),
        ]
        var pointers: [(Int32, UnsafeRawPointer)] = try [
            (CHIME_CURLOPT_URL, kept(url)), (CHIME_CURLOPT_USERAGENT, kept(HTTPClient.userAgent)),
            // "": every encoding this libcurl decodes; the size bound applies to the decoded bytes.
            (CHIME_CURLOPT_ACCEPT_ENCODING, kept("")), (CHIME_CURLOPT_ERRORBUFFER, UnsafeRawPointer(message)),
            (CHIME_CURLOPT_WRITEFUNCTION, unsafeBitCast(TransferState.write, to: UnsafeRawPointer.self)),
            (CHIME_CURLOPT_WRITEDATA, UnsafeRawPointer(state.toOpaque())),
            (CHIME_CURLOPT_HEADERFUNCTION, unsafeBitCast(TransferState.header, to: UnsafeRawPointer.self)),
            (CHIME_CURLOPT_HEADERDATA, UnsafeRawPointer(state.toOpaque())),
        ]
        if let headers { pointers.append((CHIME_CURLOPT_HTTPHEADER, UnsafeRawPointer(headers))) }
        var methodNumbers: [(Int32, Int)] = []
        if request.method == .get {
            methodNumbers.append((CHIME_CURLOPT_HTTPGET, 1))
        } else {
            pointers.append((CHIME_CURLOPT_CUSTOMREQUEST, try kept(request.method.rawValue)))
        }
        if !request.body.isEmpty {
            methodNumbers.append((CHIME_CURLOPT_POSTFIELDSIZE, request.body.count))
            pointers.append((CHIME_CURLOPT_POSTFIELDS, UnsafeRawPointer(body.baseAddress!)))
        }
        if let credentials {
            // Basic alone is sent with the first request, not after a challenge (libcurl's
            // rule for a single scheme); never Digest, whose challenge FoundationNetworking
            // crashed on. CURLOPT_UNRESTRICTED_AUTH stays off; redirects are not libcurl's anyway.
            methodNumbers.append((CHIME_CURLOPT_HTTPAUTH, Int(CHIME_CURLAUTH_BASIC)))
            pointers += try [(CHIME_CURLOPT_USERNAME, kept(credentials.user)), (CHIME_CURLOPT_PASSWORD, kept(credentials.password))]
        }
        var status: CURLcode = CHIME_CURLE_OK
        for (option, value) in numbers + methodNumbers where status == CHIME_CURLE_OK {
            status = chime_curl_setopt_long(easySetopt, handle, option, value)
        }
        for (option, value) in pointers where status == CHIME_CURLE_OK {
            status = chime_curl_setopt_pointer(easySetopt, handle, option, value)
        }
        if status == CHIME_CURLE_OK { status = restrictProtocols(handle, try kept("http,https")) }
        if status == CHIME_CURLE_OK { status = easyPerform(handle) }
        let transfer = state.takeUnretainedValue()
        if let declared = transfer.declaredSize {
            throw HTTPError(.tooLarge, "\(shown): the answer would be \(declared) bytes, more than the limit of \(Self.sizeText(request.maximumBodySize))")
        }
        if transfer.tooLarge {
            throw HTTPError(.tooLarge, "\(shown): the answer is larger than the limit of \(Self.sizeText(request.maximumBodySize))")
        }
        guard status == CHIME_CURLE_OK else {
            throw Self.failure(status, shown: shown, detail: String(cString: message), strerror: Self.text(easyStrerror(status)),
                               request: request, timeLimit: timeLimit)
        }
        var code = 0
        _ = chime_curl_getinfo_long(easyGetinfo, handle, CHIME_CURLINFO_RESPONSE_CODE, &code)
        var redirect: UnsafePointer<CChar>?
        _ = chime_curl_getinfo_string(easyGetinfo, handle, CHIME_CURLINFO_REDIRECT_URL, &redirect)
        return Hop(status: code, headers: transfer.headers, body: transfer.bytes, redirect: redirect.map { String(cString: $0) })
    }

    /// http and https only: by name from libcurl 7.85, by the older bitmask
    /// (deprecated since) before.
    private func restrictProtocols(_ handle: UnsafeMutableRawPointer, _ names: UnsafeRawPointer) -> CURLcode {
        var status = chime_curl_setopt_pointer(easySetopt, handle, CHIME_CURLOPT_PROTOCOLS_STR, names)
        if status == CHIME_CURLE_OK { status = chime_curl_setopt_pointer(easySetopt, handle, CHIME_CURLOPT_REDIR_PROTOCOLS_STR, names) }
        guard status == CHIME_CURLE_UNKNOWN_OPTION else { return status }
        let mask = Int(CHIME_CURLPROTO_HTTP | CHIME_CURLPROTO_HTTPS)
        status = chime_curl_setopt_long(easySetopt, handle, CHIME_CURLOPT_PROTOCOLS, mask)
        if status == CHIME_CURLE_OK { status = chime_curl_setopt_long(easySetopt, handle, CHIME_CURLOPT_REDIR_PROTOCOLS, mask) }
        return status
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        // Checked before: finite, more than 0, at most a day; 0 would mean no limit to libcurl.
        max(1, Int((seconds * 1000).rounded()))
    }

    /// `bytes` for people: whole mebibytes or kibibytes when it is that (as the docs give the bounds).
    static func sizeText(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// The failed transfer's code as a `DownloadFailure`, and a sentence
    /// naming the address.
    private static func failure(_ status: CURLcode, shown: String, detail: String, strerror: String,
                                request: HTTPRequest, timeLimit: Double) -> HTTPError {
        let why = detail.isEmpty ? strerror : detail
        switch status {
        case CHIME_CURLE_URL_MALFORMAT:
            return HTTPError(.badURL, "'\(shown)' is not an address libcurl can use: \(why)")
        case CHIME_CURLE_UNSUPPORTED_PROTOCOL:
            return HTTPError(.redirectRefused, "\(shown): not an http or https address (\(why))")
        case CHIME_CURLE_COULDNT_RESOLVE_HOST, CHIME_CURLE_COULDNT_RESOLVE_PROXY:
            return HTTPError(.cannotResolve, "\(shown): cannot resolve the host (\(why))")
        case CHIME_CURLE_COULDNT_CONNECT:
            return HTTPError(.cannotConnect, "\(shown): cannot connect (\(why))")
        case CHIME_CURLE_OPERATION_TIMEDOUT:
            return HTTPError(.timedOut, "\(shown): timed out (limits: \(request.connectTimeLimit) s to connect, \(request.timeLimit) s in all): \(why)")
        case CHIME_CURLE_SSL_CONNECT_ERROR, CHIME_CURLE_PEER_FAILED_VERIFICATION, 58, 59, 77, 83, 90, 91:
            // 58-59: client certificate and cipher, 77: CA file, 83: issuer, 90-91: pinned key and certificate status.
            return HTTPError(.tls, "\(shown): TLS failed (\(why))")
        default:
            return HTTPError(.transfer(status), "\(shown): \(why)")
        }
    }
}

/// What libcurl's write and header callbacks fill during one transfer.
final class TransferState {
    let limit: Int
    var bytes: [UInt8] = []
    /// The body passed `limit`.
    var tooLarge = false
    /// A 2xx answer's Content-Length beyond `limit`.
    var declaredSize: Int?
    /// The latest answer's (a 100 Continue starts anew).
    var status = 0
    var headers: [HTTPHeader] = []
    /// All header bytes: libcurl 7.88 bounds each header, not their sum.
    var headerBytes = 0
    static let maximumHeaderBytes = 1 << 20

    init(limit: Int) {
        self.limit = limit
    }

    /// Fewer bytes taken than given ends the transfer (CURLE_WRITE_ERROR).
    static let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
        guard case let (state, bytes)? = delivery(data, size, count, context) else { return 0 }
        guard (200..<300).contains(state.status) else {
            // A redirect's or an error's body: the start kept to show, the rest let go without failing.
            let room = max(0, HTTPClient.maximumErrorBody - state.bytes.count)
            state.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(room)))
            return bytes.count
        }
        guard bytes.count <= state.limit - state.bytes.count else {
            state.tooLarge = true
            return 0
        }
        state.bytes.append(contentsOf: bytes)
        return bytes.count
    }

    /// One header line (status lines included) at a time.
    static let header: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
        guard case let (state, bytes)? = delivery(data, size, count, context) else { return 0 }
        state.headerBytes += bytes.count
        guard state.headerBytes <= maximumHeaderBytes else { return 0 }
        return state.take(String(decoding: bytes, as: UTF8.self)) ? bytes.count : 0
    }

    /// What libcurl hands a callback: the transfer (`context`) and the bytes
    /// (`size` × `count` of them at `data`); nil when a pointer is missing or
    /// the count overflows, which the callback answers with 0 to end the transfer.
    private static func delivery(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                                 _ context: UnsafeMutableRawPointer?) -> (TransferState, UnsafeRawBufferPointer)? {
        guard let data, let context else { return nil }
        let (length, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow else { return nil }
        return (Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue(), UnsafeRawBufferPointer(start: data, count: length))
    }

    /// False ends the transfer: the answer declared a body beyond the limit.
    private func take(_ line: String) -> Bool {
        let text = line.trimmingWhitespace()
        if text.hasPrefix("HTTP/") {
            let fields = text.split(separator: " ", maxSplits: 2)
            status = fields.count >= 2 ? Int(fields[1]) ?? 0 : 0
            headers = []
            return true
        }
        guard let colon = text.firstIndex(of: ":") else { return true }
        let name = String(text[..<colon])
        let value = String(String(text[text.index(after: colon)...]).trimmingWhitespace())
        headers.append(HTTPHeader(name, value))
        // Only a 2xx body is kept whole, so only its length counts.
        if name.lowercased() == "content-length", (200..<300).contains(status), let declared = Int(value), declared > limit {
            declaredSize = declared
            return false
        }
        return true
    }
}
