-- Headless Neovim with editors/neovim/auto.lua: opens $AUTO_SMOKE_FILE, waits for the server's diagnostics, and writes
-- the first one's line and message to standard output (nothing when none came in 60 s), then quits.
vim.cmd("filetype on")
vim.cmd("luafile " .. os.getenv("AUTO_SMOKE_CONFIG"))
vim.cmd("edit " .. os.getenv("AUTO_SMOKE_FILE"))
vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local found = vim.diagnostic.get(0)[1]
if found then io.stdout:write((found.lnum + 1) .. ": " .. found.message .. "\n") end
vim.cmd("qa!")
