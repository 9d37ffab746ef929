import CCurl
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

extension LibCurl {
    /// `Downloader.download`'s transfer, the request already checked.
    func download(_ request: Downloader.Request) throws(DownloadError) -> Downloader.Response {
        let url = request.url
        guard let handle = easyInit() else { throw DownloadError(.libcurlMissing, "\(url): curl_easy_init failed") }
        // libcurl keeps pointers to the strings, the list and the state until the handle goes.
        let state = Unmanaged.passRetained(TransferState(limit: request.maximumBodySize))
        let message = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CHIME_CURL_ERROR_SIZE))
        message.initialize(repeating: 0, count: Int(CHIME_CURL_ERROR_SIZE))
        var strings: [UnsafeMutablePointer<CChar>] = []
        func kept(_ text: String) throws(DownloadError) -> UnsafeRawPointer {
            guard let copy = strdup(text) else { throw DownloadError(.transfer(27), "\(url): out of memory for the request") }
            strings.append(copy)
            return UnsafeRawPointer(copy)
        }
        var headers: UnsafeMutableRawPointer?
        defer {
            easyCleanup(handle)
            slistFreeAll(headers)
            for string in strings { free(string) }
            message.deallocate()
            state.release()
        }
        var lines = ["Accept: \(request.accept)"]
        if let tag = request.entityTag { lines.append("If-None-Match: \(tag)") }
        if let date = request.lastModified { lines.append("If-Modified-Since: \(date)") }
        for line in lines {
            guard let longer = line.withCString({ slistAppend(headers, $0) }) else {
                throw DownloadError(.transfer(27), "\(url): out of memory for the request headers")
            }
            headers = longer
        }
        let numbers: [(Int32, Int)] = [
            (CHIME_CURLOPT_NOSIGNAL, 1), (CHIME_CURLOPT_FOLLOWLOCATION, 1), (CHIME_CURLOPT_MAXREDIRS, request.maximumRedirects),
            (CHIME_CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeLimit)),
            (CHIME_CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeLimit)),
        ]
        var pointers: [(Int32, UnsafeRawPointer)] = try [
            (CHIME_CURLOPT_URL, kept(url)), (CHIME_CURLOPT_USERAGENT, kept(Downloader.userAgent)),
            // "": every encoding this libcurl decodes; the size bound applies to the decoded bytes.
            (CHIME_CURLOPT_ACCEPT_ENCODING, kept("")), (CHIME_CURLOPT_ERRORBUFFER, UnsafeRawPointer(message)),
            (CHIME_CURLOPT_WRITEFUNCTION, unsafeBitCast(TransferState.write, to: UnsafeRawPointer.self)),
            (CHIME_CURLOPT_WRITEDATA, UnsafeRawPointer(state.toOpaque())),
            (CHIME_CURLOPT_HEADERFUNCTION, unsafeBitCast(TransferState.header, to: UnsafeRawPointer.self)),
            (CHIME_CURLOPT_HEADERDATA, UnsafeRawPointer(state.toOpaque())),
        ]
        if let headers { pointers.append((CHIME_CURLOPT_HTTPHEADER, UnsafeRawPointer(headers))) }
        if let credentials = request.credentials {
            // libcurl sends these (Basic, its default) to this host only: CURLOPT_UNRESTRICTED_AUTH stays off.
            pointers += try [(CHIME_CURLOPT_USERNAME, kept(credentials.user)), (CHIME_CURLOPT_PASSWORD, kept(credentials.password))]
        }
        var status: CURLcode = CHIME_CURLE_OK
        for (option, value) in numbers where status == CHIME_CURLE_OK {
            status = chime_curl_setopt_long(easySetopt, handle, option, value)
        }
        for (option, value) in pointers where status == CHIME_CURLE_OK {
            status = chime_curl_setopt_pointer(easySetopt, handle, option, value)
        }
        if status == CHIME_CURLE_OK { status = restrictProtocols(handle, try kept("http,https")) }
        if status == CHIME_CURLE_OK { status = easyPerform(handle) }
        let transfer = state.takeUnretainedValue()
        var finalPointer: UnsafePointer<CChar>?
        _ = chime_curl_getinfo_string(easyGetinfo, handle, CHIME_CURLINFO_EFFECTIVE_URL, &finalPointer)
        let finalURL = finalPointer.map { String(cString: $0) } ?? url
        if let declared = transfer.declaredSize {
            throw DownloadError(.tooLarge, "\(url): the answer would be \(declared) bytes, more than the limit of \(Downloader.sizeText(request.maximumBodySize))")
        }
        if transfer.tooLarge {
            throw DownloadError(.tooLarge, "\(url): the answer is larger than the limit of \(Downloader.sizeText(request.maximumBodySize))")
        }
        guard status == CHIME_CURLE_OK else {
            throw Self.failure(status, url: url, finalURL: finalURL, detail: String(cString: message), strerror: Self.text(easyStrerror(status)),
                               request: request)
        }
        var code = 0
        _ = chime_curl_getinfo_long(easyGetinfo, handle, CHIME_CURLINFO_RESPONSE_CODE, &code)
        let via = finalURL == url ? "" : " (redirected to \(finalURL))"
        switch code {
        case 200..<300:
            return Downloader.Response(status: code, finalURL: finalURL, entityTag: transfer.entityTag, lastModified: transfer.lastModified,
                                       contentType: transfer.contentType, content: .body(transfer.bytes))
        case 304:
            return Downloader.Response(status: code, finalURL: finalURL, entityTag: transfer.entityTag ?? request.entityTag,
                                       lastModified: transfer.lastModified ?? request.lastModified, contentType: transfer.contentType,
                                       content: .notModified)
        case 404, 410:
            throw DownloadError(.notFound, "\(url)\(via): not found (HTTP status \(code))")
        default:
            throw DownloadError(.httpStatus(code), "\(url)\(via): HTTP status \(code)")
        }
    }

    /// http and https only, for the address and for every redirect: by name
    /// from libcurl 7.85, by the older bitmask (deprecated since) before.
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

    /// The failed transfer's code as a `DownloadFailure`, and a sentence
    /// naming the address.
    private static func failure(_ status: CURLcode, url: String, finalURL: String, detail: String, strerror: String,
                                request: Downloader.Request) -> DownloadError {
        let why = detail.isEmpty ? strerror : detail
        let via = finalURL == url ? "" : " (redirected to \(finalURL))"
        switch status {
        case CHIME_CURLE_URL_MALFORMAT:
            return DownloadError(.badURL, "'\(url)' is not an address libcurl can use: \(why)")
        case CHIME_CURLE_UNSUPPORTED_PROTOCOL:
            // The address itself was checked to be http(s): a redirect led elsewhere.
            return DownloadError(.redirectRefused, "\(url)\(via): redirected to a scheme other than http and https (\(why))")
        case CHIME_CURLE_COULDNT_RESOLVE_HOST, CHIME_CURLE_COULDNT_RESOLVE_PROXY:
            return DownloadError(.cannotResolve, "\(url)\(via): cannot resolve the host (\(why))")
        case CHIME_CURLE_COULDNT_CONNECT:
            return DownloadError(.cannotConnect, "\(url)\(via): cannot connect (\(why))")
        case CHIME_CURLE_OPERATION_TIMEDOUT:
            return DownloadError(.timedOut, "\(url)\(via): timed out (limits: \(request.connectTimeLimit) s to connect, \(request.timeLimit) s in all): \(why)")
        case CHIME_CURLE_TOO_MANY_REDIRECTS:
            return DownloadError(.tooManyRedirects, "\(url)\(via): more than \(request.maximumRedirects) redirects")
        case CHIME_CURLE_SSL_CONNECT_ERROR, CHIME_CURLE_PEER_FAILED_VERIFICATION, 58, 59, 77, 83, 90, 91:
            // 58-59: client certificate and cipher, 77: CA file, 83: issuer, 90-91: pinned key and certificate status.
            return DownloadError(.tls, "\(url)\(via): TLS failed (\(why))")
        default:
            return DownloadError(.transfer(status), "\(url)\(via): \(why)")
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
    /// The latest answer's (each redirect starts anew).
    var status = 0
    var entityTag: String?
    var lastModified: String?
    var contentType: String?
    /// All header bytes, of all answers: libcurl 7.88 bounds each header, not their sum.
    var headerBytes = 0
    static let maximumHeaderBytes = 1 << 20

    init(limit: Int) {
        self.limit = limit
    }

    /// Fewer bytes taken than given ends the transfer (CURLE_WRITE_ERROR).
    static let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
        guard let data, let context else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
        let (length, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, length <= state.limit - state.bytes.count else {
            state.tooLarge = true
            return 0
        }
        state.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        return length
    }

    /// One header line (status lines included) at a time.
    static let header: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
        guard let data, let context else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
        let (length, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow else { return 0 }
        state.headerBytes += length
        guard state.headerBytes <= maximumHeaderBytes else { return 0 }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        return state.take(line) ? length : 0
    }

    /// False ends the transfer: the answer declared a body beyond the limit.
    private func take(_ line: String) -> Bool {
        let text = line.trimmingWhitespace()
        if text.hasPrefix("HTTP/") {
            let fields = text.split(separator: " ", maxSplits: 2)
            status = fields.count >= 2 ? Int(fields[1]) ?? 0 : 0
            entityTag = nil
            lastModified = nil
            contentType = nil
            return true
        }
        guard let colon = text.firstIndex(of: ":") else { return true }
        let name = text[..<colon].lowercased()
        let value = String(String(text[text.index(after: colon)...]).trimmingWhitespace())
        switch name {
        case "etag": entityTag = value
        case "last-modified": lastModified = value
        case "content-type": contentType = value
        case "content-length":
            // A redirect's or an error's body is not kept, so only a 2xx length counts.
            if (200..<300).contains(status), let declared = Int(value), declared > limit {
                declaredSize = declared
                return false
            }
        default: break
        }
        return true
    }
}
