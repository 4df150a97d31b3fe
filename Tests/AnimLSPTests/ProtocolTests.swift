import Testing
import AnimLSP
import AnimJSON
import AnimLang

/// The protocol layer: framing, JSON, JSON-RPC errors, cancellation, the
/// lifecycle, UTF-16 positions.
struct ProtocolTests {
    @Test func aMessageSplitAcrossReadsIsAnsweredOnceWhole() {
        let client = Client()
        let bytes = Client.bytes(Client.request(1, "initialize", .object([("capabilities", .object([]))])))
        for byte in bytes.dropLast() {
            #expect(client.send(raw: [byte]).isEmpty)
        }
        let replies = client.send(raw: [bytes[bytes.count - 1]])
        #expect(replies.count == 1)
        #expect(replies.first?["id"] == .number(1))
        #expect(replies.first?["result"]?["capabilities"]?["hoverProvider"] == .bool(true))
    }

    @Test func severalMessagesInOneReadAreAnsweredInOrder() {
        let client = Client()
        client.start()
        let replies = client.send([Client.request(7, "shutdown"), Client.request(8, "no/such"), Client.request(9, "shutdown")])
        #expect(replies.map { $0["id"] } == [.number(7), .number(8), .number(9)])
        #expect(replies[0]["result"] == .null)
    }

    @Test func anUnknownMethodIsMethodNotFoundAndAnUnknownNotificationIsIgnored() {
        let client = Client()
        client.start()
        let replies = client.send([Client.request(5, "textDocument/unheardOf"), Client.notification("$/unheardOf"),
                                   Client.notification("workspace/whatever")])
        #expect(replies.count == 1)
        #expect(replies.first?["error"]?["code"] == .number(-32601))
        #expect(replies.first?["id"] == .number(5))
    }

    @Test func aRequestCancelledInTheSameReadIsAnsweredRequestCancelled() {
        let client = Client()
        client.start()
        let hover = Client.request(42, "textDocument/hover", .object([
            ("textDocument", .object([("uri", .string("file:///a.anim"))])),
            ("position", .object([("line", .number(0)), ("character", .number(0))])),
        ]))
        let replies = client.send([hover, Client.notification("$/cancelRequest", .object([("id", .number(42))])),
                                   Client.request(43, "shutdown")])
        #expect(replies.count == 2)
        #expect(replies[0]["id"] == .number(42))
        #expect(replies[0]["error"]?["code"] == .number(-32800))
        #expect(replies[1]["id"] == .number(43))
        // A cancellation of a request already answered changes nothing.
        #expect(client.send([Client.notification("$/cancelRequest", .object([("id", .number(42))]))]).isEmpty)
    }

    @Test func malformedJSONIsAParseErrorAndTheServerGoesOn() {
        let client = Client()
        client.start()
        let broken = Array("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": ".utf8)
        var replies = client.send(raw: frame(broken) + Client.bytes(Client.request(4, "shutdown")))
        #expect(replies.count == 2)
        #expect(replies[0]["error"]?["code"] == .number(-32700))
        #expect(replies[0]["id"] == .null)
        #expect(replies[1]["id"] == .number(4))
        // Not a request at all: an array, a number.
        replies = client.send(raw: frame(Array("[1, 2]".utf8)) + frame(Array("17".utf8)))
        #expect(replies.map { $0["error"]?["code"] } == [.number(-32600), .number(-32600)])
        // Binary garbage inside a frame.
        replies = client.send(raw: frame([0xFF, 0xFE, 0x00, 0x7B]))
        #expect(replies.first?["error"]?["code"] == .number(-32700))
    }

    @Test func aHeaderWithoutContentLengthIsReportedAndSkipped() {
        let client = Client()
        client.start()
        let replies = client.send(raw: Array("Content-Type: x\r\n\r\n".utf8) + Client.bytes(Client.request(2, "shutdown")))
        #expect(replies.count == 2)
        #expect(replies[0]["error"]?["code"] == .number(-32700))
        #expect(replies[1]["id"] == .number(2))
    }

    @Test func requestsBeforeInitializeAreRefusedAndExitSaysWhetherShutdownCame() {
        var client = Client()
        let early = client.send([Client.request(1, "textDocument/hover")])
        #expect(early.first?["error"]?["code"] == .number(-32002))
        client.start()
        _ = client.send([Client.request(2, "shutdown"), Client.notification("exit")])
        #expect(client.server.exitStatus == 0)
        client = Client()
        client.start()
        _ = client.send([Client.notification("exit")])
        #expect(client.server.exitStatus == 1)
    }

    @Test func requestsOnAnUnknownDocumentGetEmptyResults() {
        let client = Client()
        client.start()
        let uri = "file:///never-opened.anim"
        #expect(client.at("textDocument/hover", uri, 0, 0) == .null)
        #expect(client.at("textDocument/definition", uri, 0, 0) == .null)
        #expect(client.at("textDocument/completion", uri, 0, 0) == .array([]))
        #expect(client.at("textDocument/references", uri, 0, 0) == .array([]))
        #expect(client.call("textDocument/documentSymbol", .object([("textDocument", .object([("uri", .string(uri))]))])) == .array([]))
    }

    @Test func jsonReadsWhatItsWriterWritesAndRefusesTheRest() throws {
        let value = JSON.object([("a", .array([.number(1.5), .string("é \"q\" \\ \n 😀"), .bool(false), .null])), ("b", .object([]))])
        var out: [UInt8] = []
        value.write(into: &out)
        #expect(try parseJSON(out) == value)
        // Escapes written by hand: a surrogate pair, a lone surrogate, \/.
        #expect(try parseJSON(Array(#""\ud83d\ude00 \u00e9 \ud800 \/""#.utf8)) == .string("😀 é \u{FFFD} /"))
        #expect(try parseJSON(Array(" -0.5e2 ".utf8)) == .number(-50))
        for bad in ["", "[1,]", "{\"a\" 1}", "01", "1.", "\"\u{01}\"", "tru", "[1] x", "\"\\x\"", "{\"a\":1,}"] {
            #expect(throws: JSONSyntaxError.self, "\(bad)") { try parseJSON(Array(bad.utf8)) }
        }
        // Deep nesting is an error, not a stack overflow.
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try parseJSON(deep) }
    }

    @Test func positionsCountUTF16UnitsBothWays() {
        let client = Client()
        client.start()
        // "é" is 2 bytes and 1 unit; "😀" 4 bytes and 2 units.
        let text = "let é😀x = 1\nlet b = 2\n"
        _ = client.open("file:///p.anim", text)
        // Hover on `b` (line 1, characters 4..5): its range comes back in UTF-16.
        let hover = client.at("textDocument/hover", "file:///p.anim", 1, 4)
        #expect(hover?["range"]?.span == [1, 4, 1, 5])
    }

    @Test func idleTimePreparesChangedDocumentsOnceAndSkipsHugeOnes() {
        let client = Client()
        client.start()
        #expect(!client.server.idle())
        _ = client.open("file:///small.anim", "let a = fadeIn x\n")
        _ = client.open("file:///huge.anim", String(repeating: "let a = fadeIn x\n", count: 20_000))
        #expect(client.server.idle())    // the small one
        #expect(!client.server.idle())   // the huge one waits for a request
        // Answers are the same, prepared or not.
        #expect(client.at("textDocument/definition", "file:///small.anim", 0, 15)?["range"]?.span == [0, 15, 0, 16])
    }

    /// A seeded generator (SplitMix64), so a failure can be replayed.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Garbage on the wire: random bytes, frames of random bytes, frames of
    /// JSON that is no request, mangled requests with positions anywhere,
    /// in pieces of random sizes. The server never traps, answers every
    /// request it can read, and still answers a real one afterwards.
    @Test func garbageOnTheWireNeverStopsTheServer() {
        var generator = Seeded(state: 24)
        let client = Client()
        client.start()
        _ = client.open("file:///g.anim", Client.example("pulse.anim"))
        let methods = ["textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/references",
                       "textDocument/documentSymbol", "textDocument/didChange", "textDocument/didOpen", "initialize", "$/cancelRequest"]
        let values: [JSON] = [.null, .bool(true), .number(-1), .number(1e300), .number(0.5), .string("file:///g.anim"),
                              .array([]), .object([]), .string(""), .number(3)]
        func anything(_ depth: Int) -> JSON {
            if depth > 2 || Bool.random(using: &generator) { return values.randomElement(using: &generator) ?? .null }
            return .object([("uri", anything(depth + 1)), ("line", anything(depth + 1)), ("character", anything(depth + 1)),
                            ("text", anything(depth + 1)), ("position", anything(depth + 1)), ("textDocument", anything(depth + 1))])
        }
        var wire: [UInt8] = []
        for round in 0..<400 {
            switch round % 4 {
            case 0: wire += (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case 1: wire += frame((0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            case 2: wire += Client.bytes(anything(0))
            default:
                let method = methods.randomElement(using: &generator) ?? "x"
                let params: JSON = .object([("textDocument", .object([("uri", .string("file:///g.anim")), ("text", anything(1))])),
                                            ("position", .object([("line", anything(2)), ("character", anything(2))])),
                                            ("contentChanges", .array([.object([("text", anything(2))])]))])
                wire += Client.bytes(.object([("jsonrpc", .string("2.0")), ("id", anything(2)), ("method", .string(method)), ("params", params)]))
            }
        }
        // Random bytes may start a header that swallows what follows: give them a way out.
        wire += Array("\r\n\r\n".utf8) + Array(repeating: UInt8(ascii: " "), count: 9000) + Array("\r\n\r\n".utf8)
        var offset = 0
        var answers = 0, parseErrors = 0
        while offset < wire.count {
            let size = Int.random(in: 1...512, using: &generator)
            for reply in client.send(raw: Array(wire[offset..<min(wire.count, offset + size)])) where reply["method"] == nil {
                answers += 1
                if reply["error"]?["code"] == .number(-32700) { parseErrors += 1 }
            }
            offset += size
        }
        // The 100 requests and 100 frames of JSON are answered (requests, or Invalid Request); frames of random bytes are parse errors.
        #expect(answers >= 200)
        #expect(parseErrors >= 50)
        // Still serving: a clean request is answered.
        let replies = client.send([Client.request(999_999, "shutdown")])
        #expect(replies.contains { $0["id"] == .number(999_999) })
    }
}
