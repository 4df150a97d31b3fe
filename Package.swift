// swift-tools-version:6.0
// animc: Brandon Kase's "Algebraic Animations", as a Swift library and a command-line interpreter.
// No third-party packages: the toolchain's own libraries only.
import PackageDescription

let package = Package(
    name: "animc",
    products: [
        .library(name: "Animations", targets: ["Animations"]),
        .library(name: "AnimLang", targets: ["AnimLang"]),
        .library(name: "AnimLSP", targets: ["AnimLSP"]),
        .executable(name: "animc", targets: ["animc"]),
    ],
    targets: [
        // The algebra: values, composition, easing, exact time, sampling. Knows nothing of syntax.
        .target(name: "Animations"),
        // The .anim language: lexer, parser, AST, resolver, normalizer, evaluator, printer, diagnostics.
        .target(name: "AnimLang", dependencies: ["Animations"]),
        // The language server (`animc lsp`): framing, JSON-RPC, open documents, one file per feature.
        .target(name: "AnimLSP", dependencies: ["AnimLang", "Animations"]),
        // The thin command-line interpreter.
        .executableTarget(name: "animc", dependencies: ["AnimLang", "AnimLSP"]),
        // Scale benchmarks (issue 5): generates its own inputs, one child process per workload.
        // `swift run -c release animc-bench`, or `bash bench/run.sh` for the full report.
        .executableTarget(name: "animc-bench", dependencies: ["AnimLang", "Animations"]),
        // The Linux example of the embedding API (README, "In a Swift app"): run by animcTests.
        .executableTarget(name: "animc-embed-example", dependencies: ["AnimLang", "Animations"]),
        .testTarget(name: "AnimationsTests", dependencies: ["Animations"], exclude: ["Golden"]),
        .testTarget(name: "AnimLangTests", dependencies: ["AnimLang", "Animations"], exclude: ["Golden"]),
        .testTarget(name: "AnimLSPTests", dependencies: ["AnimLSP", "AnimLang"]),
        // Runs the built `animc` binary (exit statuses, standard input, options) and the embedding example.
        .testTarget(name: "animcTests", dependencies: ["animc", "animc-embed-example"]),
    ]
)
