import Foundation
import Testing

/// `animc lsp`, run as an editor runs it: protocol messages on standard
/// input, nothing but framed JSON-RPC on standard output.
struct LanguageServerCommandTests {
    static func framed(_ json: String) -> Data {
        Data("Content-Length: \(json.utf8.count)\r\n\r\n\(json)".utf8)
    }

    /// The messages of a Content-Length framed stream, checking that nothing else is in it.
    static func messages(_ output: String) -> [String]? {
        var rest = Substring(output)
        var found: [String] = []
        while !rest.isEmpty {
            guard rest.hasPrefix("Content-Length: "), let end = rest.range(of: "\r\n\r\n") else { return nil }
            guard let length = Int(rest[rest.index(rest.startIndex, offsetBy: 16)..<end.lowerBound]) else { return nil }
            let bytes = Array(rest[end.upperBound...].utf8)
            guard bytes.count >= length else { return nil }
            found.append(String(decoding: bytes[0..<length], as: UTF8.self))
            rest = Substring(String(decoding: bytes[length...], as: UTF8.self))
        }
        return found
    }

    @Test func aSessionOverPipesWritesOnlyProtocolMessagesAndExitsZeroAfterShutdown() throws {
        var input = Data()
        input += Self.framed(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
        input += Self.framed(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
        input += Self.framed(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.anim","languageId":"anim","version":1,"text":"let a = fadeIn x with ease-inout\n"}}}"#)
        input += Self.framed("{not json")
        input += Self.framed(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#)
        input += Self.framed(#"{"jsonrpc":"2.0","method":"exit"}"#)
        let result = try MalformedCLITests.animc(["lsp"], input: input)
        #expect(result.status == 0)
        #expect(result.errors == "")
        let messages = Self.messages(result.output) ?? []
        #expect(messages.count == 4)
        #expect(messages.first?.contains(#""id":1,"result":{"capabilities""#) == true)
        #expect(messages.contains { $0.contains(#""code":-32700"#) })
        #expect(messages.contains { $0.contains(#""id":2,"result":null"#) })
        #expect(messages.last?.contains(#""code":"unknown-easing""#) == true)
    }

    @Test func theEndOfInputWithoutShutdownExitsOne() throws {
        let result = try MalformedCLITests.animc(["lsp"], input: Self.framed(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#))
        #expect(result.status == 1)
        #expect(Self.messages(result.output)?.count == 1)
    }
}
