package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseDef reads Claude Code's agent file shapes: tools as a
// comma-separated string or a YAML list, model inherit, and refuses files
// without a name, a description or frontmatter, naming the file.
func TestParseDef(t *testing.T) {
	d, err := ParseDef("r.md", []byte("---\nname: reviewer\ndescription: Reviews code.\ntools: Read, Grep\nmodel: inherit\n---\n\nYou review.\n"))
	if err != nil || d.Name != "reviewer" || strings.Join(d.Tools, "|") != "Read|Grep" || d.Model != "" || d.Prompt != "You review." {
		t.Fatalf("%+v %v", d, err)
	}
	d, err = ParseDef("l.md", []byte("---\r\nname: lister\r\ndescription: Lists.\r\ntools:\r\n  - Glob\r\n  - Read\r\nmodel: haiku\r\n---\r\nBody\r\n"))
	if err != nil || strings.Join(d.Tools, "|") != "Glob|Read" || d.Model != "haiku" || d.Prompt != "Body" {
		t.Fatalf("%+v %v", d, err)
	}
	for _, c := range []struct{ data, want string }{
		{"no header", "bad.md: no frontmatter"},
		{"---\nname: x\n", "bad.md: the frontmatter is not closed"},
		{"---\ndescription: d\n---\n", "bad.md: frontmatter: name is missing"},
		{"---\nname: x\n---\n", "bad.md: frontmatter: description is missing"},
		{"---\nname: a b\ndescription: d\n---\n", `bad.md: frontmatter: name "a b" is not a valid agent name`},
		{"---\nname: [x\n---\n", "bad.md: frontmatter: yaml"},
		{"---\nname: x\ndescription: d\ntools: {a: b}\n---\n", "bad.md: frontmatter:"},
	} {
		if _, err := ParseDef("bad.md", []byte(c.data)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.data, err, c.want)
		}
	}
}

// TestLoadOverrides: a project agent replaces a user's and a built-in of
// the same name; a bad file is reported and left out.
func TestLoadOverrides(t *testing.T) {
	user, proj := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(user, "a.md"), []byte("---\nname: helper\ndescription: user's\n---\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "a.md"), []byte("---\nname: helper\ndescription: project's\n---\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "b.md"), []byte("---\nname: Explore\ndescription: my explorer\n---\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "c.md"), []byte("oops"), 0o644)
	defs, problems := Load(user, proj, filepath.Join(proj, "missing"))
	h, _ := Find(defs, "helper")
	e, _ := Find(defs, "Explore")
	if h.Description != "project's" || e.Description != "my explorer" || e.ReadOnly || len(problems) != 1 || !strings.Contains(problems[0].Error(), filepath.Join(proj, "c.md")) {
		t.Fatalf("helper %+v, Explore %+v, problems %v", h, e, problems)
	}
}

func FuzzParseDef(f *testing.F) {
	f.Add([]byte("---\nname: reviewer\ndescription: Reviews code.\ntools: Read, Grep\n---\nbody\n"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\nname: x\ndescription: y\ntools:\n - a\n---"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseDef("f.md", data)
		if err == nil && (d.Name == "" || d.Description == "") {
			t.Fatalf("accepted an agent without name or description: %+v", d)
		}
	})
}
