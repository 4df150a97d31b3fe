import AnimLSP

/// `animc lsp`: the language server of AnimLSP on standard input and
/// output. Reads with `read(2)` on descriptor 0, writes with `write(2)` on
/// descriptor 1; nothing else is written there.
@Sendable func lspCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    let server = LanguageServer(version: interface.version)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while server.exitStatus == nil {
        let count = System.readSome(System.standardInput, into: &buffer)
        guard count > 0 else { break }   // the editor went away
        let reply = server.receive(buffer[0..<count])
        if !reply.isEmpty { System.writeAll(System.standardOutput, reply) }
        // While the editor is quiet, get ready for the hover or jump that comes next.
        while !System.hasInput(System.standardInput), server.idle() {}
    }
    // Without `shutdown` first (or at the end of input), exit 1, as the protocol asks.
    if server.exitStatus != 0 { throw .failure }
}
