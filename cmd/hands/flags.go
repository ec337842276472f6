package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hands-dev/hands"
)

// list is a repeatable string flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

// common holds the flags every command that builds a runtime shares.
type common struct {
	roots       list
	deny        list
	profile     string
	maxFileSize string
	bashTimeout string
	shell       string
	disable     string
	config      string
	noSandbox   bool
	noWarm      bool
	unsandboxed bool
	logLevel    string
	settings    list
	permMode    string
	allowBypass bool
	allowHosts  list
	coordinator string
	execID      string
	loop        string
	loops       string
	mcpConfig   list
	strictMCP   bool
	// noReadCheck switches read-before-edit off (hands call --no-read-check).
	noReadCheck bool
	sandbox     string
	network     string
	denyRead    list
	writable    list
	unixSockets list

	// callTool is the one tool hands call calls: the sandbox is probed
	// (and its warnings said) only when that tool may start a command.
	callTool string
}

func (c *common) register(fs *flag.FlagSet) {
	fs.Var(&c.roots, "root", "a directory the tools may use (repeatable; default the current directory; the first is the working directory)")
	fs.Var(&c.deny, "deny", "a gitignore-style pattern of paths no tool may touch, e.g. .env or '**/*.pem' (repeatable)")
	fs.StringVar(&c.profile, "profile", "", "tool surface: native (default), claude, gemini, envelope, taskdaemon")
	fs.StringVar(&c.maxFileSize, "max-file-size", "", "largest file read whole or written, in bytes (suffixes K, M, G); default 10M")
	fs.StringVar(&c.bashTimeout, "bash-timeout", "", "default shell command timeout in milliseconds; default 120000")
	fs.StringVar(&c.shell, "shell", "", "shell that runs commands; default bash on PATH")
	fs.StringVar(&c.disable, "disable-tools", "", "comma-separated tool names to switch off")
	fs.StringVar(&c.config, "config", "", "JSON config file (see README: Configuration); flags override it")
	fs.BoolVar(&c.noSandbox, "no-sandbox", false, "do not confine shell commands (no namespaces, no Landlock)")
	fs.BoolVar(&c.noWarm, "no-warm-shell", false, "start each bash command's shell when the call comes, not ahead")
	fs.BoolVar(&c.unsandboxed, "allow-unsandboxed", false, "honour a call's dangerously_disable_sandbox (run that one command unconfined)")
	fs.StringVar(&c.sandbox, "sandbox", "", "auto (default): run each command in namespaces of its own (read-only system, masked secrets, private /proc) with Landlock inside where the kernel allows, else Landlock alone, saying so at start-up; landlock: Landlock alone; strict: refuse to run commands unless every layer is enforced (see hands doctor)")
	fs.StringVar(&c.network, "network", "", "commands' network: on (default), off (loopback only) or allow=DOMAIN,… (HTTP/HTTPS through a proxy admitting only those domains; *.example.com for the hosts below)")
	fs.Var(&c.denyRead, "deny-read", "an absolute path commands may not read, masked by an empty file or directory (repeatable; ~/.ssh, ~/.aws, ~/.gnupg, ~/.netrc, … always are)")
	fs.Var(&c.unixSockets, "unix-socket", "a UNIX socket outside the roots commands may still reach, e.g. /run/docker.sock, or a directory ending in / for every socket below it (repeatable); all: every one. Every other (Docker, ssh-agent, D-Bus, systemd) is masked, whatever --network says")
	fs.Var(&c.writable, "allow-write", "an absolute directory commands may also write, e.g. a build cache to share (repeatable; by default commands get their own caches in the session's temporary directory)")
	fs.StringVar(&c.logLevel, "log-level", "warn", "stderr log level: debug, info, warn, error")
	fs.Var(&c.settings, "settings", "a Claude Code settings file whose permissions apply, above the project's .claude/settings*.json and ~/.claude/settings.json (repeatable)")
	fs.StringVar(&c.permMode, "permission-mode", "", "mode sessions start in: default, acceptEdits, plan, dontAsk, bypassPermissions (default: the settings' defaultMode)")
	fs.BoolVar(&c.allowBypass, "allow-bypass", false, "permit the bypassPermissions mode (every call runs without asking)")
	fs.StringVar(&c.coordinator, "coordinator", "", "connect this server's loops to others: local (loops of this process) or nats://host:4222; adds query_loop, share_data, complete_task, reply_query")
	fs.StringVar(&c.execID, "exec-id", "", "the execution id of this server's (first) loop, as other loops name it; default generated")
	fs.StringVar(&c.loop, "loop", "", "the loop type whose tool set is served (defined in --loops or the config's loops)")
	fs.StringVar(&c.loops, "loops", "", "a YAML or JSON file of loop types: {NAME: {tools: [...]}}, as seed 004's taskdaemon.yml, or {loops: {...}}")
	fs.Var(&c.mcpConfig, "mcp-config", "a file in Claude Code's .mcp.json shape whose MCP servers' tools are offered as mcp__server__tool (repeatable)")
	fs.BoolVar(&c.strictMCP, "strict-mcp-config", false, "use only the MCP servers of --mcp-config and --config, not the project's .mcp.json or ~/.claude.json")
	fs.Var(&c.allowHosts, "allow-hosts", "host names, IP addresses or CIDR prefixes web_fetch may reach although local or private, e.g. localhost,10.0.0.0/8 (repeatable; comma-separated)")
}

// config is the file format of --config.
type config struct {
	Roots         []string          `json:"roots"`
	Deny          []string          `json:"deny"`
	Profile       string            `json:"profile"`
	MaxFileSize   int64             `json:"max_file_size"`
	BashTimeoutMS int64             `json:"bash_timeout_ms"`
	Shell         string            `json:"shell"`
	DisabledTools []string          `json:"disabled_tools"`
	NoSandbox     bool              `json:"no_sandbox"`
	Unsandboxed   bool              `json:"allow_unsandboxed"`
	Sandbox       string            `json:"sandbox"`
	Network       string            `json:"network"`
	DenyRead      []string          `json:"deny_read"`
	UnixSockets   []string          `json:"unix_sockets"`
	Writable      []string          `json:"allow_write"`
	Env           map[string]string `json:"env"`
	// Permissions has Claude Code's settings shape: allow, ask, deny,
	// defaultMode, additionalDirectories.
	Permissions hands.PermissionRules `json:"permissions"`
	AllowHosts  []string              `json:"allow_hosts"`
	// Coordinator, ExecID, Loops and Loop are --coordinator, --exec-id,
	// the loop types and --loop.
	Coordinator string                    `json:"coordinator"`
	ExecID      string                    `json:"exec_id"`
	Loops       map[string]hands.LoopType `json:"loops"`
	Loop        string                    `json:"loop"`
	// Model configures the model API of subagents (modelconfig.go).
	Model modelConfig `json:"model"`
	// Search chooses web_search's backend; api_key may instead come from
	// the environment (BRAVE_API_KEY, TAVILY_API_KEY).
	Search struct {
		Backend string `json:"backend"`
		URL     string `json:"url"`
		APIKey  string `json:"api_key"`
	} `json:"search"`
	// Hooks has Claude Code's settings shape: event → [{matcher, hooks:
	// [{type: "command", command, timeout (seconds)}]}].
	Hooks map[string][]struct {
		Matcher string `json:"matcher"`
		Hooks   []struct {
			Type    string  `json:"type"`
			Command string  `json:"command"`
			Timeout float64 `json:"timeout"`
		} `json:"hooks"`
	} `json:"hooks"`
	// MCPServers has Claude Code's shape (name → {command, args, env} or
	// {type, url, headers}); see mcpconfig.go.
	MCPServers json.RawMessage `json:"mcpServers"`
	// LSPServers has Claude Code's lspServers shape (name → {command,
	// args, extensionToLanguage}): the lsp tool's language servers.
	LSPServers json.RawMessage `json:"lspServers"`
}

// hookCommands flattens the hooks of a config file.
func (c config) hookCommands() ([]hands.HookCommand, error) {
	events := make([]string, 0, len(c.Hooks))
	for e := range c.Hooks {
		events = append(events, e)
	}
	sort.Strings(events)
	var out []hands.HookCommand
	for _, event := range events {
		for _, m := range c.Hooks[event] {
			for _, h := range m.Hooks {
				if h.Type != "command" {
					return nil, fmt.Errorf("hooks.%s: hook type %q is not supported; use \"command\"", event, h.Type)
				}
				out = append(out, hands.HookCommand{Event: event, Matcher: m.Matcher, Command: h.Command,
					Timeout: time.Duration(h.Timeout * float64(time.Second))})
			}
		}
	}
	return out, nil
}

func loadConfig(path string) (config, error) {
	var c config
	data, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("--config: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("--config %s: %w (the file is a JSON object with keys roots, deny, profile, max_file_size, bash_timeout_ms, shell, disabled_tools, no_sandbox, allow_unsandboxed, env, allow_hosts, search, hooks, permissions, coordinator, exec_id, loops, loop, mcpServers, lspServers, sandbox, network, deny_read, unix_sockets, allow_write, model)", path, err)
	}
	return c, nil
}

// options turns config file and flags into runtime options; flags win.
func (c *common) options(stderr io.Writer) (hands.Options, error) {
	var cfg config
	if c.config != "" {
		var err error
		if cfg, err = loadConfig(c.config); err != nil {
			return hands.Options{}, err
		}
	}
	o := hands.Options{
		Roots: cfg.Roots, Deny: cfg.Deny, Profile: cfg.Profile,
		Limits: hands.Limits{MaxFileSize: cfg.MaxFileSize, BashTimeout: time.Duration(cfg.BashTimeoutMS) * time.Millisecond},
		Shell:  cfg.Shell, DisabledTools: cfg.DisabledTools, NoSandbox: cfg.NoSandbox, Env: cfg.Env,
		AllowUnsandboxed: cfg.Unsandboxed, Permissions: cfg.Permissions,
		Settings: c.settings, ProjectSettings: true, PermissionMode: c.permMode, AllowBypass: c.allowBypass,
		AllowHosts: cfg.AllowHosts, Sandbox: cfg.Sandbox, Network: cfg.Network, DenyRead: cfg.DenyRead, Writable: cfg.Writable,
		UnixSockets: cfg.UnixSockets,
		Search:      hands.SearchOptions{Backend: cfg.Search.Backend, URL: cfg.Search.URL, APIKey: cfg.Search.APIKey},
		ModelAPI:    cfg.Model.options(),
	}
	hooks, err := cfg.hookCommands()
	if err != nil {
		return o, fmt.Errorf("--config %s: %w", c.config, err)
	}
	o.HookCommands = hooks
	if err := c.mcpOptions(&o, cfg.MCPServers); err != nil {
		return o, err
	}
	if len(cfg.LSPServers) > 0 {
		if o.LSPServers, err = hands.ParseLSPServers("--config "+c.config, cfg.LSPServers); err != nil {
			return o, err
		}
	}
	if len(c.roots) > 0 {
		o.Roots = c.roots
	}
	o.Deny = append(o.Deny, c.deny...)
	if c.profile != "" {
		o.Profile = c.profile
	}
	if c.maxFileSize != "" {
		n, err := parseSize(c.maxFileSize)
		if err != nil {
			return o, fmt.Errorf("--max-file-size %q: %w", c.maxFileSize, err)
		}
		o.Limits.MaxFileSize = n
	}
	if c.bashTimeout != "" {
		ms, err := strconv.ParseInt(c.bashTimeout, 10, 64)
		if err != nil || ms <= 0 {
			return o, fmt.Errorf("--bash-timeout %q: give a positive number of milliseconds, e.g. 120000", c.bashTimeout)
		}
		o.Limits.BashTimeout = time.Duration(ms) * time.Millisecond
	}
	if c.shell != "" {
		o.Shell = c.shell
	}
	if c.disable != "" {
		for _, n := range strings.Split(c.disable, ",") {
			if n = strings.TrimSpace(n); n != "" {
				o.DisabledTools = append(o.DisabledTools, n)
			}
		}
	}
	for _, h := range c.allowHosts {
		for _, h := range strings.Split(h, ",") {
			if h = strings.TrimSpace(h); h != "" {
				o.AllowHosts = append(o.AllowHosts, h)
			}
		}
	}
	if c.noSandbox {
		o.NoSandbox = true
	}
	if c.noWarm || c.callTool != "" {
		// hands call makes one call: no next command to start a shell for.
		o.NoWarmShell = true
	}
	if c.sandbox != "" {
		o.Sandbox = c.sandbox
	}
	if c.network != "" {
		o.Network = c.network
	}
	o.DenyRead = append(o.DenyRead, c.denyRead...)
	o.Writable = append(o.Writable, c.writable...)
	o.UnixSockets = append(o.UnixSockets, c.unixSockets...)
	if c.unsandboxed {
		o.AllowUnsandboxed = true
	}
	if err := c.loopOptions(&o, cfg); err != nil {
		return o, err
	}
	if c.noReadCheck {
		b, err := hands.ProfileBehavior(o.Profile)
		if err != nil {
			return o, err
		}
		b.WriteWithoutRead, b.EditWithoutRead = true, true
		o.Behavior = &b
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return o, fmt.Errorf("--log-level %q: use debug, info, warn or error", c.logLevel)
	}
	o.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	return o, nil
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch strings.ToUpper(s[len(s)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, errors.New("give a positive number of bytes, optionally with K, M or G")
	}
	return n * mult, nil
}

// parse parses args with fs, printing usage errors; ok false means exit with
// code.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) (ok bool, code int) {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return false, exitOK
		}
		return false, exitUsage
	}
	return true, 0
}

// parseNoArgs is parse for a command that takes flags only.
func parseNoArgs(fs *flag.FlagSet, args []string, stderr io.Writer) (ok bool, code int) {
	if ok, code := parse(fs, args, stderr); !ok {
		return false, code
	}
	if fs.NArg() > 0 {
		return false, usageErr(stderr, "%s takes no arguments, got %q; see hands %s --help", fs.Name(), fs.Args(), fs.Name())
	}
	return true, 0
}

// usageErr prints a usage error, prefixed once with "hands: " (errors of
// the library carry the prefix already).
func usageErr(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "hands: %s\n", strings.TrimPrefix(fmt.Sprintf(format, args...), "hands: "))
	return exitUsage
}

// metavar names the value of a flag in help ("" for none).
func metavar(flag string) string {
	switch flag {
	case "root":
		return "DIR"
	case "deny":
		return "GLOB"
	case "profile", "loop":
		return "NAME"
	case "max-file-size", "max-request-size":
		return "BYTES"
	case "bash-timeout":
		return "MS"
	case "shell":
		return "PATH"
	case "disable-tools", "allow-hosts":
		return "a,b"
	case "config", "settings", "loops":
		return "FILE"
	case "log-level":
		return "LEVEL"
	case "permission-mode", "structured-content":
		return "MODE"
	case "http":
		return "ADDR"
	case "http-token":
		return "TOKEN"
	case "allow-origin":
		return "ORIGIN"
	case "session-idle-timeout":
		return "DUR"
	case "format":
		return "API"
	case "coordinator":
		return "local|nats://HOST:PORT"
	case "exec-id":
		return "ID"
	}
	return ""
}

// printFlags writes fs's flags as the README writes them: --name VALUE.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		_, text := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if m := metavar(f.Name); m != "" {
			head += " " + m
		}
		if f.DefValue != "" && f.DefValue != "false" && !strings.Contains(text, "default") {
			text += " (default " + f.DefValue + ")"
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", head, text)
	})
}
