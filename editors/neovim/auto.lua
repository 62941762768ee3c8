-- auto's language server in Neovim (0.7 and later, with its built-in client). Put this file in your config's
-- `plugin/` folder, or `:luafile` it. `auto` must be on PATH (a host's binary works the same: `{ "library", "lsp" }`).
-- The file type by extension (in 0.7, `vim.filetype.add` is heeded only with `g:do_filetype_lua`).
vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, { pattern = "*.auto", command = "setfiletype auto" })

-- One server for every .auto buffer (`vim.lsp.start`, which would do this, came in 0.8).
local client_id
vim.api.nvim_create_autocmd("FileType", {
  pattern = "auto",
  callback = function(args)
    if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
      client_id = vim.lsp.start_client({ name = "auto", cmd = { "auto", "lsp" }, root_dir = vim.fn.getcwd() })
    end
    vim.lsp.buf_attach_client(args.buf, client_id)
  end,
})
