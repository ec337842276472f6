package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The runtime's tools are offered to the SDK when a client first lists or
// calls one, not when the server starts: their definitions (inferred
// schemas, encoded, then checked again by the SDK) are most of a
// start-up's own work, and answering initialize needs none of it. The
// tools capability is declared from the start (newMCP).
//
// The SDK tells every client a list_changed when tools are added; the
// first offer is no change a client could have seen (it happens before
// any tools/list is answered), so that notification is held back, unless
// the runtime's tools really changed after it.

// toolCapabilities are what the SDK declares by default once tools are
// added (logging, as its default, and tools with listChanged): they are
// added at the first tools/list or tools/call, after initialize.
func toolCapabilities() *mcp.ServerCapabilities {
	//lint:ignore SA1019 the SDK's own default, declared as before (deprecated for protocol 2026-07-28 on)
	return &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Tools: &mcp.ToolCapabilities{ListChanged: true}}
}

// offerToolsFirst offers the tools before the first tools/list or
// tools/call reaches the SDK.
func (s *Server) offerToolsFirst(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/list" && method != "tools/call" {
			return next(ctx, method, req)
		}
		s.offerTools()
		res, err := next(ctx, method, req)
		// The client has its tools: the deferred start-up work may go.
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
			s.prepareFor(ss)
		}
		return res, err
	}
}

// offerTools offers the runtime's tools the first time it is called.
func (s *Server) offerTools() {
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	if s.toolsOffered {
		return
	}
	s.toolsOffered = true
	s.quiet.Store(true)
	s.syncToolsLocked()
}

// toolsChanged is the runtime's news that its tools changed: nothing to do
// before they were first offered (that offer takes them as they are then);
// after, the clients are told.
func (s *Server) toolsChanged() {
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	if !s.toolsOffered {
		return
	}
	s.quiet.Store(false)
	s.syncToolsLocked()
}

// quietFirstOffer holds back the list_changed notifications the first
// offer makes the SDK send.
func (s *Server) quietFirstOffer(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/tools/list_changed" && s.quiet.Load() {
			return nil, nil
		}
		return next(ctx, method, req)
	}
}
