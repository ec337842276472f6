package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/sourcegraph/jsonrpc2"
)

// Client is one running language server for one workspace root: started,
// initialized with the root as its workspace folder, and kept until Close
// or its death. Its methods are safe for concurrent use.
type Client struct {
	srv  Server
	root string
	proc *jobs.Server
	conn *jsonrpc2.Conn
	gone chan struct{} // closed when the server or the connection ended

	mu       sync.Mutex
	docs     map[string]*doc     // open documents, by absolute path
	progress map[string]struct{} // work-done progress under way, by token
	idle     chan struct{}       // closed while no progress is under way
	began    int                 // progress reports begun, ever
	closed   bool
}

// doc is a document as the server last got it.
type doc struct {
	version int
	hash    [32]byte
}

// ErrServerExited is wrapped by the errors of calls to a server that has
// exited; the Manager starts a new one on the next call.
var ErrServerExited = errors.New("the language server exited")

// start starts argv in root as jm's server, connects and initializes it.
func start(ctx context.Context, jm *jobs.Manager, srv Server, argv []string, root string) (*Client, error) {
	var env []string
	for k, v := range srv.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	proc, err := jm.StartServer(argv, root, env)
	if err != nil {
		return nil, err
	}
	c := &Client{srv: srv, root: root, proc: proc, gone: make(chan struct{}),
		docs: map[string]*doc{}, progress: map[string]struct{}{}, idle: make(chan struct{})}
	close(c.idle)
	rwc := struct {
		io.Reader
		io.Writer
		io.Closer
	}{proc.Stdout(), proc.Stdin(), closers{proc.Stdin(), proc.Stdout()}}
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(c.handle).SuppressErrClosed())
	go func() {
		select {
		case <-c.conn.DisconnectNotify():
		case <-proc.Done():
		}
		close(c.gone)
		c.conn.Close()
	}()
	if err := c.initialize(ctx); err != nil {
		c.kill()
		return nil, err
	}
	return c, nil
}

type closers []io.Closer

func (cs closers) Close() error {
	var errs []error
	for _, c := range cs {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// FileURI is the file: URI of an absolute path.
func FileURI(path string) string {
	p := filepath.ToSlash(path)
	if runtime.GOOS == "windows" {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// URIPath is the path a file: URI names, "" for other URIs.
func URIPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, "/")
	}
	return filepath.FromSlash(p)
}

func (c *Client) initialize(ctx context.Context) error {
	folder := map[string]string{"uri": FileURI(c.root), "name": filepath.Base(c.root)}
	params := map[string]any{
		"processId":        os.Getpid(),
		"clientInfo":       map[string]string{"name": "hands"},
		"rootUri":          FileURI(c.root),
		"rootPath":         c.root,
		"workspaceFolders": []any{folder},
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": []string{"utf-16"}},
			"window":  map[string]any{"workDoneProgress": true},
			"workspace": map[string]any{
				"workspaceFolders": true, "configuration": true,
				"symbol": map[string]any{"symbolKind": map[string]any{"valueSet": kindValues()}},
			},
			"textDocument": map[string]any{
				"synchronization": map[string]any{"didSave": false, "dynamicRegistration": false},
				"hover":           map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
				"definition":      map[string]any{"linkSupport": true},
				"implementation":  map[string]any{"linkSupport": true},
				"references":      map[string]any{},
				"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true,
					"symbolKind": map[string]any{"valueSet": kindValues()}},
				"callHierarchy": map[string]any{},
			},
		},
	}
	if len(c.srv.InitializationOptions) > 0 {
		params["initializationOptions"] = c.srv.InitializationOptions
	}
	var res json.RawMessage
	if err := c.Call(ctx, "initialize", params, &res); err != nil {
		return fmt.Errorf("initializing %s: %w", c.srv.Name, err)
	}
	if err := c.conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		return c.failure(ctx, "initialized", err)
	}
	return nil
}

func kindValues() []int {
	v := make([]int, len(symbolKinds))
	for i := range v {
		v[i] = i + 1
	}
	return v
}

// handle answers what the server asks of the client and follows its
// progress reports.
func (c *Client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	switch req.Method {
	case "$/progress":
		c.noteProgress(params)
		return nil, nil
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		json.Unmarshal(params, &p)
		return make([]any, len(p.Items)), nil
	case "workspace/workspaceFolders":
		return []any{map[string]string{"uri": FileURI(c.root), "name": filepath.Base(c.root)}}, nil
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability",
		"window/showMessageRequest", "window/showDocument", "workspace/diagnostic/refresh",
		"workspace/semanticTokens/refresh", "workspace/inlayHint/refresh", "workspace/codeLens/refresh":
		return nil, nil
	case "workspace/applyEdit":
		// Hands edits files through its own tools, never the server's.
		return map[string]any{"applied": false, "failureReason": "this client does not apply edits"}, nil
	}
	if req.Notif {
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported by this client: " + req.Method}
}

// noteProgress follows $/progress: a begin marks the server busy until
// the matching end.
func (c *Client) noteProgress(params json.RawMessage) {
	var p struct {
		Token json.RawMessage `json:"token"`
		Value struct {
			Kind string `json:"kind"`
		} `json:"value"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	tok := string(p.Token)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch p.Value.Kind {
	case "begin":
		if len(c.progress) == 0 {
			c.idle = make(chan struct{})
		}
		c.progress[tok] = struct{}{}
		c.began++
	case "end":
		if _, ok := c.progress[tok]; !ok {
			return
		}
		delete(c.progress, tok)
		if len(c.progress) == 0 {
			close(c.idle)
		}
	}
}

// WaitReady waits, at most bound, until no work-done progress (such as
// loading the workspace) is under way. It reports whether the server was
// idle when it returned.
func (c *Client) WaitReady(ctx context.Context, bound time.Duration) bool {
	c.mu.Lock()
	idle := c.idle
	c.mu.Unlock()
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
	case <-ctx.Done():
	case <-c.gone:
	}
	return false
}

// Began returns how many progress reports the server has begun so far.
func (c *Client) Began() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.began
}

// Call sends a request and decodes its result into result.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	select {
	case <-c.gone:
		return c.failure(ctx, method, jsonrpc2.ErrClosed)
	default:
	}
	err := c.conn.Call(ctx, method, params, result)
	if err != nil {
		return c.failure(ctx, method, err)
	}
	return nil
}

// failure explains err: an error the server answered, the caller's
// cancellation, or a server that died, saying how with the end of its
// stderr.
func (c *Client) failure(ctx context.Context, method string, err error) error {
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		return &ServerError{Server: c.srv.Name, Method: method, Code: rpcErr.Code, Message: rpcErr.Message}
	}
	if !c.Dead() && !errors.Is(err, jsonrpc2.ErrClosed) && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s %s: %w", c.srv.Name, method, err)
	}
	// The connection ended: wait for the process, to tell how it ended.
	c.kill()
	e := &ExitedError{Server: c.srv.Name, Method: method, How: c.proc.ExitStatus()}
	if tail := strings.TrimSpace(c.proc.Stderr()); tail != "" {
		if len(tail) > 600 {
			tail = "…" + tail[len(tail)-600:]
		}
		e.Stderr = tail
	}
	return e
}

// ExitedError is the error of a call to a server that has exited.
type ExitedError struct {
	Server, Method, How string
	// Stderr is the end of what the server wrote to stderr.
	Stderr string
}

func (e *ExitedError) Error() string {
	msg := fmt.Sprintf("the language server %s exited (%s) during %s", e.Server, e.How, e.Method)
	if e.Stderr != "" {
		msg += "; the end of its stderr: " + e.Stderr
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrServerExited) true.
func (e *ExitedError) Unwrap() error { return ErrServerExited }

// ServerError is an error the server answered a request with.
type ServerError struct {
	Server, Method string
	Code           int64
	Message        string
}

func (e *ServerError) Error() string {
	return fmt.Sprintf("%s answered %s with error %d: %s", e.Server, e.Method, e.Code, e.Message)
}

// Dead reports whether the server or its connection has ended.
func (c *Client) Dead() bool {
	select {
	case <-c.gone:
		return true
	default:
		return false
	}
}

// Server returns the table entry the client runs.
func (c *Client) Server() Server { return c.srv }

// Pid is the server's process id.
func (c *Client) Pid() int { return c.proc.Pid() }

// Process is the server's process, for tests that need to crash it.
func (c *Client) Process() *jobs.Server { return c.proc }

// Sync makes the server's copy of the file at path (absolute) the given
// content: didOpen the first time, didChange (the whole text) when the
// content differs from what it last got. It reports whether anything was
// sent.
func (c *Client) Sync(ctx context.Context, path, languageID string, content []byte) (bool, error) {
	h := sha256.Sum256(content)
	c.mu.Lock()
	d, open := c.docs[path]
	if open && d.hash == h {
		c.mu.Unlock()
		return false, nil
	}
	if !open {
		d = &doc{}
		c.docs[path] = d
	}
	d.version++
	d.hash = h
	version := d.version
	c.mu.Unlock()
	uri := FileURI(path)
	var err error
	if !open {
		err = c.conn.Notify(ctx, "textDocument/didOpen", map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": languageID, "version": version, "text": string(content)}})
	} else {
		err = c.conn.Notify(ctx, "textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]string{"text": string(content)}}})
	}
	if err != nil {
		c.mu.Lock()
		delete(c.docs, path)
		c.mu.Unlock()
		return false, c.failure(ctx, "textDocument/didOpen", err)
	}
	return true, nil
}

// Close asks the server to shut down and exit, then ends its group; a
// server that does not answer within bound is killed.
func (c *Client) Close(bound time.Duration) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	if !c.Dead() {
		ctx, cancel := context.WithTimeout(context.Background(), bound)
		if c.conn.Call(ctx, "shutdown", nil, nil) == nil {
			c.conn.Notify(ctx, "exit", nil)
			select {
			case <-c.proc.Done():
			case <-ctx.Done():
			}
		}
		cancel()
	}
	c.kill()
}

// kill ends the server's group and the connection.
func (c *Client) kill() {
	c.proc.Kill()
	c.conn.Close()
	<-c.gone
}
