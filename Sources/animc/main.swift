// animc: the command-line interpreter for `.anim` scripts. Thin on purpose:
// arguments in (read against the table in Commands.swift), AnimLang calls,
// text out. Exit status: 0 success, 1 errors in the script or an unreadable
// file, 2 bad usage.

import AnimLang
import AnimOutputs

switch interface.parse(Array(CommandLine.arguments.dropFirst())) {
case .help(let text):
    standardOutput.write(text)
    finish(0)
case .version:
    standardOutput.write(interface.version + "\n")
    finish(0)
case .usageError(let diagnostic, let usage):
    finish(reportUsage(diagnostic, usage: usage).code)
case .run(let arguments):
    do {
        try arguments.command.run(arguments)
        finish(0)
    } catch {
        finish(error.code)
    }
}
