-- auto's language server in Neovim (0.7 and later, with its built-in client). Put this file in your config's
-- `plugin/` folder, or `:luafile` it. `auto` must be on PATH (a host's binary works the same: `{ "library", "lsp" }`).
vim.filetype.add({ extension = { auto = "auto" } })
vim.api.nvim_create_autocmd("FileType", {
  pattern = "auto",
  callback = function(args)
    vim.lsp.start({
      name = "auto",
      cmd = { "auto", "lsp" },
      root_dir = vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)),
    })
  end,
})
