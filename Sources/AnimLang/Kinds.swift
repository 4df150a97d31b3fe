/// What is known of the names of a file while the parser reads it, apart
/// from the grammar: which names a `let` binds (so a name where a number,
/// a duration or an easing is written is a named value), which of those
/// name a number known before here (``constant(_:)``), the parameters of the
/// parameterised `let` being read and the kind of each of their uses
/// (``ParameterUse``), and the reserved words a `let` binds anyway.
///
/// The parser asks it ("is this a named value here?") and tells it ("a
/// `let` begins", "this parameter is used as a duration"); it holds no
/// tokens and reads no syntax, so a new grammar rule adds a method to the
/// parser alone, and a new kind of name a method here.
struct NameKinds {
    /// Every name a `let` binds in the file (found before parsing).
    private let letNames: LetNames
    /// How many `let`s have begun (``beginBinding()``): where in
    /// ``LetNames/inOrder`` the names bound just before are.
    private var letsRead = 0
    /// The parameters of the parameterised `let` whose body is being read,
    /// by name, with their uses so far.
    private var parameters: [String: Int] = [:]
    private var parameterUses: [[ParameterUse]] = []
    /// What a tween's values must be, for a parameter written as one: a
    /// number (`grow`), a colour (`color`), a point (`move`), any (`animate`).
    var stopKind: ParameterKind = .number
    /// The number each `let` before here names, when it names a number
    /// (`let lift = 12`, `let twice = lift * 2`): where a number is read at
    /// once (an easing's or a colour's arguments, an offset, a `view`'s
    /// initial value), such a name stands for it.
    private var constants: [String: Number] = [:]
    /// Reserved words already bound by a `let` (and reported there): using
    /// one as a name later is not a second error.
    private(set) var reservedBindings: Set<String> = []

    init(_ letNames: LetNames) {
        self.letNames = letNames
    }

    /// How many `let`s the file has (an upper bound on its items that are `let`s).
    var letCount: Int { letNames.count }

    // MARK: Questions

    /// Whether a `let` in the file binds `word`, looking first at the names
    /// of the `let` being read and the one before it.
    @inline(__always)
    func isLetName(_ word: String) -> Bool {
        letNames.contains(word, near: letsRead)
    }

    /// Whether `word` is a parameter of the `let` being read.
    @inline(__always)
    func isParameter(_ word: String) -> Bool {
        !parameters.isEmpty && parameters[word] != nil
    }

    /// Whether `word` names a `let` or a parameter, and so may stand for a value.
    @inline(__always)
    func namesValue(_ word: String) -> Bool {
        isLetName(word) || isParameter(word)
    }

    /// The number a `let` before here names, when it names one.
    @inline(__always)
    func constant(_ word: String) -> Number? {
        constants.isEmpty ? nil : constants[word]
    }

    // MARK: What the parser tells

    /// A `let` begins (its keyword is read).
    mutating func beginBinding() {
        letsRead += 1
    }

    /// A reserved word was bound by a `let` (and reported there).
    mutating func bindReserved(_ name: String) {
        reservedBindings.insert(name)
    }

    /// A parameter of the `let` being read, at `index` in its list; a name
    /// given twice keeps its first place.
    mutating func declareParameter(_ name: String, index: Int) {
        parameters[name] = parameters[name] ?? index
        parameterUses.append([])
    }

    /// A parameter's default is read in the file's scope: the parameters so
    /// far are hidden (and given back by ``showParameters(_:)``).
    mutating func hideParameters() -> [String: Int] {
        defer { parameters = [:] }
        return parameters
    }

    mutating func showParameters(_ hidden: [String: Int]) {
        parameters = hidden
    }

    /// The uses of the parameter at `index`, in source order.
    func uses(ofParameter index: Int) -> [ParameterUse] {
        parameterUses.indices.contains(index) ? parameterUses[index] : []
    }

    /// The `let` being read ends: its parameters go out of scope.
    mutating func endBinding() {
        parameters = [:]
        parameterUses = []
    }

    /// `let name = value` was read with no parameters: when `value` is a
    /// number (folded with the constants before it), `name` names it from here on.
    mutating func bound(_ name: String, to value: Expr) {
        guard case .value(.plain(.number(let number))) = value.kind, constants[name] == nil else { return }
        var known = constants
        let folded = number.formula.map { formula in
            formula.folded(&known) { constants, name, range in
                constants[name].map { Number(exact: $0.exact, value: $0.value, range: range) }
            } failed: { _, _ in }   // reported where it is used
        } ?? number
        if let folded, folded.value.isFinite { constants[name] = folded }
    }

    /// Records a use of `name` in a body, when it is a parameter.
    mutating func noteUse(_ name: String, _ role: ParameterUse.Role, at range: SourceRange) {
        guard !parameters.isEmpty, let index = parameters[name] else { return }
        parameterUses[index].append(ParameterUse(role, at: range))
    }

    /// Records the uses of parameters in a number: a name alone is of `bare`
    /// kind, names in arithmetic are of `inArithmetic`.
    mutating func noteUses(in number: Number, bare: ParameterKind, inArithmetic: ParameterKind = .number) {
        guard let formula = number.formula else { return }
        if let (name, range) = number.bareName { return noteUse(name, .kind(bare), at: range) }
        for (name, range) in formula.names { noteUse(name, .kind(inArithmetic), at: range) }
    }
}
