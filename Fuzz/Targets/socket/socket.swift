import DaemonControl
import Foundation
import FuzzSupport

@_cdecl("fuzz_socket_main")
func main(_ argc: Int32, _ argv: FuzzInput.Arguments) -> Int32 { FuzzInput.run(argc, argv, check) }

/// Control-socket request lines: never a crash; a refusal says why; a
/// request, written as the client writes it, reads back equal (fixes that
/// were refused are written as null, so they read back refused, for their
/// own reason).
private let check: FuzzInput.Check = { data, size in
    let line = Data(FuzzInput.bytes(data, size))
    do throws(ControlRequest.Refusal) {
        let request = try ControlRequest.parse(line)
        do throws(ControlRequest.Refusal) {
            let again = try ControlRequest.parse(request.line)
            FuzzInput.require(comparable(again) == comparable(request),
                              "\(request) written as \(String(decoding: request.line, as: UTF8.self)) reads back as \(again)")
        } catch {
            FuzzInput.require(false, "\(request) written as \(String(decoding: request.line, as: UTF8.self)) is refused: \(error)")
        }
    } catch {
        FuzzInput.require(!error.description.isEmpty, "a refusal without words")
    }
    return 0
}

/// The request with every refused fix's reason dropped: only that it was
/// refused survives writing.
private func comparable(_ request: ControlRequest) -> ControlRequest {
    guard case .location(let fixes) = request else { return request }
    return .location(fixes: fixes.map { fix in
        if case .refused = fix { return .refused("") }
        return fix
    })
}
