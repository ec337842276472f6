package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/hands-dev/hands/internal/skill"
	"github.com/hands-dev/hands/tool"
)

//go:embed skill.md
var skillDescription string

// SkillsMarker stands in a Skill description for the list of skills, which
// only the runtime knows; it fills it in.
const SkillsMarker = "@@SKILLS@@"

// SkillInput names a skill to use.
type SkillInput struct {
	Skill string `json:"skill" jsonschema:"the skill's name, e.g. \"pdf\""`
	Args  string `json:"args,omitempty" jsonschema:"optional arguments for the skill"`
}

// SkillOutput is a skill's instructions and where its files are.
type SkillOutput struct {
	Name         string   `json:"name"`
	Dir          string   `json:"dir"`
	Instructions string   `json:"instructions"`
	AllowedTools []string `json:"allowed_tools,omitempty"`
	Args         string   `json:"args,omitempty"`
}

// Skill is the skill tool: it returns a skill's instructions and folder.
func Skill() tool.Tool {
	return tool.New(tool.Spec[SkillInput]{
		Name:        "skill",
		Title:       "Use a skill",
		Description: skillDescription,
		ReadOnly:    true,
	}, func(_ context.Context, env *tool.Env, in SkillInput) (*SkillOutput, error) {
		st := stateOf(env)
		name := strings.TrimPrefix(strings.TrimSpace(in.Skill), "/")
		var names []string
		for _, s := range st.Skills {
			if s.Name == name {
				return &SkillOutput{Name: s.Name, Dir: s.Dir, Instructions: s.Instructions, AllowedTools: s.AllowedTools, Args: in.Args}, nil
			}
			names = append(names, s.Name)
		}
		if len(names) == 0 {
			return nil, toolErr(tool.InvalidInput, "unknown skill %q: no skills are installed (a skill is a folder with a SKILL.md in .claude/skills/ of the project or ~/.claude/skills/)", in.Skill).With("reason", "unknown_skill").With("skill", in.Skill)
		}
		return nil, toolErr(tool.InvalidInput, "unknown skill %q; the skills are: %s", in.Skill, strings.Join(names, ", ")).With("reason", "unknown_skill").With("skill", in.Skill)
	})
}

// Content is Claude Code 2.1.7's (measured): "Launching skill: NAME",
// then, where Claude Code adds a message of its own, the skill's folder,
// its instructions and the arguments.
func (o *SkillOutput) Content() []tool.Content {
	var b strings.Builder
	fmt.Fprintf(&b, "Base directory for this skill: %s\n\n%s", o.Dir, o.Instructions)
	if o.Args != "" {
		fmt.Fprintf(&b, "\n\nARGUMENTS: %s", o.Args)
	}
	return []tool.Content{tool.Text("Launching skill: " + o.Name), tool.Text(b.String())}
}

// Skills returns the skills of a session, for hosts.
func (s *State) SkillList() []skill.Skill { return s.Skills }
