package mcpserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultSessionIdleTimeout is HTTPOptions.SessionIdleTimeout when zero.
const DefaultSessionIdleTimeout = 30 * time.Minute

// DefaultReconnectDelay is HTTPOptions.ReconnectDelay when zero.
const DefaultReconnectDelay = time.Second

// eventStoreBytes bounds what the server keeps of all sessions' streams
// for replay to clients that reconnect; the oldest streams go first.
const eventStoreBytes = 64 << 20

// HTTPOptions configure the Streamable HTTP handler.
type HTTPOptions struct {
	// AllowOrigins lists the browser origins (scheme://host[:port]) whose
	// requests are served besides loopback ones; a request from any other
	// Origin is refused with 403 before anything runs. A request without
	// an Origin header (not from a browser) is served.
	AllowOrigins []string
	// SessionIdleTimeout closes a session that has had no HTTP request open
	// and no tool call running for this long; zero means
	// DefaultSessionIdleTimeout, negative never.
	SessionIdleTimeout time.Duration
	// ReconnectDelay is sent as the `retry` field of each response
	// stream's priming event (SEP-1699): how long a client whose
	// connection dropped waits before resuming with Last-Event-ID. Zero
	// means DefaultReconnectDelay.
	ReconnectDelay time.Duration
}

// HTTPHandler serves Streamable HTTP; each HTTP session is an MCP session.
// Before the SDK sees a request it refuses a foreign Origin (403), a body
// larger than Options.MaxRequestSize (413) and a body that is not one valid
// JSON-RPC message (400), each with a JSON-RPC error body. Response streams
// are resumable: their events are kept in memory and replayed to a client
// that reconnects with Last-Event-ID.
func (s *Server) HTTPHandler() http.Handler {
	store := mcp.NewMemoryEventStore(nil)
	store.SetMaxBytes(eventStoreBytes)
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Logger:              sdkLogger(s.log),
		EventStore:          store,
		MaxRequestBodyBytes: s.maxRequestSize,
	})
	// Requests of protocol 2026-07-28 and later go to a stateless handler
	// (the SDK serves that revision only statelessly); older clients keep
	// their sessions.
	statelessMCP := s.statelessMCP()
	stateless := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return statelessMCP }, &mcp.StreamableHTTPOptions{
		Logger:              sdkLogger(s.log),
		Stateless:           true,
		MaxRequestBodyBytes: s.maxRequestSize,
	})
	delay := s.http.ReconnectDelay
	if delay <= 0 {
		delay = DefaultReconnectDelay
	}
	retry := []byte("retry: " + strconv.FormatInt(delay.Milliseconds(), 10) + "\n")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); !s.originAllowed(origin) {
			s.log.Warn("refused a request from a foreign origin", "origin", origin)
			writeHTTPError(w, http.StatusForbidden, invalidRequest(jsonrpc.ID{}, "origin %q is not allowed; start the server with --allow-origin %s to serve it", origin, origin))
			return
		}
		rw := &responseWriter{ResponseWriter: w, retry: retry}
		if r.Method == http.MethodPost {
			body, msg, status, bad := readBody(w, r, s.maxRequestSize)
			if bad != nil {
				s.log.Warn("refused a message", "err", bad.err.Message)
				writeHTTPError(w, status, bad)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			if req, ok := msg.(*jsonrpc.Request); ok {
				rw.id, rw.method = req.ID, req.Method
			}
		}
		if speaksStateless(r) {
			stateless.ServeHTTP(rw, r)
			s.log.Debug("http request done", "method", r.Method, "rpc", rw.method, "protocol", r.Header.Get("Mcp-Protocol-Version"), "status", rw.status)
			return
		}
		id := r.Header.Get("Mcp-Session-Id")
		s.idle.begin(id)
		defer s.idle.end(id)
		sdk.ServeHTTP(rw, r)
		s.log.Debug("http request done", "method", r.Method, "rpc", rw.method, "session", id, "status", rw.status)
		if id == "" {
			// A new session: its idle time starts now.
			if id = w.Header().Get("Mcp-Session-Id"); id != "" {
				s.idle.begin(id)
				s.idle.end(id)
			}
		}
	})
}

// readBody reads a POST body of at most limit bytes and checks that it is
// one JSON-RPC message.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, jsonrpc.Message, int, *badMessage) {
	if r.ContentLength > limit {
		// Refused unread, but for its start: the id to answer.
		head, _ := io.ReadAll(io.LimitReader(r.Body, headSize))
		return nil, nil, http.StatusRequestEntityTooLarge, tooLarge(idFromPrefix(head), r.ContentLength, limit, true)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, nil, http.StatusRequestEntityTooLarge, tooLarge(idFromPrefix(body[:min(len(body), headSize)]), limit, limit, false)
		}
		return nil, nil, http.StatusBadRequest, invalidRequest(jsonrpc.ID{}, "reading the request body: %v", err)
	}
	msg, bad := decodeMessage(body)
	if bad != nil {
		return nil, nil, http.StatusBadRequest, bad
	}
	return body, msg, 0, nil
}

func writeHTTPError(w http.ResponseWriter, status int, bad *badMessage) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(errorReply(bad))
}

// originAllowed reports whether a request with this Origin header may be
// served: none, a loopback origin, or one of HTTPOptions.AllowOrigins.
func (s *Server) originAllowed(origin string) bool {
	if origin == "" {
		return true
	}
	for _, o := range s.http.AllowOrigins {
		if strings.EqualFold(strings.TrimSuffix(o, "/"), origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Path != "" {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// CheckOrigin reports whether s can be an entry of HTTPOptions.AllowOrigins:
// an http or https origin, scheme://host[:port], with no path.
func CheckOrigin(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.TrimSuffix(u.Path, "/") != "" || u.RawQuery != "" || u.User != nil {
		return fmt.Errorf("origin %q: give scheme://host[:port], e.g. https://app.example.com", s)
	}
	return nil
}

// responseWriter adjusts what the SDK writes: it adds the `retry` field to
// the priming event, the first event of a response stream (SEP-1699), which
// the SDK writes with an id and no retry; and it turns the SDK's plain-text
// error responses into JSON-RPC error bodies answering the request's id.
type responseWriter struct {
	http.ResponseWriter
	retry  []byte
	id     jsonrpc.ID
	method string // the JSON-RPC method of a POST
	status int
	seen   bool // the first write is done
	asRPC  bool // the status was an error with a plain-text body
}

var primeEvent = []byte("event: prime\n")

func (w *responseWriter) WriteHeader(code int) {
	w.status = code
	if code >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.asRPC = true
		w.Header().Set("Content-Type", "application/json")
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *responseWriter) Write(b []byte) (int, error) {
	first := !w.seen
	w.seen = true
	switch {
	case w.asRPC:
		if !first {
			return len(b), nil
		}
		msg := strings.TrimSpace(string(b))
		code := int64(jsonrpc.CodeInvalidRequest)
		if strings.Contains(msg, "JSON RPC not handled") {
			code = jsonrpc.CodeMethodNotFound
		}
		if _, err := w.ResponseWriter.Write(errorReply(&badMessage{id: w.id, err: &jsonrpc.Error{Code: code, Message: msg}})); err != nil {
			return 0, err
		}
		return len(b), nil
	case first && bytes.HasPrefix(b, primeEvent) && strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream"):
		i := bytes.Index(b, []byte("\ndata:"))
		if i < 0 {
			break
		}
		out := make([]byte, 0, len(b)+len(w.retry))
		out = append(append(append(out, b[:i+1]...), w.retry...), b[i+1:]...)
		if _, err := w.ResponseWriter.Write(out); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController flush the stream.
func (w *responseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// idleSessions closes HTTP sessions that have had no request open and no
// call running for a while. The SDK's own SessionTimeout counts only POST
// requests, so it would close a session whose client waits on a GET stream
// for a long call's result.
type idleSessions struct {
	timeout time.Duration
	close   func(id string)

	mu       sync.Mutex
	sessions map[string]*idleSession
}

type idleSession struct {
	busy  int
	timer *time.Timer
}

func newIdleSessions(timeout time.Duration, close func(id string)) *idleSessions {
	if timeout == 0 {
		timeout = DefaultSessionIdleTimeout
	}
	return &idleSessions{timeout: timeout, close: close, sessions: map[string]*idleSession{}}
}

// begin marks session id busy.
func (t *idleSessions) begin(id string) {
	t.update(id, func(e *idleSession) {
		e.busy++
		if e.timer != nil {
			e.timer.Stop()
		}
	})
}

// end ends what begin began; the session's idle time starts when nothing
// is left.
func (t *idleSessions) end(id string) {
	t.update(id, func(e *idleSession) {
		if e.busy--; e.busy > 0 {
			return
		}
		if e.timer == nil {
			e.timer = time.AfterFunc(t.timeout, func() { t.expire(id, e) })
		} else {
			e.timer.Reset(t.timeout)
		}
	})
}

// update calls f with the state of session id, t.mu held.
func (t *idleSessions) update(id string, f func(*idleSession)) {
	if id == "" || t.timeout < 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.sessions[id]
	if e == nil {
		e = &idleSession{}
		t.sessions[id] = e
	}
	f(e)
}

func (t *idleSessions) expire(id string, e *idleSession) {
	t.mu.Lock()
	if t.sessions[id] != e || e.busy > 0 {
		t.mu.Unlock()
		return
	}
	delete(t.sessions, id)
	t.mu.Unlock()
	t.close(id)
}
