import Animations

/// Lowers the bindings of a resolved program into terms of the animation
/// algebra (``Term``), the one representation the evaluator folds, the
/// normalizer rewrites and the printer prints. Names become the bound term
/// (shared, not copied), `all views` becomes the parallel of every view,
/// and the sugar of the syntax becomes the operators it stands for:
/// `x looped n times` is `(x ; x reversed) ^ n`, `x delayed by d` is
/// `wait d ; x`, `x repeated n times` is `x ^ n`, rotations are in degrees.
///
/// ```swift
/// let resolved = resolve(parse(file).program)
/// let lowered = lower(resolved)
/// lowered.terms["final"]       // the term of `let final`
/// lowered.origin(of: term)     // where a term was written, for diagnostics
/// ```
///
/// Mistakes in values (a negative duration, a count that is not whole,
/// `all views` in a file that names no view) are reported here, located; a
/// binding with such a mistake, or using one, has no term.
public func lower(_ resolved: ResolvedProgram) -> Lowering {
    var lowerer = Lowerer(resolved: resolved)
    return lowerer.run()
}

/// The terms of a program's bindings, and where each term was written.
public struct Lowering: Sendable {
    /// The term of each binding that lowered without errors.
    public let terms: [String: Term]
    /// Where each of those bindings is written.
    let bindingRanges: [String: SourceRange]
    public let diagnostics: [Diagnostic]
    /// Where term nodes that the lowering built were written: each `x in
    /// DUR` and `x with E` (the nodes whose mistakes are located by their term).
    let origins: [ObjectIdentifier: Origin]
    /// Those nodes, kept alive so that no other term can take an
    /// identifier of one that a failed binding dropped.
    let located: [Term]
    /// Every tween leaf built, with the tween expression it came from (for
    /// warnings that point at tweens; a list, since a script has many and
    /// few warnings need them).
    let tweens: [(term: Term, range: SourceRange)]

    /// Where `term` was written, when this lowering built it.
    public func origin(of term: Term) -> Origin? {
        origins[ObjectIdentifier(term)]
    }
}

/// The source of a term node: the expression it came from, and for the
/// operators whose mistakes are in one argument, that argument.
public struct Origin: Sendable {
    public enum Construct: Sendable {
        case tween, wait, sequence, parallel, power, looped, reversed, delayed, staggered
        /// `x in DUR`: the duration's range is `detail`.
        case retimed
        /// `x with E`: the easing's range is `detail`.
        case eased
    }

    public var construct: Construct
    /// The whole expression.
    public var range: SourceRange
    /// The duration of `in`, the easing of `with`.
    public var detail: SourceRange?
    /// The length `in` asks for.
    public var target: Time?
    /// For `with`: whether it eases a keyframe tween (`through` with more
    /// than two values), whose pieces cannot take the easing one by one.
    public var easesKeyframes = false
}

private struct Lowerer {
    let resolved: ResolvedProgram
    var terms: [String: Term] = [:]
    var diagnostics: [Diagnostic] = []
    var origins: [ObjectIdentifier: Origin] = [:]
    var located: [Term] = []
    var tweens: [(term: Term, range: SourceRange)] = []
    /// The kind of value of each property, and where it was first given.
    var kinds: [Property: KindPlace] = [:]

    init(resolved: ResolvedProgram) {
        self.resolved = resolved
        for (property, value) in resolved.initial {
            kinds[property] = KindPlace(kind: value.kind, range: resolved.initialRanges[property] ?? .none)
        }
    }

    mutating func run() -> Lowering {
        var ranges: [String: SourceRange] = [:]
        for name in resolved.order {
            guard let binding = resolved.bindings[name] else { continue }
            if let term = lower(binding.value) {
                terms[name] = term
                ranges[name] = binding.range
            }
        }
        return Lowering(terms: terms, bindingRanges: ranges, diagnostics: diagnostics, origins: origins, located: located,
                        tweens: tweens)
    }

    /// The term of `expr`, or `nil` after reporting why not (or when it uses
    /// a binding that has no term).
    private mutating func lower(_ expr: Expr) -> Term? {
        switch expr.kind {
        case .name(let name):
            return terms[name]
        case .zero:
            return Term.zero
        case .one:
            return Term.one
        case .wait(let duration):
            guard let time = seconds(duration) else { return nil }
            return built(.wait, expr.range) { () throws(AnimationError) in try Term.wait(time) }
        case .tween(let tween):
            return lowerTween(tween, range: expr.range)
        case .parallel(let parts):
            guard let terms = lowerAll(parts) else { return nil }
            return record(Term.parallel(terms), .parallel, expr.range)
        case .sequence(let parts):
            guard let terms = lowerAll(parts) else { return nil }
            // `(x forever) ; y`: y never starts (unless a cancelled part cancels it all).
            if let endless = terms.firstIndex(where: \.isInfinite), endless + 1 < parts.count,
               !terms.contains(where: { $0.duration == nil && !$0.isInfinite }) {
                let rest = parts[endless + 1].range.union(parts[parts.count - 1].range)
                diagnostics.append(Diagnostic(.neverStarts, at: rest, hint: "to run it beside the endless part, use `||`"))
            }
            return built(.sequence, expr.range) { () throws(AnimationError) in try Term.sequence(terms) }
        case .power(let inner, let count), .repeated(let inner, let count):
            // The parser reported every count that is not valid.
            guard let body = lower(inner), let n = count.value else { return nil }
            return built(.power, expr.range) { () throws(AnimationError) in try Term.power(body, n) }
        case .looped(let inner, let count):
            guard let body = lower(inner), let n = count.value, finite(body, expr, "loop") else { return nil }
            let back = record(Term.reversed(body), .looped, expr.range)
            guard let there = built(.looped, expr.range, { () throws(AnimationError) in try Term.sequence([body, back]) }) else { return nil }
            return built(.looped, expr.range) { () throws(AnimationError) in try Term.power(there, n) }
        case .reversed(let inner):
            guard let body = lower(inner), finite(body, expr, "reverse") else { return nil }
            return record(Term.reversed(body), .reversed, expr.range)
        case .delayed(let inner, let duration):
            guard let body = lower(inner), let delay = seconds(duration) else { return nil }
            guard let wait = built(.delayed, expr.range, { () throws(AnimationError) in try Term.wait(delay) }) else { return nil }
            return built(.delayed, expr.range) { () throws(AnimationError) in try Term.sequence([wait, body]) }
        case .retimed(let inner, let duration):
            guard let body = lower(inner), let target = seconds(duration), finite(body, expr, "retime") else { return nil }
            // A tween lasts what `in` says: `tween in d` is the tween of length d.
            if case .tween(let tween) = body.kind, tween.duration.isPositive {
                return replacingLeaf(body, with: Term.tween(tween.with(duration: target)), range: expr.range)
            }
            guard let term = built(.retimed, expr.range, detail: duration.range, { () throws(AnimationError) in try Term.retimed(body, to: target) }) else {
                return nil
            }
            origins[ObjectIdentifier(term)]?.target = target
            return term
        case .emit(let name):
            return Term.event(name)
        case .staggered(let inner, let duration, let backwards):
            guard let body = lower(inner), let step = seconds(duration) else { return nil }
            if body.duration != nil || body.isInfinite, body.viewsWithSegments.isEmpty {
                diagnostics.append(Diagnostic(.staggerNothing, at: expr.modifier == .none ? expr.range : expr.modifier,
                                              hint: "`staggered by` shifts each view's tweens, one view after another; "
                                                + "this animation has none, so it stays as it is"))
            }
            let order = backwards ? resolved.mentionOrder.reversed() : resolved.mentionOrder
            return built(.staggered, expr.range) { () throws(AnimationError) in try body.staggered(by: step, order: order) }
        case .forever(let inner, let looped):
            guard let body = lower(inner) else { return nil }
            if body.duration?.isZero == true {
                diagnostics.append(Diagnostic(.animation(.foreverOfInstant), at: expr.modifier,
                                              hint: "it would repeat infinitely often in no time; give it something that takes time"))
                return nil
            }
            if looped {
                guard finite(body, expr, "loop") else { return nil }
                guard let there = built(.looped, expr.range, { () throws(AnimationError) in try Term.sequence([body, Term.reversed(body)]) })
                else { return nil }
                return Term.forever(there)
            }
            return Term.forever(body)
        case .eased(let inner, let easing, let easingRange):
            guard let body = lower(inner) else { return nil }
            guard finite(body, expr, "ease") else { return nil }
            let origin = Origin(construct: .eased, range: expr.range, detail: easingRange)
            // On a tween, `with E` composes E into the tween's own easing.
            if case .tween(let tween) = body.kind {
                let composed = tween.easing.composed(after: easing)
                guard composed.depth <= Easing.maxDepth else {
                    diagnostics.append(evaluationDiagnostic(.invalidEasing("easings compose more than \(Easing.maxDepth) deep"), origin: origin))
                    return nil
                }
                return replacingLeaf(body, with: Term.tween(tween.with(easing: composed)), range: expr.range)
            }
            let term = Term.eased(body, easing)
            origins[ObjectIdentifier(term)] = origin
            located.append(term)
            if case .tween(let tween) = inner.kind, (tween.keyframes?.count ?? 0) > 2 {
                origins[ObjectIdentifier(term)]?.easesKeyframes = true
            }
            return term
        }
    }

    /// Whether `body` ends; if not, reports that `operation` needs an end.
    private mutating func finite(_ body: Term, _ expr: Expr, _ operation: String) -> Bool {
        guard body.isInfinite else { return true }
        diagnostics.append(Diagnostic(.animation(.infinite(operation)), at: expr.modifier == .none ? expr.range : expr.modifier,
                                      hint: "apply it to the part that repeats, before `repeated forever`"))
        return false
    }

    private mutating func lowerAll(_ parts: [Expr]) -> [Term]? {
        var terms: [Term] = []
        terms.reserveCapacity(parts.count)
        var failed = false
        for part in parts {
            if let term = lower(part) { terms.append(term) } else { failed = true }
        }
        return failed ? nil : terms
    }

    /// Records where `term` was written, when evaluating it can fail: only
    /// `in` (stretching an instant, an inexact factor) and `with` (a
    /// non-monotone warp, easings composed too deep) can. Every other
    /// operation's failure (an overflowing duration) is found here, while
    /// building the term, and reported at once.
    private mutating func record(_ term: Term, _ construct: Origin.Construct, _ range: SourceRange, detail: SourceRange? = nil) -> Term {
        switch construct {
        case .retimed, .eased:
            origins[ObjectIdentifier(term)] = Origin(construct: construct, range: range, detail: detail)
            located.append(term)
        case .tween:
            if case .tween = term.kind { tweens.append((term, range)) }
        case .wait, .sequence, .parallel, .power, .looped, .reversed, .delayed, .staggered:
            break
        }
        return term
    }

    /// Records `leaf`, which `x in DUR` or `x with E` made of the tween leaf
    /// `body`, in place of `body` (recorded just before, and now dropped).
    private mutating func replacingLeaf(_ body: Term, with leaf: Term, range: SourceRange) -> Term {
        if let last = tweens.last, last.term === body { tweens.removeLast() }
        return record(leaf, .tween, range)
    }

    /// Builds a term, reporting a failure (overflow, a negative duration) at `range`.
    private mutating func built(_ construct: Origin.Construct, _ range: SourceRange, detail: SourceRange? = nil,
                                _ body: () throws(AnimationError) -> Term) -> Term? {
        do {
            return record(try body(), construct, range, detail: detail)
        } catch {
            diagnostics.append(evaluationDiagnostic(error, origin: Origin(construct: construct, range: range, detail: detail)))
            return nil
        }
    }

    /// A tween: one leaf per target view and property (`move` animates `x`
    /// and `y`), each the sequence of its keyframes' pieces (`from A to B` is
    /// one piece), lasting 1 s in all. (Read through ``TweenSyntax/stop(_:)``:
    /// most tweens are one piece on one view, and lowering them makes no array.)
    private mutating func lowerTween(_ tween: TweenSyntax, range: SourceRange) -> Term? {
        var single: String?
        var views: [String] = []
        switch tween.target {
        case .view(let name, _):
            single = name
        case .allViews(let targetRange):
            views = resolved.views
            if views.isEmpty {
                diagnostics.append(Diagnostic(.noViews, at: targetRange, hint: "declare one with `view NAME`, or name it in a tween"))
                return nil
            }
        }
        guard let count = tween.stopCount else {
            diagnostics.append(Diagnostic(.incompleteTween, at: range))
            return nil
        }
        // The parser reported `through` with one value.
        guard count >= 2, let kind = valueKind(of: tween, count: count), let lengths = pieceLengths(tween, count: count) else {
            return nil
        }
        // The channels it animates (`x` and `y` for points), and their value at each stop.
        let property = tween.resolvedProperty
        let channels = kind == .point ? 2 : 1
        let unit = tween.verb == .rotate ? tween.angleUnit : nil
        func value(_ stop: Int, channel: Int) -> Value {
            switch tween.stop(stop).value {
            case .number(let number): return .number(TweenSyntax.degrees(number.value, unit: unit))
            case .color(let color): return .color(color.color)
            case .point(let x, let y, _): return .number(channel == 0 ? x.value : y.value)
            }
        }
        // Finite as written, a number can overflow as an angle (`1e307 turns`).
        for stop in 0..<count {
            for channel in 0..<channels where !value(stop, channel: channel).isFinite {
                diagnostics.append(Diagnostic(.notFiniteTween, at: range))
                return nil
            }
        }
        let first = tween.stop(0).value.range
        // One term per view and channel: a leaf, or the sequence of the keyframes' pieces.
        func channelTerm(_ view: String, _ channel: Int) -> Term? {
            let name = kind == .point ? (channel == 0 ? "x" : "y") : property
            let property = Property(view: view, name: name)
            guard checkKind(value(0, channel: channel).kind, of: property, at: first) else { return nil }
            func piece(_ index: Int) -> Term? {
                built(.tween, range) { () throws(AnimationError) in
                    Term.tween(try Animations.Tween(property: property, from: value(index, channel: channel),
                                                    to: value(index + 1, channel: channel), duration: lengths[index]))
                }
            }
            if lengths.count == 1 { return piece(0) }
            var pieces: [Term] = []
            for index in 0..<lengths.count {
                guard let leaf = piece(index) else { return nil }
                pieces.append(leaf)
            }
            return built(.tween, range) { () throws(AnimationError) in try Term.sequence(pieces) }
        }
        if let single, channels == 1 { return channelTerm(single, 0) }
        var parts: [Term] = []
        for view in single.map({ [$0] }) ?? views {
            for channel in 0..<channels {
                guard let term = channelTerm(view, channel) else { return nil }
                parts.append(term)
            }
        }
        return record(Term.parallel(parts), .tween, range)
    }

    /// The kind of value a tween's stops hold, checked against its verb:
    /// numbers for `fade`, `scale`, `rotate` …, colours for `color`, points
    /// for `move`, numbers or colours (one kind) for `animate`.
    private mutating func valueKind(of tween: TweenSyntax, count: Int) -> ValueSyntaxKind? {
        // A property the exports draw as a number (a position, a size, an
        // angle, an opacity) takes numbers whatever the verb.
        let drawnNumber = Drawing.properties.subtracting(Drawing.colors).contains(tween.resolvedProperty)
        func accepts(_ kind: ValueSyntaxKind) -> Bool {
            switch tween.verb {
            case .shrink, .grow, .scale, .rotate, .fade, .fadeIn, .fadeOut: return kind == .number
            case .color: return kind == .color
            case .move: return kind == .point
            case .animate: return kind != .point
            }
        }
        var chosen: ValueSyntaxKind?
        for index in 0..<count {
            let stop = tween.stop(index)
            let kind = ValueSyntaxKind(stop.value)
            if let chosen, kind != chosen, accepts(kind) {
                diagnostics.append(Diagnostic(.valueKind(verb: tween.verb.rawValue, expected: "values of one kind", found: "\(chosen.article) and \(kind.article)"),
                                              at: stop.value.range,
                                              hint: "the values of one tween are all of one kind, and this one starts with \(chosen.article)"))
                return nil
            }
            guard accepts(kind) else {
                let wanted = [ValueSyntaxKind.number, .color, .point].filter(accepts).map(\.plural).joined(separator: " or ")
                diagnostics.append(Diagnostic(.valueKind(verb: tween.verb.rawValue, expected: wanted, found: kind.article),
                                              at: stop.value.range, hint: kind.hint(for: tween.verb)))
                return nil
            }
            if kind == .color, drawnNumber {
                let property = tween.resolvedProperty
                diagnostics.append(Diagnostic(.valueKind(verb: tween.verb.rawValue, expected: "numbers for `\(property)`", found: kind.article),
                                              at: stop.value.range, hint: "`\(property)` is drawn as a number; colours go on `color` or `fill`"))
                return nil
            }
            chosen = kind
        }
        return chosen
    }

    /// Checks that `property` keeps to one kind of value: the first place
    /// that gives it a value decides.
    private mutating func checkKind(_ kind: Value.Kind, of property: Property, at range: SourceRange) -> Bool {
        guard let place = kinds[property] else {
            kinds[property] = KindPlace(kind: kind, range: range)
            return true
        }
        let first = place.kind, firstRange = place.range
        guard first != kind else { return true }
        diagnostics.append(Diagnostic(.mixedValueKinds(property: property.description, here: kind.article, first: first.article),
                                      at: range, hint: "animate colours and numbers on properties of their own",
                                      notes: firstRange == .none ? [] : [.init(.firstGivenKind(first.article), at: firstRange)]))
        return false
    }

    /// The exact length of each piece between consecutive stops (1 s in
    /// all): offsets written `at N%`, the first at 0 % and the last at 100 %,
    /// and the missing ones spread evenly between their known neighbours
    /// (CSS's rule). Reports offsets that are out of range, on the ends, or
    /// decreasing.
    private mutating func pieceLengths(_ tween: TweenSyntax, count: Int) -> PieceLengths? {
        // Most tweens: `from A to B`, or keyframes without offsets.
        guard let stops = tween.keyframes, stops.contains(where: { $0.offset != nil }) else {
            guard let piece = Time(numerator: 1, denominator: Int64(count - 1)) else { return nil }
            return .equal(piece, count: count - 1)
        }
        var offsets: [Time?] = Array(repeating: nil, count: stops.count)
        var failed = false
        var previous: Number?
        let hundred = Time(100)
        for (index, stop) in stops.enumerated() {
            guard let written = stop.offset else { continue }
            let text = "\(formatNumber(written.value))%"
            let onEnd = index == 0 || index == stops.count - 1
            guard written.value >= 0, written.value <= 100 else {
                diagnostics.append(Diagnostic(.keyframeOffsetRange(written: text), at: written.range,
                                              hint: "offsets are percentages of the tween, from 0% to 100%"))
                failed = true
                continue
            }
            if onEnd, written.value != (index == 0 ? 0 : 100) {
                diagnostics.append(Diagnostic(.keyframeOffsetOnEnd(first: index == 0, written: text), at: written.range,
                                              hint: "remove `at \(text)`; to start later or end earlier, hold a value with another keyframe"))
                failed = true
                continue
            }
            if let previous, written.value < previous.value {
                diagnostics.append(Diagnostic(.decreasingKeyframeOffset(written: text, previous: "\(formatNumber(previous.value))%"),
                                              at: written.range, hint: "list keyframes in the order they play; an equal offset makes a jump",
                                              notes: [.init(.earlierOffset, at: previous.range)]))
                failed = true
                continue
            }
            previous = written
            let exact = written.exact ?? Time(seconds: written.value)
            offsets[index] = exact.flatMap { try? $0.divided(by: hundred) }
            if offsets[index] == nil { failed = true }
        }
        if failed { return nil }
        offsets[0] = .zero
        offsets[stops.count - 1] = .one
        do {
            // Spread the missing offsets between known neighbours.
            var known = 0
            for index in 1..<stops.count {
                guard let end = offsets[index] else { continue }
                let gap = index - known
                if gap > 1, let start = offsets[known] {
                    let step = try end.subtracting(start).divided(by: Time(Int64(gap)))
                    for missing in (known + 1)..<index {
                        offsets[missing] = try start.adding(try step.multiplied(by: Int64(missing - known)))
                    }
                }
                known = index
            }
            var durations: [Time] = []
            for index in 0..<(stops.count - 1) {
                guard let a = offsets[index], let b = offsets[index + 1] else { return nil }
                durations.append(try b.subtracting(a))
            }
            return .listed(durations)
        } catch {
            diagnostics.append(Diagnostic(.timeOverflow, at: tween.range, hint: "write offsets with fewer digits"))
            return nil
        }
    }

    /// The exact length of a duration in seconds, or `nil` after reporting why not.
    private mutating func seconds(_ duration: Duration) -> Time? {
        let number = duration.number
        guard number.value.isFinite else {
            diagnostics.append(Diagnostic(.notFiniteDuration, at: duration.range))
            return nil
        }
        guard number.value >= 0 else {
            diagnostics.append(Diagnostic(.negativeDuration(number.value), at: duration.range,
                                          hint: "to start something earlier, delay the other parts instead"))
            return nil
        }
        guard let time = duration.time else {
            diagnostics.append(Diagnostic(.unrepresentableDuration(duration.approximateSeconds), at: duration.range,
                                          hint: "exact time uses 64-bit fractions: durations from about 1e-18s to 9e18s"))
            return nil
        }
        return time
    }
}

/// The located diagnostic for an operation of the algebra that failed on a
/// term written at `origin` (while lowering, or while evaluating).
func evaluationDiagnostic(_ error: AnimationError, origin: Origin) -> Diagnostic {
    let range: SourceRange
    switch origin.construct {
    case .retimed, .eased: range = origin.detail ?? origin.range
    case .tween, .wait, .sequence, .parallel, .power, .looped, .reversed, .delayed, .staggered: range = origin.range
    }
    switch error {
    case .retimeOfInstant where origin.construct == .retimed:
        return Diagnostic(.retimeInstant(origin.target ?? .zero), at: range,
                          hint: "`in` scales every time by the new length over the old one; give it something that takes time, e.g. `wait 1s`")
    case .nonMonotoneWarp(let easing) where origin.construct == .eased:
        let spelling = EasingNames.spelling(of: easing)
        if origin.easesKeyframes {
            return Diagnostic(.nonMonotoneWarp(easing), at: range,
                              hint: "the pieces between keyframes do not span the whole tween; to ease each piece, write them as a `;` "
                                + "of tweens: `animate V.P from A to B with \(spelling) ; animate V.P from B to C with \(spelling)`")
        }
        return Diagnostic(.nonMonotoneWarp(easing), at: range,
                          hint: "overshooting curves work on a single tween: move `with \(spelling)` onto the tweens inside")
    case .overflow:
        return Diagnostic(.timeOverflow, at: range, hint: "exact time uses 64-bit fractions; use fewer repetitions or simpler durations")
    case .negativeDuration, .notFinite, .negativeCount, .nonMonotoneWarp, .mixedKinds, .invalidEasing, .retimeOfInstant, .invalidSampling,
         .infinite, .foreverOfInstant:
        return Diagnostic(.animation(error), at: range)
    }
}

/// The lengths of a tween's pieces: most often equal (no offsets written).
private enum PieceLengths {
    case equal(Time, count: Int)
    case listed([Time])

    var count: Int {
        switch self {
        case .equal(_, let count): return count
        case .listed(let lengths): return lengths.count
        }
    }

    subscript(index: Int) -> Time {
        switch self {
        case .equal(let length, _): return length
        case .listed(let lengths): return lengths[index]
        }
    }
}

/// A property's kind of value and where it was first given.
private struct KindPlace {
    let kind: Value.Kind
    let range: SourceRange
}

/// The kinds of value a tween is written with (points are sugar for two numbers).
enum ValueSyntaxKind: Equatable {
    case number, color, point

    init(_ value: ValueSyntax) {
        switch value {
        case .number: self = .number
        case .color: self = .color
        case .point: self = .point
        }
    }

    var article: String {
        switch self {
        case .number: return "a number"
        case .color: return "a colour"
        case .point: return "a point"
        }
    }

    var plural: String {
        switch self {
        case .number: return "numbers"
        case .color: return "colours"
        case .point: return "points"
        }
    }

    /// What to write instead, when a tween of `verb` was given this kind.
    func hint(for verb: TweenSyntax.Verb) -> String {
        switch self {
        case .color: return "to animate a colour, write `color V from red to blue` or `animate V.fill from red to blue`"
        case .point: return "to move a view, write `move V from (0, 0) to (100, 50)`"
        case .number:
            return verb == .move ? "`move` goes between points: `move V from (0, 0) to (100, 50)`"
                                 : "`color` goes between colours: `color V from red to #3366ff`"
        }
    }
}

extension Value.Kind {
    /// "a number", "a colour".
    var article: String {
        switch self {
        case .number: return "a number"
        case .color: return "a colour"
        }
    }
}
