import AnimLang
import AnimOutputs

/// Buffered output to a file descriptor, written in large chunks.
struct Output {
    let descriptor: Int32
    var buffer: [UInt8] = []

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        System.writeAll(descriptor, buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

nonisolated(unsafe) var standardOutput = Output(System.standardOutput)
nonisolated(unsafe) var standardError = Output(System.standardError)

/// Flushes both streams and ends the process.
func finish(_ status: Int32) -> Never {
    standardOutput.flush()
    standardError.flush()
    System.terminate(status)
}

/// Keeps `outcome` alive until the process exits, so that it is never freed:
/// like clang's `-disable-free`. Every command that evaluates a script ends
/// the process soon after (``finish(_:)``), and releasing the graph of a
/// large script node by node costs more than building parts of it; the system takes the memory
/// back at once. A class box, retained once and never released: no generic
/// type to build at start-up. Not for the long-running commands (`serve`,
/// `lsp`), which evaluate again and again.
func keepUntilExit(_ outcome: Outcome) {
    _ = Unmanaged.passRetained(KeptUntilExit(outcome))
}

private final class KeptUntilExit {
    let outcome: Outcome

    init(_ outcome: Outcome) {
        self.outcome = outcome
    }
}

/// How a command ends early: the process's exit status, after whatever it
/// had to say was written.
struct ExitStatus: Error {
    let code: Int32

    /// Errors in the script, or a file that cannot be read.
    static let failure = ExitStatus(code: 1)
    /// Bad command-line usage.
    static let usage = ExitStatus(code: 2)
}

/// Writes a script's diagnostics (errors and warnings) to standard error.
func report(_ diagnostics: [Diagnostic], in file: SourceFile) {
    guard !diagnostics.isEmpty else { return }
    standardError.write(render(diagnostics, in: file))
    standardError.flush()
}

/// Writes a diagnostic that has no place in a file: `animc: error: …`.
func report(_ diagnostic: Diagnostic, origin: String = programName) {
    standardError.write(render(diagnostic, origin: origin))
}

/// Writes a usage error and the usage it broke; the caller exits 2.
func reportUsage(_ diagnostic: Diagnostic, usage: String) -> ExitStatus {
    report(diagnostic)
    standardError.write(usage + "\n")
    return .usage
}
