//lint:file-ignore SA1019 sampling and logging are deprecated as of protocol version 2026-07-28 (SEP-2577) but remain how an MCP server reaches older clients during the deprecation window.

package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/coord"
	"github.com/hands-dev/hands/tool"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Coordination over MCP: what other loops send a session (queries, shared
// data) and its own complete_task reach the client as notifications, and
// the model reads them too, after its next tool result, so that it can
// answer a query with reply_query.
const (
	// notifyCoordination carries a query or shared data:
	// {exec_id, kind, from, id, question, data_type, data}.
	notifyCoordination = "notifications/hands/coordination"
	// notifyComplete carries complete_task: {exec_id, summary}.
	notifyComplete = "notifications/hands/complete"
	// notifyNewIteration, from the client, starts a new iteration of the
	// loop: the read ledger is cleared (seed 004).
	notifyNewIteration = "notifications/hands/newIteration"
)

// inbox keeps what arrived for a session and the model has not yet been
// shown.
type inbox struct {
	mu    sync.Mutex
	items []string
}

// maxInboxItem bounds one item shown to the model; the client's
// notification carries the whole of it.
const maxInboxItem = 4000

func (b *inbox) add(s string) {
	if len(s) > maxInboxItem {
		cut := maxInboxItem
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + fmt.Sprintf("… [%d more bytes]", len(s)-cut)
	}
	b.mu.Lock()
	b.items = append(b.items, s)
	b.mu.Unlock()
}

func (b *inbox) take() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.items
	b.items = nil
	return out
}

// pump passes a session's coordination events to its client until done:
// as a notification of its own over stdio, as a log message (logger
// hands/coordination, for clients that set a level) over HTTP; and into
// the session's inbox for the model.
func (s *Server) pump(ss *mcp.ServerSession, sess *session, done <-chan struct{}) {
	for {
		var ev hands.CoordEvent
		select {
		case ev = <-sess.hs.Coordination():
		case <-done:
			return
		}
		payload := map[string]any{"exec_id": sess.hs.ExecID()}
		method := notifyCoordination
		if ev.Complete != nil {
			method = notifyComplete
			payload["summary"] = *ev.Complete
		} else if m := ev.Message; m != nil {
			payload["kind"], payload["from"] = m.Kind, m.From
			if m.Kind == coord.KindQuery {
				payload["id"], payload["question"] = m.ID, m.Question
				sess.inbox.add(fmt.Sprintf("[query %s from %s] %s\n(answer it with reply_query, query_id %q)", m.ID, m.From, m.Question, m.ID))
			} else {
				payload["data_type"], payload["data"] = m.DataType, m.Data
				sess.inbox.add(fmt.Sprintf("[%s shared by %s] %s", m.DataType, m.From, m.Data))
			}
		}
		if err := s.notify(ss, method, payload); err != nil {
			s.log.Warn("coordination notification", "method", method, "err", err)
		}
	}
}

// notify sends a notification of Hands's own to the client of ss.
func (s *Server) notify(ss *mcp.ServerSession, method string, payload map[string]any) error {
	s.mu.Lock()
	lc := s.lines
	s.mu.Unlock()
	if lc != nil && (ss == nil || ss.ID() == "") {
		params, err := json.Marshal(payload)
		if err != nil {
			return err
		}
		return lc.Write(context.Background(), &jsonrpc.Request{Method: method, Params: params})
	}
	if ss == nil {
		return nil
	}
	payload["method"] = method
	return ss.Log(context.Background(), &mcp.LoggingMessageParams{Logger: "hands/coordination", Level: "notice", Data: payload})
}

// newIteration starts a new iteration in every session of the stdio
// client.
func (s *Server) newIteration() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ss, sess := range s.sessions {
		if ss == nil || ss.ID() == "" {
			sess.hs.NewIteration()
		}
	}
}

// withInbox appends what other loops sent, not yet shown to the model, to
// a call's result.
func withInbox(res tool.Result, b *inbox) tool.Result {
	items := b.take()
	if len(items) == 0 {
		return res
	}
	res.Content = append(res.Content, tool.Text("<loop-messages>\n"+strings.Join(items, "\n")+"\n</loop-messages>"))
	return res
}
