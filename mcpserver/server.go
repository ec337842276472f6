// Package mcpserver serves a hands.Runtime over the Model Context Protocol,
// on stdio or Streamable HTTP. Each MCP session gets its own hands.Session;
// concurrent tools/call requests of one session follow the executor's
// concurrency rule, and notifications/cancelled cancels the call. The tools
// of other MCP servers behind the runtime come and go; clients are told
// with notifications/tools/list_changed. Besides internal/mcpclient (the
// client side), it is the only package that imports the MCP SDK.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
	"github.com/hands-dev/hands/toolfmt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is an MCP server over one Runtime.
type Server struct {
	rt  *hands.Runtime
	mcp *mcp.Server
	log *slog.Logger

	maxRequestSize int64
	http           HTTPOptions
	structured     StructuredContent
	warmUpOn       bool
	prepareFn      func(context.Context, *hands.Session)
	prep           atomic.Pointer[prepare] // the deferred Options.Prepare of ServeIO, until it starts

	// warm holds the warm-up's sessions while they run (warmup.go);
	// warmed counts the warm-up sessions answered.
	warmMu sync.Mutex
	warm   map[*mcp.ServerSession]bool
	warmed int

	// toolsMu guards offered (a copy of each offered tool's definition),
	// defs (the definitions the SDK took) and stateless.
	toolsMu sync.Mutex
	offered map[string]*mcp.Tool
	defs    map[string]*mcp.Tool
	// stateless is the SDK server of stateless HTTP requests, built when
	// HTTPHandler is first called (stdio never needs it).
	stateless *mcp.Server
	// toolsOffered is set once the tools were first offered
	// (lazytools.go); quiet, while that offer is the only change since
	// no client saw the tools yet.
	toolsOffered bool
	quiet        atomic.Bool

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
	started  int      // Hands sessions started, ended ones included
	shared   *session // the session of stateless requests, once one came
	idle     *idleSessions
	lines    *lineConn   // the stdio client's connection, for notifications of Hands's own
	parked   parkedCalls // task calls waiting for their client's model (agent_rounds.go)
}

type session struct {
	hs     *hands.Session
	stream *tool.Stream
	inbox  inbox // what other loops sent, for the model's next result
}

// Options configure a Server.
type Options struct {
	// Logger receives diagnostics; they must never go to stdout.
	Logger *slog.Logger
	// MaxRequestSize is the largest JSON-RPC message read, in bytes, on
	// stdio and HTTP alike; zero means twice the runtime's MaxFileSize
	// plus 1 MiB. A larger message is refused with an error naming the
	// limit.
	MaxRequestSize int64
	// HTTP configures HTTPHandler.
	HTTP HTTPOptions
	// StructuredContent says what structured content calls return; the
	// zero value is StructuredAuto.
	StructuredContent StructuredContent
	// Prepare, if set, is the server's own start-up work that competes
	// with a client's first requests (for `hands serve`, the sandbox's
	// probe). ServeIO starts it in the background: at once, with a nil
	// session, when no client has written yet; else once that client has
	// its tools (its first tools/list or tools/call answered, or a second
	// has passed), with the client's Hands session if it has one. ServeIO
	// cancels its context and waits for it before it returns (prepare.go).
	Prepare func(ctx context.Context, hs *hands.Session)
	// WarmUp makes ServeIO answer a discover and an initialize of its own
	// when no client has written yet, each on a session of its own, so
	// that the client's first requests find the server's code and caches
	// warm (see warmup.go; WarmUpTools does the same for tools/list).
	WarmUp bool
}

// StructuredContent chooses the structured content of tool results.
type StructuredContent string

const (
	// StructuredAuto is StructuredNone for a client known to hand the model
	// the structured content in place of the text (Claude Code, whose
	// clientInfo name is claude-code: measured with 2.1.7, see
	// bench/claudecode), and StructuredMetadata for any other.
	StructuredAuto StructuredContent = "auto"
	// StructuredMetadata sends, beside the text, what the text does not
	// carry: for read, bash, glob and grep their metadata
	// (tool.MetadataOutput: path, line range and counts, encoding, exit
	// code, process group, truncation), never a second copy of a file's
	// lines or a command's output; for other tools their whole output;
	// for a failure its code. Tools declare their output schemas.
	StructuredMetadata StructuredContent = "metadata"
	// StructuredNone sends the text only, and tools declare no output
	// schema: for clients that hand the model the structured content in
	// place of the text, so that the model reads the profile's text.
	StructuredNone StructuredContent = "none"
)

// textOnlyClients are the clientInfo names of clients that show the model
// a result's structured content instead of its text.
var textOnlyClients = []string{"claude-code"}

// ParseStructuredContent returns the mode named s ("" is auto).
func ParseStructuredContent(s string) (StructuredContent, error) {
	switch m := StructuredContent(s); m {
	case "":
		return StructuredAuto, nil
	case StructuredAuto, StructuredMetadata, StructuredNone:
		return m, nil
	}
	return "", fmt.Errorf("structured content %q is not a mode; give auto, metadata or none", s)
}

// structuredFor returns the mode of a session: auto resolved by the
// client's name.
func (s *Server) structuredFor(ss *mcp.ServerSession) StructuredContent {
	if s.structured != StructuredAuto {
		return s.structured
	}
	if ss != nil {
		if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil && slices.Contains(textOnlyClients, p.ClientInfo.Name) {
			return StructuredNone
		}
	}
	return StructuredMetadata
}

// textOnlyToolList leaves the output schemas out of tools/list for a
// session that gets no structured content, in auto mode (in mode none no
// tool declares one).
func (s *Server) textOnlyToolList(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		lr, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok || method != "tools/list" {
			return res, err
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if s.structuredFor(ss) != StructuredNone {
			return res, err
		}
		out := *lr
		out.Tools = make([]*mcp.Tool, len(lr.Tools))
		for i, t := range lr.Tools {
			c := *t
			c.OutputSchema = nil
			out.Tools[i] = &c
		}
		return &out, nil
	}
}

// New returns a server exposing rt's tools.
func New(rt *hands.Runtime, opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{rt: rt, log: log, sessions: map[*mcp.ServerSession]*session{},
		maxRequestSize: opts.MaxRequestSize, http: opts.HTTP, structured: opts.StructuredContent, warmUpOn: opts.WarmUp, prepareFn: opts.Prepare}
	if s.structured == "" {
		s.structured = StructuredAuto
	}
	if s.maxRequestSize <= 0 {
		s.maxRequestSize = defaultMaxRequestSize(rt.Limits().MaxFileSize)
	}
	s.idle = newIdleSessions(opts.HTTP.SessionIdleTimeout, s.closeIdle)
	s.mcp = s.newMCP(false)
	// The tools are offered when a client first lists or calls them
	// (lazytools.go), not here: building their definitions is most of
	// a start-up's own work, and initialize needs none of it.
	rt.OnToolsChanged(s.toolsChanged)
	return s
}

// newMCP returns an SDK server with rt's tools. The stateless one serves
// HTTP requests of protocol 2026-07-28 and later, which carry no session:
// its calls share one Hands session (see sharedSession).
func (s *Server) newMCP(stateless bool) *mcp.Server {
	opts := &mcp.ServerOptions{
		Logger:       sdkLogger(s.log),
		Instructions: fmt.Sprintf("Hands: file, search and shell tools over %v (profile %s).", s.rt.Roots(), s.rt.Profile()),
		Capabilities: toolCapabilities(),
	}
	if !stateless {
		// The session starts when the client has initialized, not at
		// its first call, so that its loop is reachable by other loops
		// from the start.
		opts.InitializedHandler = func(_ context.Context, req *mcp.InitializedRequest) {
			if s.isWarmUp(req.Session) {
				return
			}
			if _, err := s.session(req.Session); err != nil {
				s.log.Warn("starting the session", "err", err)
			}
		}
	}
	m := mcp.NewServer(&mcp.Implementation{Name: "hands", Title: "Hands", Version: hands.Version}, opts)
	m.AddReceivingMiddleware(s.offerToolsFirst)
	m.AddSendingMiddleware(s.quietFirstOffer)
	if s.structured == StructuredAuto {
		m.AddReceivingMiddleware(s.textOnlyToolList)
	}
	// Tools that need a model (task) are offered to every session and
	// listed to those that have one: the runtime's, or the client's
	// through sampling.
	m.AddReceivingMiddleware(s.listModelTools)
	return m
}

// addTool offers one tool on both SDK servers, reporting whether the SDK
// took it: the schema of another server's tool is that server's, and one
// the SDK refuses (it panics) is logged and left out, not fatal.
func (s *Server) addTool(d *mcp.Tool) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Warn("tool not offered: the MCP SDK refused its definition", "tool", d.Name, "err", r)
			ok = false
		}
	}()
	s.mcp.AddTool(d, s.handler(d.Name, false))
	if s.stateless != nil {
		s.stateless.AddTool(d, s.handler(d.Name, true))
	}
	s.defs[d.Name] = d
	return true
}

// statelessMCP returns the SDK server of stateless requests, building it
// with the offered tools the first time.
func (s *Server) statelessMCP() *mcp.Server {
	s.offerTools()
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	if s.stateless == nil {
		m := s.newMCP(true)
		for _, name := range slices.Sorted(maps.Keys(s.defs)) {
			m.AddTool(s.defs[name], s.handler(name, true)) // the SDK took it before
		}
		s.stateless = m
	}
	return s.stateless
}

// syncTools offers the runtime's tools to the clients: the tools of other
// MCP servers behind Hands come and go, and the SDK tells every session
// (notifications/tools/list_changed) when the list changes.
func (s *Server) syncTools() {
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	s.syncToolsLocked()
}

func (s *Server) syncToolsLocked() {
	if s.offered == nil {
		s.offered, s.defs = map[string]*mcp.Tool{}, map[string]*mcp.Tool{}
	}
	now := map[string]*mcp.Tool{}
	for _, info := range s.rt.ToolsFor(true) {
		d := definition(info, s.structured)
		c := *d // the SDK keeps d
		now[info.Name] = &c
		// Compared as values, not as JSON: encoding every definition at
		// each start was a tenth of the server's own start-up work.
		if !reflect.DeepEqual(s.offered[info.Name], d) && !s.addTool(d) {
			delete(now, info.Name)
		}
	}
	var gone []string
	for name := range s.offered {
		if _, ok := now[name]; !ok {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		s.mcp.RemoveTools(gone...)
		if s.stateless != nil {
			s.stateless.RemoveTools(gone...)
		}
		for _, name := range gone {
			delete(s.defs, name)
		}
	}
	s.offered = now
}

// definition returns the SDK's form of a tool's MCP definition, which
// toolfmt derives from the tool's metadata; without structured content, no
// output schema.
func definition(info tool.Info, sc StructuredContent) *mcp.Tool {
	d := toolfmt.MCPDefinition(info)
	t := &mcp.Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema}
	if len(d.OutputSchema) > 0 && sc != StructuredNone {
		t.OutputSchema = d.OutputSchema
	}
	if a := d.Annotations; a != nil {
		t.Annotations = &mcp.ToolAnnotations{
			Title:           a.Title,
			ReadOnlyHint:    a.ReadOnlyHint,
			DestructiveHint: a.DestructiveHint,
			IdempotentHint:  a.IdempotentHint,
			OpenWorldHint:   a.OpenWorldHint,
		}
	}
	return t
}

func (s *Server) handler(name string, stateless bool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var sess *session
		var err error
		if stateless {
			sess, err = s.sharedSession()
		} else {
			sess, err = s.session(req.Session)
		}
		if err != nil {
			return nil, err
		}
		if req.Session != nil {
			// A running call keeps an HTTP session from going idle.
			s.idle.begin(req.Session.ID())
			defer s.idle.end(req.Session.ID())
		}
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		call := tool.Call{Name: name, Input: args}
		if req.Params != nil && strings.HasPrefix(req.Params.RequestState, parkedPrefix) {
			out, res, finished, err := s.resumeParked(ctx, req, sess)
			if !finished || err != nil {
				return out, err
			}
			return s.callResult(ctx, req, sess, res)
		}
		var answers mcp.InputResponseMap
		if req.Params != nil {
			if answers, err = decodeState(req.Params.RequestState); err != nil {
				return nil, err
			}
			if answers == nil {
				answers = mcp.InputResponseMap{}
			}
			maps.Copy(answers, req.Params.InputResponses)
		}
		var res tool.Result
		// One progress callback for every round, so that progress keeps
		// increasing when the call runs again with the client's answers.
		pctx := s.withProgress(ctx, req)
		for round := 1; ; round++ {
			ask := &askState{session: req.Session, responses: answers}
			if s.parksAgents(req, sess, name) {
				if r := refuseBackground(call); r != nil {
					return s.callResult(ctx, req, sess, *r)
				}
				// Not pctx: the call outlives this request, whose progress
				// token ends with it.
				out, pres, finished, err := s.await(ctx, s.startParked(ctx, sess, call, ask))
				if !finished || err != nil {
					return out, err
				}
				res = pres
			} else {
				res = sess.stream.Run(context.WithValue(pctx, askKey{}, ask), call)
			}
			if ask.needed == nil {
				break
			}
			// The pipeline stopped at the permissions stage, or a tool
			// stopped before it changed anything to ask its user or the
			// client's model. Ask the client, then run the call again
			// with every answer so far.
			if round > maxRounds {
				return nil, fmt.Errorf("%s asked the client %d times in one call; giving up", name, maxRounds)
			}
			if roundTrips(req.Session) {
				state, err := encodeState(answers)
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{InputRequests: ask.needed, RequestState: state}, nil
			}
			got, err := fulfil(ctx, req.Session, ask.needed)
			if err != nil {
				return nil, err
			}
			if answers == nil {
				answers = mcp.InputResponseMap{}
			}
			maps.Copy(answers, got)
		}
		return s.callResult(ctx, req, sess, res)
	}
}

// callResult is the MCP result of a call that ran.
func (s *Server) callResult(ctx context.Context, req *mcp.CallToolRequest, sess *session, res tool.Result) (*mcp.CallToolResult, error) {
	if res.Code == tool.Canceled && ctx.Err() != nil {
		// The client cancelled: it expects no result, and the SDK
		// answers a cancelled request itself.
		return nil, ctx.Err()
	}
	return toMCP(withInbox(res, &sess.inbox), s.structuredFor(req.Session)), nil
}

// session returns the Hands session of an MCP session, starting it on the
// first call; it ends when the MCP session does.
func (s *Server) session(ss *mcp.ServerSession) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess, ok := s.sessions[ss]; ok {
		return sess, nil
	}
	hs, err := s.rt.NewSession()
	if err != nil {
		return nil, err
	}
	hs.Executor().Ask = askClient
	hs.SetAskUser(askUser)
	switch {
	case hs.Model() != nil:
	case offersAgentSampling(ss):
		hs.SetModel(samplingModel{ss})
	case offersSampling(ss):
		// Sampling without tools, or during a call not allowed: enough
		// for web_fetch's question, not for a subagent.
		hs.SetModel(samplingCompleter{samplingModel{ss}})
	}
	sess := &session{hs: hs, stream: hs.Stream(context.Background())}
	s.sessions[ss] = sess
	s.started++
	if ss != nil {
		done := make(chan struct{})
		go s.pump(ss, sess, done)
		go func() {
			_ = ss.Wait()
			close(done)
			s.parked.closeSession(sess)
			s.mu.Lock()
			delete(s.sessions, ss)
			s.mu.Unlock()
			if err := hs.Close(); err != nil {
				s.log.Warn("closing session", "err", err)
			}
		}()
	}
	return sess, nil
}

// listModelTools leaves the tools that need a model out of tools/list for
// a session that has none: no model of the runtime's, and a client that
// does not answer sampling with tools.
func (s *Server) listModelTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "tools/list" || err != nil || s.rt.HasModel() {
			return res, err
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		lr, ok := res.(*mcp.ListToolsResult)
		if !ok || offersAgentSampling(ss) {
			return res, err
		}
		kept := make([]*mcp.Tool, 0, len(lr.Tools))
		for _, t := range lr.Tools {
			if !s.rt.NeedsModel(t.Name) {
				kept = append(kept, t)
			}
		}
		cp := *lr
		cp.Tools = kept
		return &cp, nil
	}
}

// permissionInput names the input request that asks the user to allow a
// call.
const permissionInput = "permission"

// askKey carries a call's askState in its context.
type askKey struct{}

// askState is what one tools/call knows of the user's answer: the input
// responses the client sent with the call, and the questions to ask when
// there are none yet.
type askState struct {
	session   *mcp.ServerSession
	responses mcp.InputResponseMap
	needed    mcp.InputRequestMap
}

// need records a question for the client and returns the error that stops
// the call until it has answered.
func (st *askState) need(key string, p *mcp.ElicitParams) error {
	if st.needed == nil {
		st.needed = mcp.InputRequestMap{}
	}
	st.needed[key] = p
	return errNeedsInput
}

// canElicit reports whether the client declared the elicitation
// capability (form mode); without it, nobody can be asked.
func (st *askState) canElicit() bool {
	if st.session == nil {
		return true // an in-process caller without a session answers itself
	}
	ip := st.session.InitializeParams()
	return ip != nil && ip.Capabilities != nil && ip.Capabilities.Elicitation != nil
}

// pendingError stops a call until the client has answered; tools see it
// as pending, not as a failure to ask.
type pendingError struct{}

func (pendingError) Error() string { return "waiting for the user's answer" }
func (pendingError) Pending() bool { return true }

var errNeedsInput error = pendingError{}

// askClient answers a policy's Ask from the call's input responses, or
// records the question (SEP-2322 multi round-trip: the handler returns it
// as an input request; the SDK asks clients of older protocol versions with
// elicitation/create and calls again).
func askClient(ctx context.Context, info tool.Info, call tool.Call, reason string) (bool, error) {
	st, ok := ctx.Value(askKey{}).(*askState)
	if !ok {
		return false, errors.New("no client to ask")
	}
	if r, ok := st.responses[permissionInput].(*mcp.ElicitResult); ok {
		return r.Action == "accept", nil
	}
	if !st.canElicit() {
		return false, errors.New("the MCP client does not support elicitation, so the user cannot be asked; the call is refused. Allow it with a permission rule (settings allow list) or use a client that supports elicitation")
	}
	return false, st.need(permissionInput, &mcp.ElicitParams{
		Mode:            "form",
		Message:         fmt.Sprintf("Allow %s? %s\nArguments: %s", info.Name, reason, call.Input),
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
	})
}

// toMCP converts a result to MCP's form: content, structured content that
// validates against the output schema (or carries the error code), as sc
// says, and isError.
func toMCP(res tool.Result, sc StructuredContent) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: res.IsError}
	for _, c := range res.Content {
		switch c.Type {
		case "image":
			out.Content = append(out.Content, &mcp.ImageContent{Data: c.Data, MIMEType: c.MIMEType})
		default:
			out.Content = append(out.Content, &mcp.TextContent{Text: c.Text})
		}
	}
	if out.Content == nil {
		out.Content = []mcp.Content{}
	}
	switch m, ok := res.Structured.(tool.MetadataOutput); {
	case sc == StructuredNone || res.Structured == nil:
	case ok:
		out.StructuredContent = m.StructuredMetadata()
	default:
		out.StructuredContent = res.Structured
	}
	return out
}

// Run serves one client over t (for example &mcp.StdioTransport{}) until the
// client disconnects or ctx ends; every session is closed on return.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	defer s.closeAll()
	return s.mcp.Run(ctx, t)
}

// Connect serves one client over t in the background and returns its
// session, for in-process tests and embedding.
func (s *Server) Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error) {
	return s.mcp.Connect(ctx, t, nil)
}

// closeIdle closes the HTTP session id after its idle timeout.
func (s *Server) closeIdle(id string) {
	for ss := range s.mcp.Sessions() {
		if ss.ID() == id {
			if err := ss.Close(); err != nil {
				s.log.Warn("closing an idle session", "session", id, "err", err)
			}
			s.log.Info("closed an idle session", "session", id, "idle", s.idle.timeout)
		}
	}
}

// Close ends every session.
func (s *Server) Close() error {
	s.closeAll()
	return nil
}

func (s *Server) closeAll() {
	s.parked.closeAll()
	s.mu.Lock()
	sessions := slices.Collect(maps.Values(s.sessions))
	s.sessions = map[*mcp.ServerSession]*session{}
	if s.shared != nil {
		sessions = append(sessions, s.shared)
		s.shared = nil
	}
	s.mu.Unlock()
	for _, sess := range sessions {
		if err := sess.hs.Close(); err != nil {
			s.log.Warn("closing session", "err", err)
		}
	}
}
