//lint:file-ignore SA1019 sampling is deprecated as of protocol version 2026-07-28 (SEP-2577) but remains how an MCP server reaches the client's model during the deprecation window.

package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hands-dev/hands/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Subagents on the model of a client of protocol 2026-07-28.
//
// From 2026-07-28 a server sends the client no request while it serves
// one (SEP-2322): what it needs — a permission, the user's answer, a
// sampled message — goes back in the call's result as input requests, and
// the client calls again with the answers and the request state.
// Permissions and web_fetch's one question are met by running the call
// again from the start with every answer so far (rounds.go): they ask
// before anything changes. A subagent cannot start over: between two of
// its model's turns it runs tools (edits, commands) that must not run
// twice, and its session (read ledger, working directory, running
// commands) must live on. So its task call runs once and waits, parked,
// between rounds: each turn it asks of the client's model is the call's
// result (one input request, agent_turn_N); the client's next call, whose
// request state names the parked call, hands the answer on and gets the
// next turn or the call's own result.
//
// A parked call whose client does not come back within agentTurnWait is
// cancelled, and its commands with it. A background agent cannot run on
// such a client: it asks after its task call has returned, when no call
// is left to carry its turns; it is refused, naming what to configure.
// Stateless HTTP requests share one session that has no client to sample
// (stateless.go), so they get no task tool at all.

const (
	// agentTurnWait is how long a parked call waits for its client.
	agentTurnWait = 10 * time.Minute
	// parkedPrefix starts the request state that names a parked call.
	parkedPrefix = "agent:"
)

// parkedKey carries a call's parkedCall in its context.
type parkedKey struct{}

// parkedCall is a task call that asks the client's model through rounds.
type parkedCall struct {
	token  string
	sess   *session
	cancel context.CancelFunc
	turns  chan turn     // the call's model asks here
	done   chan struct{} // closed once res is set
	res    tool.Result

	mu sync.Mutex // one turn at a time
	n  int        // turns asked so far

	pending turn        // the turn the client is answering (the server's side)
	timer   *time.Timer // cancels the call when its client does not come back
}

// turn is one turn asked of the client's model.
type turn struct {
	key    string
	params *mcp.CreateMessageWithToolsParams
	reply  chan turnAnswer
}

type turnAnswer struct {
	r   *mcp.CreateMessageWithToolsResult
	err error
}

// ask hands a turn to the client through the call's rounds and waits for
// the answer.
func (p *parkedCall) ask(ctx context.Context, params *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	t := turn{key: fmt.Sprintf("agent_turn_%d", p.n), params: params, reply: make(chan turnAnswer, 1)}
	select {
	case p.turns <- t:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case a := <-t.reply:
		return a.r, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// parkedCalls are the calls waiting for their clients' answers, by token.
type parkedCalls struct {
	mu    sync.Mutex
	calls map[string]*parkedCall
}

func (pc *parkedCalls) put(p *parkedCall) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.calls == nil {
		pc.calls = map[string]*parkedCall{}
	}
	pc.calls[p.token] = p
}

// take removes and returns the call named token.
func (pc *parkedCalls) take(token string) *parkedCall {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	p := pc.calls[token]
	delete(pc.calls, token)
	return p
}

// closeAll cancels every parked call and waits for them.
func (pc *parkedCalls) closeAll() { pc.close(nil) }

// closeSession cancels the parked calls of sess, whose client has gone.
func (pc *parkedCalls) closeSession(sess *session) { pc.close(sess) }

// close cancels the parked calls of sess (nil: all) and waits for them.
func (pc *parkedCalls) close(sess *session) {
	pc.mu.Lock()
	var calls []*parkedCall
	for token, p := range pc.calls {
		if sess == nil || p.sess == sess {
			calls = append(calls, p)
			delete(pc.calls, token)
		}
	}
	pc.mu.Unlock()
	for _, p := range calls {
		p.timer.Stop()
		p.cancel()
		<-p.done
	}
}

// parksAgents reports whether the call of tool name runs subagents on the
// model of a client that takes its turns in rounds.
func (s *Server) parksAgents(req *mcp.CallToolRequest, sess *session, name string) bool {
	if !roundTrips(req.Session) || !s.rt.NeedsModel(name) {
		return false
	}
	_, ok := sess.hs.Model().(samplingModel)
	return ok
}

// refuseBackground is the result of a background agent asked of a client
// that takes its model's turns in rounds, or nil for any other call.
func refuseBackground(call tool.Call) *tool.Result {
	var in struct {
		RunInBackground bool `json:"run_in_background"`
	}
	if json.Unmarshal(call.Input, &in) != nil || !in.RunInBackground {
		return nil
	}
	msg := "a background agent cannot run on this client's model: the client speaks MCP 2026-07-28, where the server may ask the client's model only in the result of a call the client is making (SEP-2322), and a background agent asks after its task call has returned. Run the agent in the foreground (run_in_background false), or give the server a model of its own: ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL) or OPENAI_API_KEY and OPENAI_BASE_URL in its environment or the \"model\" section of --config"
	return &tool.Result{IsError: true, Code: tool.ModelNotConfigured, Content: []tool.Content{tool.Text(msg)}}
}

// startParked runs call in the background, its model's turns asked
// through p; ctx's values (not its end) carry over.
func (s *Server) startParked(ctx context.Context, sess *session, call tool.Call, ask *askState) *parkedCall {
	var b [16]byte
	_, _ = rand.Read(b[:])
	p := &parkedCall{token: hex.EncodeToString(b[:]), sess: sess, turns: make(chan turn), done: make(chan struct{})}
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p.cancel = cancel
	cctx = context.WithValue(context.WithValue(cctx, askKey{}, ask), parkedKey{}, p)
	go func() {
		defer close(p.done)
		p.res = sess.stream.Run(cctx, call)
	}()
	return p
}

// await waits for p's next turn, returned as the call's input request,
// or for its end (finished true, the call's result in res). When the
// client's request ends first, the call is cancelled.
func (s *Server) await(ctx context.Context, p *parkedCall) (out *mcp.CallToolResult, res tool.Result, finished bool, err error) {
	select {
	case t := <-p.turns:
		p.pending = t
		p.timer = time.AfterFunc(agentTurnWait, func() {
			if s.parked.take(p.token) != nil {
				p.cancel()
			}
		})
		s.parked.put(p)
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{t.key: t.params}, RequestState: parkedPrefix + p.token}, tool.Result{}, false, nil
	case <-p.done:
		p.cancel()
		return nil, p.res, true, nil
	case <-ctx.Done():
		p.cancel()
		<-p.done
		return nil, tool.Result{}, false, ctx.Err()
	}
}

// resumeParked hands the client's answer to the parked call its request
// state names, and waits for the next turn or the end.
func (s *Server) resumeParked(ctx context.Context, req *mcp.CallToolRequest, sess *session) (out *mcp.CallToolResult, res tool.Result, finished bool, err error) {
	token := strings.TrimPrefix(req.Params.RequestState, parkedPrefix)
	p := s.parked.take(token)
	if p == nil || p.sess != sess {
		if p != nil {
			s.parked.put(p) // not this client's
		}
		return nil, tool.Result{}, false, fmt.Errorf("no subagent waits for this requestState: it ended, or waited over %s for its model's turn and was stopped, or the server restarted; call the tool again without requestState", agentTurnWait)
	}
	p.timer.Stop()
	var answer *mcp.CreateMessageWithToolsResult
	switch r := req.Params.InputResponses[p.pending.key].(type) {
	case *mcp.CreateMessageWithToolsResult:
		answer = r
	case *mcp.CreateMessageResult:
		answer = &mcp.CreateMessageWithToolsResult{Model: r.Model, Role: r.Role, StopReason: r.StopReason, Content: []mcp.Content{r.Content}}
	default:
		// Give the turn back to the client to answer again.
		p.timer.Reset(agentTurnWait)
		s.parked.put(p)
		return nil, tool.Result{}, false, fmt.Errorf("inputResponses has no sampling result for %q, the subagent's turn this requestState waits for", p.pending.key)
	}
	p.pending.reply <- turnAnswer{r: answer}
	return s.await(ctx, p)
}
