package search

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/glob"
	"github.com/hands-dev/hands/internal/match"
)

// rgTree builds a tree exercising what ripgrep decides: ignore files of
// every kind, hidden files, binary files, CRLF, long lines, chunk
// boundaries, many languages.
func rgTree(t testing.TB) (root, home string) {
	root, home = t.TempDir(), t.TempDir()
	var big, late, long strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&big, "line %05d filler text so that lines are long enough hello %s\n", i, map[bool]string{true: "func main() {", false: "x"}[i%97 == 0])
	}
	for i := range 6000 {
		fmt.Fprintf(&late, "late %05d hello world\n", i)
	}
	lateText := late.String()
	lateText = lateText[:90000] + "\x00" + lateText[90000:]
	long.WriteString("start ")
	for range 20000 {
		long.WriteString("abcdef ")
	}
	long.WriteString("hello end\nsecond line hello\n")
	files := map[string]string{
		".git/HEAD":                   "ref: refs/heads/main\n",
		".git/info/exclude":           "excluded.go\n",
		".gitignore":                  "*.log\n!keep.log\n/build/\ntarget\n*.min.js\nsub/deep/*.txt\n",
		".ignore":                     "ignored_by_dotignore.txt\n",
		"main.go":                     "package main\n\nimport \"io\"\n\n// TODO: more\nfunc main() {\n\tvar r io.Reader\n\t_ = r\n}\n\nfunc newReader() io.Reader { return nil }\n",
		"util_test.go":                "package main\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {\n\t// FIXME hello\n}\n",
		"excluded.go":                 "func main() {}\n",
		"app.js":                      "function main() {\n  console.log('Hello');\n}\n// TODO\n",
		"app.min.js":                  "function main(){console.log('hello')}\n",
		"comp.ts":                     "export function hello(): string { return 'hello' }\n",
		"view.tsx":                    "const Hello = () => <div>hello</div>;\n",
		"script.py":                   "def main():\n    print('hello')\n\nif __name__ == '__main__':\n    main()\n",
		"lib.rs":                      "fn main() {\n    println!(\"hello\");\n}\n// TODO: Reader\n",
		"Main.java":                   "class Main { public static void main(String[] a) { System.out.println(\"hello\"); } }\n",
		"x.c":                         "int main(void) { return 0; } /* hello */\n",
		"x.cpp":                       "int main() { return 0; } // hello\n",
		"README.md":                   "# Hello\n\nSay hello.\n\nTODO: docs\n",
		"conf.json":                   "{\"hello\": 1}\n",
		"conf.yaml":                   "hello: 1\nfoo:\n  bar: 2\n",
		"run.sh":                      "#!/bin/sh\necho hello\n",
		"page.html":                   "<p>hello</p>\n",
		"style.css":                   "/* hello */ p { color: red }\n",
		"Makefile":                    "all:\n\techo hello\n",
		"crlf.txt":                    "first hello\r\nsecond\r\nthird hello\r\nfoo\r\nbar\r\n",
		"nonl.txt":                    "no newline at the end hello",
		"empty.txt":                   "",
		"unicode.txt":                 "héllo wörld\nHÉLLO\nstraße STRASSE\n日本語 hello\n",
		"multi.txt":                   "foo\nbar\nbaz\nfoo bar\nqux foo\nbar end\n",
		"binary.bin":                  "hello\x00world\nhello\n",
		"late_binary.txt":             lateText,
		"big.txt":                     big.String(),
		"long.txt":                    long.String(),
		"debug.log":                   "hello log\n",
		"keep.log":                    "hello kept log\n",
		"build/out.go":                "func main() {}\n",
		"src/build/in.go":             "func main() { // hello }\n",
		"target":                      "hello target\n",
		"ignored_by_dotignore.txt":    "hello\n",
		"x.globalignored":             "hello\n",
		".hidden.go":                  "func main() { hello }\n",
		".config/settings.yaml":       "hello: true\n",
		"sub/.gitignore":              "local.txt\n*.keep\n!important.keep\n",
		"sub/local.txt":               "hello local\n",
		"sub/a.keep":                  "hello\n",
		"sub/important.keep":          "hello important\n",
		"sub/notes.txt":               "a\nb\nhello\nc\nd\ne\nf\nhello\ng\nhello\nh\n",
		"sub/deep/x.txt":              "hello deep\n",
		"sub/deep/y.go":               "package deep\n\nfunc main() {}\n",
		"sub/deeper/more/z.py":        "print('hello')\n",
		"node/pkg/index.js":           "module.exports = function main() {}\n",
		"docs/guide.md":               "# Guide\nhello\n",
		"proto/api.proto":             "syntax = \"proto3\";\nmessage Hello {}\n",
		"db/q.sql":                    "SELECT hello FROM t;\n",
		"k/app.kt":                    "fun main() { println(\"hello\") }\n",
		"sw/app.swift":                "print(\"hello\")\n",
		"conf/c.toml":                 "hello = 1\n",
		"conf/c.xml":                  "<hello/>\n",
		"rb/a.rb":                     "puts 'hello'\n",
		"php/a.php":                   "<?php echo 'hello';\n",
		"misc/notes.txt":              "hello\n\nhello again\n",
		"misc/TODO":                   "hello\n",
		"sub/deeper/more/.hidden/h.c": "hello\n",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(home, "xdg", "git"), 0o755)
	os.WriteFile(filepath.Join(home, "xdg", "git", "ignore"), []byte("*.globalignored\n"), 0o644)
	// Distinct modification times, so that the mtime order is defined.
	i := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		i++
		tm := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
		os.Chtimes(p, tm, tm)
		return nil
	})
	return root, home
}

type rgCase struct {
	args []string // ripgrep flags, without the pattern
	pat  string
}

// ourOptions translates the ripgrep flags of a case.
func ourOptions(t *testing.T, c rgCase) (Options, RenderOptions) {
	var o Options
	var mo match.Options
	var ro RenderOptions
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		next := func() string { i++; return c.args[i] }
		switch a {
		case "-i":
			mo.IgnoreCase = true
		case "-U":
			mo.Multiline = true
		case "--multiline-dotall":
		case "-n":
			ro.LineNumbers = true
		case "-c":
			o.Mode = Count
		case "-l":
			o.Mode = FilesWithMatches
		case "-A":
			fmt.Sscan(next(), &o.After)
		case "-B":
			fmt.Sscan(next(), &o.Before)
		case "-C":
			fmt.Sscan(next(), &o.After)
			o.Before = o.After
		case "-g":
			o.Globs = append(o.Globs, next())
		case "-t":
			o.Types = append(o.Types, next())
		case "-T":
			o.TypesNot = append(o.TypesNot, next())
		case "--hidden":
			o.Hidden = true
		case "--no-ignore":
			o.NoIgnore = true
		case "--no-ignore-vcs":
			o.Ignore.NoVCS = true
		default:
			t.Fatalf("unknown flag %q", a)
		}
	}
	m, err := match.Compile(c.pat, mo)
	if err != nil {
		t.Fatal(err)
	}
	o.Matcher = m
	ro.Mode = o.Mode
	ro.Context = o.Before > 0 || o.After > 0
	return o, ro
}

func runRG(t *testing.T, dir string, env []string, args ...string) string {
	cmd := exec.Command("rg", append([]string{"--no-config", "--no-heading", "--with-filename", "--color", "never", "--sort", "path"}, args...)...)
	cmd.Dir = dir
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("rg %q: %v\n%s", args, err, errb.String())
		}
	}
	return strings.ReplaceAll(out.String(), "\n./", "\n")
}

func renderRel(t *testing.T, res *Result, root string, ro RenderOptions) string {
	files := slices.Clone(res.Files)
	// ripgrep's --sort path orders by path components.
	slices.SortFunc(files, func(a, b File) int {
		return slices.Compare(strings.Split(a.Path, "/"), strings.Split(b.Path, "/"))
	})
	ro.Path = func(p string) string {
		r, _ := filepath.Rel(root, p)
		return filepath.ToSlash(r)
	}
	var buf bytes.Buffer
	if err := Render(&buf, files, ro); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func needRG(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("ripgrep (rg) is not installed; CI installs it (apt-get install ripgrep)")
	}
}

func TestAgainstRipgrep(t *testing.T) {
	needRG(t)
	root, home := rgTree(t)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "xdg"), "PATH=" + os.Getenv("PATH")}
	cases := []rgCase{
		{[]string{"-n"}, "hello"},
		{nil, "hello"},
		{[]string{"-n"}, "func main"},
		{[]string{"-n"}, `func \w+Reader`},
		{[]string{"-n", "-i"}, "hello"},
		{[]string{"-n", "-i"}, "STRASSE"},
		{[]string{"-n"}, "TODO|FIXME"},
		{[]string{"-n"}, "^import"},
		{[]string{"-n"}, `hello$`},
		{[]string{"-n"}, `\d{3}`},
		{[]string{"-n"}, `^$`},
		{[]string{"-n"}, `[^a-z ]`},
		{[]string{"-n"}, `\bmain\b`},
		{[]string{"-n"}, `(?i)h[eé]llo`},
		{[]string{"-n"}, "日本"},
		{[]string{"-n", "-A", "2"}, "hello"},
		{[]string{"-n", "-B", "3"}, "hello"},
		{[]string{"-n", "-C", "1"}, "hello"},
		{[]string{"-n", "-C", "2"}, "func main"},
		{[]string{"-n", "-B", "2"}, "line 0400[0-9]"},
		{[]string{"-n", "-A", "3", "-B", "1"}, "foo"},
		{[]string{"-c"}, "hello"},
		{[]string{"-c"}, "x"},
		{[]string{"-c", "-i"}, "HELLO"},
		{[]string{"-l"}, "hello"},
		{[]string{"-l"}, "func main"},
		{[]string{"-n", "-g", "*.go"}, "main"},
		{[]string{"-n", "-g", "!*.md", "-g", "!*.txt"}, "hello"},
		{[]string{"-l", "-g", "sub/*.txt"}, "hello"},
		{[]string{"-l", "-g", "*.{ts,tsx}"}, "hello"},
		{[]string{"-l", "-g", "**/deeper/**"}, "hello"},
		{[]string{"-l", "-g", "*.log"}, "hello"},
		{[]string{"-l", "-t", "go"}, "main"},
		{[]string{"-l", "-t", "js", "-t", "ts"}, "hello"},
		{[]string{"-l", "-T", "md", "-T", "txt"}, "hello"},
		{[]string{"-l", "-t", "make"}, "hello"},
		{[]string{"-c", "-t", "py"}, "hello"},
		{[]string{"-l", "--hidden", "-g", "!.git"}, "hello"},
		{[]string{"-l", "--no-ignore"}, "hello"},
		{[]string{"-l", "--no-ignore-vcs"}, "hello"},
		{[]string{"-n", "-U", "--multiline-dotall"}, `foo\nbar`},
		{[]string{"-n", "-U", "--multiline-dotall"}, `bar.baz`},
		{[]string{"-c", "-U", "--multiline-dotall"}, `foo.*?bar`},
		{[]string{"-n", "-U", "--multiline-dotall"}, `o\nb|a`},
		{[]string{"-n", "-U", "--multiline-dotall", "-C", "1"}, `baz\nfoo`},
		{[]string{"-l", "-U", "--multiline-dotall"}, `main\(\) \{\n\s+var`},
	}
	for _, c := range cases {
		name := strings.Join(append(slices.Clone(c.args), c.pat), " ")
		t.Run(name, func(t *testing.T) {
			o, ro := ourOptions(t, c)
			o.Paths = []string{root}
			res, err := Grep(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			got := renderRel(t, res, root, ro)
			want := runRG(t, root, env, append(slices.Clone(c.args), "-e", c.pat, ".")...)
			want = strings.TrimPrefix(want, "./")
			if got != want {
				t.Errorf("rg %s: output differs\n%s", name, lineDiff(want, got))
			}
		})
	}
}

// lineDiff shows the lines only in want or only in got.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	n := 0
	for i := 0; i < max(len(w), len(g)) && n < 20; i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			fmt.Fprintf(&b, "line %d:\n  rg:   %q\n  ours: %q\n", i+1, a, c)
			n++
		}
	}
	return b.String()
}

// TestExplicitFile checks a file given as the path, binary or not.
func TestExplicitFile(t *testing.T) {
	needRG(t)
	root, _ := rgTree(t)
	for _, c := range []rgCase{{[]string{"-c"}, "hello"}, {[]string{"-n"}, "hello"}, {[]string{"-n"}, "func"}} {
		for _, f := range []string{"binary.bin", "main.go", "debug.log", "late_binary.txt"} {
			o, ro := ourOptions(t, c)
			o.Paths = []string{filepath.Join(root, f)}
			res, err := Grep(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			got := renderRel(t, res, root, ro)
			want := runRG(t, root, os.Environ(), append(slices.Clone(c.args), "-e", c.pat, f)...)
			if got != want {
				t.Errorf("rg %v %s %s:\n%s", c.args, c.pat, f, lineDiff(want, got))
			}
		}
	}
}

// TestGOROOT compares file sets and counts with ripgrep on Go's sources.
func TestGOROOT(t *testing.T) {
	needRG(t)
	if testing.Short() {
		t.Skip("short")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("no go command")
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	for _, c := range []rgCase{
		{[]string{"-c"}, "func main"},
		{[]string{"-c", "-i"}, "errbodynotallowed"},
		{[]string{"-c"}, `func \w+Reader`},
		{[]string{"-c", "-t", "go"}, `\w+Xyz\d`},
		{[]string{"-l", "-g", "*_test.go"}, "t.Parallel"},
	} {
		o, ro := ourOptions(t, c)
		o.Paths = []string{src}
		res, err := Grep(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		got := renderRel(t, res, src, ro)
		want := runRG(t, src, os.Environ(), append(slices.Clone(c.args), "-e", c.pat, ".")...)
		want = strings.TrimPrefix(want, "./")
		if got != want {
			t.Errorf("GOROOT rg %v %s:\n%s", c.args, c.pat, lineDiff(want, got))
		}
	}
}

func TestGlobAgainstRipgrepFiles(t *testing.T) {
	needRG(t)
	root, home := rgTree(t)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "xdg"), "PATH=" + os.Getenv("PATH")}
	for _, pat := range []string{"**/*.go", "**/*.txt", "sub/**", "*.go", "sub/*/*.txt", "**/*.{ts,tsx}", "**/more/*"} {
		res, err := Glob(context.Background(), GlobOptions{Paths: []string{root}, Pattern: pat})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range res.Entries {
			r, _ := filepath.Rel(root, e.Path)
			got = append(got, filepath.ToSlash(r))
		}
		slices.Sort(got)
		// rg --files -g matches like gitignore (a glob without '/'
		// matches at any depth), so filter its full list instead.
		all := strings.Fields(runRG(t, root, env, "--files", "."))
		var want []string
		for _, f := range all {
			f = strings.TrimPrefix(f, "./")
			if glob.MustCompile(pat).Match(f) {
				want = append(want, f)
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("glob %q:\n ours %q\n rg   %q", pat, got, want)
		}
		// Newest first.
		for i := 1; i < len(res.Entries); i++ {
			if res.Entries[i].ModTime.After(res.Entries[i-1].ModTime) {
				t.Errorf("glob %q: not sorted by mtime", pat)
			}
		}
	}
}
