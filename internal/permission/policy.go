// Package permission decides, before a tool runs, whether the call is
// allowed, denied or needs the user's answer, with Claude Code's rules and
// modes: Tool and Tool(specifier) rules in allow, ask and deny lists
// (deny > ask > allow), then the session's mode (default, acceptEdits,
// plan, dontAsk, bypassPermissions). Settings files are read and merged as
// Claude Code merges them (Load).
//
// A rule written for a Claude Code tool covers the core tool whichever
// profile exposes it: Edit(…) applies to the native str_replace. Bash rules
// match the parsed command: every simple command of a compound command
// must be allowed, a prefix never spans an operator, wrappers (env,
// timeout, xargs, sh -c …) are looked through, and a command line whose
// commands cannot be known from the parse asks whenever a deny or ask rule
// names Bash.
//
// The package promises what the parse can see. It does not stop a program
// the rules allow from running others (an allowed `make` runs the
// Makefile); the sandbox confines what commands can write.
package permission

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/tool"
)

// Mode is a session's permission mode.
type Mode string

// The modes, as Claude Code names them.
const (
	// Default allows reads; everything else follows the rules, then asks.
	Default Mode = "default"
	// AcceptEdits also allows file edits inside the roots.
	AcceptEdits Mode = "acceptEdits"
	// Plan runs only read-only tools; writes are denied.
	Plan Mode = "plan"
	// DontAsk denies what would ask.
	DontAsk Mode = "dontAsk"
	// BypassPermissions allows everything no deny or ask rule stops.
	BypassPermissions Mode = "bypassPermissions"
)

// Modes lists the modes.
var Modes = []Mode{Default, AcceptEdits, Plan, DontAsk, BypassPermissions}

// ParseMode returns the mode called s.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown permission mode %q; choose one of default, acceptEdits, plan, dontAsk, bypassPermissions", s)
}

// Rules are the three lists of a configuration.
type Rules struct {
	Allow, Ask, Deny []Rule
}

// Config is what an Engine decides with.
type Config struct {
	Rules Rules
	// Mode is the mode a session starts in; "" is Default.
	Mode Mode
	// AllowBypass permits bypassPermissions, at the start or later.
	AllowBypass bool
	// Roots are the directories tools may touch (additional directories
	// included); output redirected elsewhere asks.
	Roots []string
	// Home is the user's home directory, for ~ in redirections.
	Home string
	// Open makes a call no rule and no mode restriction decides allowed
	// instead of asked: the behaviour when no settings exist at all.
	Open bool
}

// Engine holds parsed rules; each session gets its Policy.
type Engine struct {
	cfg Config
	// bashGuarded is true when a deny or ask rule names Bash, so that a
	// command that cannot be known asks.
	bashGuarded bool
}

// New checks cfg and returns its engine. bypassPermissions as the start
// mode is refused unless AllowBypass.
func New(cfg Config) (*Engine, error) {
	if cfg.Mode == "" {
		cfg.Mode = Default
	}
	if _, err := ParseMode(string(cfg.Mode)); err != nil {
		return nil, err
	}
	if cfg.Mode == BypassPermissions && !cfg.AllowBypass {
		return nil, fmt.Errorf("permission mode bypassPermissions runs every call without asking; it is refused unless --allow-bypass is given")
	}
	e := &Engine{cfg: cfg}
	for _, r := range append(slices.Clone(cfg.Rules.Deny), cfg.Rules.Ask...) {
		if r.covers("Bash", "bash") {
			e.bashGuarded = true
		}
	}
	return e, nil
}

// DenyRules returns the engine's deny rules.
func (e *Engine) DenyRules() []Rule { return slices.Clone(e.cfg.Rules.Deny) }

// Session returns a policy with its own mode, starting in the engine's.
// cwd returns the session's working directory; planFile is the file the
// session's plan is written to, which plan mode lets the model write.
func (e *Engine) Session(cwd func() string, planFile string) *Policy {
	return &Policy{e: e, cwd: cwd, planFile: planFile, mode: e.cfg.Mode, prev: e.cfg.Mode}
}

// Policy is one session's permissions stage (a tool.Policy). It is safe
// for concurrent use.
type Policy struct {
	e        *Engine
	cwd      func() string
	planFile string

	mu   sync.Mutex
	mode Mode
	prev Mode // the mode before plan mode
}

// Mode returns the session's mode.
func (p *Policy) Mode() Mode {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mode
}

// SetMode changes the session's mode; bypassPermissions needs AllowBypass.
func (p *Policy) SetMode(m Mode) error {
	if _, err := ParseMode(string(m)); err != nil {
		return err
	}
	if m == BypassPermissions && !p.e.cfg.AllowBypass {
		return fmt.Errorf("bypassPermissions is refused unless --allow-bypass is given")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if m == Plan && p.mode != Plan {
		p.prev = p.mode
	}
	p.mode = m
	return nil
}

// EnterPlan switches to plan mode, remembering the mode to return to.
func (p *Policy) EnterPlan() error { return p.SetMode(Plan) }

// InPlan reports whether the session is in plan mode.
func (p *Policy) InPlan() bool { return p.Mode() == Plan }

// ExitPlan leaves plan mode for the mode the session had before it, and
// returns that mode.
func (p *Policy) ExitPlan() (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode != Plan {
		return string(p.mode), fmt.Errorf("the session is not in plan mode (it is in %s mode)", p.mode)
	}
	p.mode = p.prev
	if p.mode == Plan {
		p.mode = Default
	}
	return string(p.mode), nil
}

// PlanFile returns the file plan mode lets the model write its plan to.
func (p *Policy) PlanFile() string { return p.planFile }

// PlanModeMessage is what a call refused in plan mode tells the model:
// Claude Code 2.1.7's plan-mode reminder (measured), and what to do.
const PlanModeMessage = "Plan mode is active. The user indicated that they do not want you to execute yet -- you MUST NOT make any edits (with the exception of the plan file), run any non-readonly tools (including changing configs or making commits), or otherwise make any changes to the system. Keep exploring with read-only tools, then present your plan for approval with ExitPlanMode (exit_plan_mode)."

// Check decides one call: deny rules, then ask rules, then plan mode, then
// allow rules, then the mode.
func (p *Policy) Check(_ context.Context, info tool.Info, call tool.Call, in any) (tool.Decision, string) {
	mode := p.Mode()
	if info.Core == "" && slices.Contains(coreTools, info.Name) {
		info.Core = info.Name // a core tool offered under its own name
	}
	if c, ok := in.(tool.Commander); ok && (info.Core == "bash" || info.Core == "") {
		return p.checkBash(mode, info, c, in)
	}
	e := p.e
	match := func(r *Rule) bool { return p.matches(r, info, call, in) }
	if r := first(e.cfg.Rules.Deny, match); r != nil {
		return tool.Deny, fmt.Sprintf("the deny rule %s forbids it", r)
	}
	// Plan mode refuses a change before anyone is asked about it.
	if mode == Plan && !info.ReadOnly && !p.planWrite(info, in) {
		return tool.Deny, PlanModeMessage
	}
	if r := first(e.cfg.Rules.Ask, match); r != nil {
		return p.ask(fmt.Sprintf("the ask rule %s asks before it", r))
	}
	if mode == Plan && !info.ReadOnly {
		return tool.Allow, "" // the plan file
	}
	if first(e.cfg.Rules.Allow, match) != nil {
		return tool.Allow, ""
	}
	return p.fallback(mode, info, in)
}

// planWrite reports whether a call writes only the session's plan file.
func (p *Policy) planWrite(info tool.Info, in any) bool {
	if p.planFile == "" || !slices.Contains(editTools, info.Core) {
		return false
	}
	ps, ok := in.(tool.Pather)
	if !ok {
		return false
	}
	paths := ps.Paths()
	return len(paths) == 1 && paths[0] == p.planFile
}

func (p *Policy) ask(reason string) (tool.Decision, string) {
	if p.Mode() == DontAsk {
		return tool.Deny, reason + ", and the session is in dontAsk mode"
	}
	return tool.Ask, reason
}

// fallback is the mode's decision for a call no rule decided.
func (p *Policy) fallback(mode Mode, info tool.Info, in any) (tool.Decision, string) {
	switch {
	case mode == BypassPermissions:
		return tool.Allow, ""
	case info.ReadOnly:
		return tool.Allow, ""
	case mode == AcceptEdits && slices.Contains(editTools, info.Core) && p.insideRoots(in):
		return tool.Allow, ""
	case p.e.cfg.Open && mode != DontAsk:
		return tool.Allow, ""
	case mode == DontAsk:
		return tool.Deny, fmt.Sprintf("no allow rule permits %s and the session is in dontAsk mode", info.Name)
	}
	return tool.Ask, fmt.Sprintf("no rule allows %s", info.Name)
}

func (p *Policy) insideRoots(in any) bool {
	ps, ok := in.(tool.Pather)
	if !ok {
		return false
	}
	paths := ps.Paths()
	if len(paths) == 0 {
		return false
	}
	for _, x := range paths {
		if !inside(x, p.e.cfg.Roots) {
			return false
		}
	}
	return true
}

func inside(p string, roots []string) bool {
	for _, r := range roots {
		if p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

func first(rules []Rule, match func(*Rule) bool) *Rule {
	for i := range rules {
		if match(&rules[i]) {
			return &rules[i]
		}
	}
	return nil
}

// matches reports whether rule r decides a call of a tool other than Bash.
func (p *Policy) matches(r *Rule, info tool.Info, call tool.Call, in any) bool {
	if !r.covers(info.Name, info.Core) {
		return false
	}
	switch r.Kind {
	case WholeTool:
		return true
	case Path:
		ps, ok := in.(tool.Pather)
		if !ok {
			return false
		}
		for _, x := range ps.Paths() {
			if r.matchPath(x) {
				return true
			}
		}
		return false
	case Domain:
		if d, ok := in.(interface{ Domain() string }); ok {
			// The tool's decoded input names its host (web_fetch does).
			return r.matchDomain(d.Domain())
		}
		var args struct {
			URL string `json:"url"`
		}
		if json.Unmarshal(call.Input, &args) != nil {
			return false
		}
		u, err := url.Parse(args.URL)
		return err == nil && r.matchDomain(u.Hostname())
	}
	return false
}

// checkBash decides a shell command from its parse.
func (p *Policy) checkBash(mode Mode, info tool.Info, c tool.Commander, in any) (tool.Decision, string) {
	dir := ""
	if ps, ok := in.(tool.Pather); ok && len(ps.Paths()) > 0 {
		dir = ps.Paths()[0]
	} else if p.cwd != nil {
		dir = p.cwd()
	}
	a := analyze(c.ShellCommand(), env{dir: dir, home: p.e.cfg.Home, roots: p.e.cfg.Roots})
	rules := p.e.cfg.Rules
	covers := func(r *Rule) bool { return r.covers(info.Name, "bash") }
	// Deny: any command, wrappers included, matching a deny rule.
	for i := range rules.Deny {
		r := &rules.Deny[i]
		if !covers(r) {
			continue
		}
		if r.Kind == WholeTool {
			return tool.Deny, fmt.Sprintf("the deny rule %s forbids every command", r)
		}
		for _, s := range a.cmds {
			if s.argv[0].known && r.matchCommand(s.argv, false) {
				return tool.Deny, fmt.Sprintf("the deny rule %s forbids %s", r, show(s.argv))
			}
		}
	}
	readOnly := jobs.ReadOnlyFile(a.file)
	if bg, ok := in.(interface{ Background() bool }); ok && bg.Background() {
		readOnly = false
	}
	if mode == Plan && !readOnly {
		return tool.Deny, PlanModeMessage
	}
	if len(a.unknowable) > 0 && p.e.bashGuarded {
		return p.ask(fmt.Sprintf("the commands this will run cannot be known before it runs (%s), and a deny or ask rule names Bash", a.unknowable[0]))
	}
	for i := range rules.Ask {
		r := &rules.Ask[i]
		if !covers(r) {
			continue
		}
		if r.Kind == WholeTool {
			return p.ask(fmt.Sprintf("the ask rule %s asks before every command", r))
		}
		for _, s := range a.cmds {
			if s.argv[0].known && r.matchCommand(s.argv, false) {
				return p.ask(fmt.Sprintf("the ask rule %s asks before %s", r, show(s.argv)))
			}
		}
	}
	if mode == Plan {
		return tool.Allow, "" // read-only, as checked above
	}
	if mode == BypassPermissions || p.e.cfg.Open && mode != DontAsk {
		return tool.Allow, ""
	}
	if first(rules.Allow, func(r *Rule) bool { return covers(r) && r.Kind == WholeTool }) != nil {
		return tool.Allow, ""
	}
	if len(a.risky) > 0 {
		return p.ask(a.risky[0])
	}
	if len(a.unknowable) == 0 && len(a.cmds) > 0 && p.allAllowed(a, covers) {
		return tool.Allow, ""
	}
	if mode != DontAsk && readOnly {
		// A command that only reads is a read, as Read is.
		return tool.Allow, ""
	}
	if mode == DontAsk {
		return tool.Deny, "no allow rule permits this command and the session is in dontAsk mode"
	}
	if len(a.unknowable) > 0 {
		return tool.Ask, "the commands this will run cannot be known before it runs: " + a.unknowable[0]
	}
	for _, s := range a.cmds {
		if !s.wrapper && !p.allowed(s, covers) {
			return tool.Ask, fmt.Sprintf("no rule allows %s", show(s.argv))
		}
	}
	return tool.Ask, "no rule allows this command"
}

// allAllowed reports whether every command that runs (wrappers looked
// through) matches an allow rule.
func (p *Policy) allAllowed(a *analysis, covers func(*Rule) bool) bool {
	n := 0
	for _, s := range a.cmds {
		if s.wrapper {
			continue
		}
		n++
		if !p.allowed(s, covers) {
			return false
		}
	}
	return n > 0
}

func (p *Policy) allowed(s simple, covers func(*Rule) bool) bool {
	return first(p.e.cfg.Rules.Allow, func(r *Rule) bool {
		return covers(r) && r.Kind == Command && r.matchCommand(s.argv, true)
	}) != nil
}

// show writes a command's words for a message, unknown ones as "…".
func show(argv []word) string {
	var parts []string
	for _, w := range argv {
		if !w.known {
			parts = append(parts, "…")
			continue
		}
		parts = append(parts, w.s)
	}
	return strings.Join(parts, " ")
}
