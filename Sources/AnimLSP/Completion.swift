import AnimJSON
import AnimLang

/// `textDocument/completion`: what may be written at the cursor, read from
/// the words before it on its line:
/// - after `with` (`with a`, `with high`): the easing names, and the `let`s
///   and parameters that name an easing;
/// - after `VIEW.`: the properties the file gives that view (and the others it animates);
/// - after a verb (`fadeIn`, `animate`, …), `and` or `,` in a list of targets: the views;
/// - after `from`, `to`, `by`, `through`, `in`, `wait`, `at`: the named values (`let`s of
///   a number, duration, colour or point) and the parameters;
/// - at the start of a term (after `=`, `;`, `||`, `(`, …): the verbs and
///   keywords that start one, the `let`s, and inside a body its parameters;
/// - at the start of a line: `let` and `view`.
func completion(_ document: OpenDocument, at offset: Int) -> JSON {
    let analysis = document.analysis
    let bytes = document.file.bytes
    let context = CompletionContext(bytes: bytes, offset: offset)
    var items: [JSON] = []
    var seen: Set<String> = []
    func add(_ label: String, _ kind: Double, _ detail: String) {
        guard seen.insert(label).inserted else { return }
        items.append(.object([("label", .string(label)), ("kind", .number(kind)), ("detail", .string(detail))]))
    }
    let enclosing = analysis.enclosingBinding(at: offset)
    let parameters = enclosing?.parameters ?? []
    let kinds = enclosing.flatMap { analysis.resolved.parameterKinds[$0.name] } ?? []
    func addParameters(_ wanted: (ParameterKind?) -> Bool) {
        // A body that does not parse yet: its parameters as written in its `let` line.
        if enclosing == nil {
            for name in CompletionContext.writtenParameters(bytes: bytes, offset: offset) { add(name, 25, "parameter") }
            return
        }
        for (index, parameter) in parameters.enumerated() {
            let kind = index < kinds.count ? kinds[index] : nil
            if wanted(kind) { add(parameter.name, 25, "parameter" + (kind.map { ": " + $0.article } ?? "")) }
        }
    }
    func addLets(_ wanted: (Binding) -> Bool) {
        for binding in analysis.program.bindings where binding.name != enclosing?.name && wanted(binding) {
            add(binding.name, binding.parameters == nil ? 6 : 3, analysis.kind(of: binding))
        }
    }
    let isValue = analysis.isValue, isEasing = analysis.isEasing
    func addViews() {
        for view in analysis.resolved.views { add(view, 7, "view") }
        addParameters { $0 == nil || $0 == .target }
    }

    func addTermStarts() {
        for verb in TweenSyntax.Verb.allCases { add(verb.rawValue, 14, "tween") }
        for keyword in ["wait", "emit", "zero", "one"] { add(keyword, 14, "animation") }
        addLets { !isValue($0) && !isEasing($0) }
        addParameters { $0 == nil || $0 == .animation }
    }

    switch context.place {
    case .lineStart:
        add("let", 14, "bind a name")
        add("view", 14, "declare a view")
        addTermStarts()   // or a line of a `let` that goes on
    case .easing:
        for name in EasingNames.allNames { add(name, 20, "easing") }
        for name in EasingNames.functionalForms { add(name, 20, "easing") }
        for (word, _) in EasingNames.springAdjectives { add(word + " spring", 20, "easing") }
        addLets(isEasing)
        addParameters { $0 == nil || $0 == .easing }
    case .property(let view):
        var properties: [String] = []
        for (property, _) in analysis.resolved.initial where property.view == view { properties.append(property.name) }
        for name in analysis.program.bindings.map(\.name) {
            for property in analysis.properties(of: name) where property.view == view { properties.append(property.name) }
        }
        for property in properties.sorted() { add(property, 10, "property of \(view)") }
        for property in Drawing.properties.sorted() { add(property, 10, "property (drawn)") }
    case .target:
        addViews()
    case .value:
        addLets(isValue)
        addParameters { kind in kind != .target && kind != .animation && kind != .easing }
    case .term:
        addTermStarts()
    case .staggerOrigin:
        for origin in ["start", "end", "center", "edges"] { add(origin, 14, "stagger origin") }
    case .afterTerm:
        for modifier in ["reversed", "looped", "repeated", "delayed by", "staggered by", "staggered over", "overlapping by", "in", "with",
                         "forever", "played from", "played to"] {
            add(modifier, 14, "modifier")
        }
        // After `staggered by DUR`: where it starts and how it spreads (semantics §8.3).
        if context.afterStagger {
            for word in ["from start", "from end", "from center", "from edges", "spaced"] { add(word, 14, "stagger") }
        }
    case .partBound:
        // `x played from T1 to T2`, `played from T1`, `played to T2` (a duration or N% of x).
        add("from", 14, "where the part starts")
        add("to", 14, "where the part ends")
        addLets { !isValue($0) && !isEasing($0) }
    }
    return .object([("isIncomplete", .bool(false)), ("items", .array(items))])
}

/// Where the cursor is, read from the words before it on its line.
struct CompletionContext {
    enum Place: Equatable {
        case lineStart, easing, property(String), target, value, term, afterTerm, staggerOrigin
        /// Just after `played`: `from` or `to`.
        case partBound
    }
    let place: Place
    /// Whether the line's last modifier is `staggered` (its `from` and `spaced` may follow).
    var afterStagger = false

    init(bytes: [UInt8], offset: Int) {
        let end = min(max(offset, 0), bytes.count)
        var lineStart = end
        while lineStart > 0, bytes[lineStart - 1] != 10, end - lineStart < 4096 { lineStart -= 1 }
        // The line before the cursor, without the word being typed.
        var line = Array(bytes[lineStart..<end])
        while let last = line.last, CompletionContext.isName(last) { line.removeLast() }
        if line.last == UInt8(ascii: ".") {
            var view = line.dropLast()
            var start = view.endIndex
            while start > view.startIndex, CompletionContext.isName(view[start - 1]) { start -= 1 }
            view = view[start...]
            place = view.isEmpty ? .term : .property(String(decoding: view, as: UTF8.self))
            return
        }
        let words = CompletionContext.words(line)
        guard let last = words.last else {
            place = .lineStart
            return
        }
        let previous = words.count > 1 ? words[words.count - 2] : ""
        let modifiers = words.filter { ["reversed", "looped", "repeated", "delayed", "staggered", "in", "with", "overlapping"].contains($0) }
        afterStagger = modifiers.last == "staggered"
        switch last {
        case "with", "spaced": place = .easing
        case "each" where previous == "with": place = .easing
        case "from" where afterStagger: place = .staggerOrigin
        case "over" where previous == "staggered": place = .value
        case "a", "an", "high": place = previous == "with" || previous == "a" || previous == "an" ? .easing : .afterTerm
        case "from", "to", "by", "through", "wait", "at", "in":
            place = last == "in" && previous == "fade" ? .target : .value
        case "=", ";", "||", "+", "*", "(", ",", "^":
            if last == "," && CompletionContext.isTargetList(words) { place = .target } else { place = .term }
        case "and":
            place = CompletionContext.isTargetList(words) ? .target : .term
        case "let", "view":
            place = .afterTerm   // a new name: nothing to offer but what follows
        case "played":
            place = .partBound
        default:
            if TweenSyntax.Verb(rawValue: last) != nil || last == "out" && previous == "fade" {
                place = .target
            } else {
                place = .afterTerm
            }
        }
    }

    /// The parameters of the `let NAME(…)` the cursor's line belongs to
    /// (the last line before it that starts with `let`), as written.
    static func writtenParameters(bytes: [UInt8], offset: Int) -> [String] {
        var lineStart = min(max(offset, 0), bytes.count)
        var lines = 0
        while lines < 200 {
            while lineStart > 0, bytes[lineStart - 1] != 10 { lineStart -= 1 }
            if bytes[lineStart...].starts(with: "let ".utf8) { break }
            guard lineStart > 0 else { return [] }
            lineStart -= 1
            lines += 1
        }
        var lineEnd = lineStart
        while lineEnd < bytes.count, bytes[lineEnd] != 10 { lineEnd += 1 }
        let words = CompletionContext.words(Array(bytes[lineStart..<lineEnd]))
        guard words.count > 3, words[2] == "(" else { return [] }
        var names: [String] = []
        for index in 3..<words.count {
            if words[index] == ")" { break }
            if words[index - 1] == "(" || words[index - 1] == "," { names.append(words[index]) }
        }
        return names
    }

    static func isName(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte >= 0x80
    }

    /// Whether the words end inside a tween's list of targets (a verb, then names, `and` and `,`).
    static func isTargetList(_ words: [String]) -> Bool {
        for word in words.reversed() {
            if TweenSyntax.Verb(rawValue: word) != nil || word == "in" || word == "out" { return true }
            if word == "and" || word == "," || word.first.map({ $0.isLetter }) == true && !keywords.contains(word) { continue }
            return false
        }
        return false
    }

    static let keywords: Set<String> = ["let", "view", "from", "to", "by", "with", "through", "in", "wait", "emit", "reversed",
                                        "looped", "repeated", "delayed", "staggered", "forever", "at", "times", "played"]

    /// The words and operators of a line (comments dropped).
    static func words(_ line: [UInt8]) -> [String] {
        var words: [String] = []
        var index = 0
        while index < line.count {
            let byte = line[index]
            if byte == UInt8(ascii: "#") || (byte == UInt8(ascii: "/") && index + 1 < line.count && line[index + 1] == UInt8(ascii: "/")) {
                // A comment ends the line (a `#` colour is a word of its own: close enough here).
                if byte == UInt8(ascii: "/") { break }
                var end = index + 1
                while end < line.count, isName(line[end]) { end += 1 }
                if end - index - 1 == 3 || end - index - 1 == 6 || end - index - 1 == 4 || end - index - 1 == 8 {
                    words.append(String(decoding: line[index..<end], as: UTF8.self))
                    index = end
                    continue
                }
                break
            }
            if isName(byte) {
                var end = index
                while end < line.count, isName(line[end]) { end += 1 }
                words.append(String(decoding: line[index..<end], as: UTF8.self))
                index = end
            } else if byte == UInt8(ascii: "|"), index + 1 < line.count, line[index + 1] == UInt8(ascii: "|") {
                words.append("||")
                index += 2
            } else if byte == 32 || byte == 9 || byte == 13 {
                index += 1
            } else {
                words.append(String(UnicodeScalar(byte)))
                index += 1
            }
        }
        return words
    }
}
