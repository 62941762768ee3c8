-- Headless Neovim with editors/neovim/auto.lua: opens $AUTO_SMOKE_FILE, waits for the server's diagnostics, and writes
-- the first one's line and message to standard output (nothing when none came in 60 s); then asks the server, as
-- Neovim's own LSP client, for completion after the first two letters of the second line and for a hover on the first
-- word, and writes what came back; then quits.
vim.cmd("filetype on")
vim.cmd("luafile " .. os.getenv("AUTO_SMOKE_CONFIG"))
vim.cmd("edit " .. os.getenv("AUTO_SMOKE_FILE"))
vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local found = vim.diagnostic.get(0)[1]
if found then io.stdout:write((found.lnum + 1) .. ": " .. found.message .. "\n") end

local document = { uri = vim.uri_from_bufnr(0) }
local completion = vim.lsp.buf_request_sync(0, "textDocument/completion",
  { textDocument = document, position = { line = 1, character = 2 } }, 60000) or {}
for _, response in pairs(completion) do
  local items = response.result and (response.result.items or response.result) or {}
  local labels = {}
  for _, item in ipairs(items) do table.insert(labels, item.label) end
  io.stdout:write("completion: " .. table.concat(labels, ", ") .. "\n")
end
local hover = vim.lsp.buf_request_sync(0, "textDocument/hover",
  { textDocument = document, position = { line = 0, character = 1 } }, 60000) or {}
for _, response in pairs(hover) do
  if response.result then io.stdout:write("hover: " .. vim.split(response.result.contents.value, "\n")[1] .. "\n") end
end
vim.cmd("qa!")
