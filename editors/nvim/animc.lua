-- `animc lsp` in Neovim's built-in client. Put this file in your config
-- (e.g. ~/.config/nvim/plugin/animc.lua), with `animc` on your PATH.
vim.cmd("autocmd BufRead,BufNewFile *.anim setfiletype anim")

vim.api.nvim_create_autocmd("FileType", {
  pattern = "anim",
  callback = function(args)
    vim.bo[args.buf].commentstring = "# %s"
    vim.bo[args.buf].omnifunc = "v:lua.vim.lsp.omnifunc"              -- <C-x><C-o> completes
    vim.keymap.set("n", "K", vim.lsp.buf.hover, { buffer = args.buf })
    vim.keymap.set("n", "gd", vim.lsp.buf.definition, { buffer = args.buf })
    vim.keymap.set("n", "gr", vim.lsp.buf.references, { buffer = args.buf })
    vim.keymap.set({ "n", "v" }, "<leader>ca", vim.lsp.buf.code_action, { buffer = args.buf })  -- quick fixes, extract, inline
    vim.keymap.set("n", "<leader>rn", vim.lsp.buf.rename, { buffer = args.buf })
    vim.keymap.set("n", "<leader>f", function()
      if vim.lsp.buf.format then vim.lsp.buf.format({ async = false }) else vim.lsp.buf.formatting_sync() end  -- 0.8+ / 0.7
    end, { buffer = args.buf })
    vim.keymap.set("i", "<C-s>", vim.lsp.buf.signature_help, { buffer = args.buf })
    local config = {
      name = "animc",
      cmd = { "animc", "lsp" },
      root_dir = vim.fs and vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)) or vim.fn.getcwd(),
      -- Inlay hints (each let's and call's duration; Neovim 0.10: vim.lsp.inlay_hint.enable()) can be switched off here.
      init_options = { inlayHints = { letDurations = true, callDurations = true } },
    }
    if vim.lsp.start then
      vim.lsp.start(config)                            -- Neovim 0.8 and later
    else
      local id = vim.lsp.start_client(config)          -- Neovim 0.7
      if id then vim.lsp.buf_attach_client(args.buf, id) end
    end
  end,
})
-- Then K hovers, gd jumps to the definition, gr lists references, <C-x><C-o>
-- completes, <leader>ca applies a fix, <leader>rn renames, <leader>f formats,
-- :lua vim.lsp.buf.document_symbol() lists the lets and views, and
-- diagnostics show as you type.
-- Format on save: vim.api.nvim_create_autocmd("BufWritePre", { pattern = "*.anim",
--   callback = function() vim.lsp.buf.format({ async = false }) end })   (0.7: vim.lsp.buf.formatting_sync())
