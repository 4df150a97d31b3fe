-- Neovim's built-in LSP client (0.7 and later) on `animc lsp`, headless.
-- Reads ANIMC (the binary), ANIM_FILE (a file with two mistakes, as
-- checks/lsp_check.py writes it) and ANIM_FIXED (its fixed text). Prints
-- `PASS name` or `FAIL name :: detail` per check, then quits.
local animc, path, fixed = os.getenv("ANIMC"), os.getenv("ANIM_FILE"), os.getenv("ANIM_FIXED")

local function report(name, ok, detail)
  io.stdout:write((ok and "PASS " or "FAIL ") .. name .. (ok and "" or (" :: " .. tostring(detail))) .. "\n")
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({ name = "animc", cmd = { animc, "lsp" }, root_dir = vim.fn.fnamemodify(path, ":h") })
  report("client started", client_id ~= nil, "start_client returned nil")
  vim.lsp.buf_attach_client(buf, client_id)

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

  local lines = vim.split(fixed, "\n", { plain = true })
  if lines[#lines] == "" then table.remove(lines) end
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.wait(10000, function() return #diagnostics() == 0 end, 50)
  report("fixing the file clears the diagnostics", #diagnostics() == 0, #diagnostics())

  vim.lsp.stop_client(client_id)
  vim.wait(3000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
end)
if not ok then report("session", false, err) end
vim.cmd("qall!")
