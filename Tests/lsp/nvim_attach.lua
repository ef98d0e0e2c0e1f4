-- Run by Tests/lsp/nvim_test.py in headless Neovim (0.7 and later): opens the file, attaches
-- `kept lsp` through vim.lsp, waits for its diagnostics, asks for a hover on the date phrase,
-- and writes what it got as JSON to KEPT_OUT.
local kept, file, out = os.getenv("KEPT_BIN"), os.getenv("KEPT_FILE"), os.getenv("KEPT_OUT")
vim.cmd("edit " .. file)
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({ name = "kept", cmd = { kept, "lsp" }, root_dir = vim.fn.fnamemodify(file, ":p:h") })
vim.lsp.buf_attach_client(buf, id)
vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local diags = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(diags, { lnum = d.lnum, col = d.col, code = d.code or vim.NIL, message = d.message, severity = d.severity })
end
local hover = vim.NIL
local res = vim.lsp.buf_request_sync(buf, "textDocument/hover",
  { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 0, character = 17 } }, 20000)
for _, r in pairs(res or {}) do
  if r.result and r.result.contents then hover = r.result.contents.value end
end
local client = vim.lsp.get_client_by_id(id)
local encoding = client and client.offset_encoding or vim.NIL
local f = io.open(out, "w")
f:write(vim.fn.json_encode({ diagnostics = diags, hover = hover, encoding = encoding }))
f:close()
vim.lsp.stop_client(id)
vim.cmd("qall!")
