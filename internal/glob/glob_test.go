package glob

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern string
		yes     []string
		no      []string
	}{
		{"*.go", []string{"a.go", ".go", "x.y.go"}, []string{"a/b.go", "a.gox", "go"}},
		{"**/*.go", []string{"a.go", "a/b.go", "a/b/c.go", "a/.go"}, []string{"a.gox", "a/b.go/c"}},
		{"**/*_test.go", []string{"x_test.go", "a/b/x_test.go"}, []string{"a/test.go"}},
		{"*.{ts,tsx}", []string{"a.ts", "a.tsx"}, []string{"a.t", "d/a.ts"}},
		{"{a,b{c,d}}/x", []string{"a/x", "bc/x", "bd/x"}, []string{"b/x", "abc/x"}},
		{"src/**", []string{"src/a", "src/a/b"}, []string{"src", "srcx/a", "a/src/b"}},
		{"src/**/*.go", []string{"src/a.go", "src/x/y/a.go"}, []string{"src.go", "a/src/a.go"}},
		{"**", []string{"a", "a/b", ""}, nil},
		{"**/vendor", []string{"vendor", "a/vendor"}, []string{"vendorx", "a/vendor/b"}},
		{"a/**/b", []string{"a/b", "a/x/b", "a/x/y/b"}, []string{"ab", "a/xb", "b"}},
		{"a**b", []string{"ab", "axxb"}, []string{"a/b"}},
		{"?.txt", []string{"a.txt", "é.txt"}, []string{".txt", "ab.txt", "/.txt"}},
		{"[a-c]x", []string{"ax", "cx"}, []string{"dx", "/x"}},
		{"[!a-c]x", []string{"dx"}, []string{"ax", "/x"}},
		{"[^a]", []string{"b"}, []string{"a", "/"}},
		{`\*x`, []string{"*x"}, []string{"ax"}},
		{`a\{b\}`, []string{"a{b}"}, []string{"ab"}},
		{"[]]", []string{"]"}, []string{"a"}},
		{"Makefile", []string{"Makefile"}, []string{"a/Makefile", "makefile"}},
		{"a/b/c.go", []string{"a/b/c.go"}, []string{"b/c.go"}},
		{"pre*", []string{"pre", "prefix"}, []string{"pr", "pre/x"}},
		{"pre*.go", []string{"pre.go", "prex.go"}, []string{"pre/x.go"}},
		{"*a*b*c", []string{"abc", "xaxbxc", "aabbcc"}, []string{"acb", "a/bc"}},
		{"**/a/**", []string{"a/x", "y/a/x/z"}, []string{"a", "ya/x"}},
	}
	for _, tt := range tests {
		g, err := Compile(tt.pattern)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tt.pattern, err)
		}
		re := regexp.MustCompile(g.Regexp())
		for _, p := range tt.yes {
			if !g.Match(p) {
				t.Errorf("%q should match %q", tt.pattern, p)
			}
			if !re.MatchString(p) {
				t.Errorf("regexp of %q (%s) should match %q", tt.pattern, g.Regexp(), p)
			}
		}
		for _, p := range tt.no {
			if g.Match(p) {
				t.Errorf("%q should not match %q", tt.pattern, p)
			}
			if re.MatchString(p) {
				t.Errorf("regexp of %q (%s) should not match %q", tt.pattern, g.Regexp(), p)
			}
		}
	}
}

func TestFoldCase(t *testing.T) {
	g, err := CompileOptions("*.GO", Options{FoldCase: true})
	if err != nil {
		t.Fatal(err)
	}
	if !g.Match("x.go") || g.Match("a/x.go") {
		t.Error("fold-case *.GO")
	}
}

func TestNoBraces(t *testing.T) {
	g, err := CompileOptions("{a,b}", Options{NoBraces: true})
	if err != nil {
		t.Fatal(err)
	}
	if !g.Match("{a,b}") || g.Match("a") {
		t.Error("NoBraces")
	}
}

func TestBasename(t *testing.T) {
	for p, want := range map[string]bool{"*.go": true, "{a,b}.c": true, "a/b": false, "**/x": false, "{a,b/c}": false} {
		if got := MustCompile(p).Basename(); got != want {
			t.Errorf("Basename(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, p := range []string{"[abc", "{a,b", "a}", `x\`, "[z-a]", "\xff"} {
		_, err := Compile(p)
		if err == nil {
			t.Errorf("Compile(%q) succeeded", p)
			continue
		}
		if !strings.Contains(err.Error(), "invalid glob") {
			t.Errorf("Compile(%q) error %q", p, err)
		}
	}
}

var fuzzPaths = []string{"", "a", "a.go", "a/b.go", "a/b/c", "x/a.go", ".go", "ab/cd/ef.txt", "src/x_test.go", "a/x/b", "é/ü.go", "a{b}", "[x]", "*", "a\\b"}

func FuzzCompile(f *testing.F) {
	for _, s := range []string{"*.go", "**/*.go", "{a,b}/**", "[!a-c]?x*", "a/**/b", "x{y,{z,w}}*", `\*`, "**", "*a*b", "[]a]"} {
		for _, p := range fuzzPaths {
			f.Add(s, p)
		}
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		slow := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("slow: %q %q", pattern, path)) })
		defer slow.Stop()
		g, err := Compile(pattern)
		if err != nil {
			return
		}
		got := g.Match(path)
		re := regexp.MustCompile(g.Regexp())
		if want := re.MatchString(path); got != want {
			t.Fatalf("Compile(%q).Match(%q) = %v, regexp %s says %v", pattern, path, got, g.Regexp(), want)
		}
		// doublestar agrees where the semantics coincide: no "**" (whose
		// trailing form differs), no classes, no stars in braces (doublestar
		// joins "{*,x}*" into "**"), valid UTF-8 paths without backslashes.
		if strings.Contains(pattern, "**") || strings.Contains(pattern, "[") ||
			strings.Contains(pattern, "{") && strings.Contains(pattern, "*") || strings.Contains(path, "\\") ||
			!utf8.ValidString(path) || !doublestar.ValidatePattern(pattern) {
			return
		}
		if ds, err := doublestar.Match(pattern, path); err == nil && ds != got {
			t.Fatalf("Compile(%q).Match(%q) = %v, doublestar says %v", pattern, path, got, ds)
		}
	})
}

func BenchmarkMatch(b *testing.B) {
	paths := []string{"src/net/http/server.go", "src/cmd/go/internal/load/pkg_test.go", "README.md", "a/b/c/d/e/f/g.txt"}
	for _, pat := range []string{"*.go", "**/*.go", "**/*_test.go", "*.{ts,tsx,go}", "src/**", "src/**/[a-m]*.go"} {
		g := MustCompile(pat)
		b.Run(pat, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				g.Match(paths[i&3])
			}
		})
	}
}
