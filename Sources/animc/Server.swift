// `animc serve` (docs/exports.md §6, "Live preview"): a small HTTP/1.1 server on
// 127.0.0.1 that serves the live player page of one file (AnimOutputs'
// `LivePreview`) and follows the file. One thread, one `poll` loop: it
// accepts connections, reads requests (with limits), answers `/` and
// `/update` (a long poll, held until the file changes) and nothing else,
// and looks at the file's stamp every tenth of a second. Every response
// closes its connection.

import AnimLang
import AnimOutputs
import Animations

// MARK: - Requests (pure: no sockets)

/// The limits a request must keep, and how long the server waits.
enum HTTPLimits {
    /// `GET /update?since=12 HTTP/1.1`: longer is 414.
    static let requestLine = 2048
    /// The request line and headers together: more is 431.
    static let head = 8192
    /// More headers than this is 431.
    static let headerCount = 64
    /// A request must have arrived this long after the connection was made: else 408.
    static let readSeconds: Int64 = 5
    /// A response must have gone out within this: else the connection is closed.
    static let writeSeconds: Int64 = 10
    /// How long `/update` is held before it answers with no change.
    static let holdSeconds: Int64 = 20
    /// Connections open at once; more wait in the kernel's queue.
    static let connections = 512
}

/// An HTTP status the server answers with.
struct HTTPStatus: Error, Equatable, Sendable {
    let code: Int
    let reason: String

    static let ok = HTTPStatus(code: 200, reason: "OK")
    static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    static let contentTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
    static let uriTooLong = HTTPStatus(code: 414, reason: "URI Too Long")
    static let headersTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    static let versionNotSupported = HTTPStatus(code: 505, reason: "HTTP Version Not Supported")
}

/// A request's head, as read.
struct HTTPRequest: Equatable {
    let method: String
    let target: String
    let version: String
    /// Names lowercased, values without the spaces around them.
    let headers: [(name: String, value: String)]

    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    static func == (left: HTTPRequest, right: HTTPRequest) -> Bool {
        left.method == right.method && left.target == right.target && left.version == right.version
            && left.headers.map(\.name) == right.headers.map(\.name) && left.headers.map(\.value) == right.headers.map(\.value)
    }
}

/// What the bytes received so far make.
enum ParsedRequest: Equatable {
    /// Not all of the head yet.
    case incomplete
    case request(HTTPRequest)
    /// A request the server refuses to read further (it answers and closes).
    case refused(HTTPStatus)
}

/// Reads a request head from the bytes received on a connection (RFC 9112
/// §2–5, strictly; a bare LF ends a line too): the request line (at most
/// ``HTTPLimits/requestLine`` bytes: `METHOD SP TARGET SP HTTP/1.x`), then
/// at most ``HTTPLimits/headerCount`` `name: value` lines, then an empty line,
/// all within ``HTTPLimits/head`` bytes. A body (`Content-Length` other
/// than 0, or `Transfer-Encoding`) on GET or HEAD is refused with 413:
/// nothing the server answers takes one. Any other method is read as a
/// request whatever it carries, so that ``route(_:port:)`` answers it 405
/// (the body is never read: the connection closes after the answer).
func parseRequest(_ bytes: [UInt8]) -> ParsedRequest {
    let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
    // Lines up to the empty one, without their line ends.
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    var ended = false
    while let end = bytes[start...].firstIndex(of: newline) {
        var line = bytes[start..<end]
        if line.last == carriageReturn { line = line.dropLast() }
        start = end + 1
        if line.isEmpty {
            // Empty lines before the request line are allowed (RFC 9112 §2.2).
            if lines.isEmpty { continue }
            ended = true
            break
        }
        if lines.isEmpty, line.count > HTTPLimits.requestLine { return .refused(.uriTooLong) }
        lines.append(line)
        if lines.count > HTTPLimits.headerCount + 1 { return .refused(.headersTooLarge) }
    }
    if start > HTTPLimits.head { return .refused(.headersTooLarge) }
    // The request line is judged as soon as it is there (or, when what came cannot be one, at once: TLS, say).
    guard let first = lines.first else {
        if bytes[start...].contains(where: { ($0 < 0x20 && $0 != carriageReturn) || $0 >= 0x7F }) { return .refused(.badRequest) }
        return bytes.count - start > HTTPLimits.requestLine ? .refused(.uriTooLong) : .incomplete
    }
    let line: (method: String, target: String, version: String)
    switch requestLine(first) {
    case .failure(let status): return .refused(status)
    case .success(let read): line = read
    }
    guard ended else { return bytes.count > HTTPLimits.head ? .refused(.headersTooLarge) : .incomplete }
    var headers: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
        // No folded lines, no space before the colon, no control characters.
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), let name = token(line[..<colon]),
              line[(colon + 1)...].allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 }) else { return .refused(.badRequest) }
        let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
        let trimmed = value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
        headers.append((name.lowercased(), String(decoding: trimmed, as: UTF8.self)))
    }
    let request = HTTPRequest(method: line.method, target: line.target, version: line.version, headers: headers)
    let readsNoBody = line.method == "GET" || line.method == "HEAD"
    if request.header("transfer-encoding") != nil, readsNoBody { return .refused(.contentTooLarge) }
    let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
    if let length = lengths.first {
        guard lengths.allSatisfy({ $0 == length }), !length.isEmpty, length.utf8.allSatisfy(\.isDigit) else { return .refused(.badRequest) }
        if length.utf8.contains(where: { $0 != UInt8(ascii: "0") }), readsNoBody { return .refused(.contentTooLarge) }
    }
    if line.version == "HTTP/1.1", headers.filter({ $0.name == "host" }).count != 1 { return .refused(.badRequest) }
    return .request(request)
}

/// `METHOD SP TARGET SP HTTP/1.x`: a token, visible characters, a version
/// (another HTTP version is 505).
private func requestLine(_ line: ArraySlice<UInt8>) -> Result<(method: String, target: String, version: String), HTTPStatus> {
    let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3, let method = token(parts[0]), !parts[1].isEmpty,
          parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return .failure(.badRequest) }
    let version = String(decoding: parts[2], as: UTF8.self)
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
        let digits = Array(parts[2])
        let other = digits.count == 8 && version.hasPrefix("HTTP/") && digits[6] == UInt8(ascii: ".") && digits[5].isDigit && digits[7].isDigit
        return .failure(other ? .versionNotSupported : .badRequest)
    }
    return .success((method, String(decoding: parts[1], as: UTF8.self), version))
}

/// A method or header name: one or more token characters (RFC 9110 §5.6.2).
private func token(_ bytes: ArraySlice<UInt8>) -> String? {
    let extra = Array("!#$%&'*+-.^_`|~".utf8)
    guard !bytes.isEmpty, bytes.allSatisfy({ $0.isDigit || ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z"))
        || extra.contains($0) }) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

private extension UInt8 {
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}

/// What the server does with a request.
enum Route: Equatable {
    /// `GET /`: the page.
    case page
    /// `GET /update?since=VERSION`: the state, once it is not `VERSION`.
    case update(since: Int)
    /// Anything else: this status (405 says `Allow: GET, HEAD`).
    case refuse(HTTPStatus)
}

/// Where a request goes. The server serves two targets, compared as they
/// are written, never decoded and never a file: `/` and
/// `/update?since=N`; any other target is 404 (`/../etc/passwd`,
/// `/%2e%2e/`, `http://…/`, `*` alike). A served target is answered to GET
/// and to HEAD (the same head, no body: a server that serves GET serves
/// HEAD, RFC 9110 §9.3.2); any other method is 405. A `Host` other than the server's own address (a page
/// elsewhere reaching it by DNS rebinding) is 400.
func route(_ request: HTTPRequest, port: Int) -> Route {
    if let host = request.header("host"), !["127.0.0.1:\(port)", "localhost:\(port)"].contains(host.lowercased()) {
        return .refuse(.badRequest)
    }
    let route: Route
    if request.target == "/" {
        route = .page
    } else if request.target.hasPrefix("/update?since="), case let number = request.target.dropFirst("/update?since=".count),
              (1...18).contains(number.count), number.utf8.allSatisfy(\.isDigit), let since = Int(number) {
        route = .update(since: since)
    } else {
        return .refuse(.notFound)
    }
    return request.method == "GET" || request.method == "HEAD" ? route : .refuse(.methodNotAllowed)
}

/// A whole response: status line, headers and body (none for HEAD). Every
/// response has `Content-Type`, `Content-Length` and `Cache-Control:
/// no-store`, and closes the connection.
func httpResponse(_ status: HTTPStatus, type: String, body: [UInt8], head only: Bool = false) -> [UInt8] {
    var head = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
    head += "Content-Type: \(type)\r\nContent-Length: \(body.count)\r\nCache-Control: no-store\r\n"
    head += "X-Content-Type-Options: nosniff\r\nConnection: close\r\n"
    if status == .methodNotAllowed { head += "Allow: GET, HEAD\r\n" }
    return Array((head + "\r\n").utf8) + (only ? [] : body)
}

/// The head of a whole response (``httpResponse(_:type:body:head:)``): what
/// HEAD is answered, the same status and headers, `Content-Length` included.
func headOnly(_ response: [UInt8]) -> [UInt8] {
    let end: [UInt8] = Array("\r\n\r\n".utf8)
    var index = 0
    while index + end.count <= response.count {
        if response[index..<index + end.count].elementsEqual(end) { return Array(response[..<(index + end.count)]) }
        index += 1
    }
    return response
}

/// The response to a refused request: its status, said in a line of text.
func refusal(_ status: HTTPStatus, head only: Bool = false) -> [UInt8] {
    let why = status == .notFound ? "animc serve answers / and /update only" : status.reason.lowercased()
    return httpResponse(status, type: "text/plain; charset=utf-8", body: Array("\(status.code) \(why)\n".utf8), head: only)
}

// MARK: - The file

/// The largest file serve reads: larger than any script written by hand, and small
/// enough that reading and evaluating it again on each change stays interactive.
let largestServedFile = 8 << 20

/// Follows FILE: reads, runs and exports it when its stamp has changed and
/// then held still for one look (a save in several writes is read once),
/// and keeps what the page shows in ``preview``. Says each reload and each
/// diagnostic on the terminal.
struct Watcher {
    let path: String
    let binding: String?
    /// `--after NAME`: the binding as it plays after `NAME`.
    let after: String?
    private(set) var preview = LivePreview(problem: "")
    private var loaded: System.FileStamp?
    private var seen: System.FileStamp?
    private var bytes: [UInt8]?
    private var unreadable: String?

    init(path: String, binding: String?, after: String? = nil) {
        self.after = after
        self.path = path
        self.binding = binding
        look(now: true)
    }

    /// Looks at the file; returns whether ``preview`` changed.
    @discardableResult
    mutating func look(now: Bool = false) -> Bool {
        let before = preview.version
        switch System.fileStamp(path) {
        case .failure(let failure):
            seen = nil
            loaded = nil
            if unreadable != failure.reason { fail(reason: failure.reason) }
        case .success(let stamp):
            defer { seen = stamp }
            guard stamp != loaded, now || stamp == seen else { break }
            loaded = stamp
            load(stamp)
        }
        return preview.version != before
    }

    private mutating func load(_ stamp: System.FileStamp) {
        guard stamp.size <= largestServedFile else {
            return fail(reason: "it is \(stamp.size) bytes, more than the \(largestServedFile) serve reads")
        }
        let read: [UInt8]
        switch System.readAll(path, limit: largestServedFile) {
        case .failure(let failure): return fail(reason: failure.reason)
        case .success(let contents) where contents.count > largestServedFile:
            return fail(reason: "it is more than the \(largestServedFile) bytes serve reads")
        case .success(let contents): read = contents
        }
        // A save that changed nothing (or a touch) is not a reload.
        if read == bytes, unreadable == nil { return }
        bytes = read
        unreadable = nil
        let file = SourceFile(name: path, bytes: read)
        let outcome = run(file, binding: binding, after: after)
        var diagnostics = outcome.diagnostics
        let (export, exportDiagnostics) = webExport(outcome, source: path)
        diagnostics += exportDiagnostics
        let text = render(diagnostics, in: file)
        if let export {
            let reloaded = preview.hasAnimation
            preview.show(export)
            let length = export.endless == nil ? "\(formatNumber(export.duration.seconds)) s" : "repeats forever"
            say("\(reloaded ? "reloaded" : "showing") `\(export.binding)` of \(path) (\(length))")
            if !text.isEmpty { standardError.write(text) }
        } else {
            preview.report(problem(), diagnostics: text)
            say(problem())
            standardError.write(text)
        }
        standardError.flush()
    }

    /// The file cannot be read (deleted, a directory, too large).
    private mutating func fail(reason: String) {
        unreadable = reason
        bytes = nil
        let text = render(Diagnostic(.unreadableFile(path: path, reason: reason), at: .none), origin: programName)
        preview.report(problem(), diagnostics: text)
        say(problem())
        standardError.write(text)
        standardError.flush()
    }

    /// The box's heading.
    private func problem() -> String {
        (unreadable == nil ? "\(path) has errors" : "\(path) cannot be read")
            + (preview.hasAnimation ? ": the page shows the last good animation" : ": nothing to show until it is fixed")
    }

    private func say(_ line: String) {
        standardOutput.write(line + "\n")
        standardOutput.flush()
    }
}

// MARK: - The loop

/// One open connection.
private struct Connection {
    enum State {
        /// Reading the request.
        case reading
        /// Holding `/update` until the state changes (it was the one the page has).
        case holding
        /// Sending `output`.
        case writing
        /// Sent; reading whatever the peer still sends until it closes (so that closing never resets the response).
        case draining
    }

    let descriptor: Int32
    var state = State.reading
    var input: [UInt8] = []
    var output: [UInt8] = []
    var sent = 0
    /// When the current state times out (monotonic nanoseconds).
    var deadline: Int64
    /// To be closed (the peer went away, or the exchange is over).
    var done = false
}

/// Serves the page of `watcher`'s file on `listener` until a termination
/// signal; returns 128 + the signal's number.
func serve(_ listener: Int32, port: Int, watcher initial: Watcher) -> Int32 {
    var watcher = initial
    var connections: [Connection] = []
    var page = httpResponse(.ok, type: "text/html; charset=utf-8", body: Array(watcher.preview.page.utf8))
    var update = httpResponse(.ok, type: "application/json", body: Array(watcher.preview.update.utf8))
    let second: Int64 = 1_000_000_000
    var nextLook = System.monotonicNanoseconds()
    var scratch: [UInt8] = []
    scratch.reserveCapacity(1 << 16)

    func respond(_ connection: inout Connection, _ bytes: [UInt8], now: Int64) {
        connection.output = bytes
        connection.sent = 0
        connection.state = .writing
        connection.deadline = now + HTTPLimits.writeSeconds * second
    }

    while System.caughtSignal == 0 {
        var now = System.monotonicNanoseconds()
        if now >= nextLook {
            if watcher.look() {
                page = httpResponse(.ok, type: "text/html; charset=utf-8", body: Array(watcher.preview.page.utf8))
                update = httpResponse(.ok, type: "application/json", body: Array(watcher.preview.update.utf8))
                for index in connections.indices {
                    if case .holding = connections[index].state { respond(&connections[index], update, now: now) }
                }
            }
            now = System.monotonicNanoseconds()
            nextLook = now + second / 10
        }
        // Time-outs: a request too slow to arrive is 408, a held update answers as it is, the rest close.
        for index in connections.indices where connections[index].deadline <= now {
            switch connections[index].state {
            case .reading: respond(&connections[index], refusal(.requestTimeout), now: now)
            case .holding: respond(&connections[index], update, now: now)
            case .writing, .draining: connections[index].done = true
            }
        }
        connections.removeAll { connection in
            if connection.done { System.closeDescriptor(connection.descriptor) }
            return connection.done
        }

        var waits = connections.map { connection -> System.Waiting in
            if case .writing = connection.state { return System.Waiting(descriptor: connection.descriptor, reading: false, writing: true) }
            return System.Waiting(descriptor: connection.descriptor, reading: true, writing: false)
        }
        let accepting = connections.count < HTTPLimits.connections
        if accepting { waits.append(System.Waiting(descriptor: listener, reading: true, writing: false)) }
        let soonest = connections.map(\.deadline).reduce(nextLook, min)
        System.wait(&waits, milliseconds: Int32(clamping: max(0, (soonest - now) / 1_000_000 + 1)))
        now = System.monotonicNanoseconds()

        for index in connections.indices {
            let ready = waits[index]
            if ready.failed {
                connections[index].done = true
                continue
            }
            switch connections[index].state {
            case .reading where ready.readable:
                let limit = HTTPLimits.head + 1 - connections[index].input.count
                switch System.receive(connections[index].descriptor, into: &connections[index].input, limit: max(1, limit)) {
                case .done(0), .failed: connections[index].done = true
                case .later: break
                case .done(let count):
                    // Read again only what a new line end (or the first bytes, or too many) can change: a client
                    // sending a byte at a time does not make the server read its whole head each time.
                    let input = connections[index].input
                    guard input.count == count || input.count > HTTPLimits.head || input.suffix(count).contains(UInt8(ascii: "\n"))
                    else { break }
                    switch parseRequest(input) {
                    case .incomplete: break
                    case .refused(let status): respond(&connections[index], refusal(status), now: now)
                    case .request(let request):
                        switch route(request, port: port) {
                        case .page:
                            respond(&connections[index], request.method == "HEAD" ? headOnly(page) : page, now: now)
                        case .update where request.method == "HEAD":
                            respond(&connections[index], headOnly(update), now: now)   // a head is never held
                        case .update(let since) where since != watcher.preview.version:
                            respond(&connections[index], update, now: now)
                        case .update:
                            connections[index].state = .holding
                            connections[index].deadline = now + HTTPLimits.holdSeconds * second
                        case .refuse(let status):
                            respond(&connections[index], refusal(status, head: request.method == "HEAD"), now: now)
                        }
                    }
                }
            case .holding, .draining:
                guard ready.readable else { break }
                // Whatever else arrives is not read as a request; the end of it means the page went away.
                scratch.removeAll(keepingCapacity: true)
                switch System.receive(connections[index].descriptor, into: &scratch, limit: 1 << 16) {
                case .done(0), .failed: connections[index].done = true
                case .done, .later: break
                }
            case .writing where ready.writable:
                switch System.transmit(connections[index].descriptor, connections[index].output, from: connections[index].sent) {
                case .failed: connections[index].done = true
                case .later: break
                case .done(let count):
                    connections[index].sent += count
                    if connections[index].sent >= connections[index].output.count {
                        System.finishSending(connections[index].descriptor)
                        connections[index].output = []
                        connections[index].state = .draining
                        connections[index].deadline = now + 2 * second
                    }
                }
            case .reading, .writing:
                break   // not ready for what it waits for
            }
        }
        if accepting, waits.last?.readable == true {
            while connections.count < HTTPLimits.connections, let descriptor = System.acceptConnection(listener) {
                connections.append(Connection(descriptor: descriptor, deadline: now + HTTPLimits.readSeconds * second))
            }
        }
    }
    for connection in connections { System.closeDescriptor(connection.descriptor) }
    System.closeDescriptor(listener)
    return 128 + System.caughtSignal
}
