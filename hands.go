// Package hands is the tools an LLM coding agent calls — read, write and edit
// files, glob, grep, run shell commands — as one sandboxed Go runtime.
//
// A [Runtime] is built from [Options]: the roots the tools may touch, deny
// patterns, the profile that names the tools, and limits. Each conversation
// gets a [Session] with its own working directory, read ledger and jobs.
// Hand the model [Runtime.Tools] and run its calls with [Session.Call],
// [Session.Batch] or [Session.Stream]. Nothing is global: close what you open.
package hands

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hands-dev/hands/coord"
	"github.com/hands-dev/hands/internal/agent"
	"github.com/hands-dev/hands/internal/permission"
	"github.com/hands-dev/hands/internal/profile"
	"github.com/hands-dev/hands/internal/sandbox"
	"github.com/hands-dev/hands/internal/skill"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/internal/web"
	"github.com/hands-dev/hands/model"
	"github.com/hands-dev/hands/tool"
)

// SearchOptions choose web_search's backend: Backend is "searxng", "brave"
// or "tavily"; URL is the SearXNG instance (or replaces Brave's or Tavily's
// endpoint); APIKey is Brave's or Tavily's key. Empty fields come from the
// environment: SEARXNG_URL, BRAVE_API_KEY, TAVILY_API_KEY. Shell commands
// never see these variables, and no result or error shows a key.
type SearchOptions struct {
	Backend string `json:"backend,omitempty"`
	URL     string `json:"url,omitempty"`
	APIKey  string `json:"-"`
}

// UserAgent is the User-Agent of web_fetch's requests.
const UserAgent = "Hands/" + Version + " (+https://github.com/hands-dev/hands)"

// Version is the version of Hands.
const Version = "0.1.0"

// Options configure a Runtime. The zero value serves the current directory
// with the native profile and the default limits.
type Options struct {
	// Roots are the directories tools may touch; the first is the initial
	// working directory. Default: the current directory.
	Roots []string `json:"roots,omitempty"`
	// Deny are gitignore-style patterns of paths no tool may touch, such as
	// ".env" or "**/*.pem".
	Deny []string `json:"deny,omitempty"`
	// Profile names the tool surface: native (default), claude, gemini,
	// envelope or taskdaemon.
	Profile string `json:"profile,omitempty"`
	// Limits bound what the tools do and show (file size, shell timeouts,
	// result sizes); a zero field is its default. The tool descriptions
	// the model reads state these numbers.
	Limits Limits `json:"limits,omitzero"`
	// Behavior, when set, replaces the profile's switches (read before
	// write, separate streams, command substitution, failing commands as
	// errors); start from ProfileBehavior to change one.
	Behavior *Behavior `json:"behavior,omitempty"`
	// Shell is the shell that runs commands; default bash on PATH.
	Shell string `json:"shell,omitempty"`
	// DisabledTools names tools (as the profile names them) to switch off.
	DisabledTools []string `json:"disabled_tools,omitempty"`
	// NoSandbox turns off the kernel confinement of shell commands.
	NoSandbox bool `json:"no_sandbox,omitempty"`
	// NoWarmShell starts each bash command's shell when the call comes.
	// By default, once a command ends, the next one's shell is started and
	// waits for it (one per session), so a call costs no fork, exec or
	// shell start-up.
	NoWarmShell bool `json:"no_warm_shell,omitempty"`
	// Sandbox is how commands are confined: "auto" (or empty, the
	// default; "namespaces" is the same) in namespaces of their own with
	// Landlock inside where the kernel allows, else Landlock alone (saying
	// at start-up what it could not enforce); "landlock" with Landlock
	// alone; "strict" refuses to run commands unless every layer is
	// enforced.
	Sandbox string `json:"sandbox,omitempty"`
	// Network is the commands' network: "on" (or empty, the default),
	// "off" (loopback only) or "allow=DOMAIN,…" (only HTTP and HTTPS,
	// through a proxy that admits the listed domains; "*.example.com"
	// admits the hosts below example.com, as WebFetch(domain:…) rules do).
	// "off" and "allow" need the namespaces.
	Network string `json:"network,omitempty"`
	// DenyRead are absolute paths commands may not read, masked by an
	// empty file or directory, beside the usual secrets under home
	// (~/.ssh, ~/.aws, ~/.gnupg, ~/.config/gcloud, ~/.netrc, …).
	DenyRead []string `json:"deny_read,omitempty"`
	// UnixSockets lists the path-based UNIX sockets outside the roots that
	// commands may still reach: a socket's absolute path (such as
	// "/run/docker.sock"), or an absolute directory ending in "/" for
	// every socket below it; "all" leaves every one reachable. Every other
	// (a Docker socket, an ssh-agent, D-Bus, systemd) is masked, in every
	// network mode; those in the roots stay reachable. Masking needs the
	// namespaces (or Landlock ABI 9).
	UnixSockets []string `json:"unix_sockets,omitempty"`
	// Writable are further directories commands may write, such as a
	// build cache to share (by default commands get their own caches in
	// the session's temporary directory). The file tools do not gain them.
	Writable []string `json:"writable,omitempty"`
	// SandboxHelper is the executable re-run to set up a command's
	// namespaces. Empty means this program: any program that links Hands
	// serves, as the helper runs while the program's packages are being
	// initialised, before its main.
	SandboxHelper string `json:"sandbox_helper,omitempty"`
	// AllowUnsandboxed lets a call ask to run one command unconfined
	// (dangerously_disable_sandbox); off by default.
	AllowUnsandboxed bool `json:"allow_unsandboxed,omitempty"`
	// Env adds variables to the environment of shell commands.
	Env map[string]string `json:"env,omitempty"`
	// Permissions are permission rules as a Claude Code settings file
	// writes them; they are merged with the settings files below.
	Permissions PermissionRules `json:"permissions,omitzero"`
	// Settings are Claude Code settings files whose permissions apply
	// (--settings), above the project's and the user's.
	Settings []string `json:"settings,omitempty"`
	// ProjectSettings also reads the project's .claude/settings.json and
	// .claude/settings.local.json (the project is the first root) and the
	// user's ~/.claude/settings.json. The command line sets it.
	ProjectSettings bool `json:"project_settings,omitempty"`
	// PermissionMode is the mode sessions start in, over the settings'
	// defaultMode: default, acceptEdits, plan, dontAsk or
	// bypassPermissions.
	PermissionMode string `json:"permission_mode,omitempty"`
	// AllowBypass permits bypassPermissions; without it that mode is
	// refused.
	AllowBypass bool `json:"allow_bypass,omitempty"`
	// AllowHosts are host names, IP addresses and CIDR prefixes web_fetch
	// may reach although they are loopback, private or link-local (by
	// default it refuses them), e.g. "localhost" or "10.0.0.0/8" for local
	// development.
	AllowHosts []string `json:"allow_hosts,omitempty"`
	// Search chooses web_search's backend; empty fields come from the
	// environment (SEARXNG_URL, BRAVE_API_KEY, TAVILY_API_KEY).
	Search SearchOptions `json:"search,omitzero"`
	// Model answers web_fetch's prompt about a page; nil returns the page
	// itself (the MCP server asks the client's model through sampling
	// when the client offers it).
	Model model.Model `json:"-"`
	// ModelAPI configures the model API that runs subagents and answers
	// web_fetch's prompt when Model is nil; empty keys come from the
	// environment (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OPENAI_API_KEY,
	// OPENAI_BASE_URL). A Model that implements model.Chat runs
	// subagents too. ProjectSettings also reads the agent types of
	// .claude/agents and the skills of .claude/skills, the project's and
	// the user's.
	ModelAPI ModelOptions `json:"model_api,omitzero"`
	// WebTLS configures TLS for web_fetch (extra roots such as a company
	// CA); nil uses the system's.
	WebTLS *tls.Config `json:"-"`

	// Coordinator connects the runtime's sessions (loops) to other loops,
	// in this process (coord.NewLocal) or elsewhere (coord.DialNATS): each
	// session joins it under its execution id and gets query_loop,
	// share_data, complete_task and reply_query. Nil: no coordination
	// tools are offered, except taskdaemon's three, which say that none is
	// configured. The runtime does not close it.
	Coordinator coord.Coordinator `json:"-"`
	// ExecID is the execution id of the first session (its loop); later
	// sessions get ExecID-2, ExecID-3, … Empty: generated.
	ExecID string `json:"exec_id,omitempty"`
	// Loops are loop types, each with its tool set (seed 004's
	// taskdaemon.yml); Loop chooses the one this runtime serves, and only
	// its tools are offered.
	Loops map[string]LoopType `json:"loops,omitempty"`
	Loop  string              `json:"loop,omitempty"`
	// MCPServers are other MCP servers whose tools are offered as
	// mcp__<server>__<tool>, through the same permissions, hooks, modes
	// and result limits as the built-in tools (--config's mcpServers).
	MCPServers []MCPServer `json:"-"`
	// MCPConfigFiles are files in Claude Code's .mcp.json shape (a JSON
	// object with an "mcpServers" object) whose servers are added
	// (--mcp-config). With ProjectSettings, the project's .mcp.json
	// (servers approved in the settings) and the user's ~/.claude.json
	// are read too.
	MCPConfigFiles []string `json:"mcp_config_files,omitempty"`
	// StrictMCPConfig uses only MCPServers and MCPConfigFiles, not the
	// project's .mcp.json or ~/.claude.json (--strict-mcp-config).
	StrictMCPConfig bool `json:"strict_mcp_config,omitempty"`
	// MCPConnectTimeout bounds starting each MCP server (initialize and
	// tools/list); servers start in parallel. Default 30s.
	MCPConnectTimeout time.Duration `json:"-"`
	// MCPToolTimeout bounds each call of another MCP server's tool; 0
	// leaves it to the call's own context.
	MCPToolTimeout time.Duration `json:"-"`

	// LSPServers are language servers for the lsp tool, before the
	// defaults (DefaultLSPServers): one replaces the default of its name
	// and takes the extensions it lists (--config's lspServers).
	LSPServers []LSPServer `json:"-"`

	// Tools are extra tools of the caller's own, offered beside the
	// profile's under their own names.
	Tools []tool.Tool `json:"-"`
	// Policy is the permissions stage; nil allows every call.
	Policy tool.Policy `json:"-"`
	// Ask answers a policy's Ask decision; nil denies.
	Ask func(ctx Context, info tool.Info, call tool.Call, reason string) (bool, error) `json:"-"`
	// AskUser asks the user to approve a plan (exit_plan_mode) or to
	// answer questions (ask_user_question). Nil: a plan is approved or
	// rejected through Ask, and questions fail telling the model that no
	// user can be asked.
	AskUser func(ctx Context, p tool.Prompt) (tool.Reply, error) `json:"-"`
	// Hooks run around each call's execution.
	Hooks tool.Hooks `json:"-"`
	// HookCommands are external commands run around calls, with Claude
	// Code's hook contract; they run after Hooks.
	HookCommands []HookCommand `json:"hooks,omitempty"`
	// Middleware wraps each call's pipeline.
	Middleware []tool.Middleware `json:"-"`
	// Progress, when set, receives the progress reports of long calls
	// (bash, task_output, grep, glob) of every session; tool.Progress
	// names the call. A call run under a context made by
	// tool.WithProgress reports there instead.
	Progress func(tool.Progress) `json:"-"`
	// Logger receives diagnostics; default discards them.
	Logger *slog.Logger `json:"-"`
	// ClaudeConfigDir and ClaudeTempDir are where a profile that keeps
	// its session files as Claude Code does (the claude profile's
	// Behavior.ClaudeSessionFiles) keeps them: oversized results in
	// ClaudeConfigDir/projects/SLUG/SESSION/tool-results, background
	// jobs' output in ClaudeTempDir/claude/SLUG/tasks. Empty means what
	// Claude Code 2.1.7 uses: $CLAUDE_CONFIG_DIR, else ~/.claude; and
	// $CLAUDE_CODE_TMPDIR, else /tmp (not $TMPDIR).
	ClaudeConfigDir string `json:"claude_config_dir,omitempty"`
	ClaudeTempDir   string `json:"claude_temp_dir,omitempty"`
}

// Runtime is the built-in tools under one profile, over one set of roots. It
// is safe for concurrent use.
type Runtime struct {
	opts    Options
	profile *profile.Profile
	reg     *tool.Registry
	fs      *sandbox.Set
	perm    *permission.Engine
	// permSummary describes the rules in force.
	permSummary string
	limits      tools.Limits
	// behavior is the profile's switches, or the host's.
	behavior tools.Behavior
	// web is the sessions' shared way to the web.
	web *tools.Web
	log *slog.Logger
	tmp *runtimeDir
	// filesWarned is done once a session could not keep its files where
	// the profile keeps them, and the log was told.
	filesWarned sync.Once
	// mcp is the connections to other MCP servers.
	mcp *gateway
	// sandbox is what confines shell commands beyond Landlock.
	sandbox commandSandbox
	// model runs subagents and answers web_fetch; modelOpts bound them.
	model     model.Model
	modelOpts ModelOptions
	// agents and skills are the agent types and skills found at
	// start-up; problems what was left out.
	agents   []agent.Def
	skills   []skill.Skill
	problems []string

	mu       sync.Mutex
	sessions map[*Session]struct{}
	nexec    int    // sessions started, for their execution ids
	genID    string // the generated execution id, without ExecID
	closed   bool
}

// New builds a Runtime from opts.
func New(opts Options) (*Runtime, error) {
	if len(opts.Roots) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("hands: no roots given and the current directory is unknown: %w", err)
		}
		opts.Roots = []string{wd}
	}
	if err := opts.Limits.Check(); err != nil {
		return nil, fmt.Errorf("hands: %w", err)
	}
	limits := profile.LimitsOf(opts.Profile, opts.Limits).WithDefaults()
	if err := limits.Check(); err != nil {
		return nil, fmt.Errorf("hands: %w", err)
	}
	prof, err := profile.Get(opts.Profile, limits)
	if err != nil {
		return nil, fmt.Errorf("hands: %w", err)
	}
	behavior := prof.Behavior
	if opts.Behavior != nil {
		behavior = *opts.Behavior
	}
	if opts.AllowUnsandboxed {
		behavior.AllowUnsandboxed = true
	}
	if opts.Shell != "" {
		if _, err := exec.LookPath(opts.Shell); err != nil {
			return nil, fmt.Errorf("hands: shell %q: %w", opts.Shell, err)
		}
	}
	if err := checkSandboxOptions(opts); err != nil {
		return nil, fmt.Errorf("hands: %w", err)
	}
	perm, dirs, permSummary, err := permissions(opts, opts.Roots)
	if err != nil {
		return nil, fmt.Errorf("hands: %w", err)
	}
	servers, notApproved, err := mcpServers(opts, opts.Roots[0])
	if err != nil {
		return nil, fmt.Errorf("hands: %w", err)
	}
	opts.Deny = append(append([]string(nil), opts.Deny...), readDenials(perm)...)
	fs, err := sandbox.New(append(append([]string(nil), opts.Roots...), dirs...), opts.Deny)
	if err != nil {
		return nil, fmt.Errorf("hands: %w", err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	chat := opts.Model
	if chat == nil {
		if chat, err = opts.ModelAPI.apiModel(); err != nil {
			fs.Close()
			return nil, fmt.Errorf("hands: %w", err)
		}
	}
	defs, skills, problems := loadAgents(opts, fs.Roots()[0], log)
	if opts.Coordinator != nil {
		prof.AddCoordination()
	}
	exposed := append(prof.Apply(tools.BuiltinsOf(limits, prof.Cores())), opts.Tools...)
	if exposed, err = loopTools(exposed, opts.Loops, opts.Loop); err != nil {
		fs.Close()
		return nil, fmt.Errorf("hands: %w", err)
	}
	fillDescriptions(exposed, defs, skills)
	reg, err := newRegistry(exposed)
	if err != nil {
		fs.Close()
		return nil, err
	}
	for _, name := range opts.DisabledTools {
		if _, ok := reg.Get(name); !ok && !strings.HasPrefix(name, "mcp__") {
			fs.Close()
			return nil, fmt.Errorf("hands: cannot disable %q: the %s profile has no such tool (it has %v)", name, prof.Name, reg.Names())
		}
	}
	writable := fs.Roots()
	for _, w := range opts.Writable {
		if real, err := filepath.EvalSymlinks(w); err == nil {
			writable = append(writable, real)
		}
	}
	ch, err := commandHooks(opts.HookCommands, log, fs.Roots()[0], writable)
	if err != nil {
		fs.Close()
		return nil, fmt.Errorf("hands: %w", err)
	}
	tmp, err := newRuntimeDir(os.TempDir())
	if err != nil {
		fs.Close()
		return nil, fmt.Errorf("hands: making the private temporary directory: %w", err)
	}
	fs.SetTempLog(tmp.tempLog)
	w, err := newWeb(opts)
	if err != nil {
		fs.Close()
		tmp.close()
		return nil, fmt.Errorf("hands: %w", err)
	}
	opts.Hooks.PreToolUse = append(append([]tool.PreToolUse(nil), opts.Hooks.PreToolUse...), ch.PreToolUse...)
	opts.Hooks.PostToolUse = append(append([]tool.PostToolUse(nil), opts.Hooks.PostToolUse...), ch.PostToolUse...)
	opts.Hooks.PostToolUseFailure = append(append([]tool.PostToolUseFailure(nil), opts.Hooks.PostToolUseFailure...), ch.PostToolUseFailure...)
	r := &Runtime{
		opts: opts, profile: prof, reg: reg, fs: fs, perm: perm, permSummary: permSummary,
		limits: limits, behavior: behavior, web: w, log: log, tmp: tmp, sessions: map[*Session]struct{}{},
		model: chat, modelOpts: opts.ModelAPI.withEnv(os.Getenv), agents: defs, skills: skills, problems: problems,
	}
	if err := r.startProxy(); err != nil {
		fs.Close()
		tmp.close()
		return nil, fmt.Errorf("hands: %w", err)
	}
	r.startMCP(servers, notApproved)
	return r, nil
}

// Tools returns the definitions of the enabled tools, in the profile's
// order; the task tool only when the runtime has a model (HasModel).
func (r *Runtime) Tools() []tool.Info { return r.ToolsFor(r.HasModel()) }

// ToolsFor returns the definitions of the enabled tools, with the tools
// that need a model (task) only when hasModel: the MCP server lists them
// to a client that answers sampling.
func (r *Runtime) ToolsFor(hasModel bool) []tool.Info {
	var out []tool.Info
	for _, t := range r.reg.Tools() {
		if sk := tool.SketchOf(t); !r.disabled(sk.Name) && (hasModel || sk.Core != "task") {
			out = append(out, t.Info())
		}
	}
	return out
}

// CoreTool returns the core tool that the tool called name exposes (its
// own name for a tool that is none), and false when the runtime has no
// such tool. It builds no schema, as Tools does.
func (r *Runtime) CoreTool(name string) (string, bool) {
	t, ok := r.reg.Get(name)
	if !ok {
		return "", false
	}
	sk := tool.SketchOf(t)
	if sk.Core == "" {
		return sk.Name, true
	}
	return sk.Core, true
}

// Profile returns the name of the runtime's profile.
func (r *Runtime) Profile() string { return r.profile.Name }

// Roots returns the absolute roots.
func (r *Runtime) Roots() []string { return r.fs.Roots() }

func (r *Runtime) disabled(name string) bool {
	for _, d := range r.opts.DisabledTools {
		if d == name {
			return true
		}
	}
	return false
}

// Close closes every session and releases the roots.
func (r *Runtime) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	r.mu.Unlock()
	r.sandbox.background.Wait() // its spawner uses the temporary directory
	r.mu.Lock()
	sessions := make([]*Session, 0, len(r.sessions))
	for s := range r.sessions {
		sessions = append(sessions, s)
	}
	r.mu.Unlock()
	var errs []error
	for _, s := range sessions {
		errs = append(errs, s.Close())
	}
	errs = append(errs, r.closeProbedSpawner())
	if r.sandbox.proxy != nil {
		errs = append(errs, r.sandbox.proxy.Close())
	}
	errs = append(errs, r.mcp.close(), r.fs.Close(), r.tmp.close())
	r.web.Fetcher.Close()
	return errors.Join(errs...)
}

// newWeb builds the web tools' fetcher and search backend from opts and
// the environment.
func newWeb(opts Options) (*tools.Web, error) {
	f, err := web.NewFetcher(web.FetchOptions{AllowHosts: opts.AllowHosts, UserAgent: UserAgent, TLS: opts.WebTLS})
	if err != nil {
		return nil, fmt.Errorf("allow hosts: %w", err)
	}
	s, err := web.NewSearchBackend(web.SearchConfig{Backend: opts.Search.Backend, URL: opts.Search.URL, APIKey: opts.Search.APIKey}, os.Getenv)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("web search: %w", err)
	}
	return &tools.Web{Fetcher: f, Search: s}, nil
}

// newRegistry registers the tools, turning a registration panic (a bad or
// duplicate name among the caller's tools) into an error.
func newRegistry(ts []tool.Tool) (reg *tool.Registry, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("hands: %v", r)
		}
	}()
	return tool.NewRegistry(ts...), nil
}

// Limits bound what the built-in tools do and show; see Options.Limits.
type Limits = tools.Limits

// DefaultLimits returns the limits Hands applies when Options leaves them
// zero.
func DefaultLimits() Limits { return tools.DefaultLimits() }

// Behavior are the switches where the tool specifications differ; see
// Options.Behavior.
type Behavior = tools.Behavior

// ProfileBehavior returns the switches the profile called name sets ("" is
// native).
func ProfileBehavior(name string) (Behavior, error) {
	p, err := profile.Get(name, Limits{})
	if err != nil {
		return Behavior{}, fmt.Errorf("hands: %w", err)
	}
	return p.Behavior, nil
}

// Limits returns the limits in force, defaults filled in.
func (r *Runtime) Limits() Limits { return r.limits }

// Profiles lists the names --profile accepts.
func Profiles() []string { return profile.Names() }
