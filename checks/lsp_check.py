#!/usr/bin/env python3
"""`animc lsp` driven by real LSP clients (issue 24).

* pygls's client (PyPI): its lsprotocol types structure every message the
  server sends; on top of that every result is structured again here into
  the exact type LSP 3.17 gives the method, so a wrong field fails.
* a raw session over pipes: standard output holds nothing but framed
  messages, each of which validates; a malformed message gets a JSON-RPC
  error and the server keeps serving.
* Neovim's built-in client, headless (checks/lsp_nvim.lua): diagnostics
  land at their ranges, hover, completion, go to definition, the fix clears
  them; a code action, a rename and a format applied as a user does.
* The writing half (issue 38) in each: code actions, rename, formatting,
  signature help, inlay hints, highlights, folding, semantic tokens.

Each scenario opens a file with two mistakes whose places are worked out by
hand from the text, then fixes it. Prints `N passed, M failed`; exits 1 on
any failure.
"""

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile

from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.lsp.client import LanguageClient

BROKEN = """view card opacity 0
let enter = fadeIn card in 300ms with ease-inout
let leave = fadeOut card in 200ms
let final = enter ; wait 100ms ; leav
"""
FIXED = BROKEN.replace("ease-inout", "ease-in-out").replace("; leav\n", "; leave\n")
# By hand: line 1 is `let enter = fadeIn card in 300ms with ease-inout`, the
# easing after 38 characters, 10 long; line 3 `let final = enter ; wait 100ms ; leav`,
# `leav` after 33.
EXPECTED = [((1, 38), (1, 48), "unknown-easing", 1), ((3, 33), (3, 37), "unknown-name", 1)]

converter = get_converter()
passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def apply(text, edits):
    """`text` with LSP TextEdits applied (ASCII text: characters are UTF-16 units)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    def offset(position):
        return offsets[position.line] + position.character
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def spans(diagnostics):
    return sorted(((d.range.start.line, d.range.start.character), (d.range.end.line, d.range.end.character),
                   d.code, int(d.severity)) for d in diagnostics)


async def pygls_session(animc):
    client = LanguageClient("lsp-check", "1")
    published = {}
    arrived = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams):
        published[params.uri] = params
        arrived.set()

    async def wait_diagnostics(uri):
        for _ in range(100):
            if uri in published:
                return published.pop(uri)
            arrived.clear()
            try:
                await asyncio.wait_for(arrived.wait(), 0.1)
            except asyncio.TimeoutError:
                pass
        return None

    await client.start_io(animc, "lsp")
    result = await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(general=types.GeneralClientCapabilities(position_encodings=["utf-16"]))))
    caps = result.capabilities
    check("initialize: capabilities", caps.hover_provider and caps.definition_provider and caps.references_provider
          and caps.document_symbol_provider and caps.completion_provider is not None
          and caps.position_encoding == types.PositionEncodingKind.Utf16
          and caps.document_formatting_provider and caps.document_range_formatting_provider
          and caps.rename_provider.prepare_provider and caps.code_action_provider is not None
          and caps.signature_help_provider is not None and caps.inlay_hint_provider and caps.document_highlight_provider
          and caps.folding_range_provider and caps.semantic_tokens_provider.full, repr(caps))
    client.initialized(types.InitializedParams())

    uri = "file:///tmp/lsp-check/broken.anim"
    document = types.TextDocumentIdentifier(uri=uri)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="anim", version=1, text=BROKEN)))
    params = await wait_diagnostics(uri)
    got = spans(params.diagnostics) if params else None
    check("pygls: diagnostics at their ranges, codes and severities", got == EXPECTED, f"{got}")
    if params:
        easing = next((d for d in params.diagnostics if d.code == "unknown-easing"), None)
        check("pygls: the hint is in the message", easing is not None
              and easing.message == "unknown easing `ease-inout`\nhint: did you mean `ease-in-out`?", repr(easing))

    def at(line, character):
        return dict(text_document=document, position=types.Position(line=line, character=character))

    # Hover on `enter` in line 3 (characters 12..17): a fade in 300ms.
    hover = await client.text_document_hover_async(types.HoverParams(**at(3, 14)))
    value = hover.contents.value if hover else ""
    check("pygls: hover on a let gives its duration", hover is not None and "duration: 0.3s" in value
          and "card.opacity" in value, repr(hover))
    check("pygls: hover range", hover is not None and hover.range == types.Range(
        start=types.Position(line=3, character=12), end=types.Position(line=3, character=17)), repr(hover and hover.range))

    # Completion after `with ` on a new line.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=BROKEN + "let x = leave with ")]))
    await wait_diagnostics(uri)
    completion = await client.text_document_completion_async(types.CompletionParams(**at(4, 19)))
    labels = [item.label for item in (completion.items if isinstance(completion, types.CompletionList) else completion or [])]
    check("pygls: completion after `with` offers easings", "ease-in-out" in labels and "linear" in labels, f"{labels[:10]}")

    # Go to definition of `enter` (line 3) → `let enter` on line 1, characters 4..9.
    definition = await client.text_document_definition_async(types.DefinitionParams(**at(3, 13)))
    location = definition[0] if isinstance(definition, list) else definition
    check("pygls: definition", isinstance(location, types.Location) and location.uri == uri and location.range == types.Range(
        start=types.Position(line=1, character=4), end=types.Position(line=1, character=9)), repr(definition))

    references = await client.text_document_references_async(types.ReferenceParams(
        context=types.ReferenceContext(include_declaration=True), **at(0, 6)))
    check("pygls: references of a view", [r.range.start.line for r in references or []] == [0, 1, 2], repr(references))

    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=document))
    names = [(s.name, s.detail) for s in symbols or []]
    check("pygls: document symbols with durations", names[:3] == [("card", "opacity 0"), ("enter", "an animation, 0.3s"),
                                                               ("leave", "an animation, 0.2s")], f"{names}")

    # A quick fix for the misspelt easing (line 1, 38..48): its edit writes `ease-in-out`.
    easing_range = types.Range(start=types.Position(line=1, character=38), end=types.Position(line=1, character=48))
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=document, range=easing_range, context=types.CodeActionContext(diagnostics=[])))
    fix = next((a for a in actions or [] if isinstance(a, types.CodeAction) and a.kind == types.CodeActionKind.QuickFix), None)
    edits = fix.edit.changes.get(uri, []) if fix and fix.edit and fix.edit.changes else []
    check("pygls: a quick fix replaces the misspelt easing", [(e.range, e.new_text) for e in edits] == [(easing_range, "ease-in-out")],
          repr(actions))

    # Fix the file: the diagnostics are cleared.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=FIXED)]))
    params = await wait_diagnostics(uri)
    check("pygls: fixing the file clears the diagnostics", params is not None and len(params.diagnostics) == 0, repr(params))

    # Rename `enter` (line 1, 4..9) to `intro`: its declaration and its use in line 3 (12..17).
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(**at(1, 5)))
    check("pygls: prepareRename gives the name's range", getattr(prepared, "range", prepared) == types.Range(
        start=types.Position(line=1, character=4), end=types.Position(line=1, character=9)), repr(prepared))
    renamed = await client.text_document_rename_async(types.RenameParams(new_name="intro", **at(1, 5)))
    edits = renamed.changes.get(uri, []) if renamed and renamed.changes else []
    check("pygls: rename edits every place", apply(FIXED, edits) == FIXED.replace("enter", "intro"), repr(renamed))
    try:
        await client.text_document_rename_async(types.RenameParams(new_name="leave", **at(1, 5)))
        check("pygls: a rename to a taken name is refused", False, "accepted")
    except Exception as error:  # noqa: BLE001 - the refusal is a JSON-RPC error
        check("pygls: a rename to a taken name is refused", "taken" in str(error), str(error))

    # Formatting a file written tightly gives the canonical layout back.
    tight = FIXED.replace(" ; ", ";").replace("card in", "card  in")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=4),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=tight)]))
    await wait_diagnostics(uri)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=document, options=types.FormattingOptions(tab_size=2, insert_spaces=True)))
    check("pygls: formatting", apply(tight, edits or []) == FIXED, repr(edits))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=5),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=FIXED + "let pop(v, d = 1s) = fadeIn v in d\nlet x = pop(card, ")]))
    await wait_diagnostics(uri)
    help = await client.text_document_signature_help_async(types.SignatureHelpParams(**at(5, 18)))
    check("pygls: signature help", help is not None and help.signatures[0].label == "pop(v, d = 1s)" and help.active_parameter == 1,
          repr(help))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=6),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=FIXED)]))
    await wait_diagnostics(uri)
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=document, range=types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=4, character=0))))
    # enter 0.3s after `enter` (1, 9), leave 0.2s (2, 9), final 0.3 + 0.1 + 0.2 = 0.6s (3, 9).
    check("pygls: inlay hints of each let's duration", [(h.position.line, h.position.character, h.label) for h in hints or []]
          == [(1, 9, "⟨0.3s⟩"), (2, 9, "⟨0.2s⟩"), (3, 9, "⟨0.6s⟩")], repr(hints))
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=document))
    check("pygls: semantic tokens", tokens is not None and len(tokens.data) % 5 == 0 and len(tokens.data) > 40, repr(tokens))
    highlights = await client.text_document_document_highlight_async(types.DocumentHighlightParams(**at(3, 14)))
    check("pygls: highlights", [(h.range.start.line, h.kind) for h in highlights or []]
          == [(1, types.DocumentHighlightKind.Write), (3, types.DocumentHighlightKind.Read)], repr(highlights))

    # An unknown document: empty results.
    other = types.TextDocumentIdentifier(uri="file:///never/opened.anim")
    hover = await client.text_document_hover_async(types.HoverParams(text_document=other, position=types.Position(line=0, character=0)))
    check("pygls: unknown document, no hover", hover is None, repr(hover))

    await client.shutdown_async(None)
    client.exit(None)
    await asyncio.sleep(0.2)
    await client.stop()


RESULT_TYPES = {
    "initialize": types.InitializeResult,
    "textDocument/hover": types.Hover | None,
    "textDocument/completion": types.CompletionList,
    "textDocument/definition": types.Location | None,
    "textDocument/references": list[types.Location],
    "textDocument/documentSymbol": list[types.DocumentSymbol],
    "textDocument/codeAction": list[types.CodeAction | types.Command] | None,
    "textDocument/signatureHelp": types.SignatureHelp | None,
    "textDocument/documentHighlight": list[types.DocumentHighlight] | None,
    "textDocument/prepareRename": types.PrepareRenamePlaceholder | types.Range | None,
    "textDocument/rename": types.WorkspaceEdit | None,
    "textDocument/formatting": list[types.TextEdit] | None,
    "textDocument/foldingRange": list[types.FoldingRange] | None,
    "textDocument/semanticTokens/full": types.SemanticTokens | None,
    "textDocument/inlayHint": list[types.InlayHint] | None,
    "shutdown": None,
}


def frames(data):
    """The messages of a framed stream; raises if anything else is in it."""
    out = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if not sep or not head.startswith(b"Content-Length: "):
            raise ValueError(f"not a frame: {data[:60]!r}")
        length = int(head[len(b"Content-Length: "):])
        out.append(json.loads(rest[:length]))
        data = rest[length:]
    return out


def raw_session(animc, examples):
    """Every request on every example, plus malformed input, through pipes."""
    def message(obj):
        body = json.dumps(obj).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    methods = {}
    stream = [message({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}),
              message({"jsonrpc": "2.0", "method": "initialized", "params": {}})]
    methods[0] = "initialize"
    next_id = 1
    for path in examples:
        uri = "file://" + os.path.abspath(path)
        text = open(path, encoding="utf-8").read()
        stream.append(message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "anim", "version": 1, "text": text}}}))
        lines = text.split("\n")
        for line in range(0, len(lines), 3):
            for character in range(0, len(lines[line]) + 1, 7):
                for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/references",
                               "textDocument/codeAction", "textDocument/signatureHelp", "textDocument/documentHighlight",
                               "textDocument/prepareRename", "textDocument/rename"):
                    params = {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}
                    if method == "textDocument/references":
                        params["context"] = {"includeDeclaration": True}
                    if method == "textDocument/rename":
                        params["newName"] = "renamed_here"
                    if method == "textDocument/codeAction":
                        position = params.pop("position")
                        params["range"] = {"start": position, "end": {"line": position["line"], "character": position["character"] + 5}}
                        params["context"] = {"diagnostics": []}
                    stream.append(message({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}))
                    methods[next_id] = method
                    next_id += 1
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": len(lines), "character": 0}}
        for method, extra in (("textDocument/documentSymbol", {}), ("textDocument/foldingRange", {}),
                              ("textDocument/semanticTokens/full", {}), ("textDocument/inlayHint", {"range": whole}),
                              ("textDocument/formatting", {"options": {"tabSize": 2, "insertSpaces": True}})):
            stream.append(message({"jsonrpc": "2.0", "id": next_id, "method": method,
                                   "params": dict({"textDocument": {"uri": uri}}, **extra)}))
            methods[next_id] = method
            next_id += 1
    malformed = next_id
    stream.append(b"Content-Length: 9\r\n\r\n{\"id\": 1,")
    stream.append(message({"jsonrpc": "2.0", "id": malformed, "method": "no/such/method"}))
    stream.append(message({"jsonrpc": "2.0", "id": malformed + 1, "method": "shutdown"}))
    methods[malformed + 1] = "shutdown"
    stream.append(message({"jsonrpc": "2.0", "method": "exit"}))
    try:
        process = subprocess.run([animc, "lsp"], input=b"".join(stream), capture_output=True, timeout=300)
    except subprocess.TimeoutExpired:
        check("raw: the session ends within 300 s", False, "timed out")
        return
    check("raw: exit 0 after shutdown and exit", process.returncode == 0, f"{process.returncode} {process.stderr[:300]!r}")
    try:
        replies = frames(process.stdout)
        check("raw: standard output is nothing but framed messages", True)
    except ValueError as error:
        check("raw: standard output is nothing but framed messages", False, str(error))
        return
    invalid = []
    for reply in replies:
        try:
            if reply.get("method") == "textDocument/publishDiagnostics":
                converter.structure(reply["params"], types.PublishDiagnosticsParams)
            elif "result" in reply:
                converter.structure(reply["result"], RESULT_TYPES[methods[reply["id"]]])
            else:
                converter.structure(reply["error"], types.ResponseError)
        except Exception as error:  # noqa: BLE001 - any structuring failure is a finding
            invalid.append(f"{reply}"[:200] + f": {error}")
    check(f"raw: all {len(replies)} messages validate against lsprotocol", not invalid, "\n  ".join(invalid[:5]))
    errors = [r for r in replies if "error" in r]
    check("raw: a malformed message is a ParseError (id null)", any(r["error"]["code"] == -32700 and r["id"] is None for r in errors),
          f"{errors[:3]}")
    check("raw: an unknown method is MethodNotFound, and the server goes on",
          any(r.get("id") == malformed and r["error"]["code"] == -32601 for r in errors)
          and any(r.get("id") == malformed + 1 and "result" in r for r in replies), f"{errors[:3]}")
    answered = {r["id"] for r in replies if "id" in r and r["id"] is not None}
    check("raw: every request is answered", answered == set(methods) | {malformed}, f"{len(answered)} of {len(methods) + 1}")


def neovim_session(animc):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "broken.anim")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(BROKEN)
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lsp_nvim.lua")
        env = dict(os.environ, ANIMC=os.path.abspath(animc), ANIM_FILE=path, ANIM_FIXED=FIXED, HOME=folder,
                   ANIM_SNIPPET=os.path.abspath("editors/nvim/animc.lua"),
                   XDG_CONFIG_HOME=folder, XDG_DATA_HOME=folder, XDG_STATE_HOME=folder)
        try:
            process = subprocess.run(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {script}"],
                                     capture_output=True, timeout=120, env=env, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            check("nvim: the session ends", False, "timed out")
            return
        lines = (process.stdout + process.stderr).decode(errors="replace").splitlines()
        results = [line for line in lines if line.startswith(("PASS ", "FAIL "))]
        check("nvim: the session reports", len(results) >= 6, "\n".join(lines[-20:]))
        for line in results:
            name, _, detail = line[5:].partition(" :: ")
            check("nvim: " + name, line.startswith("PASS "), detail)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--animc", default=".build/debug/animc")
    parser.add_argument("--examples", nargs="*", default=None)
    args = parser.parse_args()
    examples = args.examples if args.examples is not None else sorted(
        os.path.join("examples", name) for name in os.listdir("examples") if name.endswith(".anim"))
    async def bounded():
        try:
            await asyncio.wait_for(pygls_session(args.animc), float(os.environ.get("LSP_CHECK_TIMEOUT", "120")))
        except asyncio.TimeoutError:
            check("pygls: the session ends within 120 s", False, "timed out")
    asyncio.run(bounded())
    raw_session(args.animc, examples)
    neovim_session(args.animc)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
