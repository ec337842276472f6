package hands

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/permission"
	"github.com/hands-dev/hands/internal/profile"
	"github.com/hands-dev/hands/tool"
)

// PermissionRules is the "permissions" object of a Claude Code settings
// file: allow, ask and deny lists of rules such as "Bash(npm run test:*)"
// or "Edit(/src/**)", defaultMode, and additionalDirectories (extra
// roots). Options.Permissions and --config take the same keys.
type PermissionRules = permission.Block

// PermissionModes lists the modes a session can be in: default,
// acceptEdits, plan, dontAsk, bypassPermissions.
func PermissionModes() []string {
	out := make([]string, len(permission.Modes))
	for i, m := range permission.Modes {
		out[i] = string(m)
	}
	return out
}

// permissions loads the rules of opts (its own block, the settings files
// it names, the project's and the user's when asked) and returns the
// engine and the additional directories. With no rules and no mode from
// anywhere, the engine is open: a call no mode restriction stops is
// allowed, as when Hands had no permission rules, because an MCP host
// asks its user before each tool call itself; plan mode still restricts.
func permissions(opts Options, roots []string) (*permission.Engine, []string, string, error) {
	home, _ := os.UserHomeDir()
	project, _ := filepath.Abs(roots[0])
	var layers []permission.Layer
	for _, f := range opts.Settings {
		layers = append(layers, permission.Layer{Path: f, Project: project})
	}
	if !opts.Permissions.IsZero() {
		b := opts.Permissions
		layers = append(layers, permission.Layer{Path: "the permissions of --config (Options.Permissions)", Block: &b, Project: project})
	}
	if opts.ProjectSettings {
		layers = append(layers, permission.ProjectLayers(project, home)...)
	}
	merged, err := permission.Load(layers, toolAliases, project, home)
	if err != nil {
		return nil, nil, "", err
	}
	mode := merged.Mode
	if opts.PermissionMode != "" {
		if mode, err = permission.ParseMode(opts.PermissionMode); err != nil {
			return nil, nil, "", err
		}
	}
	all := append(append([]string(nil), roots...), merged.Directories...)
	for i, r := range all {
		if abs, err := filepath.Abs(r); err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				abs = real
			}
			all[i] = abs
		}
	}
	e, err := permission.New(permission.Config{
		Rules: merged.Rules, Mode: mode, AllowBypass: opts.AllowBypass,
		Roots: all, Home: home, Open: merged.IsZero() && mode == "",
	})
	if err != nil {
		return nil, nil, "", err
	}
	summary := "none: no settings, so calls are not gated (plan mode still restricts)"
	if !merged.IsZero() || mode != "" {
		if mode == "" {
			mode = permission.Default
		}
		sources := strings.Join(merged.Sources, ", ")
		if sources == "" {
			sources = "options"
		}
		summary = fmt.Sprintf("mode %s; %d allow, %d ask, %d deny rules from %s", mode,
			len(merged.Rules.Allow), len(merged.Rules.Ask), len(merged.Rules.Deny), sources)
	}
	return e, merged.Directories, summary, nil
}

// Permissions describes the permission rules and mode in force, for
// `hands doctor`.
func (r *Runtime) Permissions() string { return r.permSummary }

// readDenials are the sandbox deny patterns of the Read deny rules: what
// Claude Code applies to Grep, Glob and LS on a best-effort basis, the
// sandbox hides from every tool.
func readDenials(e *permission.Engine) []string {
	var out []string
	for _, r := range e.DenyRules() {
		if p, ok := r.SandboxPattern(); ok {
			out = append(out, p)
		}
	}
	return out
}

// toolAliases maps every profile's tool names to the core tools they
// expose, so that a rule may name a tool as any profile does.
//
// The table depends on the profiles' tables alone, so it is built once,
// at the first need, and shared: callers must not change it.
var toolAliases = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	for _, name := range profile.Names() {
		p, err := profile.Get(name, Limits{})
		if err != nil {
			continue
		}
		for _, e := range p.Tools {
			if _, ok := out[e.Name]; !ok {
				out[e.Name] = e.Core
			}
		}
	}
	return out
})

// policies joins the session's permission policy and the host's own: the
// stricter decision wins (deny over ask over allow).
type policies []tool.Policy

func (ps policies) Check(ctx context.Context, info tool.Info, call tool.Call, in any) (tool.Decision, string) {
	best, why := tool.Allow, ""
	for _, p := range ps {
		d, reason := p.Check(ctx, info, call, in)
		if rank(d) > rank(best) {
			best, why = d, reason
		}
	}
	return best, why
}

func rank(d tool.Decision) int {
	switch d {
	case tool.Deny:
		return 2
	case tool.Ask:
		return 1
	}
	return 0
}

// PermissionMode returns the session's permission mode.
func (s *Session) PermissionMode() string { return string(s.perm.Mode()) }

// SetPermissionMode changes the session's permission mode;
// bypassPermissions needs Options.AllowBypass.
func (s *Session) SetPermissionMode(mode string) error {
	if err := s.perm.SetMode(permission.Mode(mode)); err != nil {
		return fmt.Errorf("hands: %w", err)
	}
	return nil
}

// askUser is how a session asks its user: Options.AskUser; without it a
// plan approval goes to Options.Ask as a yes-or-no question, and
// questions cannot be asked.
func (r *Runtime) askUser() tool.AskFunc {
	if r.opts.AskUser != nil {
		return r.opts.AskUser
	}
	yesNo := r.opts.Ask
	if yesNo == nil {
		return nil
	}
	return func(ctx context.Context, p tool.Prompt) (tool.Reply, error) {
		if len(p.Questions) > 0 {
			return tool.Reply{}, fmt.Errorf("%w: the host answers only yes-or-no questions (Options.Ask); set Options.AskUser", tool.ErrNoUser)
		}
		ok, err := yesNo(ctx, tool.Info{Name: "exit_plan_mode"}, tool.Call{}, p.Message+"\n\n"+p.Plan)
		return tool.Reply{Accepted: ok}, err
	}
}

// SetAskUser replaces how the session asks its user (plan approval,
// questions); a server sets it before the session's first call.
func (s *Session) SetAskUser(f tool.AskFunc) { s.ask = f }
