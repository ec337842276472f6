package mcpserver

import (
	"context"
	"net/http"
)

// Protocol 2026-07-28 (SEP-2575, SEP-2567) is stateless: no initialize, no
// Mcp-Session-Id; each request carries the protocol version and the
// client's capabilities. Over stdio the connection is still one process's
// conversation, so a client of any version gets one Hands session for the
// connection. Over HTTP such requests have nothing to tie them together,
// so they share one Hands session for the server: its working directory,
// read ledger, background jobs, todos and permission mode carry from one
// call to the next, as they would for one agent. Clients of the older
// revisions keep one Hands session per MCP session.

// statelessVersion is the first protocol revision without sessions.
const statelessVersion = "2026-07-28"

// speaksStateless reports whether an HTTP request is of a protocol
// revision without sessions; the SDK client names the revision in the
// Mcp-Protocol-Version header of each request, server/discover included.
func speaksStateless(r *http.Request) bool {
	return r.Header.Get("Mcp-Protocol-Version") >= statelessVersion
}

// sharedSession returns the Hands session of stateless requests, starting
// it on the first call; it lives until the server is closed. It has no MCP
// session to ask: permission questions go back to the client in the
// call's result (input requests, SEP-2322), and sampling is not offered.
func (s *Server) sharedSession() (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shared != nil {
		return s.shared, nil
	}
	hs, err := s.rt.NewSession()
	if err != nil {
		return nil, err
	}
	hs.Executor().Ask = askClient
	hs.SetAskUser(askUser)
	s.shared = &session{hs: hs, stream: hs.Stream(context.Background())}
	return s.shared, nil
}
