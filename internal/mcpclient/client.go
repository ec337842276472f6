// Package mcpclient offers the tools of other MCP servers as Hands tools
// named mcp__<server>__<tool>, so that they pass through the same pipeline
// as the built-in ones (permissions, hooks, modes, result limits). It reads
// server entries in Claude Code's shapes (.mcp.json, ~/.claude.json), starts
// or reaches every server in parallel with a bound on each, keeps the tool
// lists current on notifications/tools/list_changed, and reconnects a
// server that died on the next call, with bounded backoff.
//
// It does not confine stdio servers: they are programs the user
// configured, run with Hands's environment as Claude Code runs them.
package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/hands-dev/hands/tool"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure a Manager.
type Options struct {
	// ConnectTimeout bounds starting a server and its initialize and
	// tools/list; default 30s (Claude Code's MCP_TIMEOUT default).
	ConnectTimeout time.Duration
	// CallTimeout bounds each tool call; 0 means the caller's context
	// alone (Claude Code's MCP_TOOL_TIMEOUT).
	CallTimeout time.Duration
	// Publish replaces the tools of one server in the host's registry:
	// the names in remove go, add come. It is called with no lock held.
	Publish func(server string, remove []string, add []tool.Tool) error
	// Changed is called after a server's tools changed and were published.
	Changed func()
	// Logger receives connection events.
	Logger *slog.Logger
	// ClientName and ClientVersion are what the servers are told.
	ClientName, ClientVersion string
}

// The states of a server.
const (
	StateConnecting   = "connecting"
	StateConnected    = "connected"
	StateFailed       = "failed"
	StateDisconnected = "disconnected"
)

// Status is what `hands doctor` shows of one server.
type Status struct {
	Name, Type, Source string
	// State is connecting, connected, failed or disconnected.
	State string
	// Tools is the number of its tools offered.
	Tools int
	// Err is the last failure, "" when none.
	Err string
	// Skipped lists remote tools not offered, with why.
	Skipped []string
}

// Manager holds the connections to the configured servers. Close it to
// end them (stdio servers are stopped).
type Manager struct {
	opts    Options
	client  *mcp.Client
	servers []*server
	closed  chan struct{}
	spawn   *spawner
}

// errClosed is the failure of a connection attempted after Close.
var errClosed = errors.New("the MCP client is closed")

// backoff bounds reconnecting a server that keeps failing.
const (
	firstBackoff = time.Second
	maxBackoff   = 30 * time.Second
)

// Start connects to every server in parallel and returns when each is
// connected or has failed (each within ConnectTimeout): a slow or failing
// server holds back no other, and is reported in Status.
func Start(ctx context.Context, servers []Server, opts Options) *Manager {
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = 30 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.ClientName == "" {
		opts.ClientName = "hands"
	}
	m := &Manager{opts: opts, closed: make(chan struct{}), spawn: newSpawner()}
	for _, cfg := range servers {
		m.servers = append(m.servers, &server{m: m, cfg: cfg, prefix: "mcp__" + Qualify(cfg.Name) + "__", state: StateConnecting})
	}
	m.client = mcp.NewClient(&mcp.Implementation{Name: opts.ClientName, Version: opts.ClientVersion}, &mcp.ClientOptions{
		Capabilities:           &mcp.ClientCapabilities{},
		ToolListChangedHandler: m.toolListChanged,
	})
	var wg sync.WaitGroup
	for _, s := range m.servers {
		wg.Go(func() {
			s.connMu.Lock()
			defer s.connMu.Unlock()
			if err := s.connect(ctx); err != nil {
				opts.Logger.Warn("MCP server failed to start", "server", s.cfg.Name, "source", s.cfg.Source, "err", err)
			}
		})
	}
	wg.Wait()
	return m
}

// Status reports each server, in configuration order.
func (m *Manager) Status() []Status {
	out := make([]Status, 0, len(m.servers))
	for _, s := range m.servers {
		out = append(out, s.status())
	}
	return out
}

// Close ends every connection; stdio servers are stopped.
func (m *Manager) Close() error {
	select {
	case <-m.closed:
		return nil
	default:
	}
	close(m.closed)
	// The spawner's thread ends last: its end kills whatever server
	// did not stop when its connection closed.
	defer m.spawn.stop()
	var errs []error
	for _, s := range m.servers {
		s.mu.Lock()
		sess := s.session
		s.session = nil
		s.state = StateDisconnected
		s.mu.Unlock()
		if sess != nil {
			if err := sess.Close(); err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
				errs = append(errs, fmt.Errorf("MCP server %s: %w", s.cfg.Name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// toolListChanged refreshes the tools of the server whose session sent the
// notification, away from the connection's goroutine.
func (m *Manager) toolListChanged(_ context.Context, req *mcp.ToolListChangedRequest) {
	m.opts.Logger.Debug("notifications/tools/list_changed")
	for _, s := range m.servers {
		s.mu.Lock()
		mine := s.session == req.Session
		s.mu.Unlock()
		if mine {
			go s.refresh()
			return
		}
	}
}

// server is one configured server and its connection.
type server struct {
	m      *Manager
	cfg    Server
	prefix string

	// connMu serializes connecting and refreshing.
	connMu sync.Mutex

	mu        sync.Mutex
	state     string
	err       error
	session   *mcp.ClientSession
	published []string
	skipped   []string
	failures  int
	retryAt   time.Time
}

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Name: s.cfg.Name, Type: s.cfg.Type, Source: s.cfg.Source, State: s.state, Tools: len(s.published), Skipped: slices.Clone(s.skipped)}
	if s.err != nil {
		st.Err = s.err.Error()
	}
	return st
}

// transport builds the server's transport from its configuration.
func (s *server) transport() mcp.Transport {
	switch s.cfg.Type {
	case "http", "sse":
		client := &http.Client{Transport: headers{s.cfg.Headers, http.DefaultTransport}}
		if s.cfg.Type == "sse" {
			return &mcp.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: client}
		}
		return &mcp.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: client, MaxRetries: -1}
	}
	cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
	cmd.Env = os.Environ()
	for _, k := range slices.Sorted(maps.Keys(s.cfg.Env)) {
		cmd.Env = append(cmd.Env, k+"="+s.cfg.Env[k])
	}
	cmd.Stderr = &logWriter{log: s.m.opts.Logger, server: s.cfg.Name}
	dieWithParent(cmd)
	return onSpawner(&mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, s.m.spawn)
}

// headers adds a server's configured headers to each request.
type headers struct {
	h    map[string]string
	next http.RoundTripper
}

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.h) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.h {
			r.Header.Set(k, v)
		}
	}
	return h.next.RoundTrip(r)
}

// logWriter passes a stdio server's stderr to the log, line by line.
type logWriter struct {
	log    *slog.Logger
	server string
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.log.Debug("MCP server stderr", "server", w.server, "text", string(p))
	return len(p), nil
}

// connect starts or reaches the server, lists its tools and publishes
// them, within ConnectTimeout. The caller holds connMu.
func (s *server) connect(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.m.opts.ConnectTimeout)
	defer cancel()
	s.setState(StateConnecting, nil)
	sess, err := s.m.client.Connect(ctx, s.transport(), nil)
	if err == nil {
		s.mu.Lock()
		s.session = sess
		s.mu.Unlock()
		err = s.list(ctx, sess)
		if err != nil {
			sess.Close()
		}
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no answer to initialize and tools/list within %s: %w", s.m.opts.ConnectTimeout, err)
		}
		s.mu.Lock()
		s.session = nil
		s.state, s.err = StateFailed, err
		s.failures++
		s.retryAt = time.Now().Add(min(firstBackoff<<(s.failures-1), maxBackoff))
		s.mu.Unlock()
		return err
	}
	s.mu.Lock()
	s.state, s.err, s.failures = StateConnected, nil, 0
	s.mu.Unlock()
	s.m.opts.Logger.Info("MCP server connected", "server", s.cfg.Name, "tools", len(s.status().Skipped)+s.status().Tools)
	go s.watch(sess)
	return nil
}

// watch reports the session's end: a server that died is marked
// disconnected and reconnected on the next call.
func (s *server) watch(sess *mcp.ClientSession) {
	err := sess.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session != sess {
		return
	}
	s.session = nil
	s.state = StateDisconnected
	if err == nil {
		err = errors.New("the server closed the connection")
	}
	s.err = err
	select {
	case <-s.m.closed:
	default:
		s.m.opts.Logger.Warn("MCP server disconnected; it is reconnected on the next call", "server", s.cfg.Name, "err", err)
	}
}

func (s *server) setState(state string, err error) {
	s.mu.Lock()
	s.state, s.err = state, err
	s.mu.Unlock()
}

// list fetches the server's tools and publishes them in place of the
// ones it had.
func (s *server) list(ctx context.Context, sess *mcp.ClientSession) error {
	var remote []*mcp.Tool
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("tools/list: %w", err)
		}
		remote = append(remote, t)
	}
	var add []tool.Tool
	var skipped []string
	seen := map[string]bool{}
	for _, rt := range remote {
		w, err := wrap(s, rt)
		if err == nil && seen[w.info.Name] {
			err = fmt.Errorf("another tool of the server is also offered as %s", w.info.Name)
		}
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", rt.Name, err))
			continue
		}
		seen[w.info.Name] = true
		add = append(add, w)
	}
	sort.Strings(skipped)
	s.mu.Lock()
	old := s.published
	s.mu.Unlock()
	if s.m.opts.Publish != nil {
		if err := s.m.opts.Publish(s.cfg.Name, old, add); err != nil {
			return fmt.Errorf("offering its tools: %w", err)
		}
	}
	names := make([]string, len(add))
	for i, t := range add {
		names[i] = t.Info().Name
	}
	s.mu.Lock()
	s.published, s.skipped = names, skipped
	s.mu.Unlock()
	s.m.opts.Logger.Debug("MCP server's tools listed", "server", s.cfg.Name, "tools", len(names), "skipped", len(skipped))
	for _, sk := range skipped {
		s.m.opts.Logger.Warn("MCP tool not offered", "server", s.cfg.Name, "tool", sk)
	}
	if s.m.opts.Changed != nil {
		s.m.opts.Changed()
	}
	return nil
}

// refresh lists the tools again after notifications/tools/list_changed.
func (s *server) refresh() {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	s.mu.Lock()
	sess := s.session
	s.mu.Unlock()
	if sess == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.m.opts.ConnectTimeout)
	defer cancel()
	if err := s.list(ctx, sess); err != nil {
		s.m.opts.Logger.Warn("MCP server's tool list could not be refreshed", "server", s.cfg.Name, "err", err)
	}
}

// live returns the server's session, reconnecting a server that died or
// failed when its backoff has passed.
func (s *server) live(ctx context.Context) (*mcp.ClientSession, *tool.Error) {
	s.mu.Lock()
	sess := s.session
	s.mu.Unlock()
	if sess != nil {
		return sess, nil
	}
	s.connMu.Lock()
	defer s.connMu.Unlock()
	s.mu.Lock()
	sess, lastErr, retryAt := s.session, s.err, s.retryAt
	s.mu.Unlock()
	if sess != nil {
		return sess, nil // another call reconnected it
	}
	select {
	case <-s.m.closed:
		return nil, tool.Errorf(tool.MCPServerUnavailable, "MCP server %s is closed: Hands is shutting down", s.cfg.Name)
	default:
	}
	if wait := time.Until(retryAt); wait > 0 {
		return nil, tool.Errorf(tool.MCPServerUnavailable, "MCP server %s is unavailable (%v); the next attempt to reconnect is in %s — try again then, or use other tools", s.cfg.Name, lastErr, wait.Round(100*time.Millisecond))
	}
	if err := s.connect(context.WithoutCancel(ctx)); err != nil {
		return nil, tool.Errorf(tool.MCPServerUnavailable, "MCP server %s is unavailable: reconnecting failed: %v; try again later, or use other tools", s.cfg.Name, err)
	}
	s.mu.Lock()
	sess = s.session
	s.mu.Unlock()
	if sess == nil {
		return nil, tool.Errorf(tool.MCPServerUnavailable, "MCP server %s disconnected right after reconnecting; try again later", s.cfg.Name)
	}
	return sess, nil
}

// dropped marks sess dead after a transport failure, so that the next call
// reconnects.
func (s *server) dropped(sess *mcp.ClientSession, err error) {
	s.mu.Lock()
	if s.session == sess {
		s.session = nil
		s.state, s.err = StateDisconnected, err
	}
	s.mu.Unlock()
	sess.Close()
}

// call runs the remote tool name with args.
func (s *server) call(ctx context.Context, name string, args any) (*mcp.CallToolResult, error) {
	sess, terr := s.live(ctx)
	if terr != nil {
		return nil, terr
	}
	if t := s.m.opts.CallTimeout; t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err == nil {
		return res, nil
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, tool.Errorf(tool.Canceled, "MCP server %s did not answer the call of %s within %s; it may still be working on it", s.cfg.Name, name, s.m.opts.CallTimeout).With("server", s.cfg.Name)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		return nil, tool.Errorf(tool.MCPServerError, "MCP server %s refused the call of %s: %s", s.cfg.Name, name, rpc.Message).With("server", s.cfg.Name)
	}
	s.dropped(sess, err)
	return nil, tool.Errorf(tool.MCPServerUnavailable, "MCP server %s failed during the call of %s (%v); the call's outcome is unknown, and the server is restarted on the next call", s.cfg.Name, name, err).With("server", s.cfg.Name)
}
