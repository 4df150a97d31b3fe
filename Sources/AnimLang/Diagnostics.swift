#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Animations

/// One diagnostic type for the whole front end: lexer, parser, resolver and
/// evaluator all report through it, and ``render(_:in:)`` renders it once:
///
/// ```
/// talk.anim:2:49: error: unknown easing `ease-inout`
///   2 | let left = shrink circle from radius 100 to 10 with an ease-inout
///     |                                                 ^~~~~~~~~~
///   hint: did you mean `ease-in-out`?
/// ```
///
/// Diagnostics are data (severity, stable id, message, range, hint, notes), kept
/// apart from rendering. Every stage builds them from the catalog,
/// ``DiagnosticKind``, which owns every id and every message text:
///
/// ```swift
/// Diagnostic(.unknownEasing("ease-inout"), at: range, hint: "did you mean `ease-in-out`?")
/// ```
///
/// Messages are lowercase with no trailing period.
public struct Diagnostic: Error, Hashable, Sendable {
    public enum Severity: String, Hashable, Sendable {
        case error, warning, note
    }

    /// A secondary location ("first defined here").
    public struct Note: Hashable, Sendable {
        public var message: String
        public var range: SourceRange
        public init(_ message: String, at range: SourceRange) {
            self.message = message
            self.range = range
        }
        /// A note from the catalog.
        public init(_ kind: NoteKind, at range: SourceRange) {
            self.init(kind.message, at: range)
        }
    }

    public var severity: Severity
    /// A stable identifier (`unknown-name`, `expected-expression`, …) for tests and tools.
    public var id: String
    public var message: String
    public var range: SourceRange
    public var hint: String?
    public var notes: [Note]
    /// Edits that do what the hint says (`ease-inout` → `ease-in-out`), for an editor's quick fixes.
    public var fixes: [FixIt] = []

    /// A replacement of the text at `range` by `replacement`, named `title` in an editor's menu.
    public struct FixIt: Hashable, Sendable {
        public var range: SourceRange
        public var replacement: String
        public var title: String

        public init(_ range: SourceRange, _ replacement: String, title: String) {
            self.range = range
            self.replacement = replacement
            self.title = title
        }

        /// The text at `range` replaced by `text` (what a "did you mean `text`?" hint asks).
        public static func replacing(_ range: SourceRange, with text: String) -> FixIt {
            FixIt(range, text, title: "Replace with `\(text)`")
        }
    }

    /// A diagnostic from its parts. Prefer ``init(_:at:hint:notes:)-(DiagnosticKind,_,_,_)``,
    /// which takes the id, severity and message from the catalog.
    public init(_ severity: Severity = .error, id: String, _ message: String, at range: SourceRange, hint: String? = nil, notes: [Note] = [],
                fixes: [FixIt] = []) {
        self.severity = severity
        self.id = id
        self.message = message
        self.range = range
        self.hint = hint
        self.notes = notes
        self.fixes = fixes
    }

    /// The diagnostic `kind` describes, at `range`, with `hint` or else the
    /// catalog's own hint for the kind (``DiagnosticKind/hint``).
    public init(_ kind: DiagnosticKind, at range: SourceRange, hint: String? = nil, notes: [Note] = [], fixes: [FixIt] = []) {
        self.init(kind.severity, id: kind.id, kind.message, at: range, hint: hint ?? kind.hint, notes: notes, fixes: fixes)
    }

    /// The diagnostic with `fix` (when there is one) among its fixes.
    public func fixing(_ fix: FixIt?) -> Diagnostic {
        guard let fix else { return self }
        var fixed = self
        fixed.fixes.append(fix)
        return fixed
    }
}

/// Hints that more than one check gives, written once. (A hint that fits
/// every place a kind is raised is the kind's own: ``DiagnosticKind/hint``.)
enum Hint {
    /// How `animate` names its property: `write `animate V.PROP from A to B``.
    static func animateProperty(of view: String = "V") -> String {
        "write `animate \(view).PROP from A to B`"
    }

    /// How `compose` is written.
    static let compose = "write `compose(E1, E2)`"
}

extension DiagnosticKind {
    /// The catalog's hint for this kind, where one fits every place it is
    /// raised; a check may give a more specific one instead. (Most kinds
    /// need what only the check knows, so they have none here.)
    public var hint: String? {
        if case .notFiniteNumber = self { return Self.finiteNumbers }
        if case .numberTooLarge = self { return Self.finiteNumbers }
        if case .reservedName(let name, _) = self { return "choose another name, such as `\(name)_`" }
        return nil
    }

    private static let finiteNumbers = "numbers must be finite; the largest is about 1.8e308"
}

/// The catalog of diagnostics: every mistake animc reports, with the values
/// its message needs. Each case has a stable ``id`` (tests, goldens and tools
/// rely on it), a ``severity`` and a ``message``; this is the one place where
/// message texts are written. Hints depend on the context and are given
/// where the diagnostic is reported.
public enum DiagnosticKind: Equatable, Sendable {
    /// How a token found where something else was expected is named in a message.
    public enum Found: Hashable, Sendable, CustomStringConvertible {
        case endOfFile
        /// A token the lexer already reported.
        case invalidCharacter
        /// A name or a number, as written (shortened when long).
        case text(String)
        /// Punctuation.
        case punctuation(Token.Kind)

        public var description: String {
            switch self {
            case .endOfFile: return "end of file"
            case .invalidCharacter: return "an invalid character"
            case .text(let text): return text.count > 24 ? "`\(text.prefix(24))…`" : "`\(text)`"
            case .punctuation(let kind): return kind.description
            }
        }
    }

    /// What a reserved word was used to name.
    public enum NameRole: Hashable, Sendable {
        case binding, view, event, parameter

        /// "a binding", "a view", ….
        var article: String {
            switch self {
            case .binding: return "a binding"
            case .view: return "a view"
            case .event: return "an event"
            case .parameter: return "a parameter"
            }
        }
    }

    // MARK: Lexer

    /// `.5`.
    case leadingDecimalPoint
    /// A single `|`.
    case lonePipe
    case nulByte
    case unexpectedCharacter(Unicode.Scalar)
    case invalidUTF8(UInt8)

    // MARK: Parser: syntax

    case expectedItem(found: Found)
    /// After `let` or `view`.
    case expectedName(after: String, found: Found)
    case reservedName(String, role: NameRole)
    /// A `let` or a parameter named as an easing (`snappy`, `ease-out`).
    case easingName(String, role: NameRole)
    case duplicateParameter(String)
    /// A parameter without a default after one with a default.
    case missingDefault(String)
    /// In a `view` declaration.
    case expectedProperty(found: Found)
    /// `view card rotation 90deg`: a unit on an initial value.
    case initialValueUnit(String)
    /// After `animate V.`.
    case expectedPropertyName(view: String, found: Found)
    /// `expected` and `after` as they read in the message: "`=`", "`let a`", "the count".
    case expectedToken(expected: String, after: String, found: Found)
    /// `after` is `nil` at the start of the file.
    case expectedExpression(after: String?, found: Found)
    case expectedOperator(found: Found)
    /// `repeated` or `looped` without `once`, `twice` or a count.
    case expectedCount(after: String, found: Found)
    /// `animate all.x`.
    case expectedTarget(found: Found)
    /// `what`: "a duration", "a start value", ….
    case expectedNumber(what: String, after: String, found: Found)
    case expectedEasing(after: String, found: Found)
    case expectedStepPosition(found: Found)
    case unclosedParen(openedAt: SourceLocation, found: Found)
    case nestingTooDeep(limit: Int)
    /// `x ^ 2 reversed`.
    case modifierAfterPower(modifier: String, exponent: String)
    /// A name that is not a verb where a tween's verb stands (`rotat square from 0 to 90`).
    case unknownVerb(String)

    // MARK: Parser: values

    case unknownUnit(String)
    /// A unit on a plain value (`to 100px`): values are numbers.
    case unknownValueUnit(String)
    case unknownAngleUnit(String)
    /// `rotate v from 0 to 2*pi degrees`: `written` is the number as written.
    case piInDegrees(written: String, degrees: Double)
    /// Counts (`^ N`, `repeated N times`, `looped N times`), each as written.
    case negativeCount(String)
    case fractionalCount(String)
    /// A whole count whose value is not exact (`pi/pi`).
    case inexactCount(String)
    case countTooLarge(Double)
    /// `steps(N)`, with N as written.
    case fractionalSteps(String)
    case tooManySteps(String)
    /// A number literal beyond the range of `Double`, as written.
    case numberTooLarge(String)
    /// Arithmetic whose result is not finite, as written.
    case notFiniteNumber(String)
    case divisionByZero(String)
    case unknownEasing(String)
    case unexpectedEasingParameter(String)
    /// `high` on an easing other than the talk's curves.
    case highNotApplicable(String)
    case highWithParameter
    /// An easing's parameters out of their domain (`steps(0)`, a cubic-bezier x outside [0, 1]).
    case invalidEasing(AnimationError)
    case unknownStepPosition(String)
    /// `spring(stifness 200)`: a name that is no parameter of `spring(…)`.
    case unknownSpringParameter(String)
    /// `spring(damping 10, damping 12)`.
    case duplicateSpringParameter(String)
    /// `spring()`.
    case missingSpringParameter
    /// `spring(bounce 0.3, mass 2)`: `bounce` with a parameter of the physical form (named).
    case conflictingSpringParameters(String)
    /// A spring parameter out of its domain (`bounce` outside (−1, 1), `stiffness`
    /// or `mass` ≤ 0, `damping` < 0), with the value as written.
    case invalidSpringParameter(name: String, written: String)
    /// `damping 0`, `bounce 1`: no damping, so the spring never settles (the parameter as written).
    case springNeverSettles(String)
    /// `with a bouncy ease-out`: `smooth`, `snappy` or `bouncy` not followed by `spring`.
    case springAdjectiveAlone(String, found: Found)

    /// `through` with a single value.
    case tooFewKeyframes
    /// A name where a colour stands that is close to a colour name.
    case unknownColor(String)
    /// `rgb(1, 2 3)`.
    case mixedColorSeparators
    /// `rgb(…)` with the wrong number of channels; the function's name.
    case colorArguments(String)
    /// A colour channel outside its range or with the wrong unit: the channel's
    /// name, the channel as written, and its range as a message reads it.
    case colorChannel(String, written: String, range: String)

    // MARK: Lowering: values

    /// An offset on the first or last keyframe (always 0 % and 100 %).
    case keyframeOffsetOnEnd(first: Bool, written: String)
    case keyframeOffsetRange(written: String)
    /// An offset below an earlier one: this one and the earlier one, as written.
    case decreasingKeyframeOffset(written: String, previous: String)
    /// A value of the wrong kind for the verb: `fade v from red to blue`.
    case valueKind(verb: String, expected: String, found: String)
    /// One property given a colour in one place and a number in another.
    case mixedValueKinds(property: String, here: String, first: String)
    /// A part of a sequence after an animation that repeats forever.
    case neverStarts
    /// `x staggered by d` where no view has a segment in x.
    case staggerNothing
    /// Duration arithmetic without a measure (docs/semantics.md §8.4), as written:
    /// a duration times a duration, or a number divided by a duration.
    case durationArithmetic(String, divides: Bool)
    /// A unit after a duration (`(2s)ms`, `gap ms`): the name, when one.
    case unitOnDuration(String?)
    /// `overlapping by D` with D longer than the parts before it (both in seconds).
    case overlapTooLong(overlap: String, before: String)
    /// `overlapping by` on the first part of a chain (`true`) or outside any sequence.
    case overlapWithoutBefore(first: Bool)
    /// `overlapping by` after parts that never end.
    case overlapAfterEndless
    /// A stagger whose spacing easing gives a view a negative offset (as written).
    case staggerNegativeOffset(String)
    /// `x played from T1 to T2` that names no part of x: why.
    case invalidPart(String)
    /// Distinct tweens tie on one property (docs/semantics.md §4), so it shows
    /// their mean (warning): `playing` while they play, else while they
    /// hold their ends; `from` and `to` are the stretch, in seconds.
    case tie(property: String, count: Int, from: String, to: String, playing: Bool)
    /// More properties tie than the tie warnings show: how many in all, and
    /// how many are shown (warning).
    case moreTies(total: Int, shown: Int)
    /// `all views` in the evaluated binding reaches views that only `let`s
    /// it does not use name (warning).
    case strayViews(views: [String], bindings: [String], target: String)
    /// A view or property (`"view `crad`"`, `"property `card.opactiy`"`) named
    /// in one place only, beside a close name: likely misspelt.
    case namedOnce(String)
    /// `in 300` (written with no unit) in a file whose other durations are under a second.
    case bareDuration(String)
    /// `in fast` where `let fast = 200` (no unit), in a file whose other
    /// durations are under a second (warning).
    case bareNamedDuration(name: String, written: String)
    /// An angle in turns or radians the size of one in degrees (`to 360
    /// turns`, `to 90 radians`) (warning).
    case degreeSizedAngle(written: String, unit: String, degrees: Double)
    /// An opacity written outside 0 to 1 (`to 100`) (warning).
    case opacityOutOfRange(String)
    /// A property that looks drawn and is not (`card.rotate-y`) (warning).
    case undrawnProperty(String)

    // MARK: Resolver

    case unknownName(String)
    case duplicateView(String)
    case duplicateProperty(view: String, property: String)
    /// `view bar origin middle`: not one of the origin words.
    case unknownOrigin(String)
    case duplicateLet(String)
    /// `name` refers to itself through the bindings `through`.
    case cycle(String, through: [String])
    /// A parameterised `let` that calls itself, through the bindings `through`.
    case recursion(String, through: [String])
    /// One parameter used as two kinds (`first` where first used).
    case parameterKinds(parameter: String, first: String, second: String)
    /// `expected`: "1 argument", "1 or 2 arguments", "2 to 4 arguments".
    case argumentCount(String, expected: String, given: Int)
    /// A call of a `let` without parameters.
    case notCallable(String)
    /// A parameterised `let` named without arguments.
    case needsArguments(String)

    // MARK: Lowering of named values and calls

    case argumentKind(callee: String, parameter: String, expected: String, found: String)
    /// A name whose kind does not fit where it is written.
    case nameKind(String, found: String, expected: String)
    case unknownValue(String, expected: String)
    case callsTooDeep(limit: Int)
    case expansionTooLarge(limit: Int)
    /// The binding to evaluate is a value or takes parameters.
    case notAnAnimation(String, kind: String)

    // MARK: Evaluator

    /// `run(file, binding:)` with a name the file does not bind.
    case unknownBinding(String)
    case noBinding
    case noViews
    case incompleteTween
    case notFiniteTween
    case notFiniteDuration
    case negativeDuration(Double)
    /// A duration in seconds too small or too large for exact time.
    case unrepresentableDuration(Double)
    /// Exact time overflowed while combining animations.
    case timeOverflow
    case retimeInstant(Time)
    case nonMonotoneWarp(Easing)
    /// `reversed` or `looped` of something holding a `to` tween (docs/semantics.md §7.1).
    case relativeReversed(operation: String, property: String)
    /// Any other error of the `Animations` library, with its own message.
    case animation(AnimationError)
    /// A binding whose value cannot be sampled.
    case cannotSample(binding: String, AnimationError)

    // MARK: Command line

    /// `eval` at a frame rate that gives more rows than the limit, over the
    /// animation's duration (or up to `--until`).
    case tooManyRows(binding: String, duration: Time, fps: Int64, limit: Int)
    /// `--binding NAME` naming no binding of `file`.
    case noSuchBinding(String, file: String)
    /// `--after NAME` naming no animation of the file, or one that never ends: why.
    case afterBinding(String, why: String)
    case unreadableFile(path: String, reason: String)
    /// `-o PATH` that cannot be written.
    case unwritableFile(path: String, reason: String)
    case cannotNormalize(String)
    case unknownCommand(String)
    case missingCommand
    case unknownOption(String, command: String?)
    /// An option that exists, but not for this command.
    case optionNotAccepted(String, command: String)
    case missingValue(option: String)
    case unexpectedValue(option: String)
    /// `expected` says what the option takes: "a whole number from 1 to 1000000".
    case invalidValue(option: String, value: String, expected: String)
    case missingArgument(command: String, argument: String)
    case extraArgument(command: String, argument: String)
    /// Standard input named twice (`animc equal - -`).
    case standardInputTwice
    /// An option that takes one value given twice (`--at 0.5 --at 1`): never a silent drop.
    case repeatedOption(String)
    /// `eval` of an animation that repeats forever without `--until` or `--at`.
    case needsUntil(binding: String)
    /// `plot` of an animation that repeats forever without `--until`.
    case plotNeedsUntil(binding: String)
    /// Two options that exclude each other.
    case conflictingOptions(String, String)
    /// A command that draws on a terminal (`play`) run with standard output elsewhere.
    case notATerminal(command: String)
    /// `animc serve` cannot listen on its port (in use, or not allowed).
    case portUnavailable(port: Int, reason: String)
    /// A command that follows its file (`serve`) given standard input.
    case standardInputNotFollowed(command: String)

    // MARK: Export

    /// `animc fmt`: a layout that would lex or parse differently (a formatter bug, never written).
    case formatWouldChangeMeaning
    /// `animc fmt` left a file as it is (after its errors).
    case notFormatted(file: String)

    /// The stable identifier.
    public var id: String {
        switch self {
        case .leadingDecimalPoint: return "leading-decimal-point"
        case .lonePipe: return "lone-pipe"
        case .nulByte: return "nul-byte"
        case .unexpectedCharacter: return "unexpected-character"
        case .invalidUTF8: return "invalid-utf8"
        case .expectedItem: return "expected-item"
        case .expectedName: return "expected-name"
        case .reservedName: return "reserved-name"
        case .expectedProperty, .expectedPropertyName: return "expected-property"
        case .initialValueUnit: return "initial-value-unit"
        case .expectedToken: return "expected-token"
        case .expectedExpression: return "expected-expression"
        case .expectedOperator: return "expected-operator"
        case .expectedCount: return "expected-count"
        case .expectedTarget: return "expected-target"
        case .expectedNumber: return "expected-number"
        case .expectedEasing: return "expected-easing"
        case .expectedStepPosition: return "expected-step-position"
        case .unclosedParen: return "unclosed-paren"
        case .nestingTooDeep: return "nesting-too-deep"
        case .modifierAfterPower: return "modifier-after-power"
        case .unknownVerb: return "unknown-verb"
        case .unknownUnit: return "unknown-unit"
        case .unknownAngleUnit: return "unknown-angle-unit"
        case .unknownValueUnit: return "unknown-value-unit"
        case .piInDegrees: return "pi-in-degrees"
        case .negativeCount, .fractionalCount, .inexactCount, .countTooLarge, .fractionalSteps, .tooManySteps:
            return "invalid-count"
        case .numberTooLarge, .notFiniteNumber: return "non-finite-number"
        case .divisionByZero: return "division-by-zero"
        case .unknownEasing: return "unknown-easing"
        case .unexpectedEasingParameter: return "unexpected-easing-parameter"
        case .highNotApplicable, .highWithParameter: return "invalid-high"
        case .invalidEasing: return "invalid-easing"
        case .unknownStepPosition: return "unknown-step-position"
        case .tooFewKeyframes: return "too-few-keyframes"
        case .unknownColor: return "unknown-color"
        case .mixedColorSeparators, .colorArguments: return "invalid-color-function"
        case .colorChannel: return "invalid-color-channel"
        case .keyframeOffsetOnEnd, .keyframeOffsetRange, .decreasingKeyframeOffset: return "invalid-keyframe-offset"
        case .valueKind: return "wrong-value-kind"
        case .mixedValueKinds: return "mixed-kinds"
        case .neverStarts: return "never-starts"
        case .staggerNothing: return "stagger-nothing"
        case .durationArithmetic: return "duration-arithmetic"
        case .unitOnDuration: return "unit-on-duration"
        case .overlapTooLong: return "overlap-too-long"
        case .overlapWithoutBefore: return "overlap-without-before"
        case .overlapAfterEndless: return "overlap-after-endless"
        case .staggerNegativeOffset: return "stagger-negative-offset"
        case .invalidPart: return "invalid-part"
        case .tie, .moreTies: return "tie"
        case .strayViews: return "stray-views"
        case .namedOnce: return "named-once"
        case .bareDuration: return "bare-duration"
        case .bareNamedDuration: return "bare-named-duration"
        case .degreeSizedAngle: return "degree-sized-angle"
        case .opacityOutOfRange: return "opacity-out-of-range"
        case .undrawnProperty: return "undrawn-property"
        case .unknownSpringParameter: return "unknown-spring-parameter"
        case .duplicateSpringParameter: return "duplicate-spring-parameter"
        case .missingSpringParameter: return "missing-spring-parameter"
        case .conflictingSpringParameters: return "conflicting-spring-parameters"
        case .invalidSpringParameter: return "invalid-easing"
        case .springNeverSettles: return "spring-never-settles"
        case .springAdjectiveAlone: return "unknown-easing"
        case .unknownName: return "unknown-name"
        case .duplicateView: return "duplicate-view"
        case .duplicateProperty: return "duplicate-property"
        case .unknownOrigin: return "unknown-origin"
        case .duplicateLet: return "duplicate-let"
        case .cycle: return "cycle"
        case .easingName: return "easing-name"
        case .duplicateParameter: return "duplicate-parameter"
        case .missingDefault: return "missing-default"
        case .parameterKinds: return "parameter-kinds"
        case .recursion: return "recursion"
        case .argumentCount: return "argument-count"
        case .notCallable: return "not-callable"
        case .needsArguments: return "needs-arguments"
        case .argumentKind: return "argument-kind"
        case .nameKind: return "name-kind"
        case .unknownValue: return "unknown-value"
        case .callsTooDeep: return "calls-too-deep"
        case .expansionTooLarge: return "expansion-too-large"
        case .notAnAnimation: return "not-an-animation"
        case .unknownBinding, .noSuchBinding: return "unknown-binding"
        case .afterBinding: return "invalid-after"
        case .noBinding: return "no-binding"
        case .noViews: return "no-views"
        case .incompleteTween: return "incomplete-tween"
        case .notFiniteTween, .notFiniteDuration: return "not-finite"
        case .negativeDuration: return "negative-duration"
        case .unrepresentableDuration, .timeOverflow: return "overflow"
        case .retimeInstant: return "retime-instant"
        case .nonMonotoneWarp: return "non-monotone-warp"
        case .relativeReversed: return "reversed-to"
        case .animation(let error): return DiagnosticKind.id(of: error)
        case .cannotSample: return "cannot-sample"
        case .tooManyRows: return "too-many-rows"
        case .unreadableFile: return "unreadable-file"
        case .unwritableFile: return "unwritable-file"
        case .cannotNormalize: return "cannot-normalize"
        case .unknownCommand: return "unknown-command"
        case .missingCommand: return "missing-command"
        case .unknownOption: return "unknown-option"
        case .optionNotAccepted: return "option-not-accepted"
        case .missingValue: return "missing-value"
        case .unexpectedValue: return "unexpected-value"
        case .invalidValue: return "invalid-value"
        case .missingArgument: return "missing-argument"
        case .extraArgument: return "extra-argument"
        case .standardInputTwice: return "standard-input-twice"
        case .repeatedOption: return "repeated-option"
        case .needsUntil, .plotNeedsUntil: return "needs-until"
        case .conflictingOptions: return "conflicting-options"
        case .notATerminal: return "not-a-terminal"
        case .portUnavailable: return "port-unavailable"
        case .standardInputNotFollowed: return "standard-input-not-followed"
        case .formatWouldChangeMeaning: return "format-would-change-meaning"
        case .notFormatted: return "not-formatted"
        }
    }

    public var severity: Diagnostic.Severity {
        switch self {
        case .piInDegrees, .neverStarts, .staggerNothing, .tie, .moreTies, .strayViews, .namedOnce, .bareDuration, .bareNamedDuration, .degreeSizedAngle,
             .opacityOutOfRange, .undrawnProperty:
            return .warning
        case .invalidPart,
             .leadingDecimalPoint, .lonePipe, .nulByte, .unexpectedCharacter, .invalidUTF8, .expectedItem, .expectedName,
             .reservedName, .easingName, .duplicateParameter, .missingDefault, .parameterKinds, .recursion, .argumentCount,
             .notCallable, .needsArguments, .argumentKind, .nameKind, .unknownValue, .callsTooDeep, .expansionTooLarge,
             .notAnAnimation, .expectedProperty, .initialValueUnit, .expectedPropertyName, .expectedToken, .expectedExpression, .expectedOperator,
             .expectedCount, .expectedTarget, .expectedNumber, .expectedEasing, .expectedStepPosition, .unclosedParen,
             .nestingTooDeep, .modifierAfterPower, .unknownVerb, .unknownUnit, .unknownValueUnit, .unknownAngleUnit, .negativeCount,
             .fractionalCount, .inexactCount, .countTooLarge, .fractionalSteps, .tooManySteps, .numberTooLarge,
             .notFiniteNumber, .divisionByZero, .unknownEasing, .unexpectedEasingParameter, .highNotApplicable,
             .highWithParameter, .invalidEasing, .unknownStepPosition, .unknownSpringParameter, .duplicateSpringParameter,
             .missingSpringParameter, .conflictingSpringParameters, .invalidSpringParameter, .springNeverSettles,
             .springAdjectiveAlone, .unknownName, .duplicateView, .duplicateProperty, .unknownOrigin,
             .duplicateLet, .cycle, .unknownBinding, .noBinding, .noViews, .incompleteTween, .notFiniteTween,
             .notFiniteDuration, .negativeDuration, .unrepresentableDuration, .timeOverflow, .retimeInstant,
             .nonMonotoneWarp, .relativeReversed, .animation, .cannotSample, .tooManyRows, .noSuchBinding, .afterBinding, .unreadableFile, .unwritableFile, .cannotNormalize,
             .unknownCommand, .missingCommand, .unknownOption, .optionNotAccepted, .missingValue, .unexpectedValue,
             .invalidValue, .missingArgument, .extraArgument, .standardInputTwice, .repeatedOption, .tooFewKeyframes, .unknownColor,
             .mixedColorSeparators, .colorArguments, .colorChannel, .keyframeOffsetOnEnd, .keyframeOffsetRange,
             .decreasingKeyframeOffset, .valueKind, .mixedValueKinds, .durationArithmetic, .unitOnDuration, .overlapTooLong,
             .overlapWithoutBefore, .overlapAfterEndless, .staggerNegativeOffset, .needsUntil, .plotNeedsUntil, .conflictingOptions,
             .notATerminal, .portUnavailable, .standardInputNotFollowed,
             .formatWouldChangeMeaning, .notFormatted:
            return .error
        }
    }

    /// The message: lowercase, no trailing period.
    public var message: String {
        switch self {
        case .leadingDecimalPoint:
            return "a number cannot start with `.`"
        case .lonePipe:
            return "unexpected character `|`"
        case .nulByte:
            return "the file is not text: it has a NUL byte"
        case .unexpectedCharacter(let scalar):
            return "unexpected character \(DiagnosticKind.describe(scalar))"
        case .invalidUTF8(let byte):
            return "the file is not UTF-8 text: invalid byte 0x\(hex(UInt32(byte), digits: 2))"
        case .expectedItem(let found):
            return "expected `let` or `view`, found \(found)"
        case .expectedName(let keyword, let found):
            return "expected a name after `\(keyword)`, found \(found)"
        case .reservedName(let name, let role):
            return "`\(name)` is a reserved word and cannot name \(role.article)"
        case .easingName(let name, let role):
            return "`\(name)` names an easing and cannot name \(role.article)"
        case .duplicateParameter(let name):
            return "parameter `\(name)` is declared twice"
        case .missingDefault(let name):
            return "parameter `\(name)` needs a default: a parameter before it has one"
        case .parameterKinds(let parameter, let first, let second):
            return "parameter `\(parameter)` is used as \(first) and as \(second)"
        case .recursion(let name, let through):
            let path = through.isEmpty ? "" : " through " + through.map { "`\($0)`" }.joined(separator: ", ")
            return "`\(name)` calls itself\(path)"
        case .argumentCount(let name, let expected, let given):
            return "`\(name)` takes \(expected), but is given \(given)"
        case .notCallable(let name):
            return "`\(name)` takes no arguments"
        case .needsArguments(let name):
            return "`\(name)` takes arguments"
        case .argumentKind(let callee, let parameter, let expected, let found):
            return "argument `\(parameter)` of `\(callee)` must be \(expected), not \(found)"
        case .nameKind(let name, let found, let expected):
            return "`\(name)` is \(found), but \(expected) goes here"
        case .unknownValue(let name, let expected):
            return "no value named \(quoted(name)) (\(expected) goes here)"
        case .callsTooDeep(let limit):
            return "calls nest more than \(limit) deep"
        case .expansionTooLarge(let limit):
            return "expanding the calls makes more than \(limit) parts"
        case .notAnAnimation(let name, let kind):
            return "`\(name)` is \(kind), not an animation"
        case .initialValueUnit(let unit):
            return "an initial value takes no unit, not `\(unit)`"
        case .expectedProperty(let found):
            return "expected a property and its initial value, found \(found)"
        case .expectedPropertyName(let view, let found):
            return "expected a property name after `\(view).`, found \(found)"
        case .expectedToken(let expected, let context, let found):
            return "expected \(expected) after \(context), found \(found)"
        case .expectedExpression(let context, let found):
            return "expected an animation\(context.map { " after \($0)" } ?? ""), found \(found)"
        case .expectedOperator(let found):
            return "expected an operator or a modifier after the expression, found \(found)"
        case .expectedCount(let word, let found):
            return "expected `once`, `twice`, a count or `forever` after `\(word)`, found \(found)"
        case .expectedTarget(let found):
            return "expected a view name after `animate`, found \(found)"
        case .expectedNumber(let what, let context, let found):
            return "expected \(what) after \(context), found \(found)"
        case .expectedEasing(let context, let found):
            return "expected an easing after \(context), found \(found)"
        case .expectedStepPosition(let found):
            return "expected a step position after `,`, found \(found)"
        case .unclosedParen(let location, let found):
            return "expected `)` to close the `(` at \(location), found \(found)"
        case .nestingTooDeep(let limit):
            return "expressions nest more than \(limit) levels deep"
        case .modifierAfterPower(let modifier, let exponent):
            return "`\(modifier)` cannot follow `^ \(exponent)` directly"
        case .unknownVerb(let word):
            return "\(quoted(word)) is not a verb"
        case .unknownUnit(let word):
            return "unknown duration unit `\(word)`"
        case .unknownAngleUnit(let word):
            return "unknown angle unit `\(word)`"
        case .unknownValueUnit(let word):
            return "unknown unit `\(word)`"
        case .degreeSizedAngle(let written, let unit, let degrees):
            let rounded = (degrees * 1000).rounded() / 1000
            return "`\(written)` \(unit) is \(formatNumber(rounded.isFinite ? rounded : degrees)) degrees"
        case .opacityOutOfRange(let written):
            return "an opacity of \(written) is outside 0 to 1, and is drawn as \(written.hasPrefix("-") ? "0 (hidden)" : "1 (fully shown)")"
        case .undrawnProperty(let property):
            return "no export draws `\(property)`"
        case .bareNamedDuration(let name, let written):
            return "`\(name)` is \(written) with no unit, so \(written) seconds here, and every other duration here is under a second"
        case .piInDegrees(let written, let degrees):
            let rounded = (degrees * 1000).rounded() / 1000
            return "`\(written)` degrees is \(formatNumber(rounded.isFinite ? rounded : degrees)) degrees"
        case .negativeCount(let written):
            return "count must not be negative (got \(written))"
        case .fractionalCount(let written):
            return "count must be a whole number (got \(written))"
        case .inexactCount(let written):
            return "count must be an exact whole number (got \(written))"
        case .countTooLarge(let value):
            return "count \(formatNumber(value)) is too large"
        case .fractionalSteps(let written):
            return "the number of steps must be a whole number (got \(written))"
        case .tooManySteps(let written):
            return "the number of steps is too large (got \(written))"
        case .numberTooLarge(let literal):
            return "number \(Found.text(literal)) is too large"
        case .notFiniteNumber(let written):
            return "`\(written)` is not a finite number"
        case .divisionByZero(let written):
            return "division by zero in `\(written)`"
        case .unknownEasing(let name):
            return "unknown easing `\(name)`"
        case .unexpectedEasingParameter(let name):
            return "easing `\(name)` takes no parameter"
        case .highNotApplicable(let name):
            return "`high` only applies to ease-in, ease-out and ease-in-out, not `\(name)`"
        case .highWithParameter:
            return "`high` cannot be combined with an explicit parameter"
        case .invalidEasing(let error):
            return error.description
        case .unknownStepPosition(let word):
            return "unknown step position `\(word)`"
        case .tooFewKeyframes:
            return "`through` needs two keyframes or more"
        case .unknownColor(let word):
            return "unknown colour `\(word)`"
        case .mixedColorSeparators:
            return "a colour's channels are separated all by commas or all by spaces"
        case .colorArguments(let function):
            return "`\(function)(…)` takes three channels and an optional alpha"
        case .colorChannel(let channel, let written, let range):
            return "\(channel) must be \(range), not `\(written)`"
        case .keyframeOffsetOnEnd(let first, let written):
            return "the \(first ? "first" : "last") keyframe is always at \(first ? "0%" : "100%"), not \(written)"
        case .keyframeOffsetRange(let written):
            return "keyframe offset \(written) is outside 0% to 100%"
        case .decreasingKeyframeOffset(let written, let previous):
            return "keyframe offset \(written) comes after \(previous): offsets must not decrease"
        case .valueKind(let verb, let expected, let found):
            return "`\(verb)` takes \(expected), not \(found)"
        case .mixedValueKinds(let property, let here, let first):
            return "`\(property)` is given \(here) here and \(first) elsewhere: a property holds one kind of value"
        case .neverStarts:
            return "this never starts: the animation before it repeats forever"
        case .durationArithmetic(let written, let divides):
            return divides ? "cannot divide a number by a duration in `\(written)`"
                : "cannot multiply a duration by a duration in `\(written)`"
        case .unitOnDuration(let name):
            return name.map { "`\($0)` is a duration already: it takes no unit" } ?? "this is a duration already: it takes no second unit"
        case .overlapTooLong(let overlap, let before):
            return "`overlapping by \(overlap)s` reaches back before the chain starts: the parts before it last \(before)s"
        case .overlapWithoutBefore(let first):
            return first ? "`overlapping by` on the first part of a sequence: there is nothing before it to overlap"
                : "`overlapping by` outside a sequence: it overlaps a part with the parts before it in a `;` chain"
        case .overlapAfterEndless:
            return "`overlapping by` after parts that never end: there is no end to start before"
        case .staggerNegativeOffset(let written):
            return "the spacing `\(written)` gives a view a negative offset: it would start before the stagger does"
        case .staggerNothing:
            return "nothing to stagger: no view has a tween here"
        case .invalidPart(let why):
            return why
        case .tie(let property, let count, let from, let to, let playing):
            let tweens = count > 1 ? "\(count) tweens" : "several tweens"
            let when = from == to ? "at \(from)s" : "from \(from)s to \(to)s"
            return playing
                ? "`\(property)` is driven by \(tweens) at once \(when), so it shows their mean"
                : "`\(property)` holds the ends of \(tweens) at once \(when), so it shows their mean"
        case .moreTies(let total, let shown):
            return "\(total) properties are driven by several tweens at once, each showing their mean; \(shown) of them are shown"
        case .namedOnce(let what):
            return "the \(what) is named only here"
        case .bareDuration(let written):
            return "`\(written)` with no unit is \(written) seconds, and every other duration here is under a second"
        case .strayViews(let views, let bindings, let target):
            let named = listedNames(views.prefix(8).map { "`\($0)`" } + (views.count > 8 ? ["\(views.count - 8) more"] : []))
            let lets = listedNames(bindings.prefix(4).map { "`\($0)`" } + (bindings.count > 4 ? ["\(bindings.count - 4) more"] : []))
            return "`all views` includes \(named), named only in \(lets), which `\(target)` does not use"
        case .unknownSpringParameter(let name):
            return "unknown spring parameter \(quoted(name))"
        case .duplicateSpringParameter(let name):
            return "spring parameter `\(name)` is given twice"
        case .missingSpringParameter:
            return "`spring()` needs at least one parameter"
        case .conflictingSpringParameters(let name):
            return "`bounce` cannot be combined with `\(name)`"
        case .invalidSpringParameter(let name, let written):
            switch name {
            case "bounce": return "spring bounce must be greater than -1 and less than 1 (got \(written))"
            case "damping": return "spring damping must not be negative (got \(written))"
            default: return "spring \(name) must be positive (got \(written))"
            }
        case .springNeverSettles(let parameter):
            return "a spring with `\(parameter)` has no damping, so it never settles"
        case .springAdjectiveAlone(let adjective, let found):
            return "`\(adjective)` names a kind of spring: expected `spring` after it, found \(found)"
        case .unknownName(let name):
            return "no animation named \(quoted(name))"
        case .duplicateView(let name):
            return "view `\(name)` is declared twice"
        case .unknownOrigin(let word):
            return "`\(word)` is not an origin"
        case .duplicateProperty(let view, let property):
            return "`\(view).\(property)` is given two initial values"
        case .duplicateLet(let name):
            return "`\(name)` is already defined"
        case .cycle(let name, let through):
            let path = through.isEmpty ? "" : " through " + through.map { "`\($0)`" }.joined(separator: ", ")
            return "`\(name)` refers to itself\(path)"
        case .unknownBinding(let name):
            return "no `let \(name)` in this file"
        case .noBinding:
            return "nothing to evaluate: the file has no `let`"
        case .noViews:
            return "`all views` names no view: this file names none"
        case .incompleteTween:
            return "this tween needs `from` and `to` values"
        case .notFiniteTween:
            return "the tween's values are not finite numbers"
        case .notFiniteDuration:
            return "duration is not a finite number"
        case .negativeDuration(let seconds):
            return "duration must not be negative (got \(formatNumber(seconds)))"
        case .unrepresentableDuration(let seconds):
            return "duration \(formatNumber(seconds))s is \(abs(seconds) < 1 ? "too small" : "too large") to represent exactly"
        case .timeOverflow:
            return "this animation's times are too large or too finely divided to compute exactly"
        case .retimeInstant(let target):
            return "cannot stretch an animation that lasts 0s to \(target)s"
        case .relativeReversed(let operation, let property):
            return "cannot \(operation) a tween of `\(property)` that goes `to` a value: it has no start to return to"
        case .nonMonotoneWarp(let easing):
            // A spring is the reason when every other factor is monotone: it counts as
            // not monotone by rule (docs/semantics.md §6.4), even where it does not overshoot.
            let springs = easing.factors.filter { $0.spring != nil }
            let becauseOfSprings = !springs.isEmpty && easing.factors.allSatisfy { $0.spring != nil || $0.isMonotone }
            let why = becauseOfSprings ? "springs count as not monotone (most overshoot)" : "it is not monotone"
            return "`\(EasingNames.spelling(of: easing))` cannot ease a composite animation: \(why), so time would run backwards"
        case .animation(let error):
            return error.description
        case .cannotSample(let binding, let error):
            return "cannot sample `\(binding)`: \(error)"
        case .tooManyRows(let binding, let duration, let fps, let limit):
            return "`\(binding)` from 0 to \(duration)s at \(fps) fps is more than \(limit) rows"
        case .noSuchBinding(let name, let file):
            return "no binding named \(quoted(name)) in \(file)"
        case .afterBinding(let name, let why):
            return "--after \(name): \(why)"
        case .unreadableFile(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .unwritableFile(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .cannotNormalize(let why):
            return "cannot normalize: \(why)"
        case .unknownCommand(let command):
            return "unknown command \(quoted(command))"
        case .missingCommand:
            return "missing command"
        case .unknownOption(let option, let command):
            return "unknown option \(quoted(option))" + (command.map { " for \($0)" } ?? "")
        case .optionNotAccepted(let option, let command):
            return "\(command) does not take \(option)"
        case .missingValue(let option):
            return "\(option) needs a value"
        case .unexpectedValue(let option):
            return "\(option) takes no value"
        case .invalidValue(let option, let value, let expected):
            return "\(option) takes \(expected), not \(quoted(value))"
        case .missingArgument(let command, let argument):
            return "\(command) needs \(argument)"
        case .extraArgument(let command, let argument):
            return "unexpected argument \(quoted(argument)) for \(command)"
        case .standardInputTwice:
            return "standard input (`-`) can be read only once"
        case .repeatedOption(let option):
            return "\(option) is given more than once"
        case .needsUntil(let binding):
            return "`\(binding)` repeats forever: choose the rows to print with --until or --at"
        case .plotNeedsUntil(let binding):
            return "`\(binding)` repeats forever: choose where the plot ends with --until"
        case .conflictingOptions(let first, let second):
            return "\(first) and \(second) cannot be used together"
        case .notATerminal(let command):
            return "\(command) draws on a terminal, and standard output is not one"
        case .portUnavailable(let port, let reason):
            return "--port \(port): cannot listen on 127.0.0.1:\(port): \(reason)"
        case .standardInputNotFollowed(let command):
            return "\(command) follows a file as it changes, and standard input (`-`) is not one"
        case .formatWouldChangeMeaning:
            return "formatting would change what the file means"
        case .notFormatted(let file):
            return "\(file) is left as it is"
        }
    }

    /// The id of an error of the `Animations` library.
    static func id(of error: AnimationError) -> String {
        switch error {
        case .overflow: return "overflow"
        case .negativeDuration: return "negative-duration"
        case .notFinite: return "not-finite"
        case .negativeCount: return "invalid-count"
        case .nonMonotoneWarp: return "non-monotone-warp"
        case .mixedKinds: return "mixed-kinds"
        case .invalidEasing: return "invalid-easing"
        case .retimeOfInstant: return "retime-instant"
        case .invalidSampling: return "too-large"
        case .infinite: return "infinite-animation"
        case .foreverOfInstant: return "forever-of-instant"
        case .relativeColor: return "relative-color"
        case .reversedRelative: return "reversed-to"
        case .noCurrentValue: return "no-current-value"
        case .relativeUnsupported: return "relative-unsupported"
        case .invalidPart, .endlessPart: return "invalid-part"
        }
    }

    /// An unexpected character as a message names it.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        if scalar.value < 0x20 || scalar.value == 0x7F {
            return "U+\(hex(scalar.value, digits: 4)) (a control character)"
        }
        if scalar == "`" { return "'`'" }
        if scalar.isASCII { return "`\(scalar)`" }
        return "`\(scalar)` (U+\(hex(scalar.value, digits: 4)))"
    }
}

/// `a`, `a and b`, `a, b and c`.
private func listedNames(_ items: [String]) -> String {
    guard let last = items.last else { return "" }
    return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
}

/// The catalog of notes: the secondary locations a diagnostic points at.
public enum NoteKind: Hashable, Sendable {
    /// The `(` an unclosed-paren error is about.
    case parenOpenedHere
    case firstDeclared
    case firstGiven
    case firstDefined
    /// Where a property was first given a value of another kind ("a colour").
    case firstGivenKind(String)
    /// The keyframe offset a decreasing one comes after.
    case earlierOffset
    /// Another tween a tie on a property takes part in.
    case alsoDriven(String)
    /// Where a view that `all views` should not include is named.
    case namedHere(String)
    /// Where an error inside a parameterised `let`'s body happened, for a call.
    case inBody(String)
    /// Where a parameter was first used as another kind.
    case firstUsedAs(String)
    case firstDefault
    /// A parameterised `let` given the wrong number of arguments: its name and how many parameters it has.
    case definedWithParameters(String, count: Int)
    /// Where a `let` gives a name its value.
    case boundHere(String)

    public var message: String {
        switch self {
        case .firstGivenKind(let kind): return "first given \(kind) here"
        case .earlierOffset: return "the earlier offset"
        case .alsoDriven(let property): return "`\(property)` is also driven here"
        case .namedHere(let view): return "`\(view)` is named here"
        case .inBody(let name): return "in the body of `\(name)`"
        case .firstUsedAs(let kind): return "first used as \(kind) here"
        case .firstDefault: return "the first parameter with a default"
        case .boundHere(let name): return "`\(name)` is bound here"
        case .definedWithParameters(let name, let count): return "`\(name)` is defined here with \(count) parameter\(count == 1 ? "" : "s")"
        case .parenOpenedHere: return "the `(` opened here"
        case .firstDeclared: return "first declared here"
        case .firstGiven: return "first given here"
        case .firstDefined: return "first defined here"
        }
    }
}

/// "did you mean `candidate`?", the hint for a likely typo.
public func didYouMean(_ candidate: String) -> String {
    "did you mean `\(candidate)`?"
}

/// Upper-case hexadecimal, zero-padded to `digits`.
private func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}

/// A half-open range of UTF-8 byte offsets into a ``SourceFile``.
public struct SourceRange: Hashable, Sendable {
    public var start: Int
    public var end: Int
    public init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = max(start, end)
    }
    /// The smallest range covering both.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(min(start, other.start), max(end, other.end))
    }
    public static let none = SourceRange(0, 0)
}

/// A 1-based line and column. Columns count Unicode scalars, so a tab or an
/// `é` is one column, and so is each stretch of invalid UTF-8 that the
/// rendered source line shows as one `�`.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var description: String { "\(line):\(column)" }
}

/// The text of one `.anim` file with its name, as UTF-8 bytes plus a line table.
public struct SourceFile: Sendable {
    public let name: String
    public let bytes: [UInt8]
    /// Byte offset at which each line starts, as 32-bit offsets (a long
    /// script holds its source and this table until its scene is sampled,
    /// so the table is a third of an `[Int]` that grew by doubling). Offsets
    /// past 4 GiB, which no script that fits in memory with its syntax
    /// reaches, are clamped (as ``PackedRange`` does): lines are then found
    /// wrongly, never out of bounds.
    private let lineStarts: [UInt32]

    /// Decodes nothing: the lexer works on bytes and reports invalid UTF-8 itself.
    public init(name: String, bytes: [UInt8]) {
        // A UTF-8 byte-order mark (editors on Windows write one) is not part of
        // the text: dropped here, so offsets, lines and columns are the text's.
        let bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        self.name = name
        self.bytes = bytes
        // The C library's memchr (vectorised): it reads many bytes per
        // instruction, where a loop over the bytes takes several per byte. Bounds: each search covers
        // `[offset, count)` of the buffer, so the newline found is inside it.
        // Two passes: the lines are counted first, so the table is allocated once, to size.
        func eachLineStart(_ body: (Int) -> Void) {
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count, let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), buffer.count - offset) {
                    offset = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found)) + 1
                    body(offset)
                }
            }
        }
        var count = 1
        eachLineStart { _ in count += 1 }
        var starts: [UInt32] = []
        starts.reserveCapacity(count)
        starts.append(0)
        eachLineStart { starts.append(UInt32(clamping: $0)) }
        lineStarts = starts
    }

    /// How many lines (one more than the newlines).
    package var lineCount: Int { lineStarts.count }

    /// The byte offset at which line `index` (0-based, below ``lineCount``) starts.
    package func lineStart(_ index: Int) -> Int { Int(lineStarts[index]) }

    public init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    /// The line (0-based) holding a byte offset (clamped into the file), and where it starts.
    package func line(containing offset: Int) -> (index: Int, start: Int) {
        let clamped = min(max(offset, 0), bytes.count)
        // Last line start <= offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStart(mid) <= clamped { low = mid } else { high = mid - 1 }
        }
        return (low, lineStart(low))
    }

    /// Line and column of a byte offset.
    public func location(of offset: Int) -> SourceLocation {
        let clamped = min(max(offset, 0), bytes.count)
        let (low, start) = line(containing: clamped)
        var column = 1
        var ascii = true
        for index in start..<clamped where bytes[index] >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            column += clamped - start
        } else {
            // Count the scalars the rendered line shows (see `excerpt`), where
            // each maximal invalid UTF-8 sequence becomes one U+FFFD.
            column += String(decoding: bytes[start..<clamped], as: UTF8.self).unicodeScalars.count
        }
        return SourceLocation(line: low + 1, column: column)
    }

    /// The bytes of line `line` (1-based) without its terminator (`\n` or `\r\n`).
    func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        guard line >= 1, line <= lineStarts.count else { return [] }
        let start = lineStart(line - 1)
        var end = line < lineStarts.count ? lineStart(line) - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return bytes[start..<max(start, end)]
    }

    /// The source text of a range.
    public func text(_ range: SourceRange) -> String {
        let start = min(max(range.start, 0), bytes.count)
        let end = min(max(range.end, start), bytes.count)
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

/// Renders diagnostics as `FILE:LINE:COL: severity: message`, the numbered
/// source line, a caret under the range, then the hint and notes.
public func render(_ diagnostics: [Diagnostic], in file: SourceFile) -> String {
    var out = ""
    for diagnostic in diagnostics {
        out += render(diagnostic, in: file)
    }
    return out
}

/// Renders one diagnostic; see ``render(_:in:)-(_,SourceFile)``.
///
/// Nothing from the file, its name or the command line reaches the terminal
/// raw: control characters are written escaped (``escapingControls(_:)``).
public func render(_ diagnostic: Diagnostic, in file: SourceFile) -> String {
    var out = ""
    let name = escapingControls(file.name)
    let location = file.location(of: diagnostic.range.start)
    out += "\(name):\(location.line):\(location.column): \(diagnostic.severity.rawValue): \(escapingControls(diagnostic.message))\n"
    out += excerpt(diagnostic.range, in: file)
    if let hint = diagnostic.hint {
        out += "  hint: \(escapingControls(hint))\n"
    }
    for note in diagnostic.notes {
        let noteLocation = file.location(of: note.range.start)
        out += "\(name):\(noteLocation.line):\(noteLocation.column): note: \(escapingControls(note.message))\n"
        out += excerpt(note.range, in: file)
    }
    return out
}

/// Renders a diagnostic that has no place in a source file (a command-line
/// usage error, a file that cannot be read) in the same style as the others,
/// with `origin` (the program, or the file concerned) where the location
/// would be:
///
/// ```
/// animc: error: eval does not take --width
///   hint: --width is an option of timeline
/// ```
public func render(_ diagnostic: Diagnostic, origin: String) -> String {
    var out = "\(escapingControls(origin)): \(diagnostic.severity.rawValue): \(escapingControls(diagnostic.message))\n"
    if let hint = diagnostic.hint {
        out += "  hint: \(escapingControls(hint))\n"
    }
    for note in diagnostic.notes {
        out += "\(escapingControls(origin)): note: \(escapingControls(note.message))\n"
    }
    return out
}

/// How a character of a quoted source line is shown: `nil` (as it is), or an
/// escape such as `\u{1B}` for a character a terminal would obey instead of
/// showing: C0 controls (but tab, which the caret line repeats), DEL, C1
/// controls, and the bidirectional overrides and isolates, which reorder
/// what is shown.
func escaped(_ scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0x09: return nil
    case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
        return "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    default: return nil
    }
}

/// `text` with every character ``escaped(_:)`` escapes (and tabs) escaped.
func escapingControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0 == "\t" || escaped($0) != nil }) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
        if scalar == "\t" { out += "\\u{9}" } else if let escape = escaped(scalar) { out += escape } else { out.unicodeScalars.append(scalar) }
    }
    return out
}

/// At most this many characters of a source line are quoted: a longer line
/// is quoted as a window around the column, with `…` where it is cut.
let maxQuotedColumns = 100
/// How many characters a window shows before the column.
let quotedColumnsBefore = 40

/// The numbered source line of `range.start` with a caret line under it,
/// escaped (``escaped(_:)``) and cut to a window (``maxQuotedColumns``). Tabs
/// in the source are repeated in the caret line so the caret stays aligned.
private func excerpt(_ range: SourceRange, in file: SourceFile) -> String {
    let location = file.location(of: range.start)
    let lineText = String(decoding: file.lineBytes(location.line), as: UTF8.self)
    let number = String(location.line)
    let gutter = String(repeating: " ", count: number.count)
    // 0-based scalar columns: the range on this line, and the window shown.
    let length = lineText.unicodeScalars.count
    let start = location.column - 1
    let endLocation = file.location(of: range.end)
    let end = max(start + 1, endLocation.line == location.line ? endLocation.column - 1 : length)
    var windowStart = 0, windowEnd = length
    if length > maxQuotedColumns {
        windowStart = max(0, min(start - quotedColumnsBefore, length - maxQuotedColumns))
        windowEnd = windowStart + maxQuotedColumns
    }
    var shown = windowStart > 0 ? "…" : ""
    var caret = windowStart > 0 ? " " : ""
    var underline = 0
    var column = windowStart
    for scalar in lineText.unicodeScalars.dropFirst(windowStart).prefix(windowEnd - windowStart) {
        let escape = escaped(scalar)
        if let escape { shown += escape } else { shown.unicodeScalars.append(scalar) }
        let width = escape?.count ?? 1
        if column < start {
            caret += scalar == "\t" ? "\t" : String(repeating: " ", count: width)
        } else if column < end {
            underline += width
        }
        column += 1
    }
    if windowEnd < length { shown += "…" }
    // Past the end of the line (or of the window): one caret.
    if start >= column { caret += String(repeating: " ", count: max(0, start - column)) }
    caret += "^" + String(repeating: "~", count: max(0, underline - 1))
    return "  \(number) | \(shown)\n  \(gutter) | \(caret)\n"
}

/// The candidate closest to `word` by edit distance, if it is close enough to
/// be a likely typo (for "did you mean" hints); the first of the closest.
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    let target = Array(word.lowercased().unicodeScalars)
    let limit = max(1, min(3, (target.count + 2) / 3))
    var best: (String, Int)?
    // A file may have thousands of bindings: candidates are compared without
    // allocating, and each comparison stops as soon as it cannot win.
    var scalars: [Unicode.Scalar] = []
    var rows = EditDistanceRows()
    for candidate in candidates {
        // Only a distance within the limit, and below the best so far, matters.
        let bound = min(limit, best.map { $0.1 - 1 } ?? limit)
        if bound < 0 { break }   // an exact match: nothing can beat it
        scalars.removeAll(keepingCapacity: true)
        if candidate.utf8.allSatisfy({ $0 < 0x80 }) {
            // The distance is at least the difference in length.
            if abs(candidate.utf8.count - target.count) > bound { continue }
            for byte in candidate.utf8 {
                let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                scalars.append(Unicode.Scalar(lower))
            }
        } else {
            scalars.append(contentsOf: candidate.lowercased().unicodeScalars)
            if abs(scalars.count - target.count) > bound { continue }
        }
        let distance = editDistance(target, scalars, bound: bound, rows: &rows)
        if distance > bound { continue }
        best = (candidate, distance)
    }
    return best?.0
}

/// A name in backquotes for a message, shortened when it is long (the
/// source line under the message shows it whole).
func quoted(_ name: String) -> String {
    name.unicodeScalars.count > 32 ? "`\(String(name.unicodeScalars.prefix(32)))…`" : "`\(name)`"
}

/// Reusable rows for ``editDistance(_:_:bound:rows:)``.
private struct EditDistanceRows {
    var beforePrevious: [Int] = []
    var previous: [Int] = []
    var current: [Int] = []
}

/// The optimal string alignment distance (insertions, deletions,
/// substitutions and adjacent transpositions each cost one), or some value
/// above `bound` as soon as it is sure to exceed `bound`.
private func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], bound: Int, rows: inout EditDistanceRows) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    let width = b.count + 1
    if rows.current.count < width {
        rows.beforePrevious = [Int](repeating: 0, count: width)
        rows.previous = [Int](repeating: 0, count: width)
        rows.current = [Int](repeating: 0, count: width)
    }
    var j = 0
    while j < width {
        rows.previous[j] = j
        j += 1
    }
    // A row's cells come from the row before (and, by transposition, the one
    // before that plus one), so once both are past the bound, so is the rest.
    var previousMinimum = 0, beforePreviousMinimum = Int.max - 1
    var i = 1
    while i <= a.count {
        rows.current[0] = i
        var minimum = i
        j = 1
        while j < width {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var best = min(rows.previous[j] + 1, rows.current[j - 1] + 1, rows.previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                best = min(best, rows.beforePrevious[j - 2] + 1)
            }
            rows.current[j] = best
            minimum = min(minimum, best)
            j += 1
        }
        swap(&rows.beforePrevious, &rows.previous)
        swap(&rows.previous, &rows.current)
        beforePreviousMinimum = previousMinimum
        previousMinimum = minimum
        if min(previousMinimum, beforePreviousMinimum + 1) > bound { return bound + 1 }
        i += 1
    }
    return rows.previous[b.count]
}
