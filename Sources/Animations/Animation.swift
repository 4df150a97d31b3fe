#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The talk's animation value: a ``Scene`` (what changes when) together with
/// a way to read a value off it at any moment.
///
/// ```swift
/// final class View { var radius = 0.0; var rotation = 0.0; var alpha = 0.0 }
/// let circle = View(), square = View(), container = View()
/// let left = linear(from: 100, to: 10, in: 2.0).time(easeInOut).bind(circle, with: \.radius)
/// let right = linear(from: 0, to: 2 * Double.pi, in: 2.0).time(easeOut(1.5)).bind(square, with: \.rotation)
/// let fadeIn = linear(from: 0, to: 1, in: 1.0).time(easeInOut).bind(container, with: \.alpha)
/// let final = fadeIn * (left + right)      // final.duration == 3.0
/// _ = final.value(0.5)                     // circle.radius ≈ 94.1528, square.rotation ≈ 2.2021
/// ```
///
/// `*` is sequence and `+` is parallel; with `zero` (``cancelled``) and `one`
/// (``trivial``) they form a semiring (see ``Semiring`` for the laws, and
/// ``Scene`` for what each operation does to time).
///
/// Each animation reads **its own** value, as in the talk: every
/// `linear(from:to:in:)` animates properties of its own (`_N.value`), so
/// `zip(a, b)` reads `a` and `b` separately, and in `a.do(f) + b.do(g)` each
/// effect receives its own side's value. Reads follow the talk's
/// combinators: `a * b` reads only the side that is playing (`a` up to and
/// including its end, then `b`), `a + b` reads both and combines them with
/// ``Animatable/blend(_:)``. ``bind(_:with:)`` moves an animation onto a
/// property named after an object and a key path, and writes that property
/// whenever the animation is read, by ``value(_:)``.
///
/// The talk-style operations here state their preconditions (a non-negative
/// duration, which ``Seconds`` makes a compile-time matter, a non-negative
/// count, a monotone easing on a composite, no exact time overflow);
/// ``Scene`` offers the same operations as throwing functions. Reads are
/// closures nested as deeply as the expression that built the animation;
/// for programmatically generated choreography of tens of thousands of
/// levels, build a ``Scene`` (which has no depth limit) and sample its
/// ``CompiledScene``.
public struct Animation<A> {
    /// What changes when.
    public let scene: Scene
    /// Reads a value off the state of the scene at one moment, on this animation's own clock.
    let read: (Frame) -> A?
    private let cache: CompiledCache

    /// An animation of `scene`, read by `read`.
    public init(scene: Scene, read: @escaping (Frame) -> A?) {
        self.scene = scene
        self.read = read
        cache = CompiledCache(scene)
    }

    /// The duration in seconds; −∞ when cancelled (the max-plus reading).
    public var duration: Double {
        scene.duration?.seconds ?? -Double.infinity
    }

    /// The value at `progress` ∈ [0, 1] of the duration (clamped), running
    /// every bound write and `do` effect of the sides that play at that
    /// moment. `nil` when cancelled or trivial (as in the talk), or when
    /// nothing can be read.
    public func value(_ progress: Double) -> A? {
        guard let duration = scene.duration, !(duration.isZero && scene.hasNoSegments),
              let compiled = cache.compiled else { return nil }
        return read(Frame(scene: compiled, time: Animation.instant(progress, of: duration)))
    }

    /// The state of every property at `progress` ∈ [0, 1].
    public func frame(_ progress: Double) -> Frame? {
        guard let duration = scene.duration, let compiled = cache.compiled else { return nil }
        return Frame(scene: compiled, time: Animation.instant(progress, of: duration))
    }

    private static func instant(_ progress: Double, of duration: Time) -> Instant {
        let p = progress.isNaN ? 0 : min(max(progress, 0), 1)
        if p == 0 { return Instant(.zero) }
        if p == 1 { return Instant(duration) }
        return Instant(approximately: p * duration.seconds)
    }

    // MARK: Semiring

    /// The cancelled animation.
    public static var cancelled: Animation { Animation(scene: .zero) { _ in nil } }
    /// The trivial animation: no time, nothing happens.
    public static var trivial: Animation { Animation(scene: .one) { _ in nil } }

    // MARK: Modifiers

    /// Eases the animation (see ``Scene/eased(_:)``). Precondition: on a
    /// composite, `easing` is monotone.
    public func time(_ easing: Easing) -> Animation {
        let read = self.read
        let span = scene.duration ?? .zero
        return Animation(scene: must { () throws(AnimationError) in try scene.eased(easing) }) { frame in
            read(frame.warped(by: easing, span: span))
        }
    }

    /// Plays backwards.
    public var reversed: Animation {
        let read = self.read
        let span = scene.duration ?? .zero
        return Animation(scene: must { () throws(AnimationError) in try scene.reversed }) { frame in read(frame.reversed(in: span)) }
    }

    /// `x * x.reversed`.
    public var looped: Animation {
        Animation.sequence(self, reversed)
    }

    /// `count` copies in sequence; precondition: `count ≥ 0`.
    public func repeating(count: Int) -> Animation {
        let read = self.read
        let period = scene.duration ?? .zero
        return Animation(scene: must { () throws(AnimationError) in try scene.repeated(count) }) { frame in
            guard count > 0, period.isPositive else { return read(frame) }
            // The copy playing now, the earlier one at a boundary.
            let copy = frame.local.copy(ofPeriod: period, count: count, earlier: true) ?? count - 1
            // copy < count, so copy · period is within the repetition's duration, which is exact time.
            return read(frame.shifted(by: (try? period.multiplied(by: Int64(copy))) ?? .zero))
        }
    }

    /// Starts `delay` later.
    public func delayed(by delay: Seconds) -> Animation {
        let read = self.read
        return Animation(scene: must { () throws(AnimationError) in try scene.delayed(by: delay.time) }) { frame in
            read(frame.shifted(by: delay.time))
        }
    }

    /// Retimed to last `duration`; precondition: zero when this animation lasts zero.
    public func retimed(to duration: Seconds) -> Animation {
        let read = self.read
        let span = scene.duration ?? .zero
        return Animation(scene: must { () throws(AnimationError) in try scene.retimed(to: duration.time) }) { frame in
            guard span.isPositive, let factor = try? duration.time.divided(by: span) else { return read(frame) }
            return read(frame.scaled(by: factor))
        }
    }

    /// The stretch `[start, end]` of this animation, played from 0
    /// (docs/semantics.md §8.5; ``Scene/played(from:to:)``): `end` defaults to the end and may
    /// pass it (the end values then hold); duration `end − start`. A read at
    /// `t` reads this animation at `start + t`. Precondition: `start ≤ end`,
    /// and an end is given for an animation that repeats forever.
    ///
    /// Laws: `x.played(from: 0, to: D) = x` (for `x` without relative tweens);
    /// `x.played(from: a, to: b).played(from: c, to: d) = x.played(from: a + c, to: a + d)`
    /// for `0 ≤ c ≤ d ≤ b − a`.
    ///
    /// ```swift
    /// let slide = linear(from: 0.0, to: 100.0, in: 2.0)
    /// let middle = slide.played(from: 0.5, to: 1.5)   // 25 → 75 in 1 s
    /// _ = middle.value(0.5)                            // 50
    /// ```
    public func played(from start: Seconds = 0, to end: Seconds? = nil) -> Animation {
        let read = self.read
        let offset = start.time
        return Animation(scene: must { () throws(AnimationError) in try scene.played(from: offset, to: end?.time) }) { frame in
            // An offset within the scene negates exactly (only the least Int64 numerator cannot).
            read(frame.shifted(by: (try? offset.negated()) ?? .zero))
        }
    }

    /// Reads `transform(value)` instead of the value.
    public func map<B>(_ transform: @escaping (A) -> B) -> Animation<B> {
        let read = self.read
        return Animation<B>(scene: scene) { frame in read(frame).map(transform) }
    }

    /// Runs `effect` with the value every time the animation is read.
    public func `do`(_ effect: @escaping (A) -> Void) -> Animation {
        let read = self.read
        return Animation(scene: scene) { frame in
            let value = read(frame)
            if let value { effect(value) }
            return value
        }
    }

    /// Sequence, for any value type: `rhs` starts when `lhs` ends; a read
    /// reads only the side that is playing. Duration `Dx + Dy`.
    /// Precondition: the total duration fits exact time.
    static func sequence(_ lhs: Animation, _ rhs: Animation) -> Animation {
        let readFirst = lhs.read, readSecond = rhs.read
        let split = lhs.scene.duration ?? .zero
        let scene = must { () throws(AnimationError) in try lhs.scene.then(rhs.scene) }
        if lhs.scene.isCancelled || rhs.scene.isCancelled { return Animation(scene: scene) { _ in nil } }
        return Animation(scene: scene) { frame in
            frame.local <= Instant(split) ? readFirst(frame) : readSecond(frame.shifted(by: split))
        }
    }
}

/// Both animations in parallel, read together: each side reads its own value.
public func zip<A, B>(_ first: Animation<A>, _ second: Animation<B>) -> Animation<(A, B)> {
    let readFirst = first.read, readSecond = second.read
    return Animation(scene: first.scene.alongside(second.scene)) { frame in
        guard let a = readFirst(frame), let b = readSecond(frame) else { return nil }
        return (a, b)
    }
}

extension Animation: Semiring where A: Animatable {
    public static var zero: Animation { cancelled }
    public static var one: Animation { trivial }

    /// Sequence: `rhs` starts when `lhs` ends. Duration `Dx + Dy`.
    /// Laws: associative, identity `one`, annihilator `zero` on both sides.
    /// Precondition: the total duration fits exact time.
    public static func * (lhs: Animation, rhs: Animation) -> Animation {
        sequence(lhs, rhs)
    }

    /// `self`, then `next` starting `overlap` before `self` ends
    /// (docs/semantics.md §8.1): `self + next.delayed(by: duration − overlap)`, lasting
    /// `max(Dx, Dx − D + Dy)`.
    /// Laws: `a.then(b, overlapping: 0) = a * b` and
    /// `a.then(b, overlapping: a.duration) = a + b` in time (what plays
    /// when). Precondition: `overlap` is at most `self`'s duration.
    public func then(_ next: Animation, overlapping overlap: Seconds) -> Animation {
        let start = must { () throws(AnimationError) in try (scene.duration ?? .zero).subtracting(overlap.time) }
        guard let delay = Seconds(start) else { preconditionFailure("the overlap is longer than the animation before it") }
        return self + next.delayed(by: delay)
    }

    /// Parallel: both start together, and a read combines both sides' values
    /// with ``Animatable/blend(_:)``. Duration `max(Dx, Dy)`.
    /// Laws: associative, commutative, idempotent, identity `zero`.
    public static func + (lhs: Animation, rhs: Animation) -> Animation {
        let readFirst = lhs.read, readSecond = rhs.read
        return Animation(scene: lhs.scene.alongside(rhs.scene)) { frame in
            switch (readFirst(frame), readSecond(frame)) {
            case (nil, nil): return nil
            case (let value?, nil), (nil, let value?): return value
            case (let a?, let b?): return A.blend([a, b])
            }
        }
    }
}

/// A non-negative, finite number of seconds: what the talk's API takes for
/// durations and delays. A literal (`2.0`, `1`) is one; a computed `Double`
/// becomes one through the failable ``init(_:)``, so a negative or
/// non-finite duration is handled where it is computed, never a crash
/// inside the library.
///
/// ```swift
/// linear(from: 0, to: 1, in: 2.0)                    // a literal
/// if let d = Seconds(computed) { linear(from: 0, to: 1, in: d) }
/// ```
public struct Seconds: Hashable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// The exact time: the shortest decimal that reads back as the number given.
    public let time: Time

    /// `nil` for a negative, infinite or NaN number, or one too large or too
    /// finely divided for exact time.
    public init?(_ seconds: Double) {
        guard seconds.isFinite, seconds >= 0, let time = Time(seconds: seconds) else { return nil }
        self.time = time
    }

    /// An exact time; `nil` when negative.
    public init?(_ time: Time) {
        guard !time.isNegative else { return nil }
        self.time = time
    }

    /// A literal number of seconds. Precondition: the literal is not negative
    /// (a mistake in the program's text, not in a value it computed).
    public init(floatLiteral value: Double) {
        guard let seconds = Seconds(value) else { preconditionFailure("a duration must be finite and not negative (got \(value))") }
        self = seconds
    }

    public init(integerLiteral value: Int) {
        self.init(floatLiteral: Double(value))
    }
}

// MARK: - Leaves

/// The next anonymous property's number: every unbound animation animates properties of its own.
private let anonymousCount = AnonymousCounter()

/// A counter shared by threads, behind a pthread mutex rather than `Atomic`:
/// importing Synchronization links one more library into every program,
/// which every start-up then loads.
private final class AnonymousCounter: @unchecked Sendable {
    /// Allocated once and never freed: the counter lives as long as the process.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Guarded by `mutex`.
    private var count = 0

    init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    /// The next number: 1, 2, 3, …
    func next() -> Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        count += 1
        return count
    }
}

extension Animation where A: Animatable {
    /// A tween from `from` to `to` over `duration` (linear; ease it with
    /// ``time(_:)``), on properties of its own (`_N.value`, or `_N.x` and
    /// `_N.y` for a point). Throws for a non-finite value or mismatched kinds.
    public static func tween(from: A, to: A, in duration: Seconds) throws(AnimationError) -> Animation<A> {
        let view = "_\(anonymousCount.next())"
        let properties = A.channels.map { Property(view: view, name: $0) }
        let starts = from.channelValues, ends = to.channelValues
        guard starts.count == properties.count, ends.count == properties.count else {
            throw .invalidSampling("\(A.self) gives \(starts.count) values for \(properties.count) channels")
        }
        var parts: [Scene] = []
        for index in properties.indices {
            parts.append(try Scene.tween(properties[index], from: starts[index], to: ends[index], duration: duration.time))
        }
        return Animation(scene: Scene.parallel(parts)) { frame in frame.read(properties) }
    }

    /// A tween from wherever its property is when it starts to `to`
    /// (docs/semantics.md §7.1), over `duration`. On a property of its own it starts
    /// from the neutral value (0; 1 for opacity and scales); ``bind(_:with:)``
    /// several onto one property and each starts where the one before left it.
    public static func tween(to target: A, in duration: Seconds) throws(AnimationError) -> Animation<A> {
        try relative(target, in: duration, by: false)
    }

    /// A tween from wherever its property is when it starts, `c`, to `c + change`
    /// (numbers and points; a colour throws: colours take ``tween(to:in:)``).
    ///
    /// ```swift
    /// final class Card { var y = 40.0 }
    /// let card = Card()
    /// let nudge = linear(by: -12.0, in: 0.3).bind(card, with: \.y)
    /// let bob = nudge * nudge                 // y: 0 → −12 → −24 on the bound property
    /// ```
    public static func tween(by change: A, in duration: Seconds) throws(AnimationError) -> Animation<A> {
        try relative(change, in: duration, by: true)
    }

    private static func relative(_ value: A, in duration: Seconds, by: Bool) throws(AnimationError) -> Animation<A> {
        let view = "_\(anonymousCount.next())"
        let properties = A.channels.map { Property(view: view, name: $0) }
        let values = value.channelValues
        guard values.count == properties.count else {
            throw .invalidSampling("\(A.self) gives \(values.count) values for \(properties.count) channels")
        }
        var parts: [Scene] = []
        for index in properties.indices {
            let tween = by ? try Tween(property: properties[index], by: values[index], duration: duration.time)
                           : try Tween(property: properties[index], to: values[index], duration: duration.time)
            parts.append(Scene.tween(tween))
        }
        return Animation(scene: Scene.parallel(parts)) { frame in frame.read(properties) }
    }

    /// Moves the animation onto properties of its own, named after `object`
    /// and `keyPath` (`ClassName#id.keyPath`, and `….x`, `….y` for a point),
    /// and writes `object[keyPath: keyPath]` with their state every time
    /// the animation is read (only while its side plays, as for `do`).
    ///
    /// Every unbound property of the animation moves onto the bound one (a
    /// composite bound as a whole animates one property), and the value
    /// written is that property's state by the sampling rule: what a table of
    /// the scene shows. Bind leaves, and put `do` effects after `bind`.
    public func bind<Root: AnyObject>(_ object: Root, with keyPath: ReferenceWritableKeyPath<Root, A>) -> Animation<A> {
        let view = "\(Root.self)#\(UInt(bitPattern: ObjectIdentifier(object).hashValue))"
        let name = "\(keyPath)"
        let channels = A.channels
        let bound = channels.map { Property(view: view, name: channels.count == 1 ? name : "\(name).\($0)") }
        var scene = self.scene
        if let term = scene.term {
            scene = Scene(root: term.mappingTweens { tween in
                guard tween.property.view.hasPrefix("_"), let index = channels.firstIndex(of: tween.property.name) else { return tween }
                return tween.with(property: bound[index])
            })
        }
        return Animation(scene: scene) { frame in
            guard let value = frame.read(bound) as A? else { return nil }
            object[keyPath: keyPath] = value
            return value
        }
    }
}

/// The talk's `linear(from:to:in:)`: a linear tween between two numbers, on a
/// property of its own. `in` takes a literal or a checked ``Seconds``.
/// Precondition: both ends are finite.
public func linear<F: BinaryFloatingPoint & Animatable>(from: F, to: F, in duration: Seconds) -> Animation<F> {
    must { () throws(AnimationError) in try Animation.tween(from: from, to: to, in: duration) }
}

/// A linear tween between two values of any ``Animatable`` type (colours,
/// points, …). Precondition: every component is finite.
public func linear<A: Animatable>(from: A, to: A, in duration: Seconds) -> Animation<A> {
    must { () throws(AnimationError) in try Animation.tween(from: from, to: to, in: duration) }
}

/// A linear tween from wherever its property is when it starts to `to`
/// (see ``Animation/tween(to:in:)``). Precondition: every component is finite.
public func linear<A: Animatable>(to: A, in duration: Seconds) -> Animation<A> {
    must { () throws(AnimationError) in try Animation.tween(to: to, in: duration) }
}

/// A linear tween from wherever its property is, `c`, to `c + by` (see
/// ``Animation/tween(by:in:)``). Precondition: finite numbers or points, not colours.
public func linear<A: Animatable>(by change: A, in duration: Seconds) -> Animation<A> {
    must { () throws(AnimationError) in try Animation.tween(by: change, in: duration) }
}

/// The state of every property of a compiled scene at one moment, computed
/// on demand, seen from one animation inside it.
public struct Frame {
    let scene: CompiledScene
    /// The moment, in the scene's time.
    public let time: Instant
    /// From the scene's time to the reading animation's own time.
    let path: Path

    init(scene: CompiledScene, time: Instant, path: Path = .identity) {
        self.scene = scene
        self.time = time
        self.path = path
    }

    /// The state of `property` by the sampling rule, or `nil` if nothing animates it.
    public subscript(property: Property) -> Value? {
        scene.value(of: property, at: time)
    }

    /// The moment on the reading animation's own clock.
    var local: Instant {
        if let collapse = path.collapse { return collapse.point }
        return path.forward(time)
    }

    /// A value made of the properties' states, one per channel.
    func read<A: Animatable>(_ properties: [Property]) -> A? {
        var values: [Value] = []
        for property in properties {
            guard let value = self[property] else { return nil }
            values.append(value)
        }
        return A(channelValues: values)
    }

    /// The same moment seen from a part that starts `offset` later.
    /// (This and the three below move the path within the scene's own span,
    /// which is exact time; on overflow the path stays as it was, and the
    /// value read is the double's, as for any inexact instant.)
    func shifted(by offset: Time) -> Frame {
        Frame(scene: scene, time: time, path: (try? path.shifted(by: offset)) ?? path)
    }

    func reversed(in span: Time) -> Frame {
        Frame(scene: scene, time: time, path: (try? path.reversed(in: span)) ?? path)
    }

    func scaled(by factor: Time) -> Frame {
        Frame(scene: scene, time: time, path: (try? path.scaled(by: factor)) ?? path)
    }

    func warped(by easing: Easing, span: Time) -> Frame {
        guard span.isPositive else { return self }
        return Frame(scene: scene, time: time, path: (try? path.warped(by: easing, span: span)) ?? path)
    }
}

/// Compiles a scene once, on first use.
private final class CompiledCache {
    private let scene: Scene
    private var done = false
    private var value: CompiledScene?

    init(_ scene: Scene) {
        self.scene = scene
    }

    var compiled: CompiledScene? {
        if !done {
            value = try? scene.compile()
            done = true
        }
        return value
    }
}

/// Runs a throwing construction whose failure is a documented precondition
/// violation of the talk-style API.
func must<T>(_ body: () throws(AnimationError) -> T) -> T {
    do {
        return try body()
    } catch {
        preconditionFailure("animation precondition failed: \(error)")
    }
}
