import Foundation
import AnimLSP
import AnimJSON
import AnimLang

/// A test's side of the wire: frames requests, reads the server's replies.
final class Client {
    let server = LanguageServer(version: "test")
    private var reader = FrameReader()
    private var nextID = 100

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func example(_ name: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent("examples/" + name), encoding: .utf8)) ?? ""
    }

    static var examples: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("examples").path)) ?? [])
            .filter { $0.hasSuffix(".anim") }.sorted()
    }

    /// The framed bytes of a message.
    static func bytes(_ message: JSON) -> [UInt8] {
        var content: [UInt8] = []
        message.write(into: &content)
        return frame(content)
    }

    static func request(_ id: Int, _ method: String, _ params: JSON = .object([])) -> JSON {
        .object([("jsonrpc", .string("2.0")), ("id", .number(Double(id))), ("method", .string(method)), ("params", params)])
    }

    static func notification(_ method: String, _ params: JSON = .object([])) -> JSON {
        .object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)])
    }

    /// Sends raw bytes; the messages the server answers with.
    func send(raw: [UInt8]) -> [JSON] {
        reader.append(server.receive(raw))
        var messages: [JSON] = []
        while case .message(let content)? = reader.next() {
            if let message = try? parseJSON(content) { messages.append(message) }
        }
        return messages
    }

    func send(_ messages: [JSON]) -> [JSON] {
        send(raw: messages.flatMap(Client.bytes))
    }

    /// Initializes the server.
    @discardableResult
    func start() -> [JSON] {
        send([Client.request(1, "initialize", .object([("capabilities", .object([]))])), Client.notification("initialized")])
    }

    /// Opens a document; the diagnostics published for it.
    func open(_ uri: String, _ text: String) -> [JSON] {
        let replies = send([Client.notification("textDocument/didOpen", .object([
            ("textDocument", .object([("uri", .string(uri)), ("languageId", .string("anim")), ("version", .number(1)),
                                      ("text", .string(text))])),
        ]))])
        return Client.diagnostics(in: replies, uri: uri) ?? []
    }

    func change(_ uri: String, _ text: String, version: Int = 2) -> [JSON] {
        let replies = send([Client.notification("textDocument/didChange", .object([
            ("textDocument", .object([("uri", .string(uri)), ("version", .number(Double(version)))])),
            ("contentChanges", .array([.object([("text", .string(text))])])),
        ]))])
        return Client.diagnostics(in: replies, uri: uri) ?? []
    }

    static func diagnostics(in replies: [JSON], uri: String) -> [JSON]? {
        for reply in replies where reply["method"] == .string("textDocument/publishDiagnostics") && reply["params"]?["uri"] == .string(uri) {
            if case .array(let items)? = reply["params"]?["diagnostics"] { return items }
        }
        return nil
    }

    /// A request's result (`nil` when it failed).
    func call(_ method: String, _ params: JSON) -> JSON? {
        nextID += 1
        let replies = send([Client.request(nextID, method, params)])
        return replies.first { $0["id"] == .number(Double(nextID)) }?["result"]
    }

    /// A request's whole reply (its `result` or its `error`).
    func reply(_ method: String, _ params: JSON) -> JSON? {
        nextID += 1
        let replies = send([Client.request(nextID, method, params)])
        return replies.first { $0["id"] == .number(Double(nextID)) }
    }

    func at(_ method: String, _ uri: String, _ line: Int, _ character: Int, extra: [(String, JSON)] = []) -> JSON? {
        call(method, .object([("textDocument", .object([("uri", .string(uri))])),
                              ("position", .object([("line", .number(Double(line))), ("character", .number(Double(character)))]))] + extra))
    }
}

extension JSON {
    var string: String? { if case .string(let text) = self { return text } else { return nil } }
    var number: Double? { if case .number(let value) = self { return value } else { return nil } }
    var array: [JSON] { if case .array(let items) = self { return items } else { return [] } }

    /// `[startLine, startCharacter, endLine, endCharacter]` of an LSP range.
    var span: [Int] {
        [self["start"]?["line"], self["start"]?["character"], self["end"]?["line"], self["end"]?["character"]]
            .map { Int($0?.number ?? -1) }
    }
}
