// Package agent runs subagents: the Task tool's model loops. A loop asks a
// model.Chat for a turn, runs the tool calls of the turn through a caller's
// function (the host's pipeline, so roots, rules and hooks apply), and
// feeds the results back until the model answers without calling a tool or
// the turns run out. It also reads agent definitions (.claude/agents/*.md)
// and offers the Anthropic Messages API and OpenAI-compatible Chat
// Completions APIs as models. It knows nothing of the built-in tools.
package agent

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v4"
)

// Def is an agent type.
type Def struct {
	// Name is what Task's subagent_type names.
	Name string
	// Description tells the parent model when to use it.
	Description string
	// Tools lists the tools it may use, by core name (read, bash, ...) or
	// by the name a profile gives (Read, Bash, ...); nil means every
	// tool but Disallowed.
	Tools []string
	// Disallowed lists tools it may not use, like Tools.
	Disallowed []string
	// Model is the model it asks for ("" or "inherit": the caller's).
	Model string
	// Prompt is its system prompt.
	Prompt string
	// ReadOnly runs it in plan mode: nothing is changed, whatever its
	// tools.
	ReadOnly bool
	// Path is the file it was read from; "" for a built-in.
	Path string
}

// readOnlyTools are the core tools that change files, which read-only
// agents lack (Claude Code 2.1.7: "All tools except Task, ExitPlanMode,
// Edit, Write, NotebookEdit").
var changingTools = []string{"task", "exit_plan_mode", "edit", "write", "multi_edit", "notebook_edit"}

// Builtins returns the agent types every runtime has, in Claude Code
// 2.1.7's order.
func Builtins() []Def {
	return []Def{
		{Name: "Bash", Description: "Command execution specialist for running bash commands. Use this for git operations, command execution, and other terminal tasks.",
			Tools: []string{"bash"}, Prompt: bashPrompt},
		{Name: "general-purpose", Description: "General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks. When you are searching for a keyword or file and are not confident that you will find the right match in the first few tries use this agent to perform the search for you.",
			Prompt: generalPrompt},
		{Name: "Explore", Description: `Fast agent specialized for exploring codebases. Use this when you need to quickly find files by patterns (eg. "src/components/**/*.tsx"), search code for keywords (eg. "API endpoints"), or answer questions about the codebase (eg. "how do API endpoints work?"). When calling this agent, specify the desired thoroughness level: "quick" for basic searches, "medium" for moderate exploration, or "very thorough" for comprehensive analysis across multiple locations and naming conventions.`,
			Disallowed: changingTools, ReadOnly: true, Prompt: explorePrompt},
		{Name: "Plan", Description: "Software architect agent for designing implementation plans. Use this when you need to plan the implementation strategy for a task. Returns step-by-step plans, identifies critical files, and considers architectural trade-offs.",
			Disallowed: changingTools, ReadOnly: true, Prompt: planPrompt},
	}
}

const (
	bashPrompt    = "You are a command execution specialist. Run the commands the task needs with the Bash tool, check their results, and report what you ran and what came out, concisely."
	generalPrompt = "You are an agent for a coding assistant. Given the user's message, use the tools available to complete the task. Do what has been asked; nothing more, nothing less. When you complete the task, respond with a detailed writeup of what you found or did. In your final response, share the relevant absolute file paths and code snippets."
	explorePrompt = "You are a file search specialist. You explore codebases quickly with the search and read tools. This is a read-only task: you cannot and must not create, modify or delete files. Adapt your thoroughness to the level the caller asked for, and report your findings, with absolute file paths, clearly."
	planPrompt    = "You are a software architect. Explore the codebase with the read-only tools and design an implementation plan for the task: the steps, the critical files (absolute paths), dependencies and trade-offs. This is a read-only task: you cannot and must not create, modify or delete files."
)

// frontmatter is an agent file's YAML header.
type frontmatter struct {
	Name            string    `yaml:"name"`
	Description     string    `yaml:"description"`
	Tools           toolsList `yaml:"tools"`
	DisallowedTools toolsList `yaml:"disallowedTools"`
	Model           string    `yaml:"model"`
}

// toolsList is a list of tool names, written as a YAML list or as one
// comma-separated string ("Read, Grep, Glob").
type toolsList []string

// UnmarshalYAML implements yaml.Unmarshaler.
func (t *toolsList) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		for _, s := range strings.Split(n.Value, ",") {
			if s = strings.TrimSpace(s); s != "" {
				*t = append(*t, s)
			}
		}
		return nil
	case yaml.SequenceNode:
		var l []string
		if err := n.Decode(&l); err != nil {
			return err
		}
		for _, s := range l {
			if s = strings.TrimSpace(s); s != "" {
				*t = append(*t, s)
			}
		}
		return nil
	}
	return fmt.Errorf("line %d: tools must be a list or a comma-separated string of tool names", n.Line)
}

// validAgentName is what an agent's name may be: Claude Code's rule, lower
// case letters, digits and hyphens (built-ins aside).
var validAgentName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`) })

// SplitFrontmatter splits a Markdown file into its YAML frontmatter (between
// a first line "---" and the next "---") and its body. A file without
// frontmatter is an error.
func SplitFrontmatter(data []byte) (header, body []byte, err error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	if !bytes.HasPrefix(data, []byte("---\n")) {
		return nil, nil, errors.New("no frontmatter: the file must start with a line \"---\", the YAML header, and another \"---\"")
	}
	rest := data[4:]
	end := bytes.Index(rest, []byte("\n---"))
	if bytes.HasPrefix(rest, []byte("---")) {
		end = -1
		header, body = nil, rest[3:]
	} else if end < 0 {
		return nil, nil, errors.New("the frontmatter is not closed: add a line \"---\" after the YAML header")
	} else {
		header, body = rest[:end+1], rest[end+4:]
	}
	if i := bytes.IndexByte(body, '\n'); i >= 0 && strings.TrimSpace(string(body[:i])) == "" {
		body = body[i+1:]
	} else if strings.TrimSpace(string(body)) == "" {
		body = nil
	}
	return header, body, nil
}

// ParseDef parses an agent file: frontmatter with name and description
// (required), tools, disallowedTools and model; the body is the system
// prompt.
func ParseDef(path string, data []byte) (Def, error) {
	var fm frontmatter
	body, err := ReadFrontmatter(path, data, &fm)
	if err != nil {
		return Def{}, err
	}
	if err := CheckNamed(path, fm.Name, fm.Description, Naming{
		Kind: "agent", Example: "code-reviewer", Valid: validAgentName(),
		Rule: "use letters, digits, '-' and '_', up to 64", Describe: "say when the agent should be used",
	}); err != nil {
		return Def{}, err
	}
	d := Def{Name: fm.Name, Description: strings.TrimSpace(fm.Description), Model: fm.Model, Prompt: strings.TrimSpace(string(body)), Path: path}
	if fm.Model == "inherit" {
		d.Model = ""
	}
	if len(fm.Tools) > 0 && !(len(fm.Tools) == 1 && fm.Tools[0] == "*") {
		d.Tools = fm.Tools
	}
	d.Disallowed = fm.DisallowedTools
	return d, nil
}

// Load reads the agents of dirs (each a .claude/agents folder; a missing
// folder has none), later folders' agents replacing earlier ones of the
// same name, over the built-ins. A file that does not parse is left out and
// reported in problems, naming the file.
func Load(dirs ...string) (defs []Def, problems []error) {
	defs = Builtins()
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			problems = append(problems, fmt.Errorf("agents: %w", err))
			continue
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, n := range names {
			p := filepath.Join(dir, n)
			data, err := os.ReadFile(p)
			if err != nil {
				problems = append(problems, fmt.Errorf("agent %s: %w", p, err))
				continue
			}
			d, err := ParseDef(p, data)
			if err != nil {
				problems = append(problems, fmt.Errorf("agent %w; it is left out", err))
				continue
			}
			if i := indexDef(defs, d.Name); i >= 0 {
				defs[i] = d
			} else {
				defs = append(defs, d)
			}
		}
	}
	return defs, problems
}

func indexDef(defs []Def, name string) int {
	for i, d := range defs {
		if d.Name == name {
			return i
		}
	}
	return -1
}

// Find returns the agent type called name.
func Find(defs []Def, name string) (Def, bool) {
	if i := indexDef(defs, name); i >= 0 {
		return defs[i], true
	}
	return Def{}, false
}

// Names returns the names of defs.
func Names(defs []Def) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Name
	}
	return out
}

// Describe lists defs as Claude Code's Task description does, one line an
// agent: "- name: description (Tools: ...)". name maps a tool as a Def
// names it to the name the model sees ("" when the profile lacks it).
func Describe(defs []Def, name func(string) string) string {
	var b strings.Builder
	for _, d := range defs {
		fmt.Fprintf(&b, "- %s: %s (Tools: %s)\n", d.Name, d.Description, d.toolsText(name))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (d Def) toolsText(name func(string) string) string {
	mapped := func(l []string) []string {
		var out []string
		for _, t := range l {
			if n := name(t); n != "" && !contains(out, n) {
				out = append(out, n)
			}
		}
		return out
	}
	switch {
	case d.Tools == nil && len(d.Disallowed) == 0:
		return "*"
	case d.Tools == nil:
		return "All tools except " + strings.Join(mapped(d.Disallowed), ", ")
	}
	return strings.Join(mapped(d.Tools), ", ")
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// Naming is what the frontmatter of a kind of file (an agent's, a
// skill's) requires of its name and description, for CheckNamed.
type Naming struct {
	Kind, Example string         // "agent", "code-reviewer"
	Valid         *regexp.Regexp // a valid name
	Rule          string         // the rule Valid enforces, in words
	Describe      string         // what the description should say
}

// CheckNamed checks a file's frontmatter name and description; errors
// name path and say how to fix the field.
func CheckNamed(path, name, description string, n Naming) error {
	switch {
	case name == "":
		return fmt.Errorf("%s: frontmatter: name is missing; add a line such as \"name: %s\"", path, n.Example)
	case !n.Valid.MatchString(name):
		return fmt.Errorf("%s: frontmatter: name %q is not a valid %s name: %s", path, name, n.Kind, n.Rule)
	case strings.TrimSpace(description) == "":
		return fmt.Errorf("%s: frontmatter: description is missing; %s", path, n.Describe)
	}
	return nil
}

// ReadFrontmatter decodes the YAML frontmatter of a markdown file (an
// agent's or a skill's) into fm and returns the body after it; errors name
// path.
func ReadFrontmatter(path string, data []byte, fm any) ([]byte, error) {
	header, body, err := SplitFrontmatter(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := yaml.Unmarshal(header, fm); err != nil {
		return nil, fmt.Errorf("%s: frontmatter: %w", path, err)
	}
	return body, nil
}
