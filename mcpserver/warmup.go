package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server's first requests cost more than its later ones: the code that
// answers them is not yet in memory (each page of it is a fault), and the
// JSON codecs of the SDK's types, its pools and the tools' definitions are
// built on first use. Measured on 2026-11-25 (10 to 20 starts each,
// medians), a `hands serve` started and left idle answered its first
// initialize in 3.9-4.1 ms, and in 2.2 ms after a ping had gone before
// it; its first tools/list in 22-24 ms, its second in 2-3 ms. While the
// server waits for its client, the warm-up asks questions of its own and
// answers them, each on a session of its own, through the stdio
// transport's code: at once (Options.WarmUp) a client of protocol
// 2026-07-28 discovers the server and one of an earlier protocol
// initializes; later (WarmUpTools) one lists the tools.
//
// The initialized notifications start no Hands session (the
// InitializedHandler skips the warm-up's), and nothing here changes the
// server's state but the first offer of the tools (lazytools.go), which
// a client's first tools/list makes anyway.
var warmUpLines = [][]string{
	{`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"hands-warm-up","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
	{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hands-warm-up","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
	},
}

// warmUpToolsLines are what WarmUpTools asks.
var warmUpToolsLines = []string{warmUpLines[1][0], warmUpLines[1][1], `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`}

// WarmUpTools lists the tools on a session of its own, unless they were
// offered already, so that a client's first tools/list finds their
// definitions built and the code that lists them warm: for a server that
// waits for its client with nothing else to do. Beside the start-up's own
// work the same listing cost twice the CPU a client's first list does (46
// against 26 ms, measured 2026-11-25), so call it once that work is done.
func (s *Server) WarmUpTools(ctx context.Context) {
	s.toolsMu.Lock()
	offered := s.toolsOffered
	s.toolsMu.Unlock()
	if offered || ctx.Err() != nil {
		return
	}
	if err := s.warmUp(ctx, warmUpToolsLines); err != nil {
		s.log.Debug("warming up the tools", "err", err)
	}
}

// startWarmUp starts the warm-up; ServeIO calls it unless the client has
// already written: then its own requests are under way, and the warm-up
// would only compete with them for the CPU. The returned function waits
// for the warm-up to end.
func (s *Server) startWarmUp(ctx context.Context) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, lines := range warmUpLines {
			if err := s.warmUp(ctx, lines); err != nil {
				s.log.Debug("warming up", "err", err)
				return
			}
		}
	}()
	return func() { <-done }
}

// warmUp sends lines through the stdio transport's own code on a session
// of its own, reads a reply to each request, and closes the session. A
// reply that is an error is an error.
func (s *Server) warmUp(ctx context.Context, lines []string) error {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close()
	defer outR.Close()
	stop := context.AfterFunc(ctx, func() {
		inW.CloseWithError(ctx.Err())
		outR.CloseWithError(ctx.Err())
	})
	defer stop()
	t := &lineTransport{in: inR, out: outW, limit: s.maxRequestSize, log: slog.New(slog.DiscardHandler)}
	ss, err := s.mcp.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	// The at-once warm-up and WarmUpTools may overlap: each session is
	// marked a warm-up's on its own.
	s.warmMu.Lock()
	if s.warm == nil {
		s.warm = map[*mcp.ServerSession]bool{}
	}
	s.warm[ss] = true
	s.warmMu.Unlock()
	answered := false
	defer func() {
		ss.Close()
		s.warmMu.Lock()
		delete(s.warm, ss)
		if answered {
			s.warmed++
		}
		s.warmMu.Unlock()
	}()
	r := bufio.NewReader(outR)
	for i, l := range lines {
		// One line at a time, as a client waits for initialize's result
		// before it goes on.
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			return err
		}
		if !strings.Contains(l, `"id":`) {
			continue // a notification: no reply
		}
		reply, err := r.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("reading the reply to line %d: %w", i+1, err)
		}
		var res struct {
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(reply, &res); err != nil {
			return fmt.Errorf("the reply to line %d: %w", i+1, err)
		}
		if res.Error != nil {
			return fmt.Errorf("line %d: %s", i+1, res.Error.Message)
		}
	}
	answered = true
	return nil
}

// isWarmUp reports whether ss is a warm-up's session.
func (s *Server) isWarmUp(ss *mcp.ServerSession) bool {
	s.warmMu.Lock()
	defer s.warmMu.Unlock()
	return s.warm[ss]
}
