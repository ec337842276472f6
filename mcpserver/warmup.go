package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server's first requests cost more than its later ones: the code that
// answers them is not yet in memory (each page of it is a fault), and the
// JSON codecs of the SDK's types, its pools and the tools' definitions are
// built on first use. Measured at 15:02 on 2026-11-25 (20 starts each,
// medians): a `hands serve` started and left idle answered its first
// initialize in 3.9 ms, and in 2.2 ms after a ping had gone before it.
// Options.WarmUp moves that cost out of the client's way: while the server
// waits for its client, it asks its own questions and answers them.
//
// warmUpLines are what the warm-up asks, one line each, on two sessions:
// a client of protocol 2026-07-28 discovers the server, and one of an
// earlier protocol initializes. The initialized notification starts no
// Hands session (the InitializedHandler skips the warm-up's), and nothing
// here changes the server's state.
//
// The warm-up lists no tools. It would make a client's first tools/list
// fast (2.3 ms against 24 ms), but building the definitions beside the
// start-up's own work cost 40-50 ms of CPU where the client's own first
// list costs 20 ms; without it the warm-up's CPU is within the 10 ms
// resolution of the process's accounting (12 starts each, 15:12).
var warmUpLines = [][]string{
	{`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"hands-warm-up","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
	{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hands-warm-up","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
	},
}

// startWarmUp starts the warm-up unless the client has already written
// to in: then its own requests are under way, and the warm-up would only
// compete with them for the CPU. The returned function waits for the
// warm-up to end.
func (s *Server) startWarmUp(ctx context.Context, in io.Reader) (wait func()) {
	if inputPending(in) {
		return func() {}
	}
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
	t := &lineTransport{in: inR, out: outW, limit: s.maxRequestSize, log: slog.New(slog.DiscardHandler)}
	ss, err := s.mcp.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	s.warmMu.Lock()
	s.warm = ss
	s.warmMu.Unlock()
	answered := false
	defer func() {
		ss.Close()
		s.warmMu.Lock()
		s.warm = nil
		if answered {
			s.warmed++
		}
		s.warmMu.Unlock()
	}()
	r := bufio.NewReader(outR)
	for _, l := range lines {
		// One line at a time, as a client waits for initialize's result
		// before it goes on.
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			return err
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal([]byte(l), &req) != nil || req.ID == nil {
			continue // a notification: no reply
		}
		reply, err := r.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("reading the reply to %s: %w", req.Method, err)
		}
		var res struct {
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(reply, &res); err != nil {
			return fmt.Errorf("the reply to %s: %w", req.Method, err)
		}
		if res.Error != nil {
			return fmt.Errorf("%s: %s", req.Method, res.Error.Message)
		}
	}
	answered = true
	return nil
}

// isWarmUp reports whether ss is a warm-up's session.
func (s *Server) isWarmUp(ss *mcp.ServerSession) bool {
	s.warmMu.Lock()
	defer s.warmMu.Unlock()
	return ss != nil && ss == s.warm
}
