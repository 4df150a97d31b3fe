import PackagePlugin

/// Turns a target's web files (`.js`, `.css`, `.html` under `Web/`) into one
/// Swift file, `WebFiles.swift`, at build time (style practice 13): the
/// JavaScript and CSS are read, linted and diffed as what they are.
@main
struct WebFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles.map(\.url).filter { url in
            url.path.contains("/Web/") && ["js", "css", "html"].contains(url.pathExtension)
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("WebFiles.swift")
        return [.buildCommand(
            displayName: "Turning \(inputs.count) web files of \(target.name) into Swift",
            executable: try context.tool(named: "animc-webfiles").url,
            arguments: [output.path] + inputs.map(\.path),
            inputFiles: inputs,
            outputFiles: [output]
        )]
    }
}
