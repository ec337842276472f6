package mcpserver

import (
	"context"
	"sync"

	"github.com/hands-dev/hands/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// withProgress returns ctx carrying, when the request asked for progress
// (a progress token in its _meta), the call's progress callback: each
// tool.Progress becomes a notifications/progress for that token. Without a
// token nothing extra is sent.
func (s *Server) withProgress(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if req.Session == nil || req.Params == nil {
		return ctx
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return ctx
	}
	return tool.WithProgress(ctx, s.notifier(ctx, req.Session, token))
}

// notifier maps a call's progress reports to notifications/progress:
// progress is the elapsed time in seconds, which increases with every
// notification as MCP requires; the last report, when the call is done,
// also sets total to it, so that a client's bar ends full; message is the
// report's line. Once the request is cancelled nothing more is sent.
func (s *Server) notifier(ctx context.Context, ss *mcp.ServerSession, token any) func(tool.Progress) {
	var mu sync.Mutex
	var last int64 // milliseconds of the previous notification
	return func(p tool.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		ms := max(p.Elapsed.Milliseconds(), last+1)
		last = ms
		params := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(ms) / 1000, Message: p.Message}
		if p.Done {
			params.Total = params.Progress
		}
		if err := ss.NotifyProgress(ctx, params); err != nil {
			s.log.Debug("progress notification not sent", "err", err)
		}
	}
}
