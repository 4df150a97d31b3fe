#!/usr/bin/env python3
"""The README's pictures of `animc lsp` in an editor: Neovim (Debian's, with
editors/nvim/animc.lua) in a tmux pane on a file with two mistakes, the
diagnostics shown as you type and a hover open; and, with --fix, a quick fix
being applied: the code-action list on the misspelt easing, then the file
after choosing it (one diagnostic left). Each pane is captured with its
colours (`tmux capture-pane -e`), written as HTML and photographed by
headless Chromium.

   python3 checks/lsp_screenshot.py [--out docs/images/lsp-neovim.png]
   python3 checks/lsp_screenshot.py --fix [--out docs/images/lsp-fix.png]

Needs tmux, nvim and chromium-headless-shell (apt), and a built animc.
"""

import argparse
import html
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from web_check import find_chromium  # noqa: E402

DEMO = """# A card that flips in and leaves: two mistakes, as typed.
view card opacity 0 scale 0.8 rotation -90

let enter =
     fadeIn card in 300ms
  || rotate card from -90 to 0 with ease-out-cubc

let leave = fadeOut card in 400ms with css-ease-in

let final = enter ; wait 200ms ; leav
"""

INIT = """
vim.env.PATH = "{bin}:" .. vim.env.PATH
dofile("{snippet}")
vim.opt.termguicolors = true
vim.opt.number = true
vim.opt.signcolumn = "yes"
vim.opt.laststatus = 0
vim.opt.fillchars = "eob: "
vim.cmd("syntax on")
-- A few words coloured (the TextMate grammar is VS Code's; this is only for the picture).
vim.api.nvim_create_autocmd("FileType", {{ pattern = "anim", callback = function()
  vim.opt_local.iskeyword:append("-")
  vim.cmd([[syntax match animComment /#.*$/]])
  vim.cmd([[syntax keyword animKeyword let view from to in with wait]])
  vim.cmd([[syntax keyword animVerb fadeIn fadeOut rotate]])
  vim.cmd([[syntax match animNumber /\<-\?[0-9.]\+\(ms\|s\)\?\>/]])
end }})
vim.cmd([[highlight animComment guifg=#6a9955]])
vim.cmd([[highlight animKeyword guifg=#569cd6]])
vim.cmd([[highlight animVerb guifg=#dcdcaa]])
vim.cmd([[highlight animNumber guifg=#b5cea8]])
vim.cmd([[highlight Normal guibg=#1e1e1e guifg=#d4d4d4]])
vim.cmd([[highlight NormalFloat guibg=#2d2d30 guifg=#d4d4d4]])
vim.cmd([[highlight FloatBorder guibg=#2d2d30 guifg=#808080]])
vim.cmd([[highlight SignColumn guibg=#1e1e1e]])
vim.cmd([[highlight LineNr guifg=#858585]])
vim.cmd([[highlight EndOfBuffer guifg=#1e1e1e]])
vim.cmd([[highlight DiagnosticError guifg=#f14c4c]])
vim.cmd([[highlight DiagnosticUnderlineError gui=underline guisp=#f14c4c]])
vim.diagnostic.config({{ virtual_text = {{ prefix = "●" }}, signs = true, underline = true }})
vim.lsp.handlers["textDocument/hover"] = vim.lsp.with(vim.lsp.handlers.hover, {{ border = "rounded" }})
"""

PALETTE = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
           "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]


def color256(n):
    if n < 16:
        return PALETTE[n]
    if n < 232:
        n -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (levels[n // 36], levels[n // 6 % 6], levels[n % 6])
    gray = 8 + 10 * (n - 232)
    return "#%02x%02x%02x" % (gray, gray, gray)


def ansi_to_html(text, foreground="#e5e5e5", background="#1e1e1e"):
    """The text of `tmux capture-pane -e` as HTML spans (SGR colours, bold, italic, underline, reverse)."""
    out = []
    state = {}
    for part in re.split(r"(\x1b\[[0-9;]*m)", text):
        if not part.startswith("\x1b["):
            if part:
                fg, bg = state.get("fg", foreground), state.get("bg", background)
                if state.get("reverse"):
                    fg, bg = bg, fg
                style = f"color:{fg};background:{bg};"
                if state.get("bold"):
                    style += "font-weight:bold;"
                if state.get("italic"):
                    style += "font-style:italic;"
                if state.get("underline"):
                    style += "text-decoration:underline;"
                out.append(f'<span style="{style}">{html.escape(part)}</span>')
            continue
        codes = [int(c) if c else 0 for c in part[2:-1].split(";")]
        index = 0
        while index < len(codes):
            code = codes[index]
            if code == 0:
                state = {}
            elif code == 1:
                state["bold"] = True
            elif code == 3:
                state["italic"] = True
            elif code in (4, 21):
                state["underline"] = True
            elif code == 7:
                state["reverse"] = True
            elif code == 22:
                state.pop("bold", None)
            elif code == 23:
                state.pop("italic", None)
            elif code == 24:
                state.pop("underline", None)
            elif code == 27:
                state.pop("reverse", None)
            elif 30 <= code <= 37 or 90 <= code <= 97:
                state["fg"] = PALETTE[code - 30 if code < 90 else code - 82]
            elif 40 <= code <= 47 or 100 <= code <= 107:
                state["bg"] = PALETTE[code - 40 if code < 100 else code - 92]
            elif code == 39:
                state.pop("fg", None)
            elif code == 49:
                state.pop("bg", None)
            elif code in (38, 48) and index + 1 < len(codes):
                key = "fg" if code == 38 else "bg"
                if codes[index + 1] == 5 and index + 2 < len(codes):
                    state[key] = color256(codes[index + 2])
                    index += 2
                elif codes[index + 1] == 2 and index + 4 < len(codes):
                    state[key] = "#%02x%02x%02x" % tuple(codes[index + 2:index + 5])
                    index += 4
            index += 1
    return "".join(out)


def capture(session, rows):
    return subprocess.run(["tmux", "capture-pane", "-t", session, "-e", "-p"], check=True,
                          capture_output=True, text=True).stdout.rstrip("\n").split("\n")[:rows]


def keys(session, *typed, wait=0.5):
    subprocess.run(["tmux", "send-keys", "-t", session, *typed], check=True)
    time.sleep(wait)


def hover_panes(session, rows):
    """The cursor on `leav`, the hover of `enter` open."""
    keys(session, "10G13|")
    keys(session, "K", wait=1.5)
    return [capture(session, rows)]


def fix_panes(session, rows):
    """The code actions offered on the misspelt easing, then the file after the first is chosen."""
    keys(session, "6G44|")
    keys(session, ":lua vim.lsp.buf.code_action()", "Enter", wait=1.5)
    before = capture(session, rows)
    keys(session, "1", "Enter", wait=2)
    keys(session, "6G", wait=1)
    return [before, capture(session, rows)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out")
    parser.add_argument("--fix", action="store_true", help="the picture of a quick fix being applied")
    parser.add_argument("--animc-dir", default=".build/debug")
    args = parser.parse_args()
    out = os.path.abspath(args.out or ("docs/images/lsp-fix.png" if args.fix else "docs/images/lsp-neovim.png"))
    columns, rows = 128, (15 if args.fix else 21)
    with tempfile.TemporaryDirectory() as folder:
        demo = os.path.join(folder, "card.anim")
        open(demo, "w").write(DEMO)
        init = os.path.join(folder, "init.lua")
        open(init, "w").write(INIT.format(bin=os.path.abspath(args.animc_dir),
                                          snippet=os.path.abspath("editors/nvim/animc.lua")))
        session = f"animc-lsp-shot-{os.getpid()}"
        env = dict(os.environ, TERM="xterm-256color", HOME=folder, XDG_CONFIG_HOME=folder, XDG_DATA_HOME=folder,
                   XDG_STATE_HOME=folder)
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", str(columns), "-y", str(rows),
                        f"nvim -u {init} -i NONE {demo}"], check=True, env=env)
        try:
            time.sleep(4)   # nvim starts, the server publishes the diagnostics
            panes = fix_panes(session, rows) if args.fix else hover_panes(session, rows)
        finally:
            subprocess.run(["tmux", "kill-session", "-t", session], check=False)
        captions = ["1. the quick fixes offered on the misspelt easing", "2. after choosing the first"] if args.fix else [""]
        bodies = []
        for caption, lines in zip(captions, panes):
            label = f'<div class="caption">{html.escape(caption)}</div>' if caption else ""
            bodies.append(label + "<pre>" + "\n".join(ansi_to_html(line) for line in lines) + "</pre>")
        page = os.path.join(folder, "pane.html")
        open(page, "w").write(
            "<!doctype html><meta charset=utf-8><style>html,body{margin:0;background:#1e1e1e}"
            "pre{margin:0;padding:10px 12px;font:15px/1.2 'DejaVu Sans Mono',monospace;color:#e5e5e5}"
            ".caption{padding:8px 12px 0;font:bold 14px sans-serif;color:#9cdcfe;border-top:1px solid #3c3c3c}</style>"
            + "".join(bodies))
        width = int(columns * 9.05 + 24)
        height = len(panes) * int(rows * 18 + 20) + (len(panes) * 26 if args.fix else 0)
        chromium = find_chromium()
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={width},{height}", f"--screenshot={out}", "file://" + page],
                       check=True, capture_output=True)
        print(out)


if __name__ == "__main__":
    main()
