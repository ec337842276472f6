package hands

import (
	"encoding/json"

	"github.com/hands-dev/hands/internal/lsp"
	"github.com/hands-dev/hands/internal/tools"
)

// LSPServer is a language server of the lsp tool's table: Command and
// Args start it (LSP over stdin and stdout), ExtensionToLanguage names
// the file extensions it serves and their language ids, Install says how
// to install it. Its JSON shape is Claude Code's lspServers entry.
type LSPServer = lsp.Server

// DefaultLSPServers returns the table the lsp tool uses beside the
// configured servers: gopls, typescript-language-server, pyright (or
// basedpyright), rust-analyzer and clangd.
func DefaultLSPServers() []LSPServer { return lsp.Defaults() }

// ParseLSPServers reads servers in Claude Code's lspServers shape: a JSON
// object from server name to {command, args, extensionToLanguage, env,
// initializationOptions, install, alternatives}. what names the source
// in errors.
func ParseLSPServers(what string, raw json.RawMessage) ([]LSPServer, error) {
	return lsp.ParseServers(what, raw)
}

// startLSP gives a session its language servers, started by its job
// manager on first use and shut down when it closes.
func (r *Runtime) startLSP(st *tools.State) {
	st.LSP = &lsp.Manager{Table: lsp.Merge(r.opts.LSPServers, lsp.Defaults()), Jobs: st.Jobs}
}

// LSPStatus says, for each language server the lsp tool would start (the
// configured ones, then the defaults), whether its program is on PATH, or
// how to install it: one line each, for `hands doctor`.
func (r *Runtime) LSPStatus() []string {
	var out []string
	for _, st := range lsp.Statuses(lsp.Merge(r.opts.LSPServers, lsp.Defaults())) {
		out = append(out, st.String())
	}
	return out
}
