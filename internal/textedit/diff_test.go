package textedit

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

func numbered(n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "line %d\n", i)
	}
	return sb.String()
}

func TestDiffGolden(t *testing.T) {
	ten, thirty := numbered(10), numbered(30)
	tests := []struct {
		name    string
		a, b    string
		context int
	}{
		{"one-line-change", ten, strings.Replace(ten, "line 5\n", "line five\n", 1), 3},
		{"insert-at-start", ten, "line 0\n" + ten, 3},
		{"delete-at-end", ten, strings.TrimSuffix(ten, "line 10\n"), 3},
		{"add-newline-at-eof", "a\nb", "a\nb\n", 3},
		{"remove-newline-at-eof", "a\nb\n", "a\nb", 3},
		{"change-last-line-without-newline", "a\nb", "a\nc", 3},
		{"new-file", "", "a\nb\n", 3},
		{"delete-everything", "a\nb\n", "", 3},
		{"two-hunks", thirty, strings.NewReplacer("line 3\n", "line three\n", "line 25\n", "").Replace(thirty), 3},
		{"merged-hunks", thirty, strings.NewReplacer("line 3\n", "line three\n", "line 9\n", "line nine\n").Replace(thirty), 3},
		{"context-0", ten, strings.NewReplacer("line 2\n", "two\n", "line 7\n", "").Replace(ten), 0},
		{"context-1", ten, strings.Replace(ten, "line 5\n", "line 5\nline 5.5\n", 1), 1},
		{"moved-block", "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 2\n}\n", "func b() {\n\treturn 2\n}\n\nfunc a() {\n\treturn 1\n}\n", 3},
		{"crlf-shown-as-is", "a\r\nb\r\n", "a\r\nc\r\n", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Diff("dir/file.txt", tt.a, tt.b, tt.context)
			golden(t, "diff/"+tt.name+".diff", d)
			if got, err := patch(tt.a, d); err != nil || got != tt.b {
				t.Errorf("patching a with the diff: %q, %v; want %q", got, err, tt.b)
			}
		})
	}
	if d := Diff("/abs/f", "a\n", "b\n", 0); !strings.HasPrefix(d, "--- a/abs/f\n+++ b/abs/f\n") {
		t.Errorf("absolute path headers: %q", d)
	}
	if d := Diff("f", "same\n", "same\n", 3); d != "" {
		t.Errorf("Diff of equal texts = %q, want empty", d)
	}
}

// patch applies a unified diff from Diff to a, checking the hunk headers.
func patch(a, diff string) (string, error) {
	if diff == "" {
		return a, nil
	}
	al := splitLines(a)
	lines := strings.SplitAfter(diff, "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- a/") || !strings.HasPrefix(lines[1], "+++ b/") {
		return "", fmt.Errorf("bad headers")
	}
	var out []string
	next := 0 // next line of a to copy
	i := 2
	for i < len(lines) && lines[i] != "" {
		var as, ac, bs, bc int
		h := lines[i]
		if _, err := fmt.Sscanf(h, "@@ -%s +%s @@", new(string), new(string)); err != nil {
			return "", fmt.Errorf("bad hunk header %q", h)
		}
		parts := strings.Fields(h)
		parse := func(s string) (int, int) {
			start, count, ok := strings.Cut(s[1:], ",")
			n, _ := strconv.Atoi(start)
			c := 1
			if ok {
				c, _ = strconv.Atoi(count)
			}
			return n, c
		}
		as, ac = parse(parts[1])
		bs, bc = parse(parts[2])
		first := as - 1
		if ac == 0 {
			first = as
		}
		if first < next || first > len(al) {
			return "", fmt.Errorf("hunk %q out of order", h)
		}
		out = append(out, al[next:first]...)
		next = first
		if bc == 0 && bs != len(out) || bc > 0 && bs != len(out)+1 {
			return "", fmt.Errorf("hunk %q: new start %d, have %d lines", h, bs, len(out))
		}
		i++
		na, nb := 0, 0
		for ; i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@"); i++ {
			l := lines[i]
			if strings.HasPrefix(l, "\\ No newline") {
				continue
			}
			body := l[1:]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\\ No newline") {
				body = strings.TrimSuffix(body, "\n")
			}
			switch l[0] {
			case ' ':
				if next >= len(al) || al[next] != body {
					return "", fmt.Errorf("context %q does not match", body)
				}
				out = append(out, body)
				next++
				na++
				nb++
			case '-':
				if next >= len(al) || al[next] != body {
					return "", fmt.Errorf("deleted %q does not match", body)
				}
				next++
				na++
			case '+':
				out = append(out, body)
				nb++
			default:
				return "", fmt.Errorf("bad line %q", l)
			}
		}
		if na != ac || nb != bc {
			return "", fmt.Errorf("hunk %q has %d/%d lines", h, na, nb)
		}
	}
	out = append(out, al[next:]...)
	return strings.Join(out, ""), nil
}

func TestDiffPatchesRandomTexts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a\n", "b\n", "c\n", "d\n", "}\n", "\n", "x"}
	gen := func() string {
		var sb strings.Builder
		for range r.IntN(40) {
			sb.WriteString(words[r.IntN(len(words))])
		}
		return sb.String()
	}
	for i := range 3000 {
		a, b := gen(), gen()
		if r.IntN(2) == 0 { // a small change of a
			b = a
			if n := len(a); n > 0 {
				p := r.IntN(n)
				b = a[:p] + words[r.IntN(len(words))] + a[p:]
			}
		}
		ctx := r.IntN(4)
		d := Diff("f", a, b, ctx)
		got, err := patch(a, d)
		if err != nil || got != b {
			t.Fatalf("case %d: patch(%q, Diff) = %q, %v; want %q\n%s", i, a, got, err, b, d)
		}
	}
}

func TestLineOpsMyersFallback(t *testing.T) {
	// No line is unique on both sides, so the patience step finds no anchor
	// and Myers does the work.
	a := strings.Split("x y x y x y z z", " ")
	b := strings.Split("y x y x z y z", " ")
	ops := lineOps(a, b)
	var ra, rb []string
	for _, o := range ops {
		switch o.kind {
		case opEqual:
			ra = append(ra, a[o.a:o.a+o.n]...)
			rb = append(rb, b[o.b:o.b+o.n]...)
		case opDelete:
			ra = append(ra, a[o.a:o.a+o.n]...)
		case opInsert:
			rb = append(rb, b[o.b:o.b+o.n]...)
		}
	}
	if strings.Join(ra, " ") != strings.Join(a, " ") || strings.Join(rb, " ") != strings.Join(b, " ") {
		t.Fatalf("ops do not rebuild the inputs: %v", ops)
	}
	eq := 0
	for _, o := range ops {
		if o.kind == opEqual {
			eq += o.n
		}
	}
	if eq != 6 { // the longest common subsequence, y x y x y z, has 6 lines
		t.Errorf("matched %d lines, want 6: %v", eq, ops)
	}
}

func TestSummarize(t *testing.T) {
	d := Diff("f", numbered(100), "", 3)
	s := Summarize(d, 10)
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) != 11 || lines[10] != "… 93 more lines" {
		t.Errorf("Summarize = %q", s)
	}
	if s := Summarize(d, 0); s != d {
		t.Errorf("Summarize with no cap changed the diff")
	}
	if s := Summarize(d, 1000); s != d {
		t.Errorf("Summarize under the cap changed the diff")
	}
	long := "+" + strings.Repeat("é", 400) + "\n"
	s = Summarize(long, 10)
	if !strings.HasSuffix(s, "… (151 more characters)\n") || len(s) > summaryLineMax+40 {
		t.Errorf("long line: %q", s)
	}
	golden(t, "diff/summarize.txt", Summarize(Diff("f", numbered(40), strings.NewReplacer("line 3\n", "3\n", "line 30\n", "30\n").Replace(numbered(40)), 3), 12))
}

// TestDiffLargeTexts checks that two large texts differing in one line are
// diffed without splitting them into lines: it would take seconds otherwise.
func TestDiffLargeTexts(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	a := strings.Repeat("the quick brown fox jumps over the lazy dog\n", 500_000) // 22 MB
	mid := len(a) / 2
	mid = strings.IndexByte(a[mid:], '\n') + mid + 1
	b := a[:mid] + "CHANGED\n" + a[mid:]
	d := Diff("big", a, b, 2)
	want := "--- a/big\n+++ b/big\n@@ -250000,4 +250000,5 @@\n" + strings.Repeat(" the quick brown fox jumps over the lazy dog\n", 2) +
		"+CHANGED\n" + strings.Repeat(" the quick brown fox jumps over the lazy dog\n", 2)
	if d != want {
		t.Errorf("diff = %q, want %q", d, want)
	}
	if got, err := patch(a, d); err != nil || got != b {
		t.Errorf("patch failed: %v", err)
	}
}
