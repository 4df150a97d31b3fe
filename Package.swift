// swift-tools-version:6.0
// animc: Brandon Kase's "Algebraic Animations", as a Swift library and a command-line interpreter.
// No third-party packages: the toolchain's own libraries only.
import PackageDescription

let package = Package(
    name: "animc",
    products: [
        .library(name: "Animations", targets: ["Animations"]),
        .library(name: "AnimLang", targets: ["AnimLang"]),
        .library(name: "AnimOutputs", targets: ["AnimOutputs"]),
        .library(name: "AnimLSP", targets: ["AnimLSP"]),
        .executable(name: "animc", targets: ["animc"]),
    ],
    targets: [
        // The algebra: values, composition, easing, exact time, sampling. Knows nothing of syntax.
        .target(name: "Animations"),
        // A JSON value and its one writer (and reader), shared by the exports and the editor server.
        .target(name: "AnimJSON", dependencies: ["Animations"]),
        // The .anim language, text to compiled animation: lexer, parser, AST, resolver, lowering,
        // evaluator, printer and normal form, the diagnostic catalog, and the embedding API (`Document`).
        .target(name: "AnimLang", dependencies: ["Animations"]),
        // Everything that turns a compiled animation into something to read, see or ship: the table,
        // the timeline, plots, the terminal player, the player page, CSS / Web Animations / the JS
        // module, Lottie. Knows nothing of syntax beyond the names and diagnostics AnimLang hands it.
        // Its JavaScript, CSS and HTML live in Sources/AnimOutputs/Web, made Swift by the WebFiles plugin.
        .target(name: "AnimOutputs", dependencies: ["AnimLang", "AnimJSON", "Animations"], plugins: ["WebFiles"]),
        // The web files of AnimOutputs as Swift, at build time: a build tool, linked into nothing.
        .executableTarget(name: "animc-webfiles"),
        .plugin(name: "WebFiles", capability: .buildTool(), dependencies: ["animc-webfiles"]),
        // The language server (`animc lsp`): framing, JSON-RPC, open documents, one file per feature.
        .target(name: "AnimLSP", dependencies: ["AnimLang", "AnimJSON", "Animations"]),
        // The thin command-line interpreter.
        .executableTarget(name: "animc", dependencies: ["AnimOutputs", "AnimLang", "AnimJSON", "AnimLSP"]),
        // Scale benchmarks (issue 5): generates its own inputs, one child process per workload.
        // `swift run -c release animc-bench`, or `bash bench/run.sh` for the full report.
        .executableTarget(name: "animc-bench", dependencies: ["AnimOutputs", "AnimLang", "Animations"]),
        // The Linux example of the embedding API (README, "In a Swift app"): run by animcTests.
        .executableTarget(name: "animc-embed-example", dependencies: ["AnimLang", "Animations"]),
        // What the test targets share: the golden-file helper and the program generator.
        .target(name: "AnimTestSupport", dependencies: ["AnimLang", "AnimOutputs", "Animations"], path: "Tests/AnimTestSupport"),
        .testTarget(name: "AnimationsTests", dependencies: ["Animations"], exclude: ["Golden"]),
        .testTarget(name: "AnimLangTests", dependencies: ["AnimLang", "AnimOutputs", "AnimJSON", "Animations", "AnimTestSupport"], exclude: ["Golden"]),
        // The writers' own tests: encoders read back by decoders written for the tests.
        .testTarget(name: "AnimOutputsTests", dependencies: ["AnimOutputs", "AnimLang", "AnimJSON", "Animations", "AnimTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "AnimLSPTests", dependencies: ["AnimLSP", "AnimLang", "AnimJSON"]),
        // Runs the built `animc` binary (exit statuses, standard input, options) and the embedding example.
        .testTarget(name: "animcTests", dependencies: ["animc", "animc-embed-example"]),
    ]
)
