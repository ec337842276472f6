package ignore

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRulesMatch(t *testing.T) {
	tests := []struct {
		file  string
		path  string
		isDir bool
		want  Match
	}{
		{"*.o", "a.o", false, Ignore},
		{"*.o", "x/y/a.o", false, Ignore},
		{"*.o\n!keep.o", "keep.o", false, Include},
		{"*.o\n!keep.o", "x/keep.o", false, Include},
		{"!keep.o\n*.o", "keep.o", false, Ignore}, // last match wins
		{"/build", "build", true, Ignore},
		{"/build", "x/build", true, None}, // anchored
		{"build/", "build", false, None},  // directory only
		{"build/", "x/build", true, Ignore},
		{"doc/*.txt", "doc/a.txt", false, Ignore},
		{"doc/*.txt", "doc/x/a.txt", false, None},
		{"doc/*.txt", "x/doc/a.txt", false, None}, // inner slash anchors
		{"**/foo", "foo", false, Ignore},
		{"**/foo", "a/b/foo", true, Ignore},
		{"foo/**", "foo/a/b", false, Ignore},
		{"foo/**", "foo", true, None},
		{"a/**/b", "a/x/y/b", false, Ignore},
		{"a/**/b", "a/b", false, Ignore},
		{`\#x`, "#x", false, Ignore},
		{"#x", "#x", false, None}, // comment
		{`\!x`, "!x", false, Ignore},
		{"x  ", "x", false, Ignore},   // trailing spaces dropped
		{`x\ `, "x ", false, Ignore},  // escaped space kept
		{"x\r\n", "x", false, Ignore}, // CRLF file
		{"[abc].txt", "b.txt", false, Ignore},
		{"[!abc].txt", "b.txt", false, None},
		{"{a,b}", "a", false, None}, // no braces in git
		{"{a,b}", "{a,b}", false, Ignore},
		{"name\nname/", "name", false, Ignore},
		{"!name\nname/", "name", false, Include}, // dir-only rule skipped for a file
		{"?", "a", false, Ignore},
		{"a?c", "a/c", false, None},
		{"", "a", false, None},
	}
	for _, tt := range tests {
		r, errs := Parse([]byte(tt.file))
		if len(errs) > 0 {
			t.Fatalf("Parse(%q): %v", tt.file, errs)
		}
		if got := r.Match(tt.path, tt.isDir); got != tt.want {
			t.Errorf("Parse(%q).Match(%q, %v) = %v, want %v", tt.file, tt.path, tt.isDir, got, tt.want)
		}
	}
}

func TestOverrides(t *testing.T) {
	o, err := NewOverrides([]string{"*.go", "!*_test.go", "*.{ts,tsx}"})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]Match{
		"a.go": Include, "x/a_test.go": Ignore, "b.tsx": Include, "c.txt": Ignore,
	} {
		if got := o.Match(path, false); got != want {
			t.Errorf("Match(%q) = %v, want %v", path, got, want)
		}
	}
	if got := o.Match("dir", true); got != None {
		t.Errorf("dir: %v", got)
	}
	ex, _ := NewOverrides([]string{"!vendor"})
	if ex.Match("a.go", false) != None || ex.Match("vendor", true) != Ignore {
		t.Error("exclude-only overrides")
	}
}

func TestTypes(t *testing.T) {
	ty, err := NewTypes([]string{"go", "make"}, []string{"md"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]Match{"a.go": Include, "Makefile": Include, "a.md": Ignore, "a.c": Ignore} {
		if got := ty.Match(name, false); got != want {
			t.Errorf("Match(%q) = %v, want %v", name, got, want)
		}
	}
	if _, err := NewTypes([]string{"nope"}, nil); err == nil || !strings.Contains(err.Error(), "unknown file type") {
		t.Errorf("unknown type: %v", err)
	}
}

func TestGlobalExcludesFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	if got, want := GlobalExcludesFile(), filepath.Join(home, ".config/git/ignore"); got != want {
		t.Errorf("default: %q, want %q", got, want)
	}
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n name = x\n[core]\n\texcludesFile = \"~/my ignore\" ; comment\n"), 0o644)
	if got, want := GlobalExcludesFile(), filepath.Join(home, "my ignore"); got != want {
		t.Errorf("from .gitconfig: %q, want %q", got, want)
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	os.Remove(filepath.Join(home, ".gitconfig"))
	if got, want := GlobalExcludesFile(), filepath.Join(home, "xdg/git/ignore"); got != want {
		t.Errorf("xdg: %q, want %q", got, want)
	}
}

// writeTree creates files; a name ending in '/' is a directory.
func writeTree(t testing.TB, root string, files map[string]string) {
	for name, content := range files {
		p := filepath.Join(root, name)
		if strings.HasSuffix(name, "/") {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// walkFiles lists the files below root that the ignore rules keep, as a
// walker does: an ignored directory is not entered.
func walkFiles(t testing.TB, root string, cfg Config) []string {
	var out []string
	var visit func(dir string, n *Node)
	visit = func(dir string, n *Node) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var f Files
		for _, e := range ents {
			f |= FileFlag(e.Name())
		}
		if dir != root {
			n = n.Child(dir, f)
		}
		for _, e := range ents {
			if e.Name() == ".git" {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if n.Match(p, e.IsDir()) == Ignore {
				continue
			}
			if e.IsDir() {
				visit(p, n)
			} else {
				rel, _ := filepath.Rel(root, p)
				out = append(out, filepath.ToSlash(rel))
			}
		}
	}
	visit(root, NewRoot(root, cfg))
	slices.Sort(out)
	return out
}

var gitTree = map[string]string{
	".gitignore":          "*.log\n!keep.log\n/top.txt\nbuild/\ndocs/**/*.tmp\nnested/deep/\n*.o\n!/a/x.o\n#c\n\\#hash\nsp\\ \nfoo/**\n",
	"a/.gitignore":        "!*.txt\n/local\nsub/*.c\n!important.log\n",
	"a/b/.gitignore":      "*.txt\n!keep*.txt\n",
	"keep.log":            "",
	"x.log":               "",
	"top.txt":             "",
	"a/top.txt":           "",
	"a/local":             "",
	"a/b/local":           "",
	"a/x.o":               "",
	"a/y.o":               "",
	"a/important.log":     "",
	"a/other.log":         "",
	"a/sub/m.c":           "",
	"a/sub/deeper/m.c":    "",
	"a/b/t.txt":           "",
	"a/b/keep1.txt":       "",
	"build/out":           "",
	"src/build/out":       "",
	"src/build.go":        "",
	"docs/a.tmp":          "",
	"docs/x/y/b.tmp":      "",
	"docs/c.md":           "",
	"nested/deep/z":       "",
	"nested/deepz/z":      "",
	"#hash":               "",
	"sp ":                 "",
	"foo/in":              "",
	"foo/d/in":            "",
	".hidden/h":           "",
	"plain.go":            "",
	"excluded_by_info.go": "",
	"g.global":            "",
	"d/e/.ignore":         "*.go\n",
	"d/e/f.go":            "",
	"d/e/.gitignore":      "!f.go\n",
}

// TestGitAgreement checks the files kept by nested .gitignore files,
// .git/info/exclude and the global excludes file against git itself.
func TestGitAgreement(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	writeTree(t, home, map[string]string{"xdg/git/ignore": "*.global\n"})
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		var out bytes.Buffer
		cmd.Stdout = &out
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return out.String()
	}
	run("init", "-q")
	files := map[string]string{".git/info/exclude": "excluded_by_info.go\n"}
	for k, v := range gitTree {
		files[k] = v
	}
	writeTree(t, root, files)
	want := strings.Fields(strings.ReplaceAll(run("ls-files", "-z", "-o", "--exclude-standard"), "\x00", "\n"))
	// git has no .ignore files: compare without them.
	got := walkFiles(t, root, Config{NoIgnoreFiles: true})
	want = slices.DeleteFunc(want, func(s string) bool { return strings.Contains(s, " ") })
	got = slices.DeleteFunc(got, func(s string) bool { return strings.Contains(s, " ") })
	slices.Sort(want)
	t.Logf("git keeps %d files: %q", len(want), want)
	if !slices.Equal(got, want) {
		t.Errorf("files kept:\n ours %q\n git  %q", got, want)
	}
	// .ignore outranks .gitignore.
	got = walkFiles(t, root, Config{})
	if slices.Contains(got, "d/e/f.go") {
		t.Errorf(".ignore should win over .gitignore's re-include: %q", got)
	}
	// Outside a repository the git files do not apply.
	os.RemoveAll(filepath.Join(root, ".git"))
	got = walkFiles(t, root, Config{})
	if !slices.Contains(got, "x.log") {
		t.Errorf(".gitignore applied outside a repository")
	}
	got = walkFiles(t, root, Config{NoRequireGit: true})
	if slices.Contains(got, "x.log") {
		t.Errorf(".gitignore not applied with NoRequireGit")
	}
}

func BenchmarkRulesMatch(b *testing.B) {
	var buf bytes.Buffer
	for _, p := range []string{"*.o", "*.a", "*.so", "node_modules", "/build", "dist/", "*.log", "!keep.log", "coverage", ".DS_Store", "*.swp", "target/", "docs/**/*.tmp", "vendor", "*.pyc", "__pycache__/"} {
		buf.WriteString(p + "\n")
	}
	r, _ := Parse(buf.Bytes())
	paths := []string{"src/net/http/server.go", "node_modules", "a/b/c.pyc", "README.md"}
	for i := 0; b.Loop(); i++ {
		r.Match(paths[i&3], i&1 == 1)
	}
}
