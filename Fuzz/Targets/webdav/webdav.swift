import FuzzSupport
import WebDAV

@_cdecl("fuzz_webdav_main")
func main(_ argc: Int32, _ argv: FuzzInput.Arguments) -> Int32 { FuzzInput.run(argc, argv, check) }

/// Multistatus replies: reading never crashes or hangs; a refusal has a
/// reason and names a line inside the input (or none); every response's URL
/// is an absolute http(s) URL, and its path starts with "/" when its href
/// was an absolute path.
private let check: FuzzInput.Check = { data, size in
    let bytes = FuzzInput.bytes(data, size)
    let lines = 0...FuzzInput.lineCount(bytes)
    let base = "https://dav.example/cal/"
    do throws(WebDAVError) {
        let reply = try Multistatus.read(bytes, requestURL: base, limits: MultistatusLimits(maximumSize: 1 << 20, maximumDepth: 48, maximumElements: 100_000))
        for response in reply.responses {
            let url = response.url.lowercased()
            FuzzInput.require(url.hasPrefix("http://") || url.hasPrefix("https://"), "a response URL that is not absolute: \(response.url)")
            if response.href.hasPrefix("/") && !response.href.hasPrefix("//") {
                FuzzInput.require(response.path.hasPrefix("/"), "an absolute-path href whose path does not start with /: \(response.href) → \(response.path)")
            }
            _ = (response.displayName, response.supportedComponents, response.privileges, response.calendarHomeSet, response.currentUserPrincipal,
                 response.calendarData, response.entityTag)
        }
    } catch {
        FuzzInput.require(!error.description.isEmpty, "a refusal without a reason")
        FuzzInput.require(lines.contains(error.line), "refusal at line \(error.line), outside the input: \(error)")
    }
    return 0
}
