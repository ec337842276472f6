package search

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/match"
)

func write(t *testing.T, root string, files map[string]string) {
	for name, content := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSortNewestFirst(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.txt": "x\n", "b.txt": "x\n", "c.txt": "x\n"})
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(filepath.Join(root, "a.txt"), base, base)
	os.Chtimes(filepath.Join(root, "b.txt"), base.Add(time.Hour), base.Add(time.Hour))
	os.Chtimes(filepath.Join(root, "c.txt"), base, base)
	res, err := Grep(context.Background(), Options{Paths: []string{root}, Matcher: match.MustCompile("x", match.Options{}), Mode: FilesWithMatches})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, filepath.Base(f.Path))
	}
	if strings.Join(got, ",") != "b.txt,a.txt,c.txt" {
		t.Errorf("order %v, want b.txt,a.txt,c.txt (newest first, then path)", got)
	}
	if res.Stats.FilesMatched != 3 || res.Stats.FilesSearched != 3 {
		t.Errorf("stats %+v", res.Stats)
	}
}

// TestContextAcrossChunks pins before/after context and line numbers
// where a match sits at a 64 KiB chunk boundary.
func TestContextAcrossChunks(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 1; b.Len() < 3*chunkSize; i++ {
		if i%1000 == 0 || i == 1420 || i == 1421 {
			b.WriteString("MATCH here\n")
		} else {
			b.WriteString("some filler line of text\n")
		}
	}
	write(t, root, map[string]string{"f.txt": b.String()})
	res, err := Grep(context.Background(), Options{Paths: []string{root}, Matcher: match.MustCompile("MATCH", match.Options{}), Before: 3, After: 2})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	f := res.Files[0]
	prev := 0
	for _, l := range f.Lines {
		if l.Number <= prev {
			t.Fatalf("line %d after %d", l.Number, prev)
		}
		prev = l.Number
		if lines[l.Number-1] != l.Text {
			t.Fatalf("line %d: %q, want %q", l.Number, l.Text, lines[l.Number-1])
		}
		if l.Match != strings.HasPrefix(l.Text, "MATCH") {
			t.Fatalf("line %d: Match=%v", l.Number, l.Match)
		}
	}
	// Each match brings 3 lines before and 2 after; 1420/1421 share.
	if f.Count != 2+len(lines)/1000 && f.Count < 4 {
		t.Errorf("count %d", f.Count)
	}
}

func TestCancel(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.txt": "x\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Grep(ctx, Options{Paths: []string{root}, Matcher: match.MustCompile("x", match.Options{})}); err == nil {
		t.Error("no error after cancel")
	}
}

func TestErrors(t *testing.T) {
	m := match.MustCompile("x", match.Options{})
	if _, err := Grep(context.Background(), Options{Paths: []string{t.TempDir()}, Matcher: m, Types: []string{"nosuchtype"}}); err == nil {
		t.Error("unknown type: no error")
	}
	if _, err := Grep(context.Background(), Options{Paths: []string{t.TempDir()}, Matcher: m, Globs: []string{"a{b"}}); err == nil {
		t.Error("bad glob: no error")
	}
	if _, err := Grep(context.Background(), Options{Paths: []string{filepath.Join(t.TempDir(), "nope")}, Matcher: m}); err == nil {
		t.Error("missing path: no error")
	}
	if _, err := Glob(context.Background(), GlobOptions{Paths: []string{t.TempDir()}, Pattern: "[x"}); err == nil {
		t.Error("bad glob pattern: no error")
	}
}

func goroot(b *testing.B) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command")
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

func BenchmarkGrepGOROOT(b *testing.B) {
	src := goroot(b)
	for _, c := range []struct {
		name string
		pat  string
		mode Mode
		opts match.Options
	}{
		{"literal", "func main", Content, match.Options{}},
		{"rare", "ErrBodyNotAllowed", Content, match.Options{}},
		{"icase", "func main", Content, match.Options{IgnoreCase: true}},
		{"regex", `func \w+Reader`, Content, match.Options{}},
		{"files", "func main", FilesWithMatches, match.Options{}},
		{"count", "func main", Count, match.Options{}},
	} {
		m := match.MustCompile(c.pat, c.opts)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Grep(context.Background(), Options{Paths: []string{src}, Matcher: m, Mode: c.mode}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGlobGOROOT(b *testing.B) {
	src := goroot(b)
	for _, p := range []string{"**/*.go", "**/*_test.go", "net/**/*.go"} {
		b.Run(p, func(b *testing.B) {
			for b.Loop() {
				if _, err := Glob(context.Background(), GlobOptions{Paths: []string{src}, Pattern: p}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestMaxLineBytes(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.txt": "héllo wörld\n"})
	res, err := Grep(context.Background(), Options{Paths: []string{root}, Matcher: match.MustCompile("llo", match.Options{}), MaxLineBytes: 2})
	if err != nil {
		t.Fatal(err)
	}
	l := res.Files[0].Lines[0]
	if l.Text != "h" || !l.Cut {
		t.Errorf("cut line %q (Cut=%v), want \"h\" cut before the 2-byte é", l.Text, l.Cut)
	}
}

func TestGlobTypes(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a/x.go": "", "a/b/y.go": "", "c.go": ""})
	os.Symlink(filepath.Join(root, "c.go"), filepath.Join(root, "link.go"))
	names := func(opts GlobOptions) string {
		opts.Paths = []string{root}
		res, err := Glob(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range res.Entries {
			r, _ := filepath.Rel(root, e.Path)
			out = append(out, filepath.ToSlash(r))
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	if got := names(GlobOptions{Pattern: "**/*.go"}); got != "a/b/y.go,a/x.go,c.go" {
		t.Errorf("files: %s", got)
	}
	if got := names(GlobOptions{Pattern: "**", Type: Dirs}); got != "a,a/b" {
		t.Errorf("dirs: %s", got)
	}
	if got := names(GlobOptions{Pattern: "a/**", Type: Any}); got != "a/b,a/b/y.go,a/x.go" {
		t.Errorf("any below a: %s", got)
	}
	if got := names(GlobOptions{Pattern: "*.GO", FoldCase: true}); got != "c.go" {
		t.Errorf("fold: %s", got)
	}
	if got := names(GlobOptions{Pattern: "*.go", Follow: func(string) bool { return true }}); got != "c.go,link.go" {
		t.Errorf("follow: %s", got)
	}
}
