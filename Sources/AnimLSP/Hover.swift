import AnimJSON
import AnimLang
import Animations

/// `textDocument/hover`, as Markdown: for a `let`, its kind, its duration
/// as `animc timeline` writes it, the properties it animates and (for a
/// parameterised one, also where it is called) its parameters; for a
/// parameter, its kind as the body uses it; for a view, its declared
/// initial values; for an easing name, its formula family and its curve
/// sampled in text. `null` elsewhere.
func hover(_ analysis: Analysis, _ document: OpenDocument, at offset: Int) -> JSON {
    let text: String
    let range: SourceRange
    if let (symbol, symbolRange) = analysis.symbol(at: offset) {
        range = symbolRange
        switch symbol {
        case .binding(let name):
            guard let binding = analysis.binding(named: name) else { return .null }
            text = bindingHover(binding, analysis)
        case .parameter(let bindingName, let name):
            text = parameterHover(name, of: bindingName, analysis)
        case .view(let name):
            text = viewHover(name, analysis)
        }
    } else if let (word, wordRange) = word(at: offset, in: analysis.file.bytes), let easing = EasingNames.easing(named: word) {
        range = wordRange
        text = easingHover(word, easing)
    } else if let (word, wordRange) = word(at: offset, in: analysis.file.bytes), word == "played",
              let part = partHover(analysis, at: offset) {
        range = wordRange
        text = part
    } else if let (word, wordRange) = word(at: offset, in: analysis.file.bytes), let words = keywordHovers[word] {
        range = wordRange
        text = "```anim\n\(word)\n```\n\(words)"
    } else {
        return .null
    }
    return .object([("contents", .object([("kind", .string("markdown")), ("value", .string(text))])),
                    ("range", document.range(range))])
}

/// `played` (docs/semantics.md §8.5): what it means, and how long the part lasts
/// when that is known (the binding is the part, or its times are written
/// as durations, or as percentages of a named animation).
func partHover(_ analysis: Analysis, at offset: Int) -> String? {
    guard let binding = analysis.enclosingBinding(at: offset) else { return nil }
    // The innermost `played` whose words hold the cursor.
    var found: (Expr, PartTime?, PartTime?, Expr)?
    var stack: [(Expr, Int)] = [(binding.value, 0)]
    while let (expr, depth) = stack.popLast(), depth < 256 {
        if case .played(let operand, let from, let to) = expr.kind, expr.modifier.start <= offset, offset <= expr.modifier.end {
            found = (expr, from, to, operand)
        }
        stack += expr.subexpressions.map { ($0, depth + 1) }
    }
    guard let (expr, from, to, operand) = found else { return nil }
    let source = analysis.file
    var lines = ["```anim\n\(source.text(expr.modifier))\n```",
                 "a part of the animation before it: its stretch from `T1` to `T2`, played from 0; it lasts `T2 − T1`"]
    // Its length: the binding's own part, or times that say it.
    var length: Time?
    if expr.range == binding.value.range, let term = analysis.terms[binding.name], case .played(_, let a, let b) = term.kind {
        length = try? b.subtracting(a)
    } else {
        var whole: Time?
        if case .name(let name) = operand.kind { whole = analysis.terms[name]?.duration }
        func seconds(_ time: PartTime?, _ otherwise: Time?) -> Time? {
            switch time?.kind {
            case .duration(let duration)?: return duration.number.formula == nil ? duration.time : nil
            case .percent(let number)?:
                guard let exact = number.exact, let whole, let fraction = try? exact.divided(by: Time(100)) else { return nil }
                return try? whole.multiplied(by: fraction)
            case nil: return otherwise
            }
        }
        if let start = seconds(from, .zero), let end = seconds(to, whole) { length = try? end.subtracting(start) }
    }
    if let length { lines.append("lasts \(length)s") }
    return lines.joined(separator: "\n\n")
}

/// The name (letters, digits, `_`, `-`) around `offset`, with its range.
func word(at offset: Int, in bytes: [UInt8]) -> (String, SourceRange)? {
    func isName(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
    guard offset >= 0, offset <= bytes.count else { return nil }
    var start = offset, end = offset
    while start > 0, offset - start < 256, isName(bytes[start - 1]) { start -= 1 }
    while end < bytes.count, end - offset < 256, isName(bytes[end]) { end += 1 }
    guard start < end else { return nil }
    return (String(decoding: bytes[start..<end], as: UTF8.self), SourceRange(start, end))
}

func bindingHover(_ binding: Binding, _ analysis: Analysis) -> String {
    var signature = "let \(binding.name)"
    if let parameters = binding.parameters {
        signature += "(" + parameters.map { parameter in
            parameter.defaultValue.map { "\(parameter.name) = \(analysis.file.text($0.range))" } ?? parameter.name
        }.joined(separator: ", ") + ")"
    }
    var lines = ["```anim\n\(signature)\n```", analysis.kind(of: binding)]
    if case .value(let value) = binding.value.kind {
        lines[1] += ": `\(clipped(analysis.file.text(binding.value.range)))`"
        if case .easing(let easing, _) = value { lines.append("\(family(of: easing))\n\n```\n\(curveText(easing))\n```") }
    } else if let duration = analysis.durationText(of: binding.name) {
        lines.append("duration: \(duration)")
    }
    let properties = analysis.properties(of: binding.name)
    if !properties.isEmpty {
        let shown = properties.prefix(12).map { "`\($0)`" }.joined(separator: ", ")
        lines.append("animates: " + shown + (properties.count > 12 ? " and \(properties.count - 12) more" : ""))
    }
    if let parameters = binding.parameters, !parameters.isEmpty {
        let kinds = analysis.resolved.parameterKinds[binding.name] ?? []
        lines.append("parameters:\n" + parameters.enumerated().map { index, parameter in
            let kind = index < kinds.count ? kinds[index]?.article ?? "unused" : "unused"
            let fallback = parameter.defaultValue.map { ", default `\(analysis.file.text($0.range))`" } ?? ""
            return "- `\(parameter.name)`: \(kind)\(fallback)"
        }.joined(separator: "\n"))
    }
    return lines.joined(separator: "\n\n")
}

func parameterHover(_ name: String, of bindingName: String, _ analysis: Analysis) -> String {
    guard let binding = analysis.binding(named: bindingName), let parameters = binding.parameters,
          let index = parameters.firstIndex(where: { $0.name == name }) else { return "parameter `\(name)`" }
    let kinds = analysis.resolved.parameterKinds[bindingName] ?? []
    let kind = index < kinds.count ? kinds[index]?.article ?? "unused" : "unused"
    var text = "```anim\n\(name)\n```\nparameter \(index + 1) of `\(bindingName)`: \(kind)"
    if let value = parameters[index].defaultValue { text += ", default `\(analysis.file.text(value.range))`" }
    return text
}

func viewHover(_ name: String, _ analysis: Analysis) -> String {
    var lines = ["```anim\nview \(name)\n```"]
    let declared = analysis.program.views.filter { $0.name == name }
    let initials = declared.flatMap(\.initials)
    if initials.isEmpty {
        lines.append(declared.isEmpty ? "named by tweens; no declared initial values" : "no declared initial values")
    } else {
        lines.append("initial values:\n" + initials.map { "- `\($0.property)`: `\(analysis.file.text($0.value.range))`" }
            .joined(separator: "\n"))
    }
    if let home = declared.compactMap(\.home).first { lines.append("at `\(analysis.file.text(home.range))`") }
    if let origin = declared.compactMap(\.origin).first { lines.append("origin `\(analysis.file.text(origin.range))`") }
    return lines.joined(separator: "\n\n")
}

/// What the words of timelines (docs/semantics.md §8) mean, for hover.
let keywordHovers: [String: String] = [
    "overlapping": "`pk overlapping by D` in a `;` chain: the part starts D before the end of the parts before it, "
        + "`S || (wait (|S| − D) ; pk)`, lasting max(|S|, |S| − D + |pk|)",
    "staggered": "`x staggered by DUR` shifts each view's tweens DUR after the one before; `staggered over TOTAL` spreads them over TOTAL; "
        + "then `from start|end|center|edges` and `spaced E`",
    "spaced": "`staggered … spaced E`: the offsets follow the easing E, `E((d − dmin)/r)`",
    "each": "`through v0, v1, … with each E`: E eases every piece that has no `with` of its own",
    "edges": "`staggered … from edges`: the outer views start first, the middle ones last",
    "center": "`staggered … from center`: the middle view starts first, the outer ones last (also `origin center` of a view)",
]

func easingHover(_ name: String, _ easing: Easing) -> String {
    "```anim\n\(name)\n```\n\(family(of: easing))\n\n```\n\(curveText(easing))\n```"
}

/// The formula family of an easing, in words.
func family(of easing: Easing) -> String {
    switch easing.kind {
    case .linear: return "linear: p ↦ p"
    case .easeIn(let c): return "the talk's ease-in: p ↦ 1 − (1 − p)^(1/c), c = \(short(c))"
    case .easeOut(let c): return "the talk's ease-out: p ↦ 1 − (1 − p)^c, c = \(short(c))"
    case .easeInOut(let c): return "the talk's ease-in-out: p ↦ g(p) / (g(p) + g(1 − p)), g(x) = e^(−c/x), c = \(short(c))"
    case .cubicBezier(let x1, let y1, let x2, let y2): return "cubic Bézier (CSS): control points (\(x1), \(y1)) and (\(x2), \(y2))"
    case .steps(let count, let position): return "steps: \(count) jump\(count == 1 ? "" : "s"), \(position.rawValue)"
    case .penner(let curve, let mode):
        let shape: String
        switch mode {
        case .in: shape = "f(p)"
        case .out: shape = "1 − f(1 − p)"
        case .inOut:
            // Back and elastic change their constants for in-out (a smaller overshoot, a longer period).
            shape = "f(2p)/2, then 1 − f(2 − 2p)/2" + (curve == .back || curve == .elastic ? " (with constants of its own)" : "")
        }
        return "Penner's \(curve.rawValue) curve, ease-\(mode.rawValue): p ↦ \(shape), f(p) = \(pennerFormula(curve))"
    case .spring: return "a damped spring (it may overshoot 1 before it settles)"
    case .composed: return "a composition of easings"
    case .mirror: return "a mirrored easing: p ↦ 1 − E(1 − p)"
    case .piecewise: return "piecewise linear (CSS linear())"
    }
}

/// The ease-in form of a Penner curve (Robert Penner's easing equations, as easings.net writes them).
private func pennerFormula(_ curve: Easing.PennerCurve) -> String {
    switch curve {
    case .quad: return "p²"
    case .cubic: return "p³"
    case .quart: return "p⁴"
    case .quint: return "p⁵"
    case .sine: return "1 − cos(πp/2)"
    case .expo: return "2^(10p − 10)"
    case .circ: return "1 − √(1 − p²)"
    case .back: return "2.70158p³ − 1.70158p² (it pulls back first)"
    case .elastic: return "−2^(10p − 10)·sin((10p − 10.75)·2π/3) (it oscillates)"
    case .bounce: return "1 − bounce-out(1 − p) (it bounces)"
    }
}

/// The curve sampled at 24 points from p = 0 to 1, one block character per
/// sample, scaled from its least to its greatest value (written after it).
func curveText(_ easing: Easing) -> String {
    let count = 24
    let samples = (0..<count).map { easing(Double($0) / Double(count - 1)) }.map { $0.isFinite ? $0 : 0 }
    let low = min(0, samples.min() ?? 0), high = max(1, samples.max() ?? 1)
    let blocks = Array("▁▂▃▄▅▆▇█")
    let line = samples.map { value -> Character in
        let level = Int(((value - low) / (high - low) * Double(blocks.count - 1)).rounded())
        return blocks[min(max(level, 0), blocks.count - 1)]
    }
    return String(line) + "  (0 to 1" + (low < 0 || high > 1 ? ", from \(short(low)) to \(short(high))" : "") + ")"
}

private func short(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    if let whole = Int(exactly: rounded) { return String(whole) }
    return String(rounded)
}

private func clipped(_ text: String) -> String {
    text.count > 80 ? String(text.prefix(77)) + "…" : text
}
