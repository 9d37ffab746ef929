import CalendarModel
import AlarmScheduler
import DaemonControl
import Foundation

/// `chime daemon status`: asks the running `chimed`.
enum DaemonCommand: Command {
    static let name = "daemon"
    static let abstract = "Ask the running daemon how it is (status)"
    static let syntax = CommandSyntax("chime daemon", forms: [.init("status")], options: [ChimeOptions.json], discussion: """
        Asks the running chimed over its control socket
        ($XDG_RUNTIME_DIR/chime/chimed.sock) for its process, its store and the
        moment its timer is armed for.
        """, epilogue: """
        Exit status: 0 when it answered; 64 when the command line is wrong; 69 when
        no daemon is running, or it has not answered whole within 5 s.
        """)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try syntax.parse(arguments)
        guard parsed.positionals == ["status"] else {
            throw .usage("chime daemon: expected 'status' (see 'chime daemon --help')"
                         + Suggestion.hint(for: parsed.positionals.first ?? "", among: ["status"]))
        }
        let reply: ControlReply
        do {
            reply = try DaemonClient(environment: context.environment).send(.status)
        } catch {
            throw CommandFailure(message: "chime daemon status: \(error)", status: ExitStatus.unavailable)
        }
        guard case .status(let status) = reply else {
            throw CommandFailure(message: "chime daemon status: \(reply.refusal ?? "not a status answer")", status: ExitStatus.unavailable)
        }
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(reply, context: context)
            return
        }
        context.standardOutput("chimed is running (pid \(status.pid)) on \(status.store), since \(status.started)")
        if let armed = status.armedFor {
            context.standardOutput("next firing at \(armed)")
        } else {
            context.standardOutput("nothing due: the timer is not armed")
        }
    }
}
