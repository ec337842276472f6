package match

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestLiterals(t *testing.T) {
	tests := []struct {
		pattern string
		icase   bool
		lits    []string
		fold    bool
		exact   bool
	}{
		{"func main", false, []string{"func main"}, false, true},
		{"func main", true, []string{"func main"}, true, true},
		{`func \w+Reader`, false, []string{"Reader"}, false, false},
		{`\w+Xyz\d`, false, []string{"Xyz"}, false, false},
		{"foo|bar", false, []string{"bar", "foo"}, false, true},
		{"fo[ox]", false, []string{"foo", "fox"}, false, true},
		{"^func", false, []string{"func"}, false, false},
		{`\bword\b`, false, []string{"word"}, false, false},
		{"a+", false, []string{"a"}, false, false},
		{"(?i)kelvin", false, []string{"elvin"}, true, false}, // K folds to U+212A
		{"[Hh]ello", false, []string{"hello"}, true, false},
		{`\w+`, false, nil, false, false},
		{"a*", false, nil, false, false},
		{"colou?r", false, []string{"color", "colour"}, false, true},
		{"(foo|ba.)x", false, []string{"ba", "foo"}, false, false},
		{"日本語", false, []string{"日本語"}, false, true},
		{"(?i)é", false, nil, false, false},
	}
	for _, tt := range tests {
		m, err := Compile(tt.pattern, Options{IgnoreCase: tt.icase})
		if err != nil {
			t.Fatal(err)
		}
		lits, fold, exact := m.Literals()
		if !slices.Equal(lits, tt.lits) || (len(lits) > 0 && fold != tt.fold) || exact != tt.exact {
			t.Errorf("%q: literals %q fold=%v exact=%v, want %q fold=%v exact=%v", tt.pattern, lits, fold, exact, tt.lits, tt.fold, tt.exact)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	if _, err := Compile("a(", Options{}); err == nil || !strings.Contains(err.Error(), "invalid regular expression") {
		t.Errorf("a(: %v", err)
	}
	if _, err := Compile("a\nb", Options{}); !errors.Is(err, ErrNewline) {
		t.Errorf("newline: %v", err)
	}
	if _, err := Compile(`a\nb`, Options{Multiline: true}); err != nil {
		t.Errorf("multiline newline: %v", err)
	}
}

// refLines returns the numbers (from 1) of the lines of text that pattern
// matches, running the regexp on each line.
func refLines(re *regexp.Regexp, text []byte) []int {
	var out []int
	lines := bytes.Split(text, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if re.Match(l) {
			out = append(out, i+1)
		}
	}
	return out
}

func ourLines(m *Matcher, text []byte) []int {
	var out []int
	l := m.Lines(text)
	for {
		s, _, ok := l.Next()
		if !ok {
			return out
		}
		out = append(out, bytes.Count(text[:s], []byte("\n"))+1)
	}
}

func refRegexp(pattern string, icase bool) (*regexp.Regexp, error) {
	if icase {
		pattern = "(?i)" + pattern
	}
	return regexp.Compile(pattern)
}

var sample = []byte("package main\n\nimport \"io\"\n\nfunc main() {\n\tvar r io.Reader\n\tFUNC MAIN\n}\r\nfunc newReader() {}\nkelvin \u212Aelvin\nabcXyz1 Xyz\n日本語\n\nlast line without newline Func Main")

func TestLinesAgainstRegexp(t *testing.T) {
	for _, p := range []string{"func main", `func \w+Reader`, "main|Reader", "^func", `\}$`, "kelvin", "Xyz", `\w+Xyz\d`, "^$", "x*", "[^a]", `\s`, "日本", "o.e", `(?i)MAIN`, "main()", "zzz"} {
		for _, icase := range []bool{false, true} {
			m := MustCompile(p, Options{IgnoreCase: icase})
			ref, _ := refRegexp(p, icase)
			got, want := ourLines(m, sample), refLines(ref, sample)
			if !slices.Equal(got, want) {
				t.Errorf("%q icase=%v: lines %v, want %v", p, icase, got, want)
			}
		}
	}
}

func TestMultiline(t *testing.T) {
	m := MustCompile(`main\(\) \{.*?Reader`, Options{Multiline: true})
	got := m.FindAll(sample)
	if len(got) != 1 || !strings.HasPrefix(string(sample[got[0][0]:got[0][1]]), "main() {\n\tvar") {
		t.Errorf("FindAll = %v", got)
	}
	if m.FindAll([]byte("no match here")) != nil {
		t.Error("match without the literal")
	}
}

func TestNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	for _, p := range []string{"func main", `func \w+Reader`, "(?i)func main"} {
		m := MustCompile(p, Options{})
		n := testing.AllocsPerRun(100, func() {
			l := m.Lines(sample)
			for {
				if _, _, ok := l.Next(); !ok {
					break
				}
			}
		})
		if n != 0 {
			t.Errorf("%q: %v allocations", p, n)
		}
	}
}

func FuzzLiterals(f *testing.F) {
	for _, p := range []string{"func main", `func \w+Reader`, "foo|bar", "(?i)kelvin", "[Hh]el+o", "a(b|cd)?e", `\bx\b`, "(?i)straße", "colou?r", "x{2,3}y", "^a|b$", "[^\\n]z", "(?i)[a-c]x"} {
		f.Add(p, string(sample), false)
		f.Add(p, "Kelvin STRASSE ſtraße xxy\nfoo bar", true)
	}
	f.Fuzz(func(t *testing.T, pattern, text string, icase bool) {
		m, err := Compile(pattern, Options{IgnoreCase: icase})
		if err != nil {
			return
		}
		ref, err := refRegexp(pattern, icase)
		if err != nil {
			return
		}
		buf := []byte(text)
		lits, fold, _ := m.Literals()
		// The pre-filter is never wrong: every matching line holds a
		// literal.
		for _, n := range refLines(ref, buf) {
			line := bytes.Split(buf, []byte("\n"))[n-1]
			if len(lits) > 0 && !containsAny(line, lits, fold) {
				t.Fatalf("pattern %q matches line %q, which has none of the literals %q (fold=%v)", pattern, line, lits, fold)
			}
		}
		if got, want := ourLines(m, buf), refLines(ref, buf); !slices.Equal(got, want) {
			t.Fatalf("pattern %q icase=%v on %q: lines %v, want %v (literals %q)", pattern, icase, text, got, want, lits)
		}
	})
}

func containsAny(line []byte, lits []string, fold bool) bool {
	for _, l := range lits {
		if fold {
			if bytes.Contains(bytes.ToLower(asciiOnlyLower(line)), []byte(l)) {
				return true
			}
		} else if bytes.Contains(line, []byte(l)) {
			return true
		}
	}
	return false
}

func asciiOnlyLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = lower[c]
	}
	return out
}

// corpus returns the concatenated Go files of a few standard packages.
func corpus(b *testing.B) []byte {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command")
	}
	var buf bytes.Buffer
	for _, dir := range []string{"net/http", "runtime", "go/types"} {
		files, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "src", dir, "*.go"))
		for _, f := range files {
			data, _ := os.ReadFile(f)
			buf.Write(data)
		}
	}
	return buf.Bytes()
}

func BenchmarkLines(b *testing.B) {
	buf := corpus(b)
	for _, p := range []struct {
		pat   string
		icase bool
	}{{"func main", false}, {"ErrBodyNotAllowed", false}, {"func main", true}, {`func \w+Reader`, false}, {`\w+Xyz\d`, false}, {"Reader|Writer", false}, {`[A-Z]{3}\d`, false}} {
		m := MustCompile(p.pat, Options{IgnoreCase: p.icase})
		b.Run(fmt.Sprintf("%s/i=%v", p.pat, p.icase), func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				l := m.Lines(buf)
				for {
					if _, _, ok := l.Next(); !ok {
						break
					}
				}
			}
		})
	}
}
