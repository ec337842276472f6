// Package skill finds skills: folders holding a SKILL.md whose YAML
// frontmatter gives the skill's name, description and optional
// allowed-tools, and whose body is the instructions the model follows. It
// reads the project's .claude/skills and the user's ~/.claude/skills;
// a skill that does not parse is reported, naming the file, and left out.
package skill

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/agent"
)

// Skill is one skill.
type Skill struct {
	// Name is what the Skill tool's skill parameter names.
	Name string
	// Description says when to use it.
	Description string
	// AllowedTools are the tools the skill expects to use, as written.
	AllowedTools []string
	// Instructions are SKILL.md's body.
	Instructions string
	// Dir is the skill's folder, absolute; its other files are there.
	Dir string
	// Location is "project" or "user".
	Location string
}

// frontmatter is SKILL.md's header.
type frontmatter struct {
	Name         string `yaml:"name"`
	Description  string `yaml:"description"`
	AllowedTools any    `yaml:"allowed-tools"`
}

// validName is Claude Code's rule for a skill's name: lower-case letters,
// digits and hyphens, up to 64.
var validName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`) })

// Parse reads one SKILL.md (path names it in errors).
func Parse(path string, data []byte) (Skill, error) {
	var fm frontmatter
	body, err := agent.ReadFrontmatter(path, data, &fm)
	if err != nil {
		return Skill{}, err
	}
	if err := agent.CheckNamed(path, fm.Name, fm.Description, agent.Naming{
		Kind: "skill", Example: "pdf-forms", Valid: validName(),
		Rule: "use lower-case letters, digits and hyphens, up to 64", Describe: "say what the skill does and when to use it",
	}); err != nil {
		return Skill{}, err
	}
	s := Skill{Name: fm.Name, Description: strings.TrimSpace(fm.Description), Instructions: strings.TrimLeft(string(body), "\r\n"), Dir: filepath.Dir(path)}
	switch v := fm.AllowedTools.(type) {
	case nil:
	case string:
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				s.AllowedTools = append(s.AllowedTools, t)
			}
		}
	case []any:
		for _, t := range v {
			str, ok := t.(string)
			if !ok {
				return Skill{}, fmt.Errorf("%s: frontmatter: allowed-tools holds %v, which is not a tool name", path, t)
			}
			s.AllowedTools = append(s.AllowedTools, strings.TrimSpace(str))
		}
	default:
		return Skill{}, fmt.Errorf("%s: frontmatter: allowed-tools must be a list or a comma-separated string of tool names", path)
	}
	return s, nil
}

// Dir is a folder of skills and where it is.
type Dir struct {
	Path     string
	Location string // "project" or "user"
}

// Load reads the skills of dirs, in order; a name already found earlier
// is kept (the project's skill wins over the user's). A folder without
// SKILL.md is no skill; a SKILL.md that does not parse is left out and
// reported in problems.
func Load(dirs ...Dir) (skills []Skill, problems []error) {
	seen := map[string]bool{}
	for _, d := range dirs {
		entries, err := os.ReadDir(d.Path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			problems = append(problems, fmt.Errorf("skills: %w", err))
			continue
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			p := filepath.Join(d.Path, e.Name(), "SKILL.md")
			if fi, err := os.Stat(filepath.Join(d.Path, e.Name())); err != nil || !fi.IsDir() {
				continue
			}
			data, err := os.ReadFile(p)
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				problems = append(problems, fmt.Errorf("skill %s: %w", p, err))
				continue
			}
			s, err := Parse(p, data)
			if err != nil {
				problems = append(problems, fmt.Errorf("skill %w; it is left out", err))
				continue
			}
			s.Location = d.Location
			if abs, err := filepath.Abs(s.Dir); err == nil {
				s.Dir = abs
			}
			if seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			skills = append(skills, s)
		}
	}
	return skills, problems
}

// Describe lists skills for the Skill description, after its line
// "Available skills:", as Claude Code 2.1.7 does (measured): a line
// "- name: description" each, or a blank line when there are none.
func Describe(skills []Skill) string {
	if len(skills) == 0 {
		return "\n"
	}
	var b strings.Builder
	for _, s := range skills {
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, s.Description)
	}
	return b.String()
}
