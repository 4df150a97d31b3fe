import Foundation
import Testing
@testable import animc
import AnimLang
import AnimOutputs

/// `animc serve` (docs/exports.md §6, "Live preview"): the request parser and its
/// limits, the path rules and the responses, in process (no sockets); the
/// live page and its JSON; and the usage errors, through the binary.
struct ServeTests {
    static func parsed(_ text: String) -> ParsedRequest {
        parseRequest(Array(text.utf8))
    }

    static func refused(_ text: String) -> HTTPStatus? {
        if case .refused(let status) = parsed(text) { return status }
        return nil
    }

    static func request(_ text: String) -> HTTPRequest? {
        if case .request(let request) = parsed(text) { return request }
        return nil
    }

    // MARK: The parser

    @Test func readsARequestHead() throws {
        let request = try #require(Self.request("GET /update?since=3 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nAccept:  */* \t\r\n\r\n"))
        #expect(request.method == "GET" && request.target == "/update?since=3" && request.version == "HTTP/1.1")
        // Names lowercased, values without the spaces and tabs around them.
        #expect(request.headers.map(\.name) == ["host", "accept"] && request.headers.map(\.value) == ["127.0.0.1:8000", "*/*"])
        // Bare LFs end lines too; empty lines before the request line are skipped; HTTP/1.0 needs no Host.
        #expect(Self.request("\r\n\nGET / HTTP/1.1\nHost: h\n\n")?.target == "/")
        #expect(Self.request("GET / HTTP/1.0\r\n\r\n")?.version == "HTTP/1.0")
        // Whatever follows the head is not read here.
        #expect(Self.request("GET / HTTP/1.0\r\n\r\nGET /x HTTP/1.0\r\n\r\n")?.target == "/")
    }

    @Test(arguments: ["", "\r\n", "GET", "GET / HTTP/1.1", "GET / HTTP/1.1\r\n", "GET / HTTP/1.1\r\nHost: h\r\n",
                      "GET / HTTP/1.1\r\nHost: h\r\n\r"])
    func waitsForTheWholeHead(_ text: String) {
        #expect(Self.parsed(text) == .incomplete)
    }

    @Test(arguments: [
        "GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", " GET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 \r\n\r\n",
        "GET / HTTP/1.1 x\r\n\r\n", "GET / http/1.1\r\n\r\n", "GET / FOO/1.1\r\n\r\n", "G(T / HTTP/1.1\r\n\r\n",
        "GET /\u{7F} HTTP/1.1\r\n\r\n", "GET /é HTTP/1.1\r\n\r\n", "GET /\u{1} HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n",                                          // HTTP/1.1 without Host
        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",                    // two Hosts
        "GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", "GET / HTTP/1.1\r\nHost: h\r\n folded: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost : h\r\n\r\n", "GET / HTTP/1.1\r\nHost: h\r\n: empty\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nX: a\u{0}b\r\n\r\n", "GET / HTTP/1.1\r\nHost: h\r\nX: a\u{7F}\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n", "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "\u{16}\u{3}\u{1}\u{2}\u{0}",                                     // a TLS hello: refused before any line ends
        "GET / HTTP/1.1\u{0}",
    ])
    func refusesMalformedRequests(_ text: String) {
        #expect(Self.refused(text) == .badRequest, "\(text.debugDescription)")
    }

    @Test func refusesOtherVersionsAndBodies() {
        #expect(Self.refused("GET / HTTP/2.0\r\n\r\n") == .versionNotSupported)
        #expect(Self.refused("GET / HTTP/0.9\r\n\r\n") == .versionNotSupported)
        // The request line alone decides: no need to wait for the headers.
        #expect(Self.refused("GET / HTTP/3.0\r\n") == .versionNotSupported)
        #expect(Self.refused("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello") == .contentTooLarge)
        #expect(Self.refused("GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n") == .contentTooLarge)
        #expect(Self.request("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n") != nil)
        #expect(Self.request("GET / HTTP/1.1\r\nHost: h\r\ncontent-length: 00\r\n\r\n") != nil)
    }

    @Test func keepsItsLimits() {
        // The request line: 2048 bytes at most, refused as soon as it is longer, ended or not.
        let fits = "GET /" + String(repeating: "a", count: HTTPLimits.requestLine - 14) + " HTTP/1.1"
        #expect(fits.utf8.count == HTTPLimits.requestLine)
        #expect(Self.request(fits + "\r\nHost: h\r\n\r\n") != nil)
        let long = "GET /" + String(repeating: "a", count: HTTPLimits.requestLine - 13) + " HTTP/1.1"
        #expect(Self.refused(long + "\r\nHost: h\r\n\r\n") == .uriTooLong)
        #expect(Self.refused(long) == .uriTooLong)
        #expect(Self.refused("GET /" + String(repeating: "a", count: 100_000)) == .uriTooLong)
        // 64 headers at most.
        func headers(_ count: Int) -> String {
            "GET / HTTP/1.1\r\nHost: h\r\n" + (1..<count).map { "X-\($0): v\r\n" }.joined() + "\r\n"
        }
        #expect(Self.request(headers(HTTPLimits.headerCount))?.headers.count == HTTPLimits.headerCount)
        #expect(Self.refused(headers(HTTPLimits.headerCount + 1)) == .headersTooLarge)
        // 8192 bytes of head at most, ended or not.
        let big = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "b", count: HTTPLimits.head) + "\r\n"
        #expect(Self.refused(big + "\r\n") == .headersTooLarge)
        #expect(Self.refused(big) == .headersTooLarge)
        let head = "GET / HTTP/1.1\r\nHost: h\r\nX: \r\n\r\n"
        let exactly = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "b", count: HTTPLimits.head - head.utf8.count) + "\r\n\r\n"
        #expect(exactly.utf8.count == HTTPLimits.head && Self.request(exactly) != nil)
        #expect(Self.refused("GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "b", count: HTTPLimits.head - head.utf8.count + 1)
                             + "\r\n\r\n") == .headersTooLarge)
    }

    // MARK: The paths

    static func routed(_ method: String, _ target: String, host: String? = "127.0.0.1:8000") -> Route {
        let headers = host.map { [(name: "host", value: $0)] } ?? []
        return route(HTTPRequest(method: method, target: target, version: "HTTP/1.1", headers: headers), port: 8000)
    }

    @Test func servesTwoTargets() {
        #expect(Self.routed("GET", "/") == .page)
        #expect(Self.routed("GET", "/update?since=0") == .update(since: 0))
        #expect(Self.routed("GET", "/update?since=123456789012345678") == .update(since: 123_456_789_012_345_678))
        #expect(Self.routed("GET", "/", host: "localhost:8000") == .page)
        #expect(Self.routed("GET", "/", host: "LocalHost:8000") == .page)
        #expect(Self.routed("GET", "/", host: nil) == .page)   // HTTP/1.0
    }

    @Test(arguments: [
        "/../etc/passwd", "/..", "/%2e%2e/etc/passwd", "/%2E%2E/%2E%2E/etc/passwd", "/..%2fetc%2fpasswd", "/%2e%2e%2fetc%2fpasswd",
        "/%252e%252e%252fetc%252fpasswd", "/..%5c..%5cetc%5cpasswd", "/.%2e/", "//etc/passwd", "/etc/passwd", "/./", "/%2F",
        "/index.html", "/?", "/?since=1", "/#", "/update", "/update?", "/update?since=", "/update?since=-1", "/update?since=1x",
        "/update?since=+1", "/update?since=1234567890123456789", "/update?since=1&x=2", "/update/?since=1", "/UPDATE?since=1",
        "http://127.0.0.1:8000/", "http://127.0.0.1:8000/../etc/passwd", "HTTP://localhost:8000/", "//127.0.0.1:8000/", "*",
        "127.0.0.1:8000", "etc/passwd",
    ])
    func everyOtherTargetIsNotFound(_ target: String) {
        #expect(Self.routed("GET", target) == .refuse(.notFound))
        #expect(Self.routed("POST", target) == .refuse(.notFound))
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "get", "head", "BREW"])
    func otherMethodsAreNotAllowed(_ method: String) {
        #expect(Self.routed(method, "/") == .refuse(.methodNotAllowed))
        #expect(Self.routed(method, "/update?since=1") == .refuse(.methodNotAllowed))
    }

    @Test(arguments: ["127.0.0.1", "127.0.0.1:8001", "localhost", "evil.example:8000", "127.0.0.1:8000.evil", "[::1]:8000", ""])
    func otherHostsAreRefused(_ host: String) {
        #expect(Self.routed("GET", "/", host: host) == .refuse(.badRequest))
    }

    // MARK: Responses

    @Test func responsesSayTheirTypeLengthAndNoStore() {
        let response = String(decoding: httpResponse(.ok, type: "text/plain; charset=utf-8", body: Array("é\n".utf8)), as: UTF8.self)
        #expect(response == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 3\r\n"
                + "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\né\n")
        let notFound = String(decoding: refusal(.notFound), as: UTF8.self)
        #expect(notFound.hasPrefix("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 43\r\n"))
        #expect(notFound.hasSuffix("\r\n\r\n404 animc serve answers / and /update only\n"))
        let notAllowed = String(decoding: refusal(.methodNotAllowed, head: true), as: UTF8.self)
        #expect(notAllowed == "HTTP/1.1 405 Method Not Allowed\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 23\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n"
                + "Allow: GET, HEAD\r\n\r\n")
    }

    /// A server that serves GET serves HEAD (issue 37: it was answered 405):
    /// both targets route as for GET, and the answer is the GET answer's head.
    @Test func headIsAnsweredLikeGetWithoutABody() throws {
        #expect(Self.routed("HEAD", "/") == .page)
        #expect(Self.routed("HEAD", "/update?since=1") == .update(since: 1))
        #expect(Self.routed("HEAD", "/../etc/passwd") == .refuse(.notFound))
        let whole = httpResponse(.ok, type: "text/html; charset=utf-8", body: Array("<p>\r\n\r\nx</p>".utf8))
        let head = String(decoding: headOnly(whole), as: UTF8.self)
        #expect(head == "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 12\r\n"
                + "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n")
        #expect(headOnly(whole) == httpResponse(.ok, type: "text/html; charset=utf-8", body: Array("<p>\r\n\r\nx</p>".utf8), head: true))
    }

    /// A POST (or any method but GET and HEAD) is 405 whether or not it carries a
    /// body (issue 37: one with a body got 413); GET and HEAD with a body stay 413.
    @Test(arguments: ["Content-Length: 5", "Transfer-Encoding: chunked"])
    func aBodyOnAnotherMethodIsStill405(_ header: String) throws {
        let post = try #require(Self.request("POST / HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n\(header)\r\n\r\nhello"))
        #expect(route(post, port: 8000) == .refuse(.methodNotAllowed))
        let put = try #require(Self.request("PUT /update?since=1 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n\(header)\r\n\r\n"))
        #expect(route(put, port: 8000) == .refuse(.methodNotAllowed))
        #expect(Self.refused("HEAD / HTTP/1.1\r\nHost: h\r\n\(header)\r\n\r\nhello") == .contentTooLarge)
        #expect(Self.refused("GET / HTTP/1.1\r\nHost: h\r\n\(header)\r\n\r\nhello") == .contentTooLarge)
        // A malformed length is malformed whatever the method.
        #expect(Self.refused("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: x\r\n\r\n") == .badRequest)
    }

    // MARK: The live page

    static func export(_ source: String) throws -> WebExport {
        try #require(webExport(run(SourceFile(name: "a.anim", text: source)), source: "a.anim").0)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func liveStateKeepsTheLastGoodAnimation() throws {
        var preview = LivePreview(problem: "a.anim has errors: nothing to show until it is fixed", diagnostics: "a.anim:1:1: error: x\n")
        #expect(!preview.hasAnimation && !preview.page.contains("const EXPORT"))
        var state = try Self.json(preview.update)
        #expect(state["version"] as? Int == 1 && state["pageVersion"] as? Int == 0 && state["page"] == nil)
        #expect(state["diagnostics"] as? String == "a.anim:1:1: error: x\n")

        preview.show(try Self.export("let a = animate box.x from 0 to 100 in 2s"))
        state = try Self.json(preview.update)
        #expect(state["version"] as? Int == 2 && state["pageVersion"] as? Int == 2 && state["problem"] is NSNull)
        let page = try #require(state["page"] as? [String: Any])
        #expect(page["title"] as? String == "a — animc")
        #expect((page["data"] as? [String: Any])?["duration"] as? Double == 2)
        #expect((page["body"] as? String)?.hasPrefix("<header><h1><code>a</code> of a.anim</h1>") == true)
        // The swapped style registers and draws the default names (docs/exports.md §6: prefix `animc`).
        let style = try #require(page["style"] as? String)
        #expect(style.contains("@property --animc-x { syntax: '<number>'") && style.contains("var(--animc-x)"))
        #expect(!style.contains("@property --x ") && !style.contains("var(--x)"))
        let channels = ((page["data"] as? [String: Any])?["elements"] as? [[String: Any]])?.first?["channels"] as? [[String: Any]]
        #expect(channels?.map { $0["variable"] as? String } == ["--animc-x"])
        #expect(preview.page.contains("const EXPORT = {") && preview.page.contains("function animcPlayer(EXPORT, DRAWN, LIVE)"))

        // Errors: the animation stays (its page version too), the problem is said.
        preview.report("a.anim has errors: the page shows the last good animation", diagnostics: "a.anim:1:9: error: </script><!--\n")
        state = try Self.json(preview.update)
        #expect(state["version"] as? Int == 3 && state["pageVersion"] as? Int == 2 && state["page"] != nil)
        #expect(state["diagnostics"] as? String == "a.anim:1:9: error: </script><!--\n")
        // In the page, the diagnostics cannot end its script.
        #expect(!preview.page.contains("error: </script>") && preview.page.contains("error: <\\/script><\\!--"))
    }

    @Test func theExportedPageHasNoLivePart() throws {
        let page = playerPage(try Self.export("let a = animate box.x from 0 to 100 in 2s"))
        for live in ["animcPlayer", "LIVE", "animc-live", "/update"] {
            #expect(!page.contains(live), "\(live)")
        }
    }

    // MARK: Usage errors

    @Test(arguments: ["0", "65536", "70000", "-1", "http", "8000.5"])
    func aPortOutOfRangeIsAUsageError(_ port: String) throws {
        let result = try MalformedCLITests.animc(["serve", "examples/talk.anim", "--port", port])
        #expect(result.status == 2)
        #expect(result.errors.hasPrefix("animc: error: --port takes a whole number from 1 to 65535, not `\(port)`\n")
                || result.errors.hasPrefix("animc: error: --port needs a value"), "\(result.errors)")
        #expect(result.errors.hasSuffix("usage: animc serve FILE [--binding NAME] [--after NAME] [--port N]\n"))
        #expect(result.output.isEmpty)
    }

    @Test func aPortInUseIsAUsageError() throws {
        // Take a port of our own on the loopback address, then ask serve for it.
        var taken: (port: Int, descriptor: Int32)?
        for port in (41_000..<41_200).shuffled() {
            if case .success(let descriptor) = System.listenOnLoopback(port: port) {
                taken = (port, descriptor)
                break
            }
        }
        let (port, descriptor) = try #require(taken)
        defer { System.closeDescriptor(descriptor) }
        let result = try MalformedCLITests.animc(["serve", "examples/talk.anim", "--port", String(port)])
        #expect(result.status == 2)
        #expect(result.errors == "animc: error: --port \(port): cannot listen on 127.0.0.1:\(port): Address already in use\n"
                + "  hint: another program may be using it: choose another with --port N\n"
                + "usage: animc serve FILE [--binding NAME] [--after NAME] [--port N]\n")
        #expect(result.output.isEmpty)
    }

    @Test func standardInputCannotBeFollowed() throws {
        let result = try MalformedCLITests.animc(["serve", "-"])
        #expect(result.status == 2)
        #expect(result.errors.hasPrefix("animc: error: serve follows a file as it changes, and standard input (`-`) is not one\n"))
    }
}
