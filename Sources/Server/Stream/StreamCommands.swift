import PagehostCore

/// Commands that arrive over the stream: `{"id":7,"op":"closePage","sessionId":…,"pageId":…}`. Each answers
/// `{"type":"result","id":7,"result":…}` or `{"type":"error","id":7,"error":{"code":…,"message":…}}`.
///
/// Thread: LoopActor.
@LoopActor
struct StreamCommands {
    let commands: APICommands
    /// The client's role: a viewer may only run `Role.viewerOps`.
    var role: Role = .operator

    /// The ops and the members each takes besides `id` and `op`.
    static let ops: [String: Set<String>] = [
        "listSessions": [],
        "getSession": ["sessionId"],
        "getEvents": ["sessionId"],
        "createSession": SessionRequestDecoder.sessionFields,
        "closeSession": ["sessionId"],
        "closePage": ["sessionId", "pageId"],
        "navigate": Set(["sessionId", "pageId"]).union(SessionRequestDecoder.loadFields),
        "evaluate": ["sessionId", "pageId", "script", "arguments"],
        "answerDialog": ["sessionId", "dialogId", "accept", "text"],
    ].merging(PageTool.all.map { ($0.op, $0.fields.union(["sessionId", "pageId"])) }) { a, _ in a }

    /// Runs one command message and hands its answer to `reply` (at once, or after an evaluation).
    func run(_ bytes: [UInt8], reply: @escaping @LoopActor (JSONValue) -> Void) {
        var id: JSONValue = .null
        do throws(PagehostError) {
            let message: JSONValue
            do {
                message = try JSONParser.parse(bytes)
            } catch {
                throw PagehostError(.badRequest, "command is not valid JSON: \(error)")
            }
            let fields = try JSONFields(message, context: "command")
            id = fields["id"] ?? .null
            guard id.stringValue != nil || id.intValue != nil else {
                throw PagehostError(.badRequest, "field command.id is required: a number or a string")
            }
            let op = try fields.requiredString("op")
            guard let allowed = Self.ops[op] else {
                throw PagehostError(.badRequest, "field command.op: unknown op \"\(op)\" (known: \(Self.ops.keys.sorted().joined(separator: ", ")))")
            }
            guard role.mayRun(op: op) else {
                let refusal = Role.refusal("op \"\(op)\"")
                reply(.object([("type", "error"), ("id", id),
                               ("error", .object([("code", .string(refusal.code)), ("message", .string(refusal.message))]))]))
                return
            }
            try fields.allowOnly(allowed.union(["id", "op"]))
            // The op's own members, as the HTTP body would carry them.
            let args = JSONValue.object(fields.members.filter { !["id", "op", "sessionId", "pageId", "dialogId"].contains($0.0) })
            let result = try perform(op, fields, args)
            switch result {
            case .now(let value):
                reply(Self.result(id, value))
            case .later(let work):
                let answerID = id
                Task { @LoopActor in
                    do throws(PagehostError) {
                        reply(Self.result(answerID, try await work()))
                    } catch {
                        reply(Self.error(answerID, error))
                    }
                }
            }
        } catch {
            reply(Self.error(id, error))
        }
    }

    private enum Outcome {
        case now(JSONValue)
        case later(@LoopActor () async throws(PagehostError) -> JSONValue)
    }

    private func perform(_ op: String, _ fields: JSONFields, _ args: JSONValue) throws(PagehostError) -> Outcome {
        func sid() throws(PagehostError) -> SessionID { try WireIDs.session(try fields.requiredString("sessionId"), field: "command.sessionId") }
        func pid() throws(PagehostError) -> PageID { try WireIDs.page(try fields.requiredString("pageId"), field: "command.pageId") }
        func did() throws(PagehostError) -> DialogID { try WireIDs.dialog(try fields.requiredString("dialogId"), field: "command.dialogId") }
        switch op {
        case "listSessions": return .now(commands.listSessions())
        case "getSession": return .now(try commands.session(try sid()))
        case "getEvents": return .now(try commands.events(try sid()))
        case "createSession": return .now(try commands.createSession(args, context: "command"))
        case "closeSession":
            try commands.closeSession(try sid())
            return .now(.null)
        case "closePage": return .later(try commands.closePage(try sid(), try pid()))
        case "navigate": return .now(try commands.navigate(try sid(), try pid(), args, context: "command"))
        case "evaluate": return .later(try commands.evaluate(try sid(), try pid(), args, context: "command"))
        case "answerDialog": return .now(try commands.answerDialog(try sid(), try did(), args, context: "command"))
        default:
            guard let tool = PageTool.all.first(where: { $0.op == op }) else {
                throw PagehostError(.badRequest, "field command.op: unknown op \"\(op)\"")
            }
            let work = try commands.pageTool(tool, try sid(), try pid(), args, context: "command")
            return .later { () async throws(PagehostError) -> JSONValue in try await work().json }
        }
    }

    static func result(_ id: JSONValue, _ value: JSONValue) -> JSONValue {
        .object([("type", "result"), ("id", id), ("result", value)])
    }

    static func error(_ id: JSONValue, _ error: PagehostError) -> JSONValue {
        .object([("type", "error"), ("id", id), ("error", error.errorObject)])
    }
}
