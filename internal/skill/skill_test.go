package skill

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoad: skills come from the project first, then the user; a folder
// without SKILL.md is none; bad frontmatter is reported naming the file.
func TestLoad(t *testing.T) {
	proj, user := t.TempDir(), t.TempDir()
	write := func(dir, name, content string) {
		os.MkdirAll(filepath.Join(dir, name), 0o755)
		os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte(content), 0o644)
	}
	write(proj, "pdf", "---\nname: pdf\ndescription: Project PDF.\nallowed-tools:\n  - Read\n  - Bash\n---\nDo it.\n")
	write(user, "pdf", "---\nname: pdf\ndescription: User PDF.\n---\n")
	write(user, "csv", "---\nname: csv\ndescription: CSV files.\nallowed-tools: Read, Grep\n---\nSteps.\n")
	write(user, "Bad", "---\nname: Bad Name\ndescription: x\n---\n")
	os.MkdirAll(filepath.Join(proj, "empty"), 0o755)
	skills, problems := Load(Dir{proj, "project"}, Dir{user, "user"})
	if len(skills) != 2 || skills[0].Description != "Project PDF." || strings.Join(skills[0].AllowedTools, ",") != "Read,Bash" ||
		skills[1].Name != "csv" || strings.Join(skills[1].AllowedTools, ",") != "Read,Grep" || skills[1].Location != "user" || skills[1].Instructions != "Steps.\n" {
		t.Fatalf("skills %+v", skills)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), filepath.Join(user, "Bad", "SKILL.md")+`: frontmatter: name "Bad Name" is not a valid skill name`) {
		t.Fatalf("problems %v", problems)
	}
	if got := Describe(skills); got != "- pdf: Project PDF.\n- csv: CSV files.\n" {
		t.Fatalf("describe %q", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("---\nname: pdf\ndescription: PDFs.\nallowed-tools: Read\n---\nbody"))
	f.Add([]byte("---\nallowed-tools: [1, 2]\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("/x/SKILL.md", data)
		if err == nil && (s.Name == "" || s.Description == "" || s.Dir != "/x") {
			t.Fatalf("accepted %+v", s)
		}
	})
}
