import AnimLang

// Every `animc export --to` target behind one small interface, in one
// table: the CLI's `--to` reads its names, its help and which options each
// target refuses from here. A new target is one file that makes an
// `ExportTarget`, one line in `ExportTarget.all`, and one test file;
// nothing in the language target.

/// An option of `export` that some targets take and others refuse.
public enum ExportOption: String, Sendable, CaseIterable {
    /// `--fps N`: frames a second of a format that keys frames.
    case fps = "--fps"
    /// `--prefix NAME`: what a web export's names start with.
    case prefix = "--prefix"
    /// `--selector TEMPLATE`: the elements a web export animates.
    case selector = "--selector"
    /// `--runtime PATH`: the player a `--to js` module imports instead of holding it.
    case runtime = "--runtime"
}

/// What a target writes from: the evaluated script and the options given.
public struct ExportRequest: Sendable {
    public let outcome: Outcome
    /// The script's name, which some outputs quote.
    public let source: String
    public let names: WebNames
    /// `--fps`, or the target's own default when `nil`.
    public let fps: Int?
    /// `--runtime PATH`: what a `--to js` module imports its player from; `nil`, it holds it.
    public let runtime: String?

    public init(outcome: Outcome, source: String, names: WebNames = .standard, fps: Int? = nil, runtime: String? = nil) {
        self.outcome = outcome
        self.source = source
        self.names = names
        self.fps = fps
        self.runtime = runtime
    }
}

/// One export target: its name, a line of help, the options it refuses
/// (each with the hint a user gets), and how it writes. A class: the table
/// is an array of class instances, which costs nothing to build at start-up.
public final class ExportTarget: Sendable {
    /// What `--to` takes: `html`.
    public let name: String
    /// What it writes, for `--to`'s help: "a page that plays it".
    public let summary: String
    /// The options it does not take, in the order they are checked, each
    /// with why (the hint of the usage error).
    public let refuses: [(ExportOption, hint: String)]
    /// The bytes of the export (`nil` when an error stopped it) and the
    /// diagnostics of making it.
    public let write: @Sendable (ExportRequest) -> (bytes: [UInt8]?, diagnostics: [Diagnostic])

    public init(name: String, summary: String, refuses: [(ExportOption, hint: String)],
                write: @escaping @Sendable (ExportRequest) -> (bytes: [UInt8]?, diagnostics: [Diagnostic])) {
        self.name = name
        self.summary = summary
        self.refuses = refuses
        self.write = write
    }

    /// The hint of refusing `option`, or `nil` when the target takes it.
    public func refusal(of option: ExportOption) -> String? {
        refuses.first { $0.0 == option }?.hint
    }

    /// The table `--to` reads, in the order its help lists them.
    public static let all: [ExportTarget] = [html, css, waapi, js, lottie, svg]

    /// The target `--to name` means.
    public static func named(_ name: String) -> ExportTarget? {
        all.first { $0.name == name }
    }

    /// `--to`'s help: every target and what it writes.
    public static var help: String {
        all.map { "\($0.name): \($0.summary)" }.joined(separator: "; ") + "."
    }

    // MARK: The web formats and Lottie

    static let webFPS = "a web export plays in the browser's own time; --fps sets Lottie's frame rate"
    static let webNames = "--prefix and --selector name what a web export defines"
    /// Every target but `js` refuses `--runtime`.
    static let moduleRuntime = (ExportOption.runtime, hint: "--runtime names the player a --to js module imports instead of holding it")

    /// A web export's target: `text` writes it.
    static func web(_ format: WebFormat, summary: String, refuses: [(ExportOption, hint: String)]) -> ExportTarget {
        ExportTarget(name: format.rawValue, summary: summary, refuses: refuses) { request in
            let (export, diagnostics) = webExport(request.outcome, source: request.source, names: request.names)
            return (export.map { Array(format.text($0).utf8) }, diagnostics)
        }
    }

    public static let html = web(.html, summary: "a page that plays it", refuses: [
        (.fps, webFPS),
        (.selector, "the player page draws its own stage; --selector chooses the elements of --to css, waapi and js"),
        moduleRuntime,
    ])
    public static let css = web(.css, summary: "a stylesheet", refuses: [(.fps, webFPS), moduleRuntime])
    public static let waapi = web(.waapi, summary: "Web Animations JSON", refuses: [(.fps, webFPS), moduleRuntime])
    /// `--to js`, which imports its player from `--runtime PATH` when given (``webModule(_:runtime:)``).
    public static let js = ExportTarget(name: WebFormat.js.rawValue,
                                        summary: "an ES module (`duration`, `play(root, options)`) for a page's scripts",
                                        refuses: [(.fps, webFPS)]) { request in
        let (export, diagnostics) = webExport(request.outcome, source: request.source, names: request.names)
        let module = export.map { export in request.runtime.map { webModule(export, runtime: $0) } ?? WebFormat.js.text(export) }
        return (module.map { Array($0.utf8) }, diagnostics)
    }
    public static let lottie = ExportTarget(
        name: "lottie", summary: "Lottie JSON (Bodymovin 5.x) for lottie-web, lottie-ios and lottie-android",
        refuses: [(.prefix, webNames), (.selector, webNames), moduleRuntime]
    ) { request in
        let export = exportLottie(request.outcome, fps: request.fps ?? LottieExport.defaultFPS)
        return (export.bytes, export.diagnostics)
    }
}
