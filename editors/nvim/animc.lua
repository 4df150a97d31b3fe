-- `animc lsp` in Neovim's built-in client. Put this file in your config
-- (e.g. ~/.config/nvim/plugin/animc.lua), with `animc` on your PATH.
vim.cmd("autocmd BufRead,BufNewFile *.anim setfiletype anim")

vim.api.nvim_create_autocmd("FileType", {
  pattern = "anim",
  callback = function(args)
    vim.bo[args.buf].commentstring = "# %s"
    local config = {
      name = "animc",
      cmd = { "animc", "lsp" },
      root_dir = vim.fs and vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)) or vim.fn.getcwd(),
    }
    if vim.lsp.start then
      vim.lsp.start(config)                            -- Neovim 0.8 and later
    else
      local id = vim.lsp.start_client(config)          -- Neovim 0.7
      if id then vim.lsp.buf_attach_client(args.buf, id) end
    end
  end,
})
-- Then: K hovers, <C-x><C-o> completes (set omnifunc=v:lua.vim.lsp.omnifunc),
-- :lua vim.lsp.buf.definition() jumps, and diagnostics show as you type.
