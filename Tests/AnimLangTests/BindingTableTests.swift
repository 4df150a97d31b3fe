import Testing
import Animations
@testable import AnimLang

/// ``BindingTable`` refers to the program's items by place (no copies of
/// the bindings): its invariants, and the cycle reports whose edges the
/// resolver reads again (``Resolver/edgeRange``) instead of keeping where each is written.
struct BindingTableTests {
    static let source = """
        view v x 0
        let a = fadeIn v
        view w x 1
        let b = a ; fadeOut v
        let a = grow w from 1 to 2
        let f(x) = fadeIn x
        let n = 2s
        """

    @Test func eachNameIsNumberedOnceAtItsFirstBinding() {
        let program = parse(SourceFile(name: "t.anim", text: Self.source)).program
        let table = resolve(program).bindings
        #expect(table.count == 4)   // a, b, f, n: the second `a` is not numbered
        #expect(Set(table.keys) == ["a", "b", "f", "n"])
        for name in ["a", "b", "f", "n"] {
            let number = table.index(forKey: name)
            #expect(number != nil)
            guard let number else { continue }
            // The number's place is a binding of that name among the program's items.
            #expect(program.items.indices.contains(table.position(of: number)))
            guard case .binding(let binding) = program.items[table.position(of: number)] else {
                Issue.record("\(name) is not at a binding")
                continue
            }
            #expect(binding.name == name)
            #expect(table[name] == binding)
            #expect(table[number: number] == binding)
            #expect(table.name(number) == name)
        }
        // The first `a`, not the second.
        #expect(table["a"]?.value.kind == program.bindings[0].value.kind)
        #expect(table["a"]?.range == program.bindings[0].range)
        #expect(table["zzz"] == nil)
        #expect(table[number: 4] == nil)
        #expect(table[number: -1] == nil)
        // Numbered in order of first binding.
        #expect((0..<table.count).map(table.name) == ["a", "b", "f", "n"])
    }

    @Test func takingAnExpressionLeavesOneWithItsRanges() {
        let program = parse(SourceFile(name: "t.anim", text: Self.source)).program
        var table = resolve(program).bindings
        guard let number = table.index(forKey: "b"), let before = table["b"] else {
            Issue.record("no `b`")
            return
        }
        let taken = table.takeExpression(number)
        #expect(taken == before.value)
        #expect(table["b"]?.value == Expr(.one))
        #expect(table["b"]?.value.range == before.value.range)
        #expect(table["b"]?.range == before.range)
        #expect(table["b"]?.name == "b")
        #expect(table.takeExpression(99) == nil)
        // The program the table was made from keeps its expression (the items are copied on write).
        #expect(program.bindings[1].value == before.value)
    }

    /// Each cycle is reported where it closes: a name, or an argument naming a binding.
    @Test(arguments: [
        ("let a = fadeIn v ; c ; b\nlet b = fadeOut v ; a\nlet c = grow v from 1 to 2", "t.anim:2:21: error: `a` refers to itself through `b`"),
        ("let f(v) = fadeIn v\nlet b = a || grow w from 1 to 2\nlet a = fadeOut w ; f(b)", "t.anim:3:23: error: `b` refers to itself through `a`"),
        ("let f(v) = fadeIn v\nlet a = fadeOut w ; f(b)\nlet b = a || grow w from 1 to 2", "t.anim:3:9: error: `a` refers to itself through `b`"),
        ("let a = a ; fadeIn v", "t.anim:1:9: error: `a` refers to itself"),
    ])
    func cyclesAreReportedWhereTheyClose(_ source: String, _ expected: String) {
        let file = SourceFile(name: "t.anim", text: source)
        let rendered = render(run(file).diagnostics, in: file)
        #expect(rendered.hasPrefix(expected))
    }

    /// A name is the term of the binding it names, whether that binding is
    /// the one lowered just before (looked up without the table) or not,
    /// and an argument of the same name inside a call is the argument.
    @Test func namesAreTheTermsTheyName() {
        let source = """
            let a = fadeIn v
            let b = a ; fadeOut v
            let c = a ; b
            let f(b) = b || a
            let d = f(grow w from 1 to 2)
            """
        let file = SourceFile(name: "t.anim", text: source)
        for taking in [false, true] {
            var resolved = resolve(parse(file).program)
            let lowering: Lowering
            if taking {
                resolved.program = Program(items: [])
                lowering = lower(taking: &resolved)
            } else {
                lowering = lower(resolved)
            }
            #expect(lowering.diagnostics.isEmpty)
            let terms = lowering.terms
            guard let a = terms["a"], let b = terms["b"], let c = terms["c"], let d = terms["d"] else {
                Issue.record("missing terms: \(terms.keys.sorted())")
                continue
            }
            #expect(b.children.first === a)
            #expect(c.children.count == 2)
            #expect(c.children.first === a)
            #expect(c.children.last === b)
            // In the body of `f`, `b` is the argument, not the binding lowered before.
            #expect(d.children.count == 2)
            #expect(d.children.first !== b)
            #expect(d.children.last === a)
        }
    }
}
