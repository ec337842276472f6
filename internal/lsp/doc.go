// Package lsp is a client of language servers (the Language Server
// Protocol) for the lsp tool: a table of servers by file extension, one
// server per entry and workspace root started on first use and kept warm,
// documents sent to it before each query, and its progress reports
// followed so a query waits for a server still loading the workspace.
//
// The servers run as the session's job manager's servers
// (jobs.Manager.StartServer): each in a process group of its own, killed
// whole with the session, and by the watchdog and the parent-death signal
// when Hands dies. A server that dies is started anew on the next call.
//
// The wire protocol (JSON-RPC 2.0 with Content-Length framing, both
// directions) is github.com/sourcegraph/jsonrpc2. The candidates weighed:
//
//   - go.lsp.dev/protocol with go.lsp.dev/jsonrpc2: protocol's last
//     release is v0.12.0 (March 2022, LSP 3.16, pulling zap and
//     segmentio/encoding); it is built on jsonrpc2 v0.10.0 and does not
//     compile against the maintained jsonrpc2 v1 (June 2026), a rewrite
//     with another API. So the pair is four years unmaintained.
//   - golang.org/x/exp/jsonrpc2: no longer in x/exp (the newest x/exp has
//     no such package); it was an experiment without protocol types.
//   - gopls's protocol package: golang.org/x/tools/gopls/internal/protocol,
//     internal, so it cannot be imported.
//   - github.com/sourcegraph/jsonrpc2 (v0.2.3, September 2026): maintained
//     for a decade, used by many language clients and servers, no
//     dependencies of its own in the packages used here, the VS Code
//     Content-Length codec built in, and a symmetric connection that
//     answers the server's own requests (workspace/configuration,
//     window/workDoneProgress/create).
//
// No maintained module exports the protocol's types, so the few this
// client reads are declared in protocol.go.
package lsp
