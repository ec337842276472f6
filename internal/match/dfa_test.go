package match

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"slices"
	"sync"
	"testing"
)

// dfaLines returns the numbers (from 1) of the lines of text that d
// matches, scanning the whole buffer, or ok false if d gave up.
func dfaLines(d *dfa, text []byte) (out []int, ok bool) {
	for pos := 0; pos < len(text); {
		at, ok := d.next(text, pos)
		if !ok {
			return nil, false
		}
		if at < 0 {
			break
		}
		start, end := lineAround(text, pos, at)
		out = append(out, bytes.Count(text[:start], []byte("\n"))+1)
		pos = end + 1
	}
	return out, true
}

// testDFA builds the DFA of pattern as Compile does, with the given
// bounds, and the regexp it stands for.
func testDFA(t testing.TB, pattern string, icase bool, maxStates, maxResets int) (*dfa, *regexp.Regexp) {
	m, err := Compile(pattern, Options{IgnoreCase: icase})
	if err != nil {
		return nil, nil
	}
	tree, err := syntax.Parse(m.re.String(), syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		t.Fatal(err)
	}
	d := newDFA(prog)
	d.maxStates, d.maxResets = maxStates, maxResets
	return d, m.re
}

// checkDFA compares d with re, line by line and over the whole buffer.
func checkDFA(t *testing.T, d *dfa, re *regexp.Regexp, pattern string, text []byte) {
	t.Helper()
	want := refLines(re, text)
	if got, ok := dfaLines(d, text); ok && !slices.Equal(got, want) {
		t.Fatalf("pattern %q on %q: DFA lines %v, regexp lines %v", pattern, text, got, want)
	}
	for n, line := range bytes.Split(text, []byte("\n")) {
		matched, ok := d.match(line)
		if ok && matched != re.Match(line) {
			t.Fatalf("pattern %q, line %d %q: DFA says %v, regexp %v", pattern, n+1, line, matched, re.Match(line))
		}
	}
}

var dfaSample = []byte("ABC12 abc12\nXYZ9\n\n  \nword wordy sword\nfoo\r\nHÉLLO héllo ＡＢＣ12\n\xff\xfeABC34\xc3\n日本語ABC99\nend ABC00")

func TestDFAAgainstRegexp(t *testing.T) {
	for _, p := range []string{`[A-Z]{3}\d{2}`, `\bword\b`, `\Bord`, `^$`, `^\s*$`, `x*`, `^foo\r$`, `\Aword`, `\d\z`, `(?i)héllo`, `[^a-z]+12`,
		`\pL+ABC`, `.{3}$`, `[\x{fffd}]`, `(a|ab)(c|bcd)`, `\w+y\b`, `^(ABC|XYZ)\d+`, `(?U)a+?b`, `[[:upper:]]{4}`, `.`, `\x00`} {
		for _, icase := range []bool{false, true} {
			d, re := testDFA(t, p, icase, maxDFAStates, maxDFAResets)
			if d == nil {
				t.Fatalf("%q does not compile", p)
			}
			checkDFA(t, d, re, p, dfaSample)
			if d.failed.Load() {
				t.Errorf("%q: the DFA gave up", p)
			}
		}
	}
}

// A DFA with tiny bounds starts again, then gives up; its answers stay
// right until then, and the Matcher falls back to the regexp.
func TestDFABounds(t *testing.T) {
	var text []byte
	x := uint32(1)
	for i := range 5000 {
		x = x*1664525 + 1013904223
		text = append(text, "ab"[x>>31])
		if i%100 == 99 {
			text = append(text, '\n')
		}
	}
	d, re := testDFA(t, `[ab]*a[ab]{8}`, false, 16, 2)
	checkDFA(t, d, re, "[ab]*a[ab]{8}", text)
	if !d.failed.Load() {
		t.Fatal("the DFA did not give up with 16 states")
	}
	if _, ok := d.next(text, 0); ok {
		t.Fatal("a DFA that gave up still answers")
	}
	m := MustCompile(`[ab]*a[ab]{8}`, Options{})
	m.dfa.failed.Store(true)
	if got, want := ourLines(m, text), refLines(re, text); !slices.Equal(got, want) {
		t.Fatalf("fallback: lines %v, want %v", got, want)
	}
}

// Goroutines share one DFA, building its states together (run with -race).
func TestDFAConcurrent(t *testing.T) {
	m := MustCompile(`[A-Z]{3}\d{2}|\bwor\w+|é\pL`, Options{})
	want := ourLines(MustCompile(m.pattern, Options{}), dfaSample)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if got := ourLines(m, dfaSample); !slices.Equal(got, want) {
					t.Errorf("lines %v, want %v", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// FuzzDFA compares the DFA with regexp on random patterns and texts, with
// the normal bounds and with bounds so small that it starts again and
// gives up.
func FuzzDFA(f *testing.F) {
	for _, p := range []string{`[A-Z]{3}\d{2}`, `\bx\b`, `^a|b$`, `(?i)straße`, `\Ax|y\z`, `[^\n]z`, `.+é`, `\B.\b`, `(a*)+$`, `[ab]*a[ab]{3}`} {
		f.Add(p, string(dfaSample), false, false)
		f.Add(p, "Kelvin \u212a STRASSE ſtraße xxy\nfoo bar\n\xe6\x97", true, true)
	}
	f.Fuzz(func(t *testing.T, pattern, text string, icase, small bool) {
		maxStates, maxResets := maxDFAStates, maxDFAResets
		if small {
			maxStates, maxResets = 3, 2
		}
		d, re := testDFA(t, pattern, icase, maxStates, maxResets)
		if d == nil {
			return
		}
		checkDFA(t, d, re, pattern, []byte(text))
	})
}
