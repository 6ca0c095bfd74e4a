-- Debian's neovim (0.7) as a real LSP client of relay --lsp: opens $RELAY_FILE, attaches the
-- built-in client, waits for diagnostics, asks for a hover, and writes what it got as JSON to
-- $RELAY_OUT. Run by neovim_test.py: nvim --headless -u NONE -c "luafile neovim_smoke.lua".
local out = {}
local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('RELAY_FILE')))
  local id = vim.lsp.start_client({
    name = 'relay',
    cmd = {os.getenv('RELAY'), '--lsp'},
    root_dir = vim.fn.fnamemodify(os.getenv('RELAY_FILE'), ':h'),
  })
  out.started = id ~= nil
  vim.lsp.buf_attach_client(0, id)
  out.waited = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(out.diagnostics, {lnum = d.lnum, col = d.col, severity = d.severity,
                                   message = vim.split(d.message, '\n')[1]})
  end
  local params = {textDocument = {uri = vim.uri_from_bufnr(0)}, position = {line = 2, character = 7}}
  local res = vim.lsp.buf_request_sync(0, 'textDocument/hover', params, 20000)
  for _, r in pairs(res or {}) do
    if r.result then out.hover = r.result.contents.value end
  end
  local client = vim.lsp.get_client_by_id(id)
  out.encoding = client and client.offset_encoding
  vim.lsp.stop_client(id)
end)
out.error = not ok and tostring(err) or nil
local f = io.open(os.getenv('RELAY_OUT'), 'w')
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd('qa!')
