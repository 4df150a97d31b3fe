import Animations

/// Prints a program as `.anim` source: `view` declarations first, then the
/// `let` bindings, each item separated by a blank line.
///
/// ```swift
/// let program = parse(SourceFile(name: "a.anim", text: "let a = (x + y) * z looped once")).program
/// format(program)   // "let a = (x || y) ; z looped\n"
/// ```
///
/// The output uses one spelling per construct (`||`, `;`, `^`, `reversed`,
/// `looped`, `looped N times`, `repeated N times`, `delayed by D`, `in D`,
/// `with E`, `zero`, `one`, `wait D`), the fewest parentheses that keep the
/// meaning, and seconds for every exact duration. It parses back to the same
/// tree: `parse(format(p)).program == p` for every program whose views come
/// before its bindings, and `format` of that is the same text again.
/// Bindings longer than 80 columns break their `||` and `;` chains over
/// several lines, one operand per line with the operator first.
public func format(_ program: Program) -> String {
    let printer = Printer()
    let items = program.views.map(printer.view) + program.bindings.map(printer.binding)
    return items.isEmpty ? "" : items.joined(separator: "\n\n") + "\n"
}

/// Prints one expression as `.anim` source (see ``format(_:)-(Program)``),
/// breaking it over lines when it is longer than 80 columns.
///
/// ```swift
/// format(Expr(.sequence([Expr(.name("a")), Expr(.parallel([Expr(.name("b")), Expr(.name("c"))]))])))
/// // "a ; (b || c)"
/// ```
public func format(_ expr: Expr) -> String {
    Printer().layout(expr, indent: 0, column: 0, depth: 1)
}

/// Prints an expression as an indented tree, one node per line, two spaces per
/// level (for `animc normalize --tree`):
///
/// ```
/// sequence
///   parallel
///     tween animate circle.radius 100 → 10
///   wait 1s
/// ```
public func formatTree(_ expr: Expr) -> String {
    var out = ""
    Printer().tree(expr, level: 0, into: &out)
    return out
}

// MARK: - Printer

/// How tightly a form binds, loosest first.
private enum Precedence: Int, Comparable {
    case parallel, sequence, power, postfix, primary

    static func < (lhs: Precedence, rhs: Precedence) -> Bool { lhs.rawValue < rhs.rawValue }
}

private struct Printer {
    /// Lines longer than this are broken where they can be.
    let width = 80

    // MARK: Items

    func view(_ view: ViewDeclaration) -> String {
        var out = "view \(view.name)"
        if let home = view.home { out += " at \(value(home))" }
        switch view.origin {
        case .word(let word, _)?: out += " origin \(word)"
        case .value(let fractions)?: out += " origin \(value(fractions))"
        case nil: break
        }
        for initial in view.initials {
            out += " \(initial.property) \(value(initial.value))"
        }
        return out
    }

    func binding(_ binding: Binding) -> String {
        let parameters = binding.parameters.map { list in
            "(" + list.map { $0.name + ($0.defaultValue.map { " = " + flat($0, depth: 1) } ?? "") }.joined(separator: ", ") + ")"
        }
        let head = "let \(binding.name)\(parameters ?? "") ="
        let value = measure(binding.value)
        if fits(value, room: width - head.utf8.count - 1) { return head + " " + flat(value) }
        if fits(value, room: width - 2) { return head + "\n  " + flat(value) }
        var out = head + "\n  "
        layout(value, indent: 2, column: 2, depth: 1, into: &out)
        return out
    }

    // MARK: Measuring

    /// `expr` with the length of its one-line form and the text of its
    /// leaves and suffixes, each computed once: laying it out then decides
    /// what fits on a line without writing anything twice.
    final class Measured {
        enum Form {
            /// A name, a tween, a wait, …: its whole one-line text.
            case leaf(String)
            case call(String, [Measured])
            /// `||` or `;` (`parent`), written with `separator` on one line.
            case chain([Measured], separator: String, parent: Precedence, empty: String)
            /// A postfix form or a power: the operand, then `suffix`.
            case unary(Measured, suffix: String)
        }

        let form: Form
        /// The length in bytes of the one-line form.
        let width: Int
        /// How tightly its one-line form binds: an operand that binds no
        /// tighter than its chain (or a power's operand no tighter than `^`)
        /// is parenthesized. A chain of one operand binds as that operand.
        let precedence: Precedence

        init(_ form: Form, width: Int, precedence: Precedence) {
            self.form = form
            self.width = width
            self.precedence = precedence
        }
    }

    func measure(_ expr: Expr) -> Measured {
        func leaf(_ text: String) -> Measured { Measured(.leaf(text), width: text.utf8.count, precedence: .primary) }
        switch expr.kind {
        case .name(let name): return leaf(name)
        case .zero: return leaf("zero")
        case .one: return leaf("one")
        case .wait(let duration): return leaf("wait " + self.duration(duration))
        case .tween(let tween): return leaf(self.tween(tween))
        case .emit(let name): return leaf("emit " + name)
        case .value(let value): return leaf(self.value(value))
        case .call(let name, let arguments):
            let measured = arguments.map(measure)
            let width = measured.reduce(name.utf8.count + 2 + 2 * max(0, measured.count - 1)) { $0 + $1.width }
            return Measured(.call(name, measured), width: width, precedence: .primary)
        case .parallel(let operands):
            return chain(operands.map(measure), separator: " || ", parent: .parallel, empty: "zero")
        case .sequence(let operands):
            return chain(operands.map(measure), separator: " ; ", parent: .sequence, empty: "one")
        case .power(let operand, _), .reversed(let operand), .looped(let operand, _), .repeated(let operand, _),
             .delayed(let operand, _), .retimed(let operand, _), .eased(let operand, _, _), .staggered(let operand, _, _),
             .forever(let operand, _), .easedByName(let operand, _, _), .overlapping(let operand, _),
             .played(let operand, _, _):
            var measured = measure(operand)
            if case .overlapping = expr.kind, case .name(let name) = operand.kind, TweenSyntax.Verb(rawValue: name) != nil {
                // `(rotate) overlapping by D`: a verb before a name would start a tween.
                measured = Measured(.leaf(name), width: name.utf8.count, precedence: .parallel)
            }
            let suffix = self.suffix(expr)
            let parentheses = measured.precedence <= .power ? 2 : 0
            let precedence: Precedence
            // (`overlapping by` closes a part of a `;` chain, which binds no tighter than `^`.)
            switch expr.kind {
            case .power, .overlapping: precedence = .power
            default: precedence = .postfix
            }
            return Measured(.unary(measured, suffix: suffix), width: measured.width + parentheses + suffix.utf8.count,
                            precedence: precedence)
        }
    }

    /// A chain of `||` or `;`: one operand prints as that operand (none as `empty`).
    func chain(_ operands: [Measured], separator: String, parent: Precedence, empty: String) -> Measured {
        let width: Int, precedence: Precedence
        switch operands.count {
        case 0:
            width = empty.utf8.count
            precedence = .primary
        case 1:
            width = operands[0].width
            precedence = operands[0].precedence
        default:
            width = operands.reduce(separator.utf8.count * (operands.count - 1)) { sum, operand in
                sum + operand.width + (operand.precedence <= parent ? 2 : 0)
            }
            precedence = parent
        }
        return Measured(.chain(operands, separator: separator, parent: parent, empty: empty), width: width, precedence: precedence)
    }

    // MARK: Layout

    /// `expr` starting at `column` on a line indented by `indent`; a chain
    /// that does not fit puts each further operand on its own line at `indent`.
    func layout(_ expr: Expr, indent: Int, column: Int, depth: Int) -> String {
        var out = ""
        layout(measure(expr), indent: indent, column: column, depth: depth, into: &out)
        return out
    }

    /// ``layout(_:indent:column:depth:)`` appended to `out`: one buffer for
    /// the whole binding, so a deep expression is not copied at every level.
    func layout(_ expr: Measured, indent: Int, column: Int, depth: Int, into out: inout String) {
        // Past the parser's nesting a layout would indent without end: one line.
        if depth > maxExpressionNesting || fits(expr, room: width - column) {
            writeFlat(expr, into: &out)
            return
        }
        switch expr.form {
        case .chain(let operands, _, let parent, _) where operands.count > 1:
            chain(operands, separator: parent == .parallel ? "||" : ";", parent: parent, indent: indent, column: column,
                  depth: depth, into: &out)
        case .unary(let operand, let suffix):
            if operand.precedence <= .power {
                block(operand, indent: indent, depth: depth + 1, into: &out)
            } else {
                layout(operand, indent: indent, column: column, depth: depth + 1, into: &out)
            }
            out += suffix
        case .leaf, .call, .chain:
            writeFlat(expr, into: &out)
        }
    }

    /// One operand per line, each after the first led by its operator. An
    /// operand that is itself a chain too long for its line becomes a block.
    func chain(_ operands: [Measured], separator: String, parent: Precedence, indent: Int, column: Int, depth: Int,
               into out: inout String) {
        for (index, operand) in operands.enumerated() {
            let start = index == 0 ? column : indent + separator.utf8.count + 1
            if index > 0 {
                newline(indent: indent, into: &out)
                out += separator
                out += " "
            }
            let parenthesized = operand.precedence <= parent
            if fits(operand, room: width - start - (parenthesized ? 2 : 0)) {
                if parenthesized { out += "(" }
                writeFlat(operand, into: &out)
                if parenthesized { out += ")" }
                continue
            }
            if operand.precedence <= .sequence {
                block(operand, indent: indent, depth: depth + 1, into: &out)
            } else {
                layout(operand, indent: indent, column: start, depth: depth + 1, into: &out)
            }
        }
    }

    /// `(`, the expression on the following lines indented two more spaces, then `)` on a line of its own.
    func block(_ expr: Measured, indent: Int, depth: Int, into out: inout String) {
        out += "("
        newline(indent: indent + 2, into: &out)
        layout(expr, indent: indent + 2, column: indent + 2, depth: depth, into: &out)
        newline(indent: indent, into: &out)
        out += ")"
    }

    /// Whether the one-line form of `expr` takes at most `room` bytes.
    func fits(_ expr: Measured, room: Int) -> Bool {
        room > 0 && expr.width <= room
    }

    // MARK: One line

    func flat(_ expr: Expr, depth: Int) -> String {
        flat(measure(expr))
    }

    func flat(_ expr: Measured) -> String {
        var out = ""
        writeFlat(expr, into: &out)
        return out
    }

    /// Appends the one-line form of `expr`.
    func writeFlat(_ expr: Measured, into out: inout String) {
        switch expr.form {
        case .leaf(let text):
            out += text
        case .call(let name, let arguments):
            out += name + "("
            for (index, argument) in arguments.enumerated() {
                if index > 0 { out += ", " }
                writeFlat(argument, into: &out)
            }
            out += ")"
        case .chain(let operands, let separator, let parent, let empty):
            guard operands.count > 1 else {
                if let only = operands.first { writeFlat(only, into: &out) } else { out += empty }
                return
            }
            for (index, operand) in operands.enumerated() {
                if index > 0 { out += separator }
                let parenthesized = operand.precedence <= parent
                if parenthesized { out += "(" }
                writeFlat(operand, into: &out)
                if parenthesized { out += ")" }
            }
        case .unary(let operand, let suffix):
            let parenthesized = operand.precedence <= .power
            if parenthesized { out += "(" }
            writeFlat(operand, into: &out)
            if parenthesized { out += ")" }
            out += suffix
        }
    }

    /// What a unary form writes after its operand.
    func suffix(_ expr: Expr) -> String {
        switch expr.kind {
        case .power(_, let count): return " ^ " + number(count.number)
        case .reversed: return " reversed"
        case .looped(_, let count): return count == Count(1) ? " looped" : " looped \(number(count.number)) times"
        case .repeated(_, let count): return " repeated \(number(count.number)) times"
        case .delayed(_, let duration): return " delayed by " + self.duration(duration)
        case .retimed(_, let duration): return " in " + self.duration(duration)
        case .eased(_, let easing, _): return " with \(EasingNames.spelling(of: easing))"
        case .staggered(_, let duration, let how):
            var text = (how.over ? " staggered over " : " staggered by ") + self.duration(duration)
            if how.origin == .end, how.backwards { text += " backwards" } else if how.origin != .start { text += " from " + how.origin.rawValue }
            if let name = how.spacingName { text += " spaced " + name } else if let easing = how.spacing { text += " spaced " + EasingNames.spelling(of: easing) }
            return text
        case .forever(_, let looped): return looped ? " looped forever" : " repeated forever"
        case .easedByName(_, let name, _): return " with \(name)"
        case .overlapping(_, let duration): return " overlapping by " + self.duration(duration)
        case .played(_, let from, let to):
            var text = " played"
            if let from { text += " from " + partTime(from) }
            if let to { text += " to " + partTime(to) }
            return text
        case .name, .zero, .one, .wait, .tween, .emit, .parallel, .sequence, .call, .value: return ""
        }
    }

    /// A time of `played`: a duration, or `N%`.
    func partTime(_ time: PartTime) -> String {
        switch time.kind {
        case .duration(let duration): return self.duration(duration)
        case .percent(let value): return number(value) + "%"
        }
    }

    /// The tween's text, appended piece by piece to one string (no
    /// intermediate strings concatenated).
    func tween(_ tween: TweenSyntax) -> String {
        var text = tween.verb.rawValue
        text += " "
        switch tween.target {
        case .view(let name, _): text += name
        case .allViews: text += "all views"
        }
        switch tween.verb {
        case .fadeIn, .fadeOut:
            break
        case .fade, .color, .move:
            appendValues(tween, property: nil, to: &text)
        case .shrink, .grow, .scale:
            appendValues(tween, property: tween.property, to: &text)
        case .rotate:
            appendValues(tween, property: nil, to: &text)
            if let unit = tween.angleUnit {
                text += " "
                text += unit.rawValue
            }
        case .animate:
            text += "."
            text += tween.resolvedProperty
            appendValues(tween, property: nil, to: &text)
        }
        return text
    }

    /// ` from A to B`, or ` through A, B at 40%, C`, with the property first when written.
    func appendValues(_ tween: TweenSyntax, property: String?, to text: inout String) {
        func named() {
            if let property {
                text += property
                text += " "
            }
        }
        if let keyframes = tween.keyframes {
            text += " through "
            named()
            for (index, keyframe) in keyframes.enumerated() {
                if index > 0 { text += ", " }
                text += value(keyframe.value)
                if let offset = keyframe.offset {
                    text += " at "
                    text += number(offset)
                    text += "%"
                }
                if index + 1 < keyframes.count, let name = keyframe.easingName {
                    text += " with "
                    text += name
                } else if index + 1 < keyframes.count, let easing = keyframe.easing {
                    text += " with "
                    text += EasingNames.spelling(of: easing)
                }
            }
            return
        }
        let zero = ValueSyntax.number(Number(Time(0)))
        if let by = tween.by {
            text += " by "
            named()
            text += value(by)
            return
        }
        if tween.from == nil, let to = tween.to {
            text += " to "
            named()
            text += value(to)
            return
        }
        text += " from "
        named()
        text += value(tween.from ?? zero)
        text += " to "
        text += value(tween.to ?? zero)
    }

    /// A number, a colour in its canonical spelling, or a point `(x, y)`.
    /// A value written out (a `let`'s right-hand side, an argument).
    func value(_ value: ValueExpr) -> String {
        switch value {
        case .plain(let plain): return self.value(plain)
        case .duration(let duration): return self.duration(duration)
        case .easing(let easing, _): return EasingNames.spelling(of: easing)
        case .allViews: return "all views"
        }
    }

    func value(_ value: ValueSyntax) -> String {
        switch value {
        case .number(let number): return self.number(number)
        case .color(let color): return ColorNames.spelling(of: color.color)
        case .point(let x, let y, _): return "(\(number(x)), \(number(y)))"
        }
    }

    // MARK: Numbers

    /// Exact numbers as decimals (`0.25`) or fractions (`1/3`), others in
    /// shortest round-trip form; always text that parses back to the same value.
    func number(_ value: Number) -> String {
        if let formula = value.formula { return self.formula(formula) }
        if let exact = value.exact ?? Time(seconds: value.value), let text = exactText(exact, matching: value.value) {
            return text
        }
        return formatNumber(value.value)
    }

    /// Every duration in seconds: exact ones exactly (`2s`, `0.5s`, `(1/3)s`:
    /// a unit belongs to the number just before it), others as the nearest
    /// `Double` number of seconds.
    func duration(_ duration: Duration) -> String {
        if duration.number.formula != nil {
            return number(duration.number) + (duration.unit == .implicit ? "" : " " + duration.unit.rawValue)
        }
        if let seconds = duration.exactSeconds, let text = exactText(seconds, matching: nil) {
            return text.contains("/") ? "(" + text + ")s" : text + "s"
        }
        if duration.unit == .milliseconds {
            return number(Number(exact: nil, value: duration.approximateSeconds)) + "s"
        }
        return number(duration.number) + "s"
    }

    /// A number written with names, every operation in parentheses (so `*`
    /// and `+` read as arithmetic wherever it stands).
    func formula(_ formula: Formula) -> String {
        switch formula {
        case .literal(let number): return self.number(number)
        case .name(let name, _): return name
        case .negated(let inner, _): return "-" + self.formula(inner)
        case .binary(let op, let left, let right, _): return "(" + self.formula(left) + " \(op.rawValue) " + self.formula(right) + ")"
        case .unit(let inner, let unit, _):
            switch inner {
            case .literal:
                let text = self.formula(inner)
                return (text.contains("/") || text.hasPrefix("-") ? "(" + text + ")" : text) + unit.rawValue
            case .binary: return self.formula(inner) + unit.rawValue
            case .name: return self.formula(inner) + " " + unit.rawValue
            case .negated, .unit: return "(" + self.formula(inner) + ")" + unit.rawValue
            }
        }
    }

    /// The decimal or fraction spelling of `value` that the parser reads back
    /// as exactly `value` and, when `double` is given, as that `Double`.
    func exactText(_ value: Time, matching double: Double?) -> String? {
        func reads(_ candidate: Double) -> Bool {
            double.map { $0.bitPattern == candidate.bitPattern } ?? true
        }
        if value.denominator == 1 {
            return reads(Double(value.numerator)) ? String(value.numerator) : nil
        }
        let quotient = Double(value.numerator) / Double(value.denominator)
        let limit: UInt64 = 1 << 53
        // Below 2^53 the quotient is correctly rounded, and so is the parser's reading of the decimal.
        let quotientIsExact = value.numerator.magnitude < limit && value.denominator.magnitude < limit
        if let (decimal, places) = finiteDecimal(value),
           places <= 18 || Time(decimal: decimal) == value,
           quotientIsExact ? reads(quotient) : Double(decimal).map(reads) ?? false {
            return decimal
        }
        return reads(quotient) ? "\(value.numerator)/\(value.denominator)" : nil
    }

    /// `value.decimalDescription` and its number of decimal places, when it has
    /// at most 27 (where that computation is sure to stay within 128 bits;
    /// longer decimals would not read back exactly anyway). Up to 18 places
    /// the digits fit in 128 bits, so the decimal reads back exactly.
    func finiteDecimal(_ value: Time) -> (String, Int)? {
        var twos = 0, fives = 0
        var rest = value.denominator
        while rest % 2 == 0 { rest /= 2; twos += 1 }
        while rest % 5 == 0 { rest /= 5; fives += 1 }
        let places = max(twos, fives)
        guard rest == 1, places <= 27, let decimal = value.decimalDescription else { return nil }
        return (decimal, places)
    }

    // MARK: Tree

    func tree(_ expr: Expr, level: Int, into out: inout String) {
        indentation(level * 2, into: &out)
        switch expr.kind {
        case .name(let name):
            out += "name \(name)\n"
        case .zero:
            out += "zero\n"
        case .one:
            out += "one\n"
        case .wait(let duration):
            out += "wait \(self.duration(duration))\n"
        case .tween(let tween):
            out += treeLabel(tween) + "\n"
        case .emit(let name):
            out += "emit \(name)\n"
        case .value(let value):
            out += "value \(self.value(value))\n"
        case .call(let name, let arguments):
            out += "call \(name)\n"
            for argument in arguments {
                tree(argument, level: level + 1, into: &out)
            }
        case .parallel(let operands), .sequence(let operands):
            if case .parallel = expr.kind { out += "parallel\n" } else { out += "sequence\n" }
            for operand in operands {
                tree(operand, level: level + 1, into: &out)
            }
        case .power(let operand, _), .reversed(let operand), .looped(let operand, _), .repeated(let operand, _),
             .delayed(let operand, _), .retimed(let operand, _), .eased(let operand, _, _), .staggered(let operand, _, _),
             .forever(let operand, _), .easedByName(let operand, _, _), .overlapping(let operand, _), .played(let operand, _, _):
            out += String(suffix(expr).dropFirst()) + "\n"
            tree(operand, level: level + 1, into: &out)
        }
    }

    /// `tween VERB VIEW.PROPERTY V0 → V1 [→ V2 …] [UNIT]`.
    func treeLabel(_ tween: TweenSyntax) -> String {
        let target: String
        switch tween.target {
        case .view(let name, _): target = name
        case .allViews: target = "all views"
        }
        let stops = (tween.stops ?? []).map { keyframe in
            value(keyframe.value) + (keyframe.offset.map { " at " + number($0) + "%" } ?? "")
                + (keyframe.easingName.map { " with " + $0 } ?? keyframe.easing.map { " with " + EasingNames.spelling(of: $0) } ?? "")
        }
        let unit = tween.angleUnit.map { " " + $0.rawValue } ?? ""
        return "tween \(tween.verb.rawValue) \(target).\(tween.resolvedProperty) \(stops.joined(separator: " → "))\(unit)"
    }

    // MARK: Helpers

    /// A line break, then `indent` spaces.
    func newline(indent: Int, into out: inout String) {
        out += "\n"
        indentation(indent, into: &out)
    }

    /// `count` spaces, appended in slices of one constant (not a new string per line).
    func indentation(_ count: Int, into out: inout String) {
        let blanks = "                                                                "
        var left = count
        while left > 0 {
            let slice = min(left, blanks.utf8.count)
            out += blanks[..<blanks.utf8.index(blanks.utf8.startIndex, offsetBy: slice)]
            left -= slice
        }
    }
}
