#!/usr/bin/env python3
"""The TextMate grammar of editors/vscode compiles with Oniguruma (the
engine VS Code's TextMate runs, through PyPI's onigurumacffi) and highlights
every example without an unmatched region.

The grammar uses `match` rules only (every token of the language lies on one
line), so the tokenizer here is TextMate's rule for them: at each position
the rule whose match starts earliest wins, ties going to the first in order,
an `include` standing for its rule in place. A region is unmatched when a
character other than white space is covered by no rule. Every easing name
the language knows (the names `animc lsp` completes after `with`) must be
one token of the easing scope, and every verb one of the verb scope.

Prints one line per failure and `N passed, M failed`; exits 1 on any failure.
"""

import argparse
import json
import os
import subprocess
import sys

import onigurumacffi

passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def load(path):
    grammar = json.load(open(path, encoding="utf-8"))
    repository = grammar.get("repository", {})
    rules = []

    def flatten(patterns, seen):
        for pattern in patterns:
            if "include" in pattern:
                name = pattern["include"].lstrip("#")
                if name in seen:
                    raise ValueError(f"include cycle at {name}")
                flatten([repository[name]], seen | {name})
            elif "match" in pattern:
                unsupported = set(pattern) - {"match", "name", "captures", "comment"}
                if unsupported:
                    raise ValueError(f"unsupported keys {unsupported}")
                rules.append((pattern, onigurumacffi.compile(pattern["match"])))
            else:
                raise ValueError(f"a rule this checker does not read: {sorted(pattern)}")

    flatten(grammar["patterns"], set())
    return grammar, rules


def tokenize(line, rules):
    """[(start, end, scope)] and the unmatched stretches of `line`."""
    tokens, unmatched = [], []
    position = 0
    while position < len(line):
        best = None
        for pattern, regex in rules:
            found = regex.search(line, position)
            if found and found.end() > found.start() and (best is None or found.start() < best[1].start()):
                best = (pattern, found)
        if best is None:
            rest = line[position:]
            if rest.strip():
                unmatched.append((position, len(line), rest))
            break
        pattern, found = best
        gap = line[position:found.start()]
        if gap.strip():
            unmatched.append((position, found.start(), gap))
        scope = pattern.get("name")
        if scope:
            tokens.append((found.start(), found.end(), scope))
        for group, capture in pattern.get("captures", {}).items():
            if found.start(int(group)) >= 0:
                tokens.append((found.start(int(group)), found.end(int(group)), capture["name"]))
        if not scope:
            # Every character of a rule without a name must be in a named capture.
            covered = set()
            for start, end, _ in tokens:
                covered.update(range(start, end))
            for index in range(found.start(), found.end()):
                if index not in covered and not line[index].isspace():
                    unmatched.append((index, index + 1, line[index]))
        position = found.end()
    return tokens, unmatched


def easing_names(animc):
    """The names `animc lsp` completes after `with` (one word each)."""
    def message(obj):
        body = json.dumps(obj).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    uri = "file:///grammar-check.anim"
    stream = [message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
              message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                  "uri": uri, "languageId": "anim", "version": 1, "text": "let x = fadeIn a with \n"}}}),
              message({"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion", "params": {
                  "textDocument": {"uri": uri}, "position": {"line": 0, "character": 22}}})]
    out = subprocess.run([animc, "lsp"], input=b"".join(stream), capture_output=True, timeout=60).stdout
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        length = int(head.split(b":")[1])
        reply = json.loads(rest[:length])
        out = rest[length:]
        if reply.get("id") == 2:
            return [item["label"] for item in reply["result"]["items"] if item.get("detail") == "easing"]
    return []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--grammar", default="editors/vscode/syntaxes/anim.tmLanguage.json")
    parser.add_argument("--animc", default=".build/debug/animc")
    args = parser.parse_args()
    try:
        grammar, rules = load(args.grammar)
        check("the grammar compiles with Oniguruma " + onigurumacffi.__onig_version__, True)
    except (ValueError, KeyError, onigurumacffi.OnigError) as error:
        check("the grammar compiles with Oniguruma", False, str(error))
        print(f"{passed} passed, {failed} failed")
        sys.exit(1)
    check("scope name", grammar.get("scopeName") == "source.anim", grammar.get("scopeName"))

    examples = sorted(os.path.join("examples", name) for name in os.listdir("examples") if name.endswith(".anim"))
    for path in examples:
        problems = []
        for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
            _, unmatched = tokenize(line, rules)
            problems += [f"{path}:{number}:{start + 1}: {text!r}" for start, _, text in unmatched]
        check(f"{path} has no unmatched region", not problems, "; ".join(problems[:5]))

    def single(word, scope):
        tokens, unmatched = tokenize(word, rules)
        return not unmatched and tokens == [(0, len(word), scope)]

    names = easing_names(args.animc)
    check("the server names the easings", len(names) > 40, f"{len(names)}")
    wrong = [name for name in names if not all(single(part, "support.constant.easing.anim") for part in name.split())]
    check("every easing name is one easing token", not wrong, f"{wrong}")
    verbs = ["shrink", "grow", "scale", "rotate", "fadeIn", "fadeOut", "fade", "animate", "color", "move"]
    check("every verb is one verb token", all(single(verb, "support.function.verb.anim") for verb in verbs))
    # A colour is no comment, a comment after code is one.
    tokens, _ = tokenize("view a color #f80 # a note", rules)
    check("a colour and a comment", (13, 17, "constant.other.color.anim") in tokens
          and (18, 26, "comment.line.anim") in tokens, f"{tokens}")
    # `in` inside `ease-in` is part of the easing, not the keyword.
    tokens, _ = tokenize("fadeIn a in 2s with ease-in", rules)
    check("ease-in is one token", (20, 27, "support.constant.easing.anim") in tokens
          and (9, 11, "keyword.control.anim") in tokens and (12, 14, "constant.numeric.anim") in tokens, f"{tokens}")
    # The extension's manifest points at the grammar and the language configuration, which has comments and brackets.
    folder = os.path.dirname(os.path.dirname(args.grammar))
    manifest = json.load(open(os.path.join(folder, "package.json"), encoding="utf-8"))
    contributes = manifest.get("contributes", {})
    grammars = contributes.get("grammars", [])
    languages = contributes.get("languages", [])
    check("package.json contributes the grammar", any(os.path.normpath(os.path.join(folder, g.get("path", ""))) ==
                                                     os.path.normpath(args.grammar) and g.get("scopeName") == "source.anim"
                                                     for g in grammars), f"{grammars}")
    configuration = languages[0].get("configuration", "") if languages else ""
    language = json.load(open(os.path.join(folder, configuration), encoding="utf-8")) if configuration else {}
    check("the language configuration has comments and brackets",
          language.get("comments", {}).get("lineComment") == "#" and ["(", ")"] in language.get("brackets", [])
          and ".anim" in (languages[0].get("extensions", []) if languages else []), f"{language}")
    check("the client starts `animc lsp`", os.path.exists(os.path.join(folder, manifest.get("main", "")))
          and '["lsp"]' in open(os.path.join(folder, manifest.get("main", "x")), encoding="utf-8").read()
          if os.path.exists(os.path.join(folder, manifest.get("main", "x"))) else False)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
