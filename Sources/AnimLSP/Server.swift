import AnimJSON
import AnimLang

/// JSON-RPC 2.0 error codes the server answers with (LSP 3.17).
public enum ErrorCode: Int, Sendable {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case internalError = -32603
    case serverNotInitialized = -32002
    case requestCancelled = -32800
    /// A request understood but refused (a rename to a name that is taken).
    case requestFailed = -32803
}

/// A request's failure: the JSON-RPC error it is answered with.
struct RequestError: Error {
    var code: ErrorCode
    var message: String
}

/// The language server: bytes from the client in, bytes for the client out.
/// It owns no file descriptor (`animc lsp` reads standard input with
/// `read(2)`, hands each chunk to ``receive(_:)`` and writes what it returns
/// with `write(2)`), so tests drive it with byte arrays.
///
/// Messages are handled in the order they arrive. All the complete messages
/// of one chunk are read before any is answered, so a `$/cancelRequest` in
/// the chunk cancels a request ahead of it (answered `RequestCancelled`);
/// diagnostics are published once per chunk for each document that
/// changed, for its last version.
public final class LanguageServer {
    private var reader = FrameReader()
    private var documents = DocumentStore()
    private var initializeReceived = false
    private var shutdownReceived = false
    /// The exit status once `exit` arrived: 0 after `shutdown`, 1 otherwise.
    public private(set) var exitStatus: Int32?
    private let version: String

    public init(version: String = "animc") {
        self.version = version
    }

    /// Takes the next bytes from the client; returns the framed messages to send.
    public func receive(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        reader.append(bytes)
        var incoming: [Incoming] = []
        while exitStatus == nil, let frame = reader.next() {
            switch frame {
            case .message(let content):
                do throws(JSONSyntaxError) {
                    incoming.append(.message(try parseJSON(content)))
                } catch {
                    incoming.append(.failure(.parseError, "the message is not JSON: \(error)"))
                }
            case .badHeader(let problem):
                incoming.append(.failure(.parseError, "bad message header: \(problem)"))
            }
        }
        // Cancellations first: they may name requests later in this chunk.
        var cancelled: Set<String> = []
        for case .message(let message) in incoming where message["method"] == .string("$/cancelRequest") {
            if let id = message["params"]?["id"] { cancelled.insert(LanguageServer.key(id)) }
        }
        var out: [UInt8] = []
        var changed: [String] = []
        for item in incoming where exitStatus == nil {
            switch item {
            case .failure(let code, let message):
                out += frame(LanguageServer.errorResponse(id: .null, code: code, message: message))
            case .message(let message):
                handle(message, cancelled: cancelled, changed: &changed, into: &out)
            }
        }
        for uri in changed {
            if let document = documents[uri] { out += frame(publishDiagnostics(document)) }
        }
        for uri in changed where !unprepared.contains(uri) { unprepared.append(uri) }
        for uri in pendingClears where documents[uri] == nil {
            out += frame(LanguageServer.notification("textDocument/publishDiagnostics",
                                                     .object([("uri", .string(uri)), ("diagnostics", .array([]))])))
        }
        pendingClears = []
        return out
    }

    private enum Incoming {
        case message(JSON)
        case failure(ErrorCode, String)
    }

    private static func key(_ id: JSON) -> String {
        var out: [UInt8] = []
        id.write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func handle(_ message: JSON, cancelled: Set<String>, changed: inout [String], into out: inout [UInt8]) {
        guard case .object = message, case .string(let method)? = message["method"] else {
            // A response from the client (we send no requests), or nothing sensible.
            if case .object = message, message["result"] != nil || message["error"] != nil { return }
            out += frame(LanguageServer.errorResponse(id: message["id"] ?? .null, code: .invalidRequest,
                                                      message: "a request needs a `method`"))
            return
        }
        let params = message["params"] ?? .null
        guard let id = message["id"] else {
            notification(method, params, changed: &changed)
            return
        }
        if cancelled.contains(LanguageServer.key(id)) {
            out += frame(LanguageServer.errorResponse(id: id, code: .requestCancelled, message: "cancelled"))
            return
        }
        do throws(RequestError) {
            let result = try request(method, params)
            out += frame(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
        } catch {
            out += frame(LanguageServer.errorResponse(id: id, code: error.code, message: error.message))
        }
    }

    private func request(_ method: String, _ params: JSON) throws(RequestError) -> JSON {
        if method == "initialize" {
            initializeReceived = true
            inlayHintOptions = InlayHintOptions(params["initializationOptions"])
            return capabilities()
        }
        guard initializeReceived else {
            throw RequestError(code: .serverNotInitialized, message: "the server is not initialized yet")
        }
        guard !shutdownReceived else {
            throw RequestError(code: .invalidRequest, message: "the server is shutting down")
        }
        switch method {
        case "shutdown":
            shutdownReceived = true
            return .null
        case "textDocument/hover":
            return try at(params) { document, offset in hover(document.analysis, document, at: offset) } ?? .null
        case "textDocument/completion":
            return try at(params) { document, offset in completion(document, at: offset) } ?? .array([])
        case "textDocument/definition":
            return try at(params) { document, offset in definition(document, at: offset) } ?? .null
        case "textDocument/references":
            let include = params["context"]?["includeDeclaration"] != .bool(false)
            return try at(params) { document, offset in references(document, at: offset, includeDeclaration: include) } ?? .array([])
        case "textDocument/documentSymbol":
            guard case .string(let uri)? = params["textDocument"]?["uri"] else {
                throw RequestError(code: .invalidParams, message: "expected `textDocument.uri`")
            }
            return documents[uri].map(documentSymbols) ?? .array([])
        case "textDocument/prepareRename":
            guard let document = try document(params) else { return .null }
            return try LanguageServer.prepareRename(document, at: try offset(params, in: document))
        case "textDocument/rename":
            guard let document = try document(params) else { return .null }
            guard case .string(let newName)? = params["newName"] else {
                throw RequestError(code: .invalidParams, message: "expected `newName`")
            }
            return try LanguageServer.rename(document, at: try offset(params, in: document), to: newName)
        case "textDocument/documentHighlight":
            return try at(params) { document, offset in documentHighlights(document, at: offset) } ?? .array([])
        case "textDocument/foldingRange":
            return try document(params).map(foldingRanges) ?? .array([])
        case "textDocument/semanticTokens/full":
            return try document(params).map(semanticTokens) ?? .object([("data", .array([]))])
        case "textDocument/signatureHelp":
            return try at(params) { document, offset in signatureHelp(document, at: offset) } ?? .null
        case "textDocument/inlayHint":
            guard let document = try document(params) else { return .array([]) }
            guard let start = document.offset(of: params["range"]?["start"]), let end = document.offset(of: params["range"]?["end"]) else {
                throw RequestError(code: .invalidParams, message: "expected `range` with `start` and `end`")
            }
            return inlayHints(document, in: SourceRange(start, end), options: inlayHintOptions)
        case "textDocument/codeAction":
            guard let document = try document(params) else { return .array([]) }
            guard let start = document.offset(of: params["range"]?["start"]), let end = document.offset(of: params["range"]?["end"]) else {
                throw RequestError(code: .invalidParams, message: "expected `range` with `start` and `end`")
            }
            return codeActions(document, in: SourceRange(start, end))
        case "textDocument/formatting":
            return try document(params).map { formattingEdits($0) } ?? .array([])
        case "textDocument/rangeFormatting":
            guard let document = try document(params) else { return .array([]) }
            guard let start = document.offset(of: params["range"]?["start"]), let end = document.offset(of: params["range"]?["end"]) else {
                throw RequestError(code: .invalidParams, message: "expected `range` with `start` and `end`")
            }
            return formattingEdits(document, in: SourceRange(start, end))
        default:
            throw RequestError(code: .methodNotFound, message: "no method `\(method)`")
        }
    }

    /// The open document `params.textDocument.uri` names (`nil` when it is not open).
    private func document(_ params: JSON) throws(RequestError) -> OpenDocument? {
        guard case .string(let uri)? = params["textDocument"]?["uri"] else {
            throw RequestError(code: .invalidParams, message: "expected `textDocument.uri`")
        }
        return documents[uri]
    }

    /// The byte offset of `params.position` in `document`.
    private func offset(_ params: JSON, in document: OpenDocument) throws(RequestError) -> Int {
        guard let offset = document.offset(of: params["position"]) else {
            throw RequestError(code: .invalidParams, message: "expected `position` with `line` and `character`")
        }
        return offset
    }

    /// Runs `body` on the document and offset of a `TextDocumentPositionParams`;
    /// `nil` for a document that is not open.
    private func at(_ params: JSON, _ body: (OpenDocument, Int) -> JSON) throws(RequestError) -> JSON? {
        guard case .string(let uri)? = params["textDocument"]?["uri"] else {
            throw RequestError(code: .invalidParams, message: "expected `textDocument.uri`")
        }
        guard let document = documents[uri] else { return nil }
        guard let offset = document.offset(of: params["position"]) else {
            throw RequestError(code: .invalidParams, message: "expected `position` with `line` and `character`")
        }
        return body(document, offset)
    }

    private func notification(_ method: String, _ params: JSON, changed: inout [String]) {
        if method == "exit" {
            exitStatus = shutdownReceived ? 0 : 1
            return
        }
        guard initializeReceived, !shutdownReceived else { return }
        let item = params["textDocument"]
        guard case .string(let uri)? = item?["uri"] else { return }
        let version: Int
        if case .number(let number)? = item?["version"], let whole = Int(exactly: number) { version = whole } else { version = 0 }
        switch method {
        case "textDocument/didOpen":
            guard case .string(let text)? = item?["text"] else { return }
            documents.open(uri: uri, version: version, text: text)
            if !changed.contains(uri) { changed.append(uri) }
        case "textDocument/didChange":
            // Full sync: the last change holds the whole text.
            guard let document = documents[uri], case .array(let changes)? = params["contentChanges"],
                  case .string(let text)? = changes.last?["text"] else { return }
            document.replace(text: text, version: version)
            if !changed.contains(uri) { changed.append(uri) }
        case "textDocument/didClose":
            documents.close(uri: uri)
            changed.removeAll { $0 == uri }
            // Closed: its diagnostics go away.
            pendingClears.append(uri)
        default:
            break   // initialized, $/cancelRequest, $/setTrace, didSave, …
        }
    }

    private var pendingClears: [String] = []
    /// Which inlay hints the client asked for in `initialize`.
    private var inlayHintOptions = InlayHintOptions(nil)

    /// Documents whose names and terms are not computed yet (in the order they changed).
    private var unprepared: [String] = []
    /// The largest document ``idle()`` prepares: a bigger one waits for a request, so that
    /// preparing it never delays the diagnostics of the next change by much.
    public static let preparedSize = 256 << 10

    /// Does a little of the work the next requests would do (the names and
    /// terms of one changed document, when it is at most ``preparedSize``
    /// bytes), so that the first hover or jump after a change answers at
    /// once. The caller calls it while no message is waiting; `false` when
    /// there is nothing left to do.
    public func idle() -> Bool {
        while let uri = unprepared.first {
            unprepared.removeFirst()
            guard let document = documents[uri], document.file.bytes.count <= LanguageServer.preparedSize else { continue }
            document.analysis.prepare()
            return true
        }
        return false
    }

    /// The `initialize` result: what the server can do.
    private func capabilities() -> JSON {
        .object([
            ("capabilities", .object([
                ("positionEncoding", .string("utf-16")),
                ("textDocumentSync", .object([("openClose", .bool(true)), ("change", .number(1))])),
                ("hoverProvider", .bool(true)),
                ("completionProvider", .object([("triggerCharacters", .array([.string(".")]))])),
                ("definitionProvider", .bool(true)),
                ("referencesProvider", .bool(true)),
                ("documentSymbolProvider", .bool(true)),
                ("documentHighlightProvider", .bool(true)),
                ("foldingRangeProvider", .bool(true)),
                ("semanticTokensProvider", .object([
                    ("legend", .object([("tokenTypes", .array(semanticTokenTypes.map(JSON.string))), ("tokenModifiers", .array([]))])),
                    ("full", .bool(true)),
                ])),
                ("signatureHelpProvider", .object([("triggerCharacters", .array([.string("("), .string(",")]))])),
                ("inlayHintProvider", .bool(true)),
                ("codeActionProvider", .object([("codeActionKinds", .array([.string("quickfix"), .string("refactor.extract"),
                                                                            .string("refactor.inline")]))])),
                ("renameProvider", .object([("prepareProvider", .bool(true))])),
                ("documentFormattingProvider", .bool(true)),
                ("documentRangeFormattingProvider", .bool(true)),
            ])),
            ("serverInfo", .object([("name", .string("animc")), ("version", .string(version))])),
        ])
    }

    static func errorResponse(id: JSON, code: ErrorCode, message: String) -> JSON {
        .object([("jsonrpc", .string("2.0")), ("id", id),
                 ("error", .object([("code", .number(Double(code.rawValue))), ("message", .string(message))]))])
    }

    /// A notification from the server.
    static func notification(_ method: String, _ params: JSON) -> JSON {
        .object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)])
    }

    /// A message's bytes, framed.
    private func frame(_ message: JSON) -> [UInt8] {
        var content: [UInt8] = []
        message.write(into: &content)
        return AnimLSP.frame(content)
    }
}
