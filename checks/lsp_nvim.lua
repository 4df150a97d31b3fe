-- Neovim's built-in LSP client (0.7 and later) on `animc lsp`, headless.
-- Reads ANIMC (the binary), ANIM_SNIPPET (editors/nvim/animc.lua), ANIM_FILE (a file with two mistakes, as
-- checks/lsp_check.py writes it) and ANIM_FIXED (its fixed text). Prints
-- `PASS name` or `FAIL name :: detail` per check, then quits.
local animc, path, fixed = os.getenv("ANIMC"), os.getenv("ANIM_FILE"), os.getenv("ANIM_FIXED")

local function report(name, ok, detail)
  io.stdout:write((ok and "PASS " or "FAIL ") .. name .. (ok and "" or (" :: " .. tostring(detail))) .. "\n")
end

local ok, err = pcall(function()
  -- The snippet the README gives (editors/nvim/animc.lua), with this animc first on the PATH.
  vim.env.PATH = vim.fn.fnamemodify(animc, ":h") .. ":" .. vim.env.PATH
  dofile(os.getenv("ANIM_SNIPPET"))
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  local client_id
  vim.wait(10000, function()
    for _, client in pairs(vim.lsp.buf_get_clients(buf)) do
      if client.name == "animc" then client_id = client.id end
    end
    return client_id ~= nil
  end, 50)
  report("the snippet starts animc lsp for a .anim file", client_id ~= nil and vim.bo[buf].filetype == "anim",
    vim.bo[buf].filetype)

  local function diagnostics() return vim.diagnostic.get(buf) end
  vim.wait(10000, function() return #diagnostics() >= 2 end, 50)
  local got = {}
  for _, d in ipairs(diagnostics()) do
    table.insert(got, string.format("%d:%d-%d:%d %s %d", d.lnum, d.col, d.end_lnum, d.end_col, tostring(d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)), d.severity))
  end
  table.sort(got)
  local want = "1:38-1:48 unknown-easing 1|3:33-3:37 unknown-name 1"
  report("diagnostics at their ranges", table.concat(got, "|") == want, table.concat(got, "|"))

  local function request(method, line, character)
    local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = character } }
    local responses = vim.lsp.buf_request_sync(buf, method, params, 5000) or {}
    for _, response in pairs(responses) do return response.result, response.err end
  end

  local hover = request("textDocument/hover", 3, 14)
  local text = hover and hover.contents and hover.contents.value or ""
  report("hover on a let", text:find("duration: 0.3s", 1, true) ~= nil, text)

  local completion = request("textDocument/completion", 1, 38)
  local labels = {}
  for _, item in ipairs(completion and (completion.items or completion) or {}) do labels[item.label] = true end
  report("completion after with", labels["ease-in-out"] == true and labels["linear"] == true, vim.inspect(completion):sub(1, 200))

  local definition = request("textDocument/definition", 3, 13)
  local location = definition and (definition.range and definition or definition[1])
  report("definition", location ~= nil and location.range.start.line == 1 and location.range.start.character == 4
    and location.range["end"].character == 9, vim.inspect(definition))

  -- Jump there as a user does: the cursor lands on `enter` in line 2.
  vim.api.nvim_win_set_cursor(0, { 4, 13 })
  vim.lsp.buf.definition()
  vim.wait(5000, function() return vim.api.nvim_win_get_cursor(0)[1] == 2 end, 50)
  local cursor = vim.api.nvim_win_get_cursor(0)
  report("go to definition moves the cursor", cursor[1] == 2 and cursor[2] == 4, vim.inspect(cursor))

  -- A code action as the client applies it: the quick fix of the misspelt easing (line 1, 38..48).
  local range = { start = { line = 1, character = 38 }, ["end"] = { line = 1, character = 48 } }
  local actions = vim.lsp.buf_request_sync(buf, "textDocument/codeAction",
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, range = range, context = { diagnostics = {} } }, 5000) or {}
  local fix
  for _, response in pairs(actions) do
    for _, action in ipairs(response.result or {}) do
      if action.kind == "quickfix" and fix == nil then fix = action end
    end
  end
  if fix then vim.lsp.util.apply_workspace_edit(fix.edit, "utf-16") end
  local line1 = vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1] or ""
  report("a code action fixes the easing", line1 == "let enter = fadeIn card in 300ms with ease-in-out", line1)

  local lines = vim.split(fixed, "\n", { plain = true })
  if lines[#lines] == "" then table.remove(lines) end
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.wait(10000, function() return #diagnostics() == 0 end, 50)
  report("fixing the file clears the diagnostics", #diagnostics() == 0, #diagnostics())

  -- Rename `enter` (line 1, character 4) to `intro`, as `:lua vim.lsp.buf.rename("intro")` does.
  vim.api.nvim_win_set_cursor(0, { 2, 5 })
  vim.lsp.buf.rename("intro")
  local function text() return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n" end
  local want = fixed:gsub("enter", "intro")
  vim.wait(5000, function() return text() == want end, 50)
  report("rename", text() == want, text())

  -- Format a tightly written version.
  local tight = vim.split(want:gsub(" ; ", ";"), "\n", { plain = true })
  if tight[#tight] == "" then table.remove(tight) end
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, tight)
  vim.wait(300)
  if vim.lsp.buf.format then vim.lsp.buf.format({ async = false, timeout_ms = 5000 })   -- Neovim 0.8 and later
  else vim.lsp.buf.formatting_sync(nil, 5000) end                                         -- Neovim 0.7
  report("format", text() == want, text())

  vim.lsp.stop_client(client_id)
  vim.wait(3000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
end)
if not ok then report("session", false, err) end
vim.cmd("qall!")
