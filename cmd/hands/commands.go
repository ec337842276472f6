package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/mcpserver"
	"github.com/hands-dev/hands/tool"
	"github.com/hands-dev/hands/toolfmt"
)

func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: hands %s\n\nFlags:\n", synopsis)
		printFlags(stderr, fs)
	}
	return fs
}

func runtimeFrom(c *common, stderr io.Writer) (*hands.Runtime, hands.Options, int) {
	opts, err := c.options(stderr)
	if err != nil {
		return nil, opts, usageErr(stderr, "%v", err)
	}
	rt, err := hands.New(opts)
	if err != nil {
		return nil, opts, usageErr(stderr, "%v", err)
	}
	return rt, opts, exitOK
}

// sessionFrom builds a runtime from the flags and opens one session;
// closeAll closes both (closing a runtime closes its sessions).
func sessionFrom(c *common, stderr io.Writer) (sess *hands.Session, closeAll func(), code int) {
	rt, _, code := runtimeFrom(c, stderr)
	if rt == nil {
		return nil, nil, code
	}
	if c.callTool == "" || runsCommands(rt, c.callTool) {
		warnSandbox(rt, stderr)
	}
	sess, err := rt.NewSession()
	if err != nil {
		rt.Close()
		return nil, nil, usageErr(stderr, "%v", err)
	}
	return sess, func() { rt.Close() }, exitOK
}

// serveArgs are the flags of serve.
type serveArgs struct {
	c                                         common
	addr, token, maxRequest, idle, structured string
	origins                                   list
}

func (a *serveArgs) flags(stderr io.Writer) *flag.FlagSet {
	fs := newFlags("serve", "serve [flags]", stderr)
	a.c.register(fs)
	fs.StringVar(&a.addr, "http", "", "serve Streamable HTTP on this address (e.g. 127.0.0.1:8080) instead of stdio")
	fs.StringVar(&a.token, "http-token", "", "require \"Authorization: Bearer TOKEN\" on HTTP requests (default $HANDS_HTTP_TOKEN); required off loopback")
	fs.StringVar(&a.maxRequest, "max-request-size", "", "largest JSON-RPC message read, in bytes (suffixes K, M, G); larger ones are refused; default twice --max-file-size plus 1M (21M)")
	fs.Var(&a.origins, "allow-origin", "a browser origin (scheme://host[:port]) whose HTTP requests are served besides loopback ones (repeatable)")
	fs.StringVar(&a.structured, "structured-content", "auto", "what structured content results carry: metadata (beside the text: paths, line counts, exit codes; never a file's lines or a command's output twice), none (text only, no output schemas: for clients that show the model the structured content instead of the text), or auto (none for Claude Code, which does, metadata for other clients)")
	fs.StringVar(&a.idle, "session-idle-timeout", "30m", "close an HTTP session with no request open and no call running for this long (e.g. 10m, 2h; 0 never)")
	// serve's start and shutdown lines are at info.
	fs.Lookup("log-level").DefValue = "info"
	a.c.logLevel = "info"
	return fs
}

func cmdServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	stderr = &lockedWriter{w: stderr}
	var a serveArgs
	fs := a.flags(stderr)
	if ok, code := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	c, addr, token, maxRequest, idle, structured, origins := &a.c, a.addr, a.token, a.maxRequest, a.idle, a.structured, a.origins
	mo := mcpserver.Options{WarmUp: true}
	sc, err := mcpserver.ParseStructuredContent(structured)
	if err != nil {
		return usageErr(stderr, "--structured-content: %v", err)
	}
	mo.StructuredContent = sc
	if maxRequest != "" {
		n, err := parseSize(maxRequest)
		if err != nil {
			return usageErr(stderr, "--max-request-size %q: %v", maxRequest, err)
		}
		mo.MaxRequestSize = n
	}
	for _, o := range origins {
		if err := mcpserver.CheckOrigin(o); err != nil {
			return usageErr(stderr, "--allow-origin: %v", err)
		}
	}
	mo.HTTP.AllowOrigins = origins
	d, err := time.ParseDuration(idle)
	if err != nil || d < 0 {
		return usageErr(stderr, "--session-idle-timeout %q: give a duration such as 30m or 2h, or 0 to keep idle sessions", idle)
	}
	mo.HTTP.SessionIdleTimeout = d
	if d == 0 {
		mo.HTTP.SessionIdleTimeout = -1
	}
	rt, opts, code := runtimeFrom(c, stderr)
	if rt == nil {
		return code
	}
	if opts.Coordinator != nil {
		defer opts.Coordinator.Close() // after rt.Close: its loops leave first
	}
	defer rt.Close()
	mo.Logger = opts.Logger
	// The sandbox's probe starts a process: on two cores it delayed a
	// client's first tools/list by 40 ms. A client that has written by
	// the time the server reads gets its tools first, and the probe is
	// made then, for its session (mcpserver/prepare.go). Once the probe
	// is done, and unless a client did already, the tools are listed
	// once, so that a client's first list is answered at once
	// (mcpserver/warmup.go).
	var srv *mcpserver.Server
	report := func(missing []string) { printSandboxWarnings(stderr, missing) }
	prepare := func(ctx context.Context, hs *hands.Session) {
		if hs != nil {
			hs.PrepareSandbox(report)
		} else {
			rt.ProbeSandbox(report)
		}
		rt.WaitProbe()
		srv.WarmUpTools(ctx)
	}
	if addr == "" {
		mo.Prepare = prepare
	}
	srv = mcpserver.New(rt, mo)
	defer srv.Close()
	if addr != "" {
		if token == "" {
			token = os.Getenv("HANDS_HTTP_TOKEN")
		}
		// The token is the server's secret: commands never see it.
		os.Unsetenv("HANDS_HTTP_TOKEN")
		if token == "" && !loopback(addr) {
			return usageErr(stderr, "--http %s is reachable from other machines; set --http-token or HANDS_HTTP_TOKEN, or bind 127.0.0.1", addr)
		}
		prepared := make(chan struct{})
		pctx, stop := context.WithCancel(ctx)
		go func() { defer close(prepared); prepare(pctx, nil) }()
		defer func() { stop(); <-prepared }()
		return serveHTTP(ctx, srv, addr, token, rt, opts.Logger, stderr)
	}
	startLine(opts.Logger, rt, "stdio")
	err = srv.ServeIO(ctx, stdin, stdout)
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "hands: serve: %v\n", err)
		return exitTool
	}
	stopLine(ctx, opts.Logger)
	return exitOK
}

// startLine logs the one line serve writes when it starts; attrs come
// last (the HTTP address, which ends the line).
func startLine(log *slog.Logger, rt *hands.Runtime, transport string, attrs ...any) {
	log.Info("serving MCP", append([]any{"version", buildVersion().Main, "transport", transport,
		"profile", rt.Profile(), "roots", strings.Join(rt.Roots(), ",")}, attrs...)...)
}

// stopLine logs why serve stopped: a signal (a normal shutdown) or the
// end of the client's input.
func stopLine(ctx context.Context, log *slog.Logger) {
	if cause := context.Cause(ctx); cause != nil {
		log.Info("shutting down", "reason", cause.Error())
		return
	}
	log.Info("shutting down", "reason", "the client closed stdin")
}

// loopback reports whether addr binds only a loopback interface.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// bearer refuses requests without the token.
func bearer(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="hands"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func serveHTTP(ctx context.Context, srv *mcpserver.Server, addr, token string, rt *hands.Runtime, log *slog.Logger, stderr io.Writer) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usageErr(stderr, "--http %s: %v", addr, err)
	}
	hs := &http.Server{Handler: bearer(token, srv.HTTPHandler()), ReadHeaderTimeout: 10 * time.Second}
	startLine(log, rt, "http", "url", fmt.Sprintf("http://%s/", ln.Addr()))
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
		stopLine(ctx, log)
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
		return exitOK
	case err := <-errc:
		fmt.Fprintf(stderr, "hands: serve: %v\n", err)
		return exitTool
	}
}

// callArgs are the flags of call.
type callArgs struct {
	c           common
	asJSON      bool
	noReadCheck bool
}

func (a *callArgs) flags(stderr io.Writer) *flag.FlagSet {
	fs := newFlags("call", "call [flags] TOOL [JSON|-]", stderr)
	a.c.register(fs)
	fs.BoolVar(&a.asJSON, "json", false, "print the whole result as JSON instead of its text")
	fs.BoolVar(&a.noReadCheck, "no-read-check", false, "let this call edit or overwrite an existing file it has not read (each call is a new session, so without this flag an edit of an existing file is refused with FILE_NOT_VIEWED)")
	return fs
}

func cmdCall(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var a callArgs
	fs := a.flags(stderr)
	if ok, code := parse(fs, args, stderr); !ok {
		return code
	}
	c, asJSON := &a.c, a.asJSON
	if fs.NArg() < 1 || fs.NArg() > 2 {
		return usageErr(stderr, "call needs a tool name and optional JSON arguments, e.g. hands call view '{\"path\":\"README.md\"}'")
	}
	input := "{}"
	if fs.NArg() == 2 {
		input = fs.Arg(1)
	}
	if input == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return usageErr(stderr, "reading arguments from stdin: %v", err)
		}
		input = string(b)
	}
	if !json.Valid([]byte(input)) {
		return usageErr(stderr, "arguments %q are not valid JSON; give a JSON object such as '{\"path\":\"x\"}'", input)
	}
	if a.noReadCheck {
		c.noReadCheck = true
	}
	c.callTool = fs.Arg(0)
	sess, closeAll, code := sessionFrom(c, stderr)
	if sess == nil {
		return code
	}
	defer closeAll()
	callCtx, ind := startIndicator(ctx, stderr, fs.Arg(0))
	res := sess.Call(callCtx, tool.Call{ID: "call-1", Name: fs.Arg(0), Input: json.RawMessage(input)})
	ind.finish()
	if asJSON {
		writeJSONLine(stdout, lineOf(res))
	} else {
		fmt.Fprintln(stdout, res.TextOf())
	}
	if res.IsError {
		if res.Code == tool.FileNotViewed && !a.noReadCheck {
			fmt.Fprintln(stderr, "hands: each hands call is a new session that has read nothing; add --no-read-check to edit a file you know")
		}
		return exitTool
	}
	return exitOK
}

// resultLine is one result of hands run (and call --json).
type resultLine struct {
	ID         string        `json:"id,omitempty"`
	Name       string        `json:"name"`
	IsError    bool          `json:"is_error,omitempty"`
	Code       string        `json:"code,omitempty"`
	Content    []contentLine `json:"content"`
	Structured any           `json:"structured,omitempty"`
	DurationMS float64       `json:"duration_ms"`
}

type contentLine struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Data     []byte `json:"data,omitempty"`
	MIMEType string `json:"mime_type,omitempty"`
}

func lineOf(r tool.Result) resultLine {
	l := resultLine{ID: r.CallID, Name: r.Tool, IsError: r.IsError, Code: r.Code.String(), Structured: r.Structured,
		DurationMS: float64(r.Duration.Microseconds()) / 1000, Content: []contentLine{}}
	for _, c := range r.Content {
		l.Content = append(l.Content, contentLine{Type: c.Type, Text: c.Text, Data: c.Data, MIMEType: c.MIMEType})
	}
	return l
}

func writeJSONLine(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	fmt.Fprintf(w, "%s\n", b)
}

// writeIndented writes v as indented JSON and a newline.
func writeIndented(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// runLineFormat documents the lines hands run reads.
const runLineFormat = `Each line of stdin is one call, a JSON object:
  {"id": "1", "name": "view", "input": {"path": "README.md"}}
"arguments" may stand for "input" (the name MCP and OpenAI use); "id" is
optional (call-N by default); any other key is refused. A line holding a
JSON array of such objects is one batch, run as a model's parallel calls.
Each result is one line: {"id","name","is_error","code","content",
"structured","duration_ms"}; a line that is not a call gets {"error": …}.
`

// runCall is one call as a line of hands run gives it.
type runCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Arguments json.RawMessage `json:"arguments"`
}

// parseRunLine reads one line of hands run: a call or an array of calls.
func parseRunLine(line []byte) ([]tool.Call, error) {
	var raw []json.RawMessage
	if bytes.HasPrefix(line, []byte("[")) {
		if err := json.Unmarshal(line, &raw); err != nil {
			return nil, fmt.Errorf("line is not a JSON array of calls {\"id\",\"name\",\"input\"}: %v", err)
		}
		if len(raw) == 0 {
			return nil, errors.New("line is an empty array; give at least one call {\"id\",\"name\",\"input\"}")
		}
	} else {
		raw = []json.RawMessage{line}
	}
	calls := make([]tool.Call, 0, len(raw))
	for i, r := range raw {
		var c runCall
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.DisallowUnknownFields()
		where := "line"
		if len(raw) > 1 || bytes.HasPrefix(line, []byte("[")) {
			where = fmt.Sprintf("call %d of the line", i+1)
		}
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s is not a JSON call {\"id\",\"name\",\"input\"} (\"arguments\" may stand for \"input\"; no other key): %v", where, err)
		}
		if c.Name == "" {
			return nil, fmt.Errorf("%s has no \"name\"; give the tool to call, e.g. {\"name\":\"view\",\"input\":{\"path\":\"README.md\"}}", where)
		}
		if c.Input != nil && c.Arguments != nil {
			return nil, fmt.Errorf("%s has both \"input\" and \"arguments\"; give the tool's arguments once", where)
		}
		in := c.Input
		if in == nil {
			in = c.Arguments
		}
		var text string
		if json.Unmarshal(in, &text) == nil {
			// OpenAI sends a function call's arguments as JSON text.
			if !json.Valid([]byte(text)) {
				return nil, fmt.Errorf("%s: the arguments are a string that is not JSON; give a JSON object, or JSON text of one", where)
			}
			in = json.RawMessage(text)
		}
		calls = append(calls, tool.Call{ID: c.ID, Name: c.Name, Input: in})
	}
	return calls, nil
}

func runFlags(c *common, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("run", "run [flags] < calls.jsonl", stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: hands run [flags] < calls.jsonl\n\n%s\nFlags:\n", runLineFormat)
		printFlags(stderr, fs)
	}
	c.register(fs)
	return fs
}

func cmdRun(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var c common
	fs := runFlags(&c, stderr)
	if ok, code := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	sess, closeAll, code := sessionFrom(&c, stderr)
	if sess == nil {
		return code
	}
	defer closeAll()
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		calls, err := parseRunLine([]byte(line))
		if err != nil {
			writeJSONLine(stdout, map[string]string{"error": err.Error()})
			continue
		}
		for i := range calls {
			n++
			if calls[i].ID == "" {
				calls[i].ID = fmt.Sprintf("call-%d", n)
			}
		}
		for _, r := range sess.Batch(ctx, calls) {
			writeJSONLine(stdout, lineOf(r))
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(stderr, "hands: run: reading stdin: %v\n", err)
		return exitTool
	}
	return exitOK
}

// toolsArgs are the flags of tools.
type toolsArgs struct {
	c      common
	asJSON bool
	format string
}

func (a *toolsArgs) flags(stderr io.Writer) *flag.FlagSet {
	fs := newFlags("tools", "tools [flags] [--json | --format API]", stderr)
	a.c.register(fs)
	fs.BoolVar(&a.asJSON, "json", false, "print the full definitions (names, descriptions, schemas, metadata) as JSON")
	fs.StringVar(&a.format, "format", "", "print the definitions shaped for a model API's tool-calling request: "+strings.Join(toolfmt.Formats(), ", "))
	return fs
}

func cmdTools(args []string, stdout, stderr io.Writer) int {
	var a toolsArgs
	fs := a.flags(stderr)
	if ok, code := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	c, asJSON, format := &a.c, a.asJSON, a.format
	if format != "" && (asJSON || !slices.Contains(toolfmt.Formats(), format)) {
		return usageErr(stderr, "--format takes one of %s, without --json", strings.Join(toolfmt.Formats(), ", "))
	}
	rt, _, code := runtimeFrom(c, stderr)
	if rt == nil {
		return code
	}
	defer rt.Close()
	if format != "" {
		v, err := toolfmt.Format(format, rt.Tools())
		if err == nil {
			err = writeIndented(stdout, v)
		}
		if err != nil {
			fmt.Fprintf(stderr, "hands: %v\n", err)
			return exitTool
		}
		return exitOK
	}
	if asJSON {
		b, err := hands.Catalogue(rt.Tools())
		if err != nil {
			fmt.Fprintf(stderr, "hands: %v\n", err)
			return exitTool
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return exitOK
	}
	width := 0
	for _, t := range rt.Tools() {
		width = max(width, len(t.Name))
	}
	for _, t := range rt.Tools() {
		first, _, _ := strings.Cut(t.Description, "\n")
		fmt.Fprintf(stdout, "%-*s  %s\n", width, t.Name, first)
	}
	return exitOK
}

func doctorFlags(c *common, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("doctor", "doctor [flags]", stderr)
	c.register(fs)
	return fs
}

func cmdDoctor(args []string, stdout, stderr io.Writer) int {
	var c common
	fs := doctorFlags(&c, stderr)
	if ok, code := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	rt, opts, code := runtimeFrom(&c, stderr)
	if rt == nil {
		return code
	}
	defer rt.Close()
	fmt.Fprintf(stdout, "hands %s, profile %s\n", buildVersion().Main, rt.Profile())
	fmt.Fprintf(stdout, "roots: %s\n", strings.Join(rt.Roots(), ", "))
	if len(opts.Deny) > 0 {
		fmt.Fprintf(stdout, "deny: %s\n", strings.Join(opts.Deny, ", "))
	} else {
		fmt.Fprintln(stdout, "deny: (none)")
	}
	var names []string
	for _, t := range rt.Tools() {
		names = append(names, t.Name)
	}
	fmt.Fprintf(stdout, "tools: %s\n", strings.Join(names, ", "))
	fmt.Fprintf(stdout, "permissions: %s\n", rt.Permissions())
	printMCPServers(stdout, rt)
	if rt.HasModel() {
		fmt.Fprintln(stdout, "subagents: on a configured model")
	} else {
		fmt.Fprintln(stdout, "subagents: through the MCP client's sampling only (set ANTHROPIC_API_KEY or OPENAI_API_KEY/OPENAI_BASE_URL for a model of Hands's own)")
	}
	for _, p := range rt.Problems() {
		fmt.Fprintf(stdout, "left out: %s\n", p)
	}
	fmt.Fprintf(stdout, "shell confinement:\n%s\n", rt.Confinement())
	printLSPServers(stdout, rt, names)
	hl, err := rt.HardLinks(context.Background(), 200000)
	switch {
	case err != nil:
		fmt.Fprintf(stdout, "hard links: not scanned: %v\n", err)
	case hl.Files == 0 && hl.Complete:
		fmt.Fprintln(stdout, "hard links: none in the roots")
	default:
		more := ""
		if !hl.Complete {
			more = fmt.Sprintf(" (in the first %d entries)", hl.Scanned)
		}
		fmt.Fprintf(stdout, "hard links: %d files in the roots have other names%s, e.g. %s\n", hl.Files, more, strings.Join(hl.Examples, ", "))
	}
	fmt.Fprintln(stdout, "  kept: tools read a hard-linked file like any other (its content may also be reachable outside the roots); a write replaces it, leaving the other names' content alone")
	return exitOK
}
