package permission

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/ignore"
	"github.com/hands-dev/hands/internal/shellword"
	"mvdan.cc/sh/v3/syntax"
)

// Kind is what a rule's specifier is matched against.
type Kind int

// The kinds of rule.
const (
	// WholeTool is a rule without a specifier: every call of the tools it
	// names.
	WholeTool Kind = iota
	// Command is a Bash rule: a command, exact or a prefix.
	Command
	// Path is a Read or Edit rule: gitignore-style patterns of files.
	Path
	// Domain is a WebFetch(domain:…) rule.
	Domain
	// Opaque is a rule with a specifier for a Claude Code tool Hands does
	// not have (Task(Explore), Skill(name)): valid in Claude Code's
	// settings, so accepted, and matching no call of Hands's tools.
	Opaque
)

// Rule is one parsed permission rule, such as Bash(npm run test:*) or
// Edit(/src/**/*.go).
type Rule struct {
	// Text is the rule as written.
	Text string
	// Tool is the tool name as written: "Bash", "Edit", "mcp__github".
	Tool string
	// Specifier is the text between the parentheses; "" for none.
	Specifier string
	// Source names where the rule was written (a settings file), for
	// messages.
	Source string
	// Kind says how the specifier matches.
	Kind Kind

	// cores are the core tools the rule covers (a Claude Code name's
	// category, or the core tool a profile's name exposes); names are
	// exposed names it covers directly.
	cores []string
	names []string
	// mcpPrefix is set for mcp__server rules: every tool of that server.
	mcpPrefix string

	// words are a Command rule's words; prefix means more may follow.
	words  []pword
	prefix bool
	// base and pattern are a Path rule's directory and gitignore rules.
	base    string
	pattern *ignore.Rules
	glob    string // the pattern as given to pattern
	// domain is a Domain rule's host ("*.example.com" allowed).
	domain string
}

// Bases are the directories a path rule's anchors mean.
type Bases struct {
	// Project is what a leading "/" is relative to: the project directory
	// of the settings file.
	Project string
	// Cwd is what "./" and a bare pattern are relative to.
	Cwd string
	// Home is what "~/" is relative to.
	Home string
}

// claudeTools maps Claude Code's tool names to the core tools a rule
// written for them covers. Edit rules apply to every tool that edits files
// and Read rules to every tool that reads them (Claude Code's
// documentation: "Edit rules apply to all built-in tools that edit files",
// "Read rules … to all built-in tools that read files like Grep, Glob, and
// LS"); Write, MultiEdit and NotebookEdit rules mean the same as Edit.
//
// Built by the first rule parsed, not at every start of the binary.
var claudeTools = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"Read":            {"read", "grep", "glob", "list"},
		"Edit":            editTools,
		"Write":           editTools,
		"MultiEdit":       editTools,
		"NotebookEdit":    editTools,
		"Glob":            {"glob"},
		"Grep":            {"grep"},
		"LS":              {"list"},
		"Bash":            {"bash"},
		"BashOutput":      {"task_output"},
		"TaskOutput":      {"task_output"},
		"KillShell":       {"task_kill"},
		"KillBash":        {"task_kill"},
		"TodoWrite":       {"todo_write"},
		"EnterPlanMode":   {"enter_plan_mode"},
		"ExitPlanMode":    {"exit_plan_mode"},
		"AskUserQuestion": {"ask_user_question"},
		"WebFetch":        {"web_fetch"},
		"WebSearch":       {"web_search"},
		"Task":            {"task"},
		"Skill":           {"skill"},
		"LSP":             {"lsp"},
		"SlashCommand":    {"slash_command"},
		"Agent":           {"task"},
		"NotebookRead":    {"read"},
	}
})

// opaqueSpecifiers are the Claude Code tools whose specifiers Hands cannot
// match yet (it has no such tool, or no such argument).
var opaqueSpecifiers = []string{"Task", "Agent", "Skill", "SlashCommand", "WebSearch", "LSP"}

var editTools = []string{"write", "edit", "multi_edit", "notebook_edit"}

// readTools are the core tools whose rules are path rules of the Read
// kind; editTools those of the Edit kind.
var readTools = []string{"read", "grep", "glob", "list"}

// coreTools are the names of the core tools, valid in rules as they are.
var coreTools = []string{
	"read", "write", "edit", "multi_edit", "list", "notebook_edit", "glob", "grep",
	"bash", "task_output", "task_kill", "todo_write", "enter_plan_mode",
	"exit_plan_mode", "ask_user_question", "web_fetch", "web_search", "task", "skill", "lsp",
}

// Parse parses one rule. aliases maps the tool names of every profile to
// the core tool they expose (view → read, str_replace → edit), so that a
// rule may name a tool as any profile does; bases anchor path patterns.
func Parse(text string, aliases map[string]string, bases Bases) (Rule, error) {
	r := Rule{Text: text}
	name, spec, hasSpec, err := split(text)
	if err != nil {
		return r, err
	}
	r.Tool, r.Specifier = name, spec
	switch {
	case strings.HasPrefix(name, "mcp__"):
		rest := strings.TrimPrefix(name, "mcp__")
		if rest == "" || strings.HasPrefix(rest, "_") {
			return r, fmt.Errorf("%q names no MCP server; write mcp__server or mcp__server__tool", name)
		}
		if hasSpec {
			return r, fmt.Errorf("an MCP tool rule takes no specifier; write %s or %s__tool", name, name)
		}
		if server, tool, ok := strings.Cut(rest, "__"); ok {
			if tool == "*" {
				r.mcpPrefix = "mcp__" + server + "__"
			} else {
				r.names = []string{name}
			}
		} else {
			r.mcpPrefix = name + "__"
		}
		return r, nil
	case claudeTools()[name] != nil:
		r.cores = claudeTools()[name]
		r.names = []string{name}
	case slices.Contains(coreTools, name):
		r.cores = []string{name}
		r.names = []string{name}
	case aliases[name] != "":
		r.cores = []string{aliases[name]}
		r.names = []string{name}
	default:
		return r, fmt.Errorf("unknown tool %q; a rule names a tool as Claude Code does (Bash, Read, Edit, Write, Glob, Grep, WebFetch, …), as a Hands profile does, or mcp__server[__tool]", name)
	}
	if !hasSpec || spec == "*" {
		return r, nil
	}
	switch {
	case slices.Equal(r.cores, []string{"bash"}):
		r.Kind = Command
		var words []string
		words, r.prefix, err = parseCommand(spec)
		for _, w := range words {
			r.words = append(r.words, newPword(w))
		}
	case subset(r.cores, readTools) || subset(r.cores, editTools):
		r.Kind = Path
		r.base, r.glob, r.pattern, err = parsePath(spec, bases)
	case slices.Equal(r.cores, []string{"web_fetch"}):
		r.Kind = Domain
		d, ok := strings.CutPrefix(spec, "domain:")
		if !ok || d == "" || strings.ContainsAny(d, "/: ") {
			err = fmt.Errorf("a WebFetch specifier is domain:HOST, such as domain:example.com, not %q", spec)
		}
		r.domain = strings.ToLower(d)
	case slices.Contains(opaqueSpecifiers, name):
		r.Kind = Opaque
	default:
		err = fmt.Errorf("%s takes no specifier in Hands; write %s alone", name, name)
	}
	return r, err
}

func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return len(a) > 0
}

// split cuts "Tool(spec)" into its name and specifier.
func split(text string) (name, spec string, hasSpec bool, err error) {
	t := strings.TrimSpace(text)
	if t != text || t == "" {
		return "", "", false, fmt.Errorf("a rule is Tool or Tool(specifier), without surrounding spaces")
	}
	open := strings.IndexByte(t, '(')
	if open < 0 {
		name = t
	} else {
		if !strings.HasSuffix(t, ")") {
			return "", "", false, fmt.Errorf("the specifier is not closed: a rule is Tool(specifier), ending in \")\"")
		}
		name, spec, hasSpec = t[:open], t[open+1:len(t)-1], true
		if spec == "" {
			return "", "", false, fmt.Errorf("empty specifier: write %s alone for every call of %s", name, name)
		}
	}
	if !validTool(name) {
		return "", "", false, fmt.Errorf("%q is not a tool name (letters, digits, _ and -)", name)
	}
	return name, spec, hasSpec, nil
}

func validTool(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c == '-' || c == '*' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return !strings.Contains(s, "*") || strings.HasSuffix(s, "__*")
}

// parseCommand reads a Bash specifier: the words of one simple command, as
// the shell splits them; "cmd:*" or a last word "*" is a prefix. A "*"
// inside a word matches any text in that word; a lone "*" word elsewhere
// matches any number of words.
func parseCommand(spec string) ([]string, bool, error) {
	body, prefix := strings.CutSuffix(spec, ":*")
	if strings.Contains(body, ":*") {
		return nil, false, fmt.Errorf(`":*" is a prefix marker and may only end the specifier`)
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(body), "")
	if err != nil {
		return nil, false, fmt.Errorf("the command does not parse as shell: %v", err)
	}
	if len(f.Stmts) != 1 {
		return nil, false, fmt.Errorf("a Bash rule names one simple command; write one rule for each command instead of joining them with ; && || | or newlines")
	}
	s := f.Stmts[0]
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || s.Background || len(s.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, false, fmt.Errorf("a Bash rule names one simple command, without operators, redirections, variable assignments or control flow")
	}
	var words []string
	for _, w := range call.Args {
		v, ok := shellword.Literal(w)
		if !ok {
			return nil, false, fmt.Errorf("a Bash rule is literal text: %q holds an expansion ($, `, …) the rule cannot match", wordText(body, w))
		}
		words = append(words, v)
	}
	words[0] = commandName(words[0])
	if last := len(words) - 1; last > 0 && words[last] == "*" && !prefix {
		words, prefix = words[:last], true
	}
	if words[0] == "*" || words[0] == "" {
		return nil, false, fmt.Errorf("a Bash rule starts with a command name; write Bash alone for every command")
	}
	return words, prefix, nil
}

func wordText(src string, w *syntax.Word) string {
	a, b := int(w.Pos().Offset()), int(w.End().Offset())
	if a >= 0 && b <= len(src) && a <= b {
		return src[a:b]
	}
	return "?"
}

// commandName is the name a command word runs as: /bin/rm is rm.
func commandName(s string) string {
	if strings.Contains(s, "/") {
		if b := path.Base(s); b != "/" && b != "." {
			return b
		}
	}
	return s
}

// parsePath reads a Read or Edit specifier: a gitignore-style pattern
// anchored as Claude Code anchors it: //abs is absolute, ~/ the home
// directory, / the settings file's project, ./ or bare the working
// directory.
func parsePath(spec string, b Bases) (string, string, *ignore.Rules, error) {
	var base, pat string
	switch {
	case strings.HasPrefix(spec, "//"):
		base, pat = "/", "/"+strings.TrimLeft(spec, "/")
	case spec == "~" || strings.HasPrefix(spec, "~/"):
		if b.Home == "" {
			return "", "", nil, fmt.Errorf("%q is relative to the home directory, which is unknown", spec)
		}
		base, pat = b.Home, "/"+strings.TrimPrefix(strings.TrimPrefix(spec, "~"), "/")
	case strings.HasPrefix(spec, "/"):
		base, pat = b.Project, spec
	case strings.HasPrefix(spec, "./"):
		base, pat = b.Cwd, "/"+strings.TrimPrefix(spec, "./")
	default:
		base, pat = b.Cwd, spec
	}
	if strings.ContainsRune(pat, '\n') {
		return "", "", nil, fmt.Errorf("a path pattern is one line")
	}
	if pat == "/" {
		pat = "/**"
	}
	if base == "" {
		return "", "", nil, fmt.Errorf("%q needs a directory to be relative to, and none is known", spec)
	}
	rules, errs := ignore.Parse([]byte(pat))
	if len(errs) > 0 {
		return "", "", nil, fmt.Errorf("bad path pattern: %v", errs[0])
	}
	if rules.Len() != 1 {
		return "", "", nil, fmt.Errorf("%q is not a path pattern (a gitignore-style pattern such as ./secrets/** or /src/**/*.go)", spec)
	}
	return filepath.Clean(base), pat, rules, nil
}

// matchPath reports whether the absolute path p, or a directory holding
// it, matches the rule's pattern.
func (r *Rule) matchPath(p string) bool {
	rel, err := filepath.Rel(r.base, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	rel = filepath.ToSlash(rel)
	if rel == "." {
		return r.pattern.Match(".", true) == ignore.Ignore
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		sub := strings.Join(parts[:i+1], "/")
		if r.pattern.Match(sub, i < len(parts)-1) == ignore.Ignore {
			return true
		}
	}
	return false
}

// matchDomain reports whether host is the rule's domain, or under it for
// a "*.example.com" rule.
func (r *Rule) matchDomain(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if d, ok := strings.CutPrefix(r.domain, "*."); ok {
		return strings.HasSuffix(host, "."+d)
	}
	return host == r.domain
}

// covers reports whether the rule is about the tool named name exposing
// the core tool core ("" for a tool that is no core tool).
func (r *Rule) covers(name, core string) bool {
	if r.mcpPrefix != "" {
		return strings.HasPrefix(name, r.mcpPrefix)
	}
	return slices.Contains(r.names, name) || core != "" && slices.Contains(r.cores, core)
}

// String returns the rule as written, with where it came from.
func (r Rule) String() string {
	if r.Source == "" {
		return r.Text
	}
	return fmt.Sprintf("%s (%s)", r.Text, r.Source)
}

// SandboxPattern returns a Read deny rule as an absolute deny pattern of
// the sandbox (gitignore-style, as --deny takes), so that what the rule
// denies is hidden from every tool, searches and listings included; ok is
// false for other rules and for patterns the sandbox cannot take.
func (r Rule) SandboxPattern() (string, bool) {
	if r.Kind != Path || !slices.Contains(r.cores, "read") || strings.HasPrefix(r.glob, "!") {
		return "", false
	}
	g := strings.TrimSuffix(r.glob, "/")
	if g == "" {
		return "", false
	}
	base := strings.TrimSuffix(filepath.ToSlash(r.base), "/")
	if strings.HasPrefix(g, "/") || strings.Contains(g, "/") {
		// Anchored to the base.
		return base + "/" + strings.TrimPrefix(g, "/"), true
	}
	return base + "/**/" + g, true
}
